// The --brgemm reference, in double precision, from the problem's definition (oneDNN's
// benchdnn): acc = alpha * sum_i sum_k (A_i - zp_A) * B_i + beta * C; then
// D = post-ops(acc * a_scale * b_scale[n] + bias[n]) / d_scale + zp_D.
#include <cmath>

#include "brgemm_problem.hpp"
#include "ref_math.hpp"

namespace benchdnn {

dnnl_data_type_t brgemm_cfg_t::acc_dt() const {
    return dt[1] == dnnl_u8 || dt[1] == dnnl_s8 ? dnnl_s32 : dnnl_f32;
}

int64_t brgemm_cfg_t::lda() const {
    if (runtime_ld[0]) return runtime_ld[0];
    return ld[0] ? ld[0] : bs * K;
}

int64_t brgemm_cfg_t::ldb() const {
    if (runtime_ld[1]) return runtime_ld[1];
    return ld[1] ? ld[1] : (N + 15) / 16 * 16;
}

int64_t brgemm_cfg_t::ldd() const {
    if (runtime_ld[2]) return runtime_ld[2];
    return ld[2] ? ld[2] : N;
}

bool brgemm_cfg_t::dst_is_acc() const {
    return bdt == dnnl_data_type_undef && dt[2] == acc_dt() && attr.post_ops.empty()
            && attr.scales.empty() && attr.zero_points.empty() && alpha == 1;
}

std::vector<double> brgemm_reference(
        const brgemm_cfg_t &c, const brgemm_values_t &v, std::vector<double> &mag) {
    const int64_t M = c.M, N = c.N, KB = c.bs * c.K;
    std::vector<double> out(M * N);
    mag.assign(M * N, 0);
    for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
            double acc = 0, size = 0;
            for (int64_t kb = 0; kb < KB; ++kb) {
                const double t = (v.a[m * KB + kb] - v.a_zp) * v.b[kb * N + n];
                acc += t;
                size += std::fabs(t);
            }
            acc *= c.alpha;
            size *= std::fabs(c.alpha);
            if (c.beta != 0) {
                acc += c.beta * v.c[m * N + n];
                size += std::fabs(c.beta * v.c[m * N + n]);
            }
            const double scale = v.a_scale * v.b_scales[v.b_scales.size() == 1 ? 0 : n];
            double d = acc * scale;
            size *= std::fabs(scale);
            if (!v.bias.empty()) d += v.bias[n];
            const int64_t pos[2] = {m, n};
            for (size_t i = 0; i < c.attr.post_ops.size(); ++i) {
                const post_op_t &p = c.attr.post_ops[i];
                switch (p.kind) {
                    case post_op_t::kind_t::sum:
                        d += p.scale * (v.d[m * N + n] - p.zero_point);
                        break;
                    case post_op_t::kind_t::eltwise: d = eltwise_fwd(p.alg, d, p.alpha, p.beta); break;
                    case post_op_t::kind_t::binary: {
                        const dims_t &od = v.operand_dims[i];
                        const int64_t at = (od[0] == 1 ? 0 : pos[0]) * od[1] + (od[1] == 1 ? 0 : pos[1]);
                        d = binary_op(p.alg, d, v.operands[i][at]);
                        break;
                    }
                    case post_op_t::kind_t::prelu: break; // refused before it runs
                }
                size = std::max(size, std::fabs(d));
            }
            out[m * N + n] = d / v.d_scale + v.d_zp;
            mag[m * N + n] = size / std::fabs(v.d_scale) + std::fabs(out[m * N + n]);
        }
    return out;
}

} // namespace benchdnn
