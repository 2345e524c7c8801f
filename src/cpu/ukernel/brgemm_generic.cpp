// The portable brgemm kernel: every supported type pair and B layout, on any ISA (f16, f8,
// f16 x f32 mixes, and what the vector kernels leave: odd K of pair/quad types, a CPU without
// AVX-512, AVX512_BF16 or VNNI). Accumulates in C's type, row by row: acc[m, :] += a * B[k, :].
#include <cstdint>
#include <cstring>

#include "core/data_types.hpp"
#include "cpu/ukernel/brgemm_kernels.hpp"

namespace anydnn {
namespace cpu {
namespace ukernel {

namespace {

struct f32_e {
    using s = float;
    static float cvt(float v) { return v; }
};
struct bf16_e {
    using s = uint16_t;
    static float cvt(uint16_t v) { return bf16_to_f32(v); }
};
struct f16_e {
    using s = uint16_t;
    static float cvt(uint16_t v) { return f16_to_f32(v); }
};
struct f8_e5m2_e {
    using s = uint8_t;
    static float cvt(uint8_t v) { return f8_to_f32(v, 2, 15, true); }
};
struct f8_e4m3_e {
    using s = uint8_t;
    static float cvt(uint8_t v) { return f8_to_f32(v, 3, 7, false); }
};
struct s8_e {
    using s = int8_t;
    static int32_t cvt(int8_t v) { return v; }
};
struct u8_e {
    using s = uint8_t;
    static int32_t cvt(uint8_t v) { return v; }
};

template <typename EA, typename EB, typename ACC>
void generic_kernel(const brgemm_conf_t &c, const brgemm_call_t &call) {
    using TA = typename EA::s;
    using TB = typename EB::s;
    const dim_t M = c.M, N = c.N, K = c.K, g = c.b_group;
    ACC *acc = static_cast<ACC *>(call.acc);
    if (!call.add)
        for (dim_t m = 0; m < M; ++m)
            std::memset(acc + m * call.ldacc, 0, N * sizeof(ACC));
    for (dim_t i = 0; i < c.batch; ++i) {
        const TA *a = reinterpret_cast<const TA *>(call.a + call.offsets[2 * i]);
        const TB *b = reinterpret_cast<const TB *>(call.b + call.offsets[2 * i + 1]);
        for (dim_t m = 0; m < M; ++m) {
            ACC *row = acc + m * call.ldacc;
            for (dim_t k = 0; k < K; ++k) {
                const ACC av = static_cast<ACC>(EA::cvt(a[m * c.lda + k]));
                // Row k of B: (k, n) at brow[n * g] (g = 1 unless packed in k groups).
                const TB *brow = b + (k / g) * c.ldb * g + k % g;
                if (g == 1)
                    for (dim_t n = 0; n < N; ++n)
                        row[n] += av * static_cast<ACC>(EB::cvt(brow[n]));
                else
                    for (dim_t n = 0; n < N; ++n)
                        row[n] += av * static_cast<ACC>(EB::cvt(brow[n * g]));
            }
        }
    }
}

} // namespace

brgemm_kernel_fn brgemm_generic(const brgemm_conf_t &c) {
    const dnnl_data_type_t a = c.a_dt, b = c.b_dt;
    if (a == dnnl_f32 && b == dnnl_f32) return generic_kernel<f32_e, f32_e, float>;
    if (a == dnnl_bf16 && b == dnnl_bf16) return generic_kernel<bf16_e, bf16_e, float>;
    if (a == dnnl_f16 && b == dnnl_f16) return generic_kernel<f16_e, f16_e, float>;
    if (a == dnnl_f16 && b == dnnl_f32) return generic_kernel<f16_e, f32_e, float>;
    if (a == dnnl_f32 && b == dnnl_f16) return generic_kernel<f32_e, f16_e, float>;
    if (a == dnnl_f8_e5m2 && b == dnnl_f8_e5m2)
        return generic_kernel<f8_e5m2_e, f8_e5m2_e, float>;
    if (a == dnnl_f8_e5m2 && b == dnnl_f8_e4m3)
        return generic_kernel<f8_e5m2_e, f8_e4m3_e, float>;
    if (a == dnnl_f8_e4m3 && b == dnnl_f8_e5m2)
        return generic_kernel<f8_e4m3_e, f8_e5m2_e, float>;
    if (a == dnnl_f8_e4m3 && b == dnnl_f8_e4m3)
        return generic_kernel<f8_e4m3_e, f8_e4m3_e, float>;
    if (a == dnnl_u8 && b == dnnl_s8) return generic_kernel<u8_e, s8_e, int32_t>;
    if (a == dnnl_s8 && b == dnnl_s8) return generic_kernel<s8_e, s8_e, int32_t>;
    if (a == dnnl_u8 && b == dnnl_u8) return generic_kernel<u8_e, u8_e, int32_t>;
    if (a == dnnl_s8 && b == dnnl_u8) return generic_kernel<s8_e, u8_e, int32_t>;
    return nullptr;
}

} // namespace ukernel
} // namespace cpu
} // namespace anydnn
