// Matmul weights decompression (weight-only quantization): floating-point src with s8/u8/s4/u4
// weights that are turned into src's precision as (w - zp) * scale before the product, the
// scales and zero points varying along any weights dimensions, grouped along K and N.
// Engine-independent: the checks and where each parameter value lives.
#pragma once

#include <map>

#include "core/ops/post_ops.hpp"
#include "core/primitive.hpp"

namespace anydnn {
namespace cpu {
namespace matmul {

// Whether src is floating point and the weights integer (the weights-decompression case).
bool is_woq(dnnl_data_type_t src_dt, dnnl_data_type_t wei_dt);

// Where the values of one quantization parameter (scales or zero points) of weights or src
// live: a dense array over the masked dimensions, the last two divided by their group sizes.
struct grouped_quant_t {
    bool present = false;
    dnnl_data_type_t dt = dnnl_f32;
    int ndims = 0;
    dim_t group[max_ndims] = {}; // 1 except along K and N
    dim_t stride[max_ndims] = {}; // 0 along the dims the parameter does not vary
    dim_t count = 1; // values in the array

    // Value index for weights position pos (ndims entries, batch dims of the weights).
    dim_t index(const dim_t *pos) const {
        dim_t i = 0;
        for (int d = 0; d < ndims; ++d)
            i += pos[d] / group[d] * stride[d];
        return i;
    }
};

// Checks one weights parameter (any mask over the weights dims; groups {Gk, Gn} need both the
// K and N bits and must divide K and N) and fills `out` from it; dims known at creation.
status_t init_wei_quant(const quant_entry_t &q, const memory_desc_t &wei, bool zero_point,
        grouped_quant_t &out);

// Checks src zero points as oneDNN takes them (mask 0, along K, or along M and K, bits of
// dimensions of size 1 ignored; groups {1, Gk} with Gk dividing K) and fills `out`.
status_t init_src_zero_points(const quant_entry_t &q, const memory_desc_t &src,
        grouped_quant_t &out);
// The same for src scales (f32, bf16 or f16; a host scalar takes mask 0): oneDNN's dynamic
// quantization of activations, one scale per row and group of K.
status_t init_src_scales(const quant_entry_t &q, const memory_desc_t &src, grouped_quant_t &out);

// Whether an int8 matmul (u8/s8 src) has quantization that varies along K: src scales along
// K (or M and K), weights scales grouped along K or per K, weights zero points other than a
// common one. Its products then sum in s32 over each run of K whose scales stay the same and
// are scaled into f32 per run (init_int8_grouped_attr).
bool is_int8_grouped(const primitive_attr_t &attr, const memory_desc_t &src,
        const memory_desc_t &wei);

// The attribute checks of such a matmul: src scales (init_src_scales), weights scales and
// zero points (init_wei_quant) with their memories added to args as 1D arrays; src zero
// points common or along K, dst scales mask 0, dst zero points; the post-op chain.
status_t init_int8_grouped_attr(const primitive_attr_t &attr, const memory_desc_t &src,
        const memory_desc_t &wei, const memory_desc_t &dst, grouped_quant_t &src_scales,
        grouped_quant_t &wei_scales, grouped_quant_t &wei_zps, post_ops_chain_t &po,
        std::map<int, memory_desc_t> &args);

// The attribute checks of a weights-decompression matmul: fpmath's apply_to_int, then weights
// scales and zero points as above (their memories added to args as 1D arrays), src scales
// mask 0, dst scales mask 0, a dst zero point for s8/u8 dst; none on other arguments.
status_t init_woq_attr(const primitive_attr_t &attr, const memory_desc_t &wei,
        const memory_desc_t &dst, grouped_quant_t &scales, grouped_quant_t &zero_points,
        post_ops_chain_t &po, std::map<int, memory_desc_t> &args);

// The quantization attributes of a CPU matmul on resolved tensors: weights decompression
// (init_woq_attr) when src is floating point and the weights integer, int8 with
// quantization along K (init_int8_grouped_attr), else init_attr with the zero points int8
// takes (src, weights, dst; only dst for s8/u8 dst from floating point).
struct matmul_quant_t {
    bool woq = false;
    bool int8_grouped = false; // src_scales, wei_scales and wei_zps applied per run of K
    grouped_quant_t wei_scales, wei_zps, src_scales;
    // src zero points along K or M and K (present only then; a common one is read as usual).
    grouped_quant_t src_zps;
    // The attribute without the parameters applied before the output stage (weights
    // decompression's; with int8_grouped also src scales).
    primitive_attr_t stage_attr;
};
status_t init_matmul_quant(const primitive_attr_t &attr, const memory_desc_t &src,
        const memory_desc_t &wei, const memory_desc_t &dst, matmul_quant_t &q,
        post_ops_chain_t &po, std::map<int, memory_desc_t> &args);

} // namespace matmul
} // namespace cpu
} // namespace anydnn
