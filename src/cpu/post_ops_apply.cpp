// The CPU side of the post-op chain: binding its tensors for one execution and applying it to
// f32 results in place (the checks live with the chain in core/ops/post_ops.cpp).
#include "core/ops/post_ops.hpp"

#include <algorithm>

#include "core/data_types.hpp"
#include "core/ops/binary/binary_math.hpp"
#include "core/ops/eltwise/eltwise_math.hpp"
#include "cpu/tensor_run.hpp"

namespace anydnn {
namespace cpu {

namespace {

// Values are processed in chunks that fit on the stack.
constexpr dim_t chunk = 256;

// Offset of a flat operand's element 0.
dim_t flat_base(const memory_desc_t &md) {
    dim_t zeros[max_ndims] = {};
    return off_logical(md, zeros);
}

} // namespace

post_ops_chain_t::exec_args_t post_ops_chain_t::bind(const exec_ctx_t &ctx) const {
    exec_args_t a;
    a.src1.resize(entries_.size(), nullptr);
    a.src2.resize(entries_.size(), nullptr);
    for (size_t i = 0; i < entries_.size(); ++i) {
        if (entries_[i].arg1) a.src1[i] = ctx.host_ptr(entries_[i].arg1);
        if (entries_[i].arg2) a.src2[i] = ctx.host_ptr(entries_[i].arg2);
    }
    return a;
}

void post_ops_chain_t::apply(const exec_args_t &args, float *v, dim_t n, const dim_t *pos,
        int axis, const void *dst, dim_t dst_stride) const {
    float b[chunk], c[chunk];
    dim_t p[max_ndims];
    for (int d = 0; d < dst_.ndims; ++d)
        p[d] = pos[d];
    for (dim_t start = 0; start < n; start += chunk) {
        const dim_t len = std::min(chunk, n - start);
        float *x = v + start;
        p[axis] = pos[axis] + start;
        for (size_t i = 0; i < entries_.size(); ++i) {
            const entry_t &e = entries_[i];
            switch (e.kind) {
                case dnnl_sum:
                    load_f32(sum_dt_, dst, start * dst_stride, dst_stride, len, b);
                    for (dim_t k = 0; k < len; ++k)
                        x[k] += e.scale * (b[k] - e.zero_point);
                    break;
                case dnnl_eltwise:
                    for (dim_t k = 0; k < len; ++k)
                        x[k] = eltwise_fwd_scalar(e.alg, x[k], e.alpha, e.beta);
                    break;
                case dnnl_binary:
                    load_run(e.src1, args.src1[i], e.bcast1, p, axis, len, b);
                    if (e.arg2) load_run(e.src2, args.src2[i], e.bcast2, p, axis, len, c);
                    binary_apply_n(e.alg, x, b, e.arg2 ? c : nullptr, len);
                    break;
                case dnnl_prelu:
                    load_run(e.src1, args.src1[i], e.bcast1, p, axis, len, b);
                    for (dim_t k = 0; k < len; ++k)
                        x[k] = x[k] > 0.f ? x[k] : x[k] * b[k];
                    break;
                default: break;
            }
        }
    }
}

namespace {

// out[k] = operand value for dst flat element flat + k (see flat_bcast_t).
void load_flat(const memory_desc_t &md, const void *base, const flat_bcast_t &fb, dim_t flat,
        dim_t n, float *out) {
    const dim_t off0 = flat_base(md);
    for (dim_t k = 0; k < n;) {
        int step;
        const dim_t len = fb.segment(flat + k, n - k, step);
        const dim_t j = fb.index(flat + k);
        if (step == 1) {
            load_f32(md.data_type, base, off0 + j, 1, len, out + k);
        } else {
            const float s = load_as_f32(md.data_type, base, off0 + j);
            for (dim_t t = 0; t < len; ++t)
                out[k + t] = s;
        }
        k += len;
    }
}

} // namespace

void post_ops_chain_t::apply_flat(
        const exec_args_t &args, float *v, dim_t n, dim_t flat, const void *dst) const {
    float b[chunk], c[chunk];
    for (dim_t start = 0; start < n; start += chunk) {
        const dim_t len = std::min(chunk, n - start);
        float *x = v + start;
        for (size_t i = 0; i < entries_.size(); ++i) {
            const entry_t &e = entries_[i];
            switch (e.kind) {
                case dnnl_sum:
                    load_f32(sum_dt_, dst, start, 1, len, b);
                    for (dim_t k = 0; k < len; ++k)
                        x[k] += e.scale * (b[k] - e.zero_point);
                    break;
                case dnnl_eltwise:
                    for (dim_t k = 0; k < len; ++k)
                        x[k] = eltwise_fwd_scalar(e.alg, x[k], e.alpha, e.beta);
                    break;
                case dnnl_binary:
                    load_flat(e.src1, args.src1[i], e.flat1, flat + start, len, b);
                    if (e.arg2) load_flat(e.src2, args.src2[i], e.flat2, flat + start, len, c);
                    binary_apply_n(e.alg, x, b, e.arg2 ? c : nullptr, len);
                    break;
                case dnnl_prelu:
                    load_flat(e.src1, args.src1[i], e.flat1, flat + start, len, b);
                    for (dim_t k = 0; k < len; ++k)
                        x[k] = x[k] > 0.f ? x[k] : x[k] * b[k];
                    break;
                default: break;
            }
        }
    }
}

} // namespace cpu
} // namespace anydnn
