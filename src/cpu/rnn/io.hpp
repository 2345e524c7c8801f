// Moving RNN tensors between the user's plain layouts (any strides, f32 or bf16) and the
// f32 rows the kernels work on, and the weights as GEMM operands.
#pragma once

#include <cstring>

#include "core/data_types.hpp"
#include "core/memory_desc.hpp"
#include "cpu/ukernels/gemm.hpp"

namespace anydnn {
namespace cpu {
namespace rnn {

// A plain tensor: element offset of (p0, p1, p2, p3) from its strides.
struct plain_t {
    const memory_desc_t *md = nullptr;
    char *base = nullptr;

    plain_t() = default;
    plain_t(const memory_desc_t &m, const void *p)
        : md(m.ndims ? &m : nullptr), base(static_cast<char *>(const_cast<void *>(p))) {}
    bool present() const { return md && base; }
    dim_t off(dim_t a, dim_t b, dim_t c, dim_t d = 0) const {
        const auto &s = md->blocking.strides;
        dim_t o = md->offset0 + a * s[0] + b * s[1] + c * s[2];
        return md->ndims > 3 ? o + d * s[3] : o;
    }
    dim_t last_stride() const { return md->blocking.strides[md->ndims - 1]; }

    // n consecutive elements along the last dimension from element offset o, as f32.
    void load(dim_t o, dim_t n, float *out) const {
        const dim_t s = last_stride();
        if (md->data_type == dnnl_f32 && s == 1) {
            std::memcpy(out, reinterpret_cast<const float *>(base) + o, sizeof(float) * n);
            return;
        }
        for (dim_t j = 0; j < n; ++j) out[j] = load_as_f32(md->data_type, base, o + j * s);
    }
    void store(dim_t o, dim_t n, const float *in) const {
        const dim_t s = last_stride();
        if (md->data_type == dnnl_f32 && s == 1) {
            std::memcpy(reinterpret_cast<float *>(base) + o, in, sizeof(float) * n);
            return;
        }
        for (dim_t j = 0; j < n; ++j) store_from_f32(md->data_type, base, o + j * s, in[j]);
    }
    // Adds n f32 values to the elements (f32 tensors: diff weights, bias, peephole).
    void accumulate(dim_t o, dim_t n, const float *in) const {
        const dim_t s = last_stride();
        float *p = reinterpret_cast<float *>(base) + o;
        for (dim_t j = 0; j < n; ++j) p[j * s] += in[j];
    }
};

// Weights of layer l, direction d as the matrix (input channel i) x (column j), where the
// column merges gate and output channel (5D) or is the output channel (projection).
struct wmat_t {
    const char *ptr = nullptr; // element (0, 0)
    dnnl_data_type_t dt = dnnl_f32;
    dim_t si = 0, sj = 0;
    size_t esz = 4;

    // As GEMM operand B = W[:, j0:] (K over i, N over j) or its transpose (K over j, N over i).
    ukernels::gemm_operand_t b(dim_t j0 = 0) const {
        return {ptr + j0 * sj * dim_t(esz), dt, si, sj, 0.f};
    }
    ukernels::gemm_operand_t bt(dim_t j0 = 0) const {
        return {ptr + j0 * sj * dim_t(esz), dt, sj, si, 0.f};
    }
};

inline wmat_t weights_of(const plain_t &w, dim_t l, dim_t d) {
    const auto &md = *w.md;
    const auto &s = md.blocking.strides;
    wmat_t m;
    m.dt = md.data_type;
    m.esz = data_type_size(md.data_type);
    m.si = s[2];
    m.sj = md.ndims == 5 ? s[4] : s[3];
    m.ptr = w.base + (md.offset0 + l * s[0] + d * s[1]) * dim_t(m.esz);
    return m;
}

// C[M, N] (row pitch ldc) = A * B + beta * C, with f32 row-major A (pitch lda); nthr 1
// inside the caller's own parallel region.
inline void gemm_rows(dim_t M, dim_t N, dim_t K, const float *a, dim_t lda,
        const ukernels::gemm_operand_t &b, float *c, dim_t ldc, float beta, int nthr = 0) {
    if (M == 0 || N == 0) return;
    ukernels::gemm_problem_t p;
    p.M = M;
    p.N = N;
    p.K = K;
    p.a = {a, dnnl_f32, lda, 1, 0.f};
    p.b = b;
    p.c = c;
    p.ldc = ldc;
    p.beta = beta;
    p.nthr = nthr;
    ukernels::gemm(p);
}

// dW[l, d][i, j0 + j] += sum_r P[r, i] * Q[r, j] over R rows (P pitch ldp, Q pitch ldq),
// for f32 diff weights whose i or j stride is one.
inline void accumulate_weights_grad(const plain_t &dw, dim_t l, dim_t d, dim_t j0, dim_t I,
        dim_t J, dim_t R, const float *P, dim_t ldp, const float *Q, dim_t ldq) {
    const wmat_t m = weights_of(dw, l, d);
    float *c = reinterpret_cast<float *>(const_cast<char *>(m.ptr)) + j0 * m.sj;
    ukernels::gemm_problem_t p;
    p.K = R;
    p.beta = 1.f;
    if (m.sj == 1) {
        p.M = I;
        p.N = J;
        p.a = {P, dnnl_f32, 1, ldp, 0.f};
        p.b = {Q, dnnl_f32, ldq, 1, 0.f};
        p.ldc = m.si;
    } else {
        p.M = J;
        p.N = I;
        p.a = {Q, dnnl_f32, 1, ldq, 0.f};
        p.b = {P, dnnl_f32, ldp, 1, 0.f};
        p.ldc = m.sj;
    }
    p.c = c;
    if (p.M == 0 || p.N == 0 || R == 0) return;
    ukernels::gemm(p);
}

} // namespace rnn
} // namespace cpu
} // namespace anydnn
