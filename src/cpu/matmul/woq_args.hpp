// The weights scales and zero points of one weights-decompression execution (CPU), bound
// from the context: where each value is, and the GEMM's decompression of one batch's weights.
// An int8 matmul with quantization along K binds the same, and its src scales.
#pragma once

#include "core/ops/matmul/woq.hpp"
#include "cpu/ukernels/gemm.hpp"

namespace anydnn {
namespace cpu {
namespace matmul {

struct woq_args_t {
    using param_t = ukernels::gemm_dequant_t::param_t;
    param_t scale, zp; // ptr null: none (scale 1, zero point 0)
    const grouped_quant_t *scale_q = nullptr, *zp_q = nullptr;
    param_t src_scale; // int8 with quantization along K only
    const grouped_quant_t *src_scale_q = nullptr;

    // Not copyable: a host-scalar parameter points into the object.
    woq_args_t() = default;
    woq_args_t(const woq_args_t &) = delete;
    woq_args_t &operator=(const woq_args_t &) = delete;

    // Nothing to bind unless q.woq or q.int8_grouped.
    status_t bind(const exec_ctx_t &ctx, const matmul_quant_t &q);
    // The decompressed weight at weights position wpos (all weights dims) from its stored
    // integer value w.
    float dequant(float w, const dim_t *wpos) const;
    // The GEMM's decompression of the K x N weights at batch position wpos (K and N ignored);
    // b_off: element offset of that matrix's (0, 0) from the weights' base.
    ukernels::gemm_dequant_t for_batch(const dim_t *wpos, dim_t b_off) const;
    // Where parameter p's value for position pos (of its tensor's dims) is: -1 without it.
    static dim_t index(const param_t &p, const grouped_quant_t *q, const dim_t *pos) {
        return p.ptr ? p.off + q->index(pos) : -1;
    }
    // The value at such an index; `none` at -1.
    static float value(const param_t &p, dim_t i, float none);

private:
    float host_[3] = {1.f, 0.f, 1.f};
};

} // namespace matmul
} // namespace cpu
} // namespace anydnn
