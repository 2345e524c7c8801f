// The attributes a CPU reorder honours, and the arithmetic they define:
//   dst = (src_scale * (src - src_zp) + beta * (dst - sum_zp)) / dst_scale + dst_zp
// with per-argument masks (and groups) choosing which scale or zero point applies where.
#pragma once

#include "core/data_types.hpp"
#include "core/primitive.hpp"

namespace anydnn {
namespace cpu {
namespace reorder {

// Scales or zero points of one argument, with the shape of the array that holds them.
struct quant_arg_t {
    bool present = false;
    int mask = 0;
    int group_ndims = 0;
    dim_t groups[max_ndims] = {}; // group of each tensor dimension (1 where ungrouped)
    dnnl_data_type_t dt = dnnl_f32;
    bool host_scalar = false; // one value passed in a host-scalar memory
    int arg = 0;              // DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, ...

    bool grouped() const {
        return group_ndims > 0;
    }
    // Number of values along dimension d (1 where d is not in the mask).
    dim_t count(int d, const dim_t *dims) const {
        if (!(mask >> d & 1)) return 1;
        return (dims[d] + groups[d] - 1) / groups[d];
    }
};

struct quant_t {
    quant_arg_t src_scale, dst_scale, src_zp, dst_zp;
    bool sum = false;
    float sum_scale = 1.f;
    float sum_zp = 0.f;
    dnnl_data_type_t sum_dt = dnnl_data_type_undef; // how the old dst is read

    bool trivial() const {
        return !src_scale.present && !dst_scale.present && !src_zp.present && !dst_zp.present
               && !sum;
    }
    bool has_zero_points() const {
        return src_zp.present || dst_zp.present;
    }
    // Every mask is 0 or has only bits of `allowed`, and nothing is grouped.
    bool masks_within(int allowed) const;
};

// Reads the attributes for a reorder from `src` to `dst`; dnnl_unimplemented, with the reason,
// for anything a CPU reorder does not support.
status_t quant_init(quant_t &q, const primitive_attr_t &attr, const memory_desc_t &src,
        const memory_desc_t &dst);

// Declares the scale and zero-point memories among the pd's arguments.
status_t quant_add_args(const quant_t &q, primitive_desc_t &pd, const memory_desc_t &src);

// The values one execution reads, located from the execution context.
struct quant_data_t {
    const void *src_scale = nullptr, *dst_scale = nullptr;
    const void *src_zp = nullptr, *dst_zp = nullptr;
};
status_t quant_data(const quant_t &q, const exec_ctx_t &ctx, quant_data_t &data);

// Value `i` of a quantization array (1 for an absent scale, 0 for an absent zero point is the
// caller's business: these read present arrays only).
inline float quant_value(const quant_arg_t &a, const void *p, dim_t i) {
    return load_as_f32(a.dt, p, i);
}

// Row-major strides of a quantization array over the tensor dimensions (0 where the value does
// not change along a dimension), so that index = sum over d of (pos[d] / groups[d]) * stride[d].
void quant_strides(const quant_arg_t &a, int ndims, const dim_t *dims, dim_t *strides);

} // namespace reorder
} // namespace cpu
} // namespace anydnn
