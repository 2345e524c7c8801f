// Packing for the shared f32 GEMM: A blocks as f32 rows of a fixed pitch, B as 32-column
// k-major panels; any element strides and input types, converted and zero-point shifted.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/data_types_f8.hpp"
#include "cpu/ukernels/gemm_kernels.hpp"

namespace anydnn {
namespace cpu {
namespace ukernels {
namespace detail {

namespace {

struct bf16_t {
    uint16_t v;
};
struct f16_t {
    uint16_t v;
};
struct f8_e5m2_t {
    uint8_t v;
};
struct f8_e4m3_t {
    uint8_t v;
};
template <typename T> inline float cvt(T v) {
    return static_cast<float>(v);
}
template <> inline float cvt(f8_e5m2_t v) {
    return f8_e5m2_to_f32(v.v);
}
template <> inline float cvt(f8_e4m3_t v) {
    return f8_e4m3_to_f32(v.v);
}
template <> inline float cvt(bf16_t v) {
    return bf16_to_f32(v.v);
}
template <> inline float cvt(f16_t v) {
    return f16_to_f32(v.v);
}

template <typename F> void dispatch_dt(dnnl_data_type_t dt, F f) {
    switch (dt) {
    case dnnl_bf16: f(bf16_t{}); break;
    case dnnl_f16: f(f16_t{}); break;
    case dnnl_s8: f(int8_t{}); break;
    case dnnl_u8: f(uint8_t{}); break;
    case dnnl_s32: f(int32_t{}); break;
    case dnnl_f8_e5m2: f(f8_e5m2_t{}); break;
    case dnnl_f8_e4m3: f(f8_e4m3_t{}); break;
    default: f(float{}); break;
    }
}

template <typename T>
void pack_a_t(const T *a, dim_t rs, dim_t cs, dim_t mc, dim_t kc, dim_t ldp, float zp, float *ap) {
    if (cs == 1) { // rows are contiguous: a copy (plus conversion)
        // Rows are short runs on different pages, too short for the hardware prefetcher:
        // ask for a later row while copying this one.
        constexpr dim_t ahead = 3, line = 64 / sizeof(T);
        for (dim_t i = 0; i < mc; ++i) {
            const T *src = a + i * rs;
            float *dst = ap + i * ldp;
            if (i + ahead < mc)
                for (dim_t k = 0; k < kc; k += line)
                    __builtin_prefetch(src + ahead * rs + k, 0, 3);
            if (std::is_same<T, float>::value && zp == 0.f)
                std::memcpy(dst, src, kc * sizeof(float));
            else
                for (dim_t k = 0; k < kc; ++k)
                    dst[k] = cvt(src[k]) - zp;
        }
    } else if (rs == 1) { // columns are contiguous: scatter each into the rows
        for (dim_t k = 0; k < kc; ++k) {
            const T *src = a + k * cs;
            for (dim_t i = 0; i < mc; ++i)
                ap[i * ldp + k] = cvt(src[i]) - zp;
        }
    } else {
        for (dim_t i = 0; i < mc; ++i)
            for (dim_t k = 0; k < kc; ++k)
                ap[i * ldp + k] = cvt(a[i * rs + k * cs]) - zp;
    }
}

template <typename T>
void pack_b_t(const T *b, dim_t rs, dim_t cs, dim_t kc, dim_t nc, float zp, float *bp) {
    constexpr int NR = panel_cols;
    if (cs == 1) { // rows of the panel are contiguous
        for (dim_t k = 0; k < kc; ++k) {
            const T *src = b + k * rs;
            float *dst = bp + k * NR;
            if (std::is_same<T, float>::value && zp == 0.f && nc == NR)
                std::memcpy(dst, src, NR * sizeof(float));
            else {
                for (dim_t j = 0; j < nc; ++j)
                    dst[j] = cvt(src[j]) - zp;
                for (dim_t j = nc; j < NR; ++j)
                    dst[j] = 0.f;
            }
        }
        return;
    }
    if (nc < NR)
        for (dim_t k = 0; k < kc; ++k)
            for (dim_t j = nc; j < NR; ++j)
                bp[k * NR + j] = 0.f;
    if (rs == 1) { // columns are contiguous (transposed B)
        for (dim_t j = 0; j < nc; ++j) {
            const T *src = b + j * cs;
            for (dim_t k = 0; k < kc; ++k)
                bp[k * NR + j] = cvt(src[k]) - zp;
        }
        return;
    }
    for (dim_t k = 0; k < kc; ++k)
        for (dim_t j = 0; j < nc; ++j)
            bp[k * NR + j] = cvt(b[k * rs + j * cs]) - zp;
}

} // namespace

void pack_a(
        const gemm_operand_t &a, dim_t m0, dim_t k0, dim_t mc, dim_t kc, dim_t lda_p, float *ap) {
    dispatch_dt(a.dt, [&](auto tag) {
        using T = decltype(tag);
        const T *base = static_cast<const T *>(a.ptr) + m0 * a.rs + k0 * a.cs;
        pack_a_t(base, a.rs, a.cs, mc, kc, lda_p, a.zp, ap);
    });
}

void pack_b(const gemm_operand_t &b, dim_t k0, dim_t n0, dim_t kc, dim_t nc, float *bp) {
    constexpr int NR = panel_cols;
    if (b.dq) {
        pack_b_dequant(b, k0, n0, kc, nc, bp);
        return;
    }
    if (b.dt == dnnl_f32 && b.cs == 1 && b.zp == 0.f) {
        // Row by row across all panels: long contiguous runs of the source, each asked for
        // a few rows ahead (B may be far larger than the caches and its rows far apart).
        constexpr dim_t ahead = 4;
        const float *src = static_cast<const float *>(b.ptr) + k0 * b.rs + n0;
        const dim_t full = nc / NR * NR;
        for (dim_t k = 0; k < kc; ++k) {
            const float *row = src + k * b.rs;
            if (k + ahead < kc)
                for (dim_t j = 0; j < nc; j += 16)
                    __builtin_prefetch(row + ahead * b.rs + j, 0, 3);
            for (dim_t j = 0; j < full; j += NR)
                std::memcpy(bp + j * kc + k * NR, row + j, NR * sizeof(float));
            if (full < nc) {
                float *dst = bp + full * kc + k * NR;
                for (dim_t j = full; j < nc; ++j)
                    dst[j - full] = row[j];
                for (dim_t j = nc - full; j < NR; ++j)
                    dst[j] = 0.f;
            }
        }
        return;
    }
    dispatch_dt(b.dt, [&](auto tag) {
        using T = decltype(tag);
        for (dim_t j = 0; j < nc; j += NR) {
            const T *base = static_cast<const T *>(b.ptr) + k0 * b.rs + (n0 + j) * b.cs;
            pack_b_t(base, b.rs, b.cs, kc, std::min<dim_t>(NR, nc - j), b.zp, bp + j * kc);
        }
    });
}

} // namespace detail
} // namespace ukernels
} // namespace cpu
} // namespace anydnn
