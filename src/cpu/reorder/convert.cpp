// Same dense layout, different data types (or common scales, zero points, sum): one flat
// vectorised pass over the buffer with AVX-512 conversions.
#include <cstdint>

#include "core/ops/reorder/common.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/reorder/vec_avx512.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {
namespace reorder {

namespace {

struct convert_t;

struct convert_pd_t : public primitive_desc_impl_t<convert_pd_t, convert_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return "cpu:reorder:convert:avx512";
    }

    static status_t init(convert_pd_t &pd) {
        const auto &d = reorder_desc(pd);
        ANYDNN_REQUIRE(isa_enabled(dnnl_cpu_isa_avx512_core), dnnl_unimplemented,
                "convert: needs avx512_core");
        ANYDNN_REQUIRE(is_vector_type(d.src_md.data_type) && is_vector_type(d.dst_md.data_type),
                dnnl_unimplemented, "convert: %s to %s is not vectorised",
                dnnl_dt2str(d.src_md.data_type), dnnl_dt2str(d.dst_md.data_type));
        ANYDNN_REQUIRE(same_dense_layout(d.src_md, d.dst_md), dnnl_unimplemented,
                "convert: layouts differ or are not dense");
        ANYDNN_CHECK(init_args(pd, pd.q));
        ANYDNN_REQUIRE(!(pd.q.trivial() && d.src_md.data_type == d.dst_md.data_type),
                dnnl_unimplemented, "convert: nothing to convert");
        ANYDNN_REQUIRE(pd.q.masks_within(0), dnnl_unimplemented,
                "convert: only common scales and zero points");
        // Zero points (and the sum's) would turn dst's zero padding into non-zero values.
        const bool padded = padded_nelems(d.dst_md) != nelems(d.dst_md);
        ANYDNN_REQUIRE(!padded || !(pd.q.has_zero_points() || pd.q.sum), dnnl_unimplemented,
                "convert: zero points or sum on a padded layout");
        return dnnl_success;
    }

    quant_t q;
};

struct convert_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;
};

// One thread's elements [start, end) from type S to type D.
template <dnnl_data_type_t S, dnnl_data_type_t D>
ANYDNN_AVX512 void convert_range(const char *src, char *dst, dnnl_data_type_t old_dt,
        const avx512::qvec_t &q, bool quant, bool stream, dim_t start, dim_t end) {
    constexpr int ss = avx512::dt_bytes(S), ds = avx512::dt_bytes(D);
    dim_t i = start;
    if (!quant && !stream) {
        // Plain conversion: four vectors per step, the tail below.
        for (; i + 64 <= end; i += 64) {
            const __m512 v0 = avx512::load_as<S>(src + i * ss, 0xffff);
            const __m512 v1 = avx512::load_as<S>(src + (i + 16) * ss, 0xffff);
            const __m512 v2 = avx512::load_as<S>(src + (i + 32) * ss, 0xffff);
            const __m512 v3 = avx512::load_as<S>(src + (i + 48) * ss, 0xffff);
            avx512::store_as<D>(dst + i * ds, v0, 0xffff);
            avx512::store_as<D>(dst + (i + 16) * ds, v1, 0xffff);
            avx512::store_as<D>(dst + (i + 32) * ds, v2, 0xffff);
            avx512::store_as<D>(dst + (i + 48) * ds, v3, 0xffff);
        }
    }
    for (; i < end; i += 16) {
        const __mmask16 m = end - i >= 16 ? 0xffff : (1u << (end - i)) - 1;
        __m512 v = avx512::load_as<S>(src + i * ss, m);
        char *o = dst + i * ds;
        if (quant) v = avx512::quantize(q, v, q.sum ? avx512::load_f32(old_dt, o, m) : v);
        // Whole 64-byte lines of a dst too big for the cache are streamed past it.
        if (D == dnnl_f32 && stream && m == 0xffff && (reinterpret_cast<uintptr_t>(o) & 63) == 0)
            _mm512_stream_ps(reinterpret_cast<float *>(o), v);
        else
            avx512::store_as<D>(o, v, m);
    }
    if (stream) _mm_sfence();
}

using range_fn_t = void (*)(
        const char *, char *, dnnl_data_type_t, const avx512::qvec_t &, bool, bool, dim_t, dim_t);

template <dnnl_data_type_t S> range_fn_t pick_for_src(dnnl_data_type_t d) {
    switch (d) {
    case dnnl_f32: return convert_range<S, dnnl_f32>;
    case dnnl_bf16: return convert_range<S, dnnl_bf16>;
    case dnnl_f16: return convert_range<S, dnnl_f16>;
    case dnnl_s32: return convert_range<S, dnnl_s32>;
    case dnnl_s8: return convert_range<S, dnnl_s8>;
    default: return convert_range<S, dnnl_u8>;
    }
}

range_fn_t pick(dnnl_data_type_t s, dnnl_data_type_t d) {
    switch (s) {
    case dnnl_f32: return pick_for_src<dnnl_f32>(d);
    case dnnl_bf16: return pick_for_src<dnnl_bf16>(d);
    case dnnl_f16: return pick_for_src<dnnl_f16>(d);
    case dnnl_s32: return pick_for_src<dnnl_s32>(d);
    case dnnl_s8: return pick_for_src<dnnl_s8>(d);
    default: return pick_for_src<dnnl_u8>(d);
    }
}

ANYDNN_AVX512 status_t convert_execute(const convert_pd_t &pd, const exec_ctx_t &ctx) {
    const memory_desc_t &smd = ctx.md(DNNL_ARG_SRC), &dmd = ctx.md(DNNL_ARG_DST);
    const dim_t n = padded_nelems(dmd);
    if (n == 0) return dnnl_success;
    const quant_t &q = pd.q;
    quant_data_t qd;
    ANYDNN_CHECK(quant_data(q, ctx, qd));
    avx512::qvec_t qv;
    qv.ss = q.src_scale.present;
    if (qv.ss) qv.ss_v = _mm512_set1_ps(quant_value(q.src_scale, qd.src_scale, 0));
    qv.szp = q.src_zp.present;
    if (qv.szp) qv.szp_v = _mm512_set1_ps(quant_value(q.src_zp, qd.src_zp, 0));
    qv.ds = q.dst_scale.present;
    if (qv.ds) qv.ds_v = _mm512_set1_ps(quant_value(q.dst_scale, qd.dst_scale, 0));
    qv.dzp = q.dst_zp.present;
    if (qv.dzp) qv.dzp_v = _mm512_set1_ps(quant_value(q.dst_zp, qd.dst_zp, 0));
    qv.sum = q.sum;
    qv.sum_scale_v = _mm512_set1_ps(q.sum_scale);
    qv.sum_zp_v = _mm512_set1_ps(q.sum_zp);

    const char *src =
            ctx.host_ptr<const char>(DNNL_ARG_SRC) + smd.offset0 * data_type_size(smd.data_type);
    char *dst = ctx.host_ptr<char>(DNNL_ARG_DST) + dmd.offset0 * data_type_size(dmd.data_type);
    const bool stream = !q.sum && size_in_bytes(dmd) >= streaming_threshold();
    // Thread ranges start on multiples of 64 elements so no two threads share a cache line.
    const dim_t blocks = (n + 63) / 64;
    const range_fn_t run = pick(smd.data_type, dmd.data_type);
    const bool quant = !q.trivial();
    parallel_range(
            blocks,
            [&](dim_t b0, dim_t b1) {
                run(src, dst, q.sum_dt, qv, quant, stream, b0 * 64, std::min(n, b1 * 64));
            },
            256);
    return dnnl_success;
}

status_t convert_t::execute(const exec_ctx_t &ctx) const {
    return convert_execute(static_cast<const convert_pd_t &>(pd()), ctx);
}

} // namespace
} // namespace reorder

impl_entry_t reorder_convert_entry() {
    return make_impl_entry<reorder::convert_pd_t>("cpu:reorder:convert:avx512");
}

} // namespace cpu
} // namespace anydnn
