// AVX-512 binary for dense unpadded tensors where src0 and dst share a layout and src1 is
// the same tensor shape, a scalar, or broadcast over one dense group of dst's dims
// (per-channel in nchw, nhwc or nChw16c, per-row...). f32/bf16/f16 in any mix; all algorithms but
// select; scales; post-ops that can follow dst's memory order.
#include <immintrin.h>

// GCC 12's intrinsic headers start some results from _mm512_undefined_*(), which trips
// -Wmaybe-uninitialized once inlined; the values are fully written.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <algorithm>

#include "core/data_types.hpp"
#include "core/ops/binary/binary_conf.hpp"
#include "core/ops/layout.hpp"
#include "core/ops/scales.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"
#include "runtime/cpu/isa.hpp"

#define ANYDNN_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))

namespace anydnn {
namespace cpu {

namespace {

ANYDNN_AVX512 inline __m512 load16(dnnl_data_type_t dt, const void *base, dim_t i, __mmask16 m) {
    switch (dt) {
        case dnnl_bf16: {
            const __m256i h = _mm256_maskz_loadu_epi16(m, static_cast<const uint16_t *>(base) + i);
            return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
        }
        case dnnl_f16:
            return _mm512_cvtph_ps(
                    _mm256_maskz_loadu_epi16(m, static_cast<const uint16_t *>(base) + i));
        default: return _mm512_maskz_loadu_ps(m, static_cast<const float *>(base) + i);
    }
}

// Round to nearest even like f32_to_bf16; NaN stays a quiet NaN.
ANYDNN_AVX512 inline __m256i cvt_bf16(__m512 v) {
    const __m512i bits = _mm512_castps_si512(v);
    const __m512i hi = _mm512_srli_epi32(bits, 16);
    const __m512i lsb = _mm512_and_si512(hi, _mm512_set1_epi32(1));
    __m512i r = _mm512_srli_epi32(
            _mm512_add_epi32(bits, _mm512_add_epi32(_mm512_set1_epi32(0x7fff), lsb)), 16);
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    r = _mm512_mask_mov_epi32(r, nan, _mm512_or_si512(hi, _mm512_set1_epi32(0x40)));
    return _mm512_cvtepi32_epi16(r);
}

ANYDNN_AVX512 inline void store16(
        dnnl_data_type_t dt, void *base, dim_t i, __m512 v, __mmask16 m) {
    switch (dt) {
        case dnnl_bf16:
            _mm256_mask_storeu_epi16(static_cast<uint16_t *>(base) + i, m, cvt_bf16(v));
            break;
        case dnnl_f16:
            _mm256_mask_storeu_epi16(static_cast<uint16_t *>(base) + i, m,
                    _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
            break;
        default: _mm512_mask_storeu_ps(static_cast<float *>(base) + i, m, v); break;
    }
}

// Matches binary_scalar: max/min return b on NaN, comparisons with NaN are false but ne.
ANYDNN_AVX512 inline __m512 vop(dnnl_alg_kind_t alg, __m512 a, __m512 b) {
    const __m512 one = _mm512_set1_ps(1.f);
    switch (alg) {
        case dnnl_binary_add: return _mm512_add_ps(a, b);
        case dnnl_binary_mul: return _mm512_mul_ps(a, b);
        case dnnl_binary_max: return _mm512_max_ps(a, b);
        case dnnl_binary_min: return _mm512_min_ps(a, b);
        case dnnl_binary_div: return _mm512_div_ps(a, b);
        case dnnl_binary_sub: return _mm512_sub_ps(a, b);
        case dnnl_binary_ge: return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a, b, _CMP_GE_OQ), one);
        case dnnl_binary_gt: return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a, b, _CMP_GT_OQ), one);
        case dnnl_binary_le: return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a, b, _CMP_LE_OQ), one);
        case dnnl_binary_lt: return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a, b, _CMP_LT_OQ), one);
        case dnnl_binary_eq: return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ), one);
        case dnnl_binary_ne:
            return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a, b, _CMP_NEQ_UQ), one);
        default: return a;
    }
}

inline __mmask16 tail_mask(dim_t left) {
    return left >= 16 ? static_cast<__mmask16>(0xffff)
                      : static_cast<__mmask16>((1u << left) - 1u);
}

struct operand_t {
    dnnl_data_type_t dt;
    const void *base; // element 0 of the flat data
};

struct kernel_args_t {
    dnnl_alg_kind_t alg;
    operand_t src0, src1;
    flat_bcast_t fb1;
    dnnl_data_type_t dst_dt;
    void *dst;
    float scale0, scale1;
};

// out[io + k] = src0[i0 + k] op src1[i1 + k] for k < n.
ANYDNN_AVX512 void run_vv(const kernel_args_t &p, dim_t i0, dim_t i1, dnnl_data_type_t out_dt,
        void *out, dim_t io, dim_t n) {
    const __m512 s0 = _mm512_set1_ps(p.scale0), s1 = _mm512_set1_ps(p.scale1);
    for (dim_t k = 0; k < n; k += 16) {
        const __mmask16 m = tail_mask(n - k);
        const __m512 a = _mm512_mul_ps(load16(p.src0.dt, p.src0.base, i0 + k, m), s0);
        const __m512 b = _mm512_mul_ps(load16(p.src1.dt, p.src1.base, i1 + k, m), s1);
        store16(out_dt, out, io + k, vop(p.alg, a, b), m);
    }
}

// out[io + k] = src0[i0 + k] op b for k < n (b already scaled).
ANYDNN_AVX512 void run_vs(const kernel_args_t &p, dim_t i0, float b_value,
        dnnl_data_type_t out_dt, void *out, dim_t io, dim_t n) {
    const __m512 s0 = _mm512_set1_ps(p.scale0), b = _mm512_set1_ps(b_value);
    for (dim_t k = 0; k < n; k += 16) {
        const __mmask16 m = tail_mask(n - k);
        const __m512 a = _mm512_mul_ps(load16(p.src0.dt, p.src0.base, i0 + k, m), s0);
        store16(out_dt, out, io + k, vop(p.alg, a, b), m);
    }
}

// Flat elements [i, i + n) into out (position io onward), following src1's broadcast.
ANYDNN_AVX512 void compute(const kernel_args_t &p, dim_t i, dim_t n, dnnl_data_type_t out_dt,
        void *out, dim_t io) {
    const flat_bcast_t &fb = p.fb1;
    for (dim_t k = 0; k < n;) {
        const dim_t idx = i + k;
        int step;
        const dim_t len = fb.segment(idx, n - k, step);
        const dim_t j = fb.index(idx);
        if (step == 1)
            run_vv(p, idx, j, out_dt, out, io + k, len);
        else
            run_vs(p, idx, load_as_f32(p.src1.dt, p.src1.base, j) * p.scale1, out_dt, out,
                    io + k, len);
        k += len;
    }
}

ANYDNN_AVX512 void convert(const float *in, dnnl_data_type_t dt, void *out, dim_t io, dim_t n) {
    for (dim_t k = 0; k < n; k += 16) {
        const __mmask16 m = tail_mask(n - k);
        store16(dt, out, io + k, _mm512_maskz_loadu_ps(m, in + k), m);
    }
}

bool vector_dt(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

struct binary_avx512_t;

struct binary_avx512_pd_t : public primitive_desc_impl_t<binary_avx512_pd_t, binary_avx512_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:binary:avx512"; }

    static status_t init(binary_avx512_pd_t &pd) {
        ANYDNN_REQUIRE(isa_enabled(dnnl_cpu_isa_avx512_core), dnnl_unimplemented,
                "needs avx512_core");
        ANYDNN_CHECK(pd.conf.init(pd));
        const binary_conf_t &c = pd.conf;
        ANYDNN_REQUIRE(!c.is_select, dnnl_unimplemented, "select is not vectorized");
        ANYDNN_REQUIRE(vector_dt(c.src0.data_type) && vector_dt(c.src1.data_type)
                        && vector_dt(c.dst.data_type),
                dnnl_unimplemented, "data types other than f32, bf16, f16");
        ANYDNN_REQUIRE(c.bcast0 == 0 && same_layout(c.src0, c.dst) && is_dense_unpadded(c.dst),
                dnnl_unimplemented, "src0 and dst are not the same dense unpadded layout");
        pd.fb1 = analyze_flat_bcast(c.dst, c.src1);
        ANYDNN_REQUIRE(pd.fb1.ok, dnnl_unimplemented,
                "src1's broadcast does not follow dst's memory order");
        ANYDNN_REQUIRE(c.post_ops.empty() || c.post_ops.flat_ok(), dnnl_unimplemented,
                "post-op operands do not follow dst's memory order");
        return dnnl_success;
    }

    binary_conf_t conf;
    flat_bcast_t fb1;
};

struct binary_avx512_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const binary_avx512_pd_t &>(this->pd());
        const binary_conf_t &c = pd.conf;
        const dim_t total = nelems(c.dst);
        if (total == 0) return dnnl_success;
        kernel_args_t p;
        p.alg = c.alg;
        ANYDNN_CHECK(read_common_scale(ctx, pd.attr, DNNL_ARG_SRC_0, p.scale0));
        ANYDNN_CHECK(read_common_scale(ctx, pd.attr, DNNL_ARG_SRC_1, p.scale1));
        const dim_t zeros[max_ndims] = {};
        auto at = [](const void *base, const memory_desc_t &md, dim_t off) {
            return static_cast<const char *>(base) + off * data_type_size(md.data_type);
        };
        p.src0 = {c.src0.data_type, at(ctx.host_ptr(DNNL_ARG_SRC_0), c.src0, c.src0.offset0)};
        const dim_t off1 = off_logical(c.src1, zeros);
        p.src1 = {c.src1.data_type, at(ctx.host_ptr(DNNL_ARG_SRC_1), c.src1, off1)};
        p.fb1 = pd.fb1;
        p.dst_dt = c.dst.data_type;
        p.dst = const_cast<char *>(at(ctx.host_ptr(DNNL_ARG_DST), c.dst, c.dst.offset0));
        const size_t dst_esz = data_type_size(c.dst.data_type);

        if (c.post_ops.empty()) {
            parallel_range(total, [&](dim_t start, dim_t end) {
                compute(p, start, end - start, p.dst_dt, p.dst, start);
            }, 16384);
            return dnnl_success;
        }
        const auto po_args = c.post_ops.bind(ctx);
        parallel_range(total, [&](dim_t start, dim_t end) {
            constexpr dim_t chunk = 512;
            alignas(64) float buf[chunk];
            for (dim_t i = start; i < end; i += chunk) {
                const dim_t n = std::min(chunk, end - i);
                compute(p, i, n, dnnl_f32, buf, 0);
                c.post_ops.apply_flat(
                        po_args, buf, n, i, static_cast<const char *>(p.dst) + i * dst_esz);
                convert(buf, p.dst_dt, p.dst, i, n);
            }
        }, 16384);
        return dnnl_success;
    }
};

} // namespace

impl_entry_t binary_avx512_entry() {
    return make_impl_entry<binary_avx512_pd_t>("cpu:binary:avx512");
}

} // namespace cpu
} // namespace anydnn
