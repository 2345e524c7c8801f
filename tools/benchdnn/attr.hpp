// Primitive attributes as knobs: --attr-post-ops, --attr-scales, --attr-zero-points,
// --attr-fpmath. Parsing, the library attribute, its run-time memories, and their reference.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "dnnl_api.hpp"
#include "fill.hpp"
#include "test_mem.hpp"

namespace benchdnn {

class args_t;

struct post_op_t {
    enum class kind_t { sum, eltwise, binary, prelu } kind = kind_t::sum;
    dnnl_alg_kind_t alg = dnnl_alg_kind_undef;
    double alpha = 0, beta = 0; // eltwise
    double scale = 1; // sum
    int zero_point = 0; // sum
    dnnl_data_type_t dt = dnnl_data_type_undef; // sum: dst as; binary: src1
    std::string policy = "common"; // binary, prelu
    std::string tag; // binary src1 layout; empty: plain
    std::string unsupported; // why the tester cannot run it (depthwise, select, ...), or empty
};

// One argument's scale or zero point: "src:per_oc:0.5:f32".
struct quant_entry_t {
    std::string arg_name;
    int arg = 0;
    std::string policy = "common";
    double value = 1;
    dnnl_data_type_t dt = dnnl_data_type_undef;
    // GROUPS ("32x1"): values shared by blocks of that size along the argument's last dims.
    dims_t groups;
    std::string unsupported; // why the tester cannot run it, or empty
};

struct attr_desc_t {
    std::vector<post_op_t> post_ops;
    std::vector<quant_entry_t> scales, zero_points;
    bool has_fpmath = false;
    dnnl_fpmath_mode_t fpmath = dnnl_fpmath_mode_strict;
    bool fpmath_apply_to_int = false;
    // The knob texts as given, for the repro line.
    std::string post_ops_str, scales_str, zero_points_str, fpmath_str;

    bool is_default() const;
    // Why the tester cannot run these attributes (the first part it cannot), or empty.
    std::string unsupported() const;
    std::string repro() const; // " --attr-post-ops=..." for each non-default part
    const quant_entry_t *scale(int arg) const;
    const quant_entry_t *zero_point(int arg) const;
};

// Each parser takes one knob value (one list element) and throws std::invalid_argument.
std::vector<post_op_t> parse_post_ops(const std::string &s);
std::vector<quant_entry_t> parse_quant(const std::string &s, bool zero_points);
void parse_fpmath(const std::string &s, attr_desc_t &a);

// Dimension mask of a policy for a tensor of ndims: common / host_scalar 0, per_oc / per_dim_1
// 2, per_dim_0 1, per_dim_01 / per_ocic 3, per_dim_23 12, per_tensor all, an integer mask as
// written, ...
int policy_mask(const std::string &policy, int ndims);
// dims with every dimension outside mask set to 1.
dims_t masked_dims(const dims_t &dims, int mask);
// The dense index in a tensor of masked dims of the element a full-size position maps to.
int64_t masked_index(const dims_t &masked, const int64_t *pos);

// The attributes of one problem at run time.
class attr_bundle_t {
public:
    // dst_dims: shape of the primitive's destination (post-ops broadcast against it);
    // arg_dims: the shape of a tensor argument, for scales and zero points.
    attr_bundle_t(const attr_desc_t &a, const dims_t &dst_dims,
            std::function<dims_t(int arg)> arg_dims);
    dnnl_primitive_attr_t get() const { return attr_.get(); }
    // Adds the memories of post-op operands, scales and zero points, filled.
    void prepare(args_t &args);

    // Reference values. pos is a logical position in that argument (or dst).
    double scale(int arg, const int64_t *pos) const;
    double zero_point(int arg, const int64_t *pos) const;
    // Runs the post-op chain on d at dst position pos; prev is dst's value before execution.
    double apply_post_ops(double d, const int64_t *pos, double prev) const;
    bool has_sum() const;
    // Range for a post-op operand that keeps the chain meaningful.
    static fill_range_t operand_range(const post_op_t &po);

private:
    struct quant_data_t {
        int arg;
        int mask;
        dims_t arg_dims, dims; // dims: the mask applied to arg_dims, divided by the groups
        dims_t group; // per dimension of arg_dims: elements sharing one value (1: none)
        std::vector<double> values;
        double at(const int64_t *pos) const;
    };
    struct operand_t {
        int arg; // execution argument
        dims_t dims;
        md_h md;
        std::vector<double> values;
    };
    static double masked_value(const dims_t &dims, const std::vector<double> &v, const int64_t *pos);
    const quant_data_t *find(const std::vector<quant_data_t> &q, int arg) const;

    const attr_desc_t &desc_;
    dims_t dst_dims_;
    dnnl_data_type_t dst_dt_ = dnnl_data_type_undef; // known once prepare has seen dst
    attr_h attr_;
    std::vector<operand_t> operands_; // one per post-op (empty md for sum/eltwise)
    std::vector<quant_data_t> scales_, zero_points_;
};

} // namespace benchdnn
