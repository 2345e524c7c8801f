// The D stage of execute_postops: accumulators (plus C when add_C), times the A and B scales,
// through the sum / eltwise / binary chain, divided by the D scale, stored as D's type. Row by
// row, in chunks that live on the stack (a sum reads D's chunk before it is overwritten).
#include <algorithm>

#include "core/data_types.hpp"
#include "core/ops/binary/binary_math.hpp"
#include "core/ops/eltwise/eltwise_math.hpp"
#include "cpu/tensor_run.hpp"
#include "cpu/ukernel/brgemm_kernels.hpp"

namespace anydnn {
namespace cpu {
namespace ukernel {

namespace {

constexpr dim_t chunk = 256;

// out[k] = the binary operand's value for D element (m, n0 + k), broadcast where its
// dimension is 1.
void load_operand(const memory_desc_t &md, const void *base, dim_t m, dim_t n0, dim_t len,
        float *out) {
    const dim_t row = md.dims[0] == 1 ? 0 : m;
    const dim_t off = md.offset0 + row * md.blocking.strides[0];
    if (md.dims[1] == 1) {
        std::fill(out, out + len, load_as_f32(md.data_type, base, off));
        return;
    }
    load_f32(md.data_type, base, off + n0 * md.blocking.strides[1], md.blocking.strides[1], len,
            out);
}

} // namespace

void brgemm_apply_postops(const brgemm_conf_t &c, const void *acc, dim_t ldacc, const void *cp,
        void *d, const postops_args_t &args) {
    float v[chunk], t[chunk];
    const float a_scale = args.a_scale ? *args.a_scale : 1.f;
    const float d_inv = args.d_scale ? 1.f / *args.d_scale : 1.f;
    for (dim_t m = 0; m < c.M; ++m)
        for (dim_t n0 = 0; n0 < c.N; n0 += chunk) {
            const dim_t len = std::min(chunk, c.N - n0);
            load_f32(c.c_dt, acc, m * ldacc + n0, 1, len, v);
            if (cp) {
                load_f32(c.c_dt, cp, m * c.ldc + n0, 1, len, t);
                for (dim_t k = 0; k < len; ++k)
                    v[k] += t[k];
            }
            if (args.b_scales) {
                const bool per_n = c.b_scale_mask == 2;
                for (dim_t k = 0; k < len; ++k)
                    v[k] *= a_scale * args.b_scales[per_n ? n0 + k : 0];
            } else if (a_scale != 1.f) {
                for (dim_t k = 0; k < len; ++k)
                    v[k] *= a_scale;
            }
            int bi = 0;
            for (const post_op_t &e : c.post_ops) {
                if (e.kind == dnnl_eltwise) {
                    for (dim_t k = 0; k < len; ++k)
                        v[k] = eltwise_fwd_scalar(e.alg, v[k], e.alpha, e.beta);
                } else if (e.kind == dnnl_sum) {
                    load_f32(c.d_dt, d, m * c.ldd + n0, 1, len, t);
                    const float zp = static_cast<float>(e.sum_zero_point);
                    for (dim_t k = 0; k < len; ++k)
                        v[k] += e.sum_scale * (t[k] - zp);
                } else {
                    load_operand(e.src1_md, args.binary[bi++], m, n0, len, t);
                    binary_apply_n(e.alg, v, t, nullptr, len);
                }
            }
            if (d_inv != 1.f)
                for (dim_t k = 0; k < len; ++k)
                    v[k] *= d_inv;
            store_f32(c.d_dt, d, m * c.ldd + n0, 1, len, v);
        }
}

} // namespace ukernel
} // namespace cpu
} // namespace anydnn
