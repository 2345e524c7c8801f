// Same type, same dense layout, no attributes: one parallel copy of the whole buffer
// (padding included, which the source holds as zeros). Buffers past the streaming threshold
// are copied with non-temporal AVX-512 stores, which skip reading dst lines before
// overwriting them (the C library's memcpy may not, depending on what it takes the cache for).
#include <cstdint>
#include <cstring>

#include "core/data_types_narrow.hpp"
#include "core/ops/reorder/common.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/reorder/vec_avx512.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {
namespace reorder {

namespace {

ANYDNN_AVX512 void copy_streaming(char *dst, const char *src, size_t n) {
    const size_t head = std::min(n, (64 - reinterpret_cast<uintptr_t>(dst) % 64) % 64);
    std::memcpy(dst, src, head);
    size_t i = head;
    for (; i + 256 <= n; i += 256) {
        const __m512 a = _mm512_loadu_ps(src + i), b = _mm512_loadu_ps(src + i + 64);
        const __m512 c = _mm512_loadu_ps(src + i + 128), d = _mm512_loadu_ps(src + i + 192);
        _mm512_stream_ps(reinterpret_cast<float *>(dst + i), a);
        _mm512_stream_ps(reinterpret_cast<float *>(dst + i + 64), b);
        _mm512_stream_ps(reinterpret_cast<float *>(dst + i + 128), c);
        _mm512_stream_ps(reinterpret_cast<float *>(dst + i + 192), d);
    }
    _mm_sfence();
    std::memcpy(dst + i, src + i, n - i);
}

struct memcpy_t;

struct memcpy_pd_t : public primitive_desc_impl_t<memcpy_pd_t, memcpy_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return "cpu:reorder:memcpy";
    }

    static status_t init(memcpy_pd_t &pd) {
        const auto &d = reorder_desc(pd);
        ANYDNN_REQUIRE(d.src_md.data_type == d.dst_md.data_type, dnnl_unimplemented,
                "memcpy: data types differ");
        ANYDNN_REQUIRE(is_ref_type(d.src_md.data_type) && !is_4bit(d.src_md.data_type),
                dnnl_unimplemented,
                "memcpy: data type %s is not supported", dnnl_dt2str(d.src_md.data_type));
        ANYDNN_REQUIRE(
                pd.attr.has_default_values(), dnnl_unimplemented, "memcpy: attributes are set");
        ANYDNN_REQUIRE(same_dense_layout(d.src_md, d.dst_md), dnnl_unimplemented,
                "memcpy: layouts differ or are not dense");
        quant_t q;
        return init_args(pd, q);
    }
};

struct memcpy_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override {
        const memory_desc_t &smd = ctx.md(DNNL_ARG_SRC), &dmd = ctx.md(DNNL_ARG_DST);
        const size_t esize = data_type_size(dmd.data_type);
        const size_t bytes = static_cast<size_t>(padded_nelems(dmd)) * esize;
        if (bytes == 0) return dnnl_success;
        const char *src = ctx.host_ptr<const char>(DNNL_ARG_SRC) + smd.offset0 * esize;
        char *dst = ctx.host_ptr<char>(DNNL_ARG_DST) + dmd.offset0 * esize;
        const bool stream = isa_enabled(dnnl_cpu_isa_avx512_core) && bytes >= streaming_threshold();
        // Split on cache lines; small copies stay on the calling thread.
        const dim_t lines = static_cast<dim_t>((bytes + 63) / 64);
        parallel_range(
                lines,
                [&](dim_t start, dim_t end) {
                    size_t b0 = static_cast<size_t>(start) * 64;
                    size_t b1 = std::min(bytes, static_cast<size_t>(end) * 64);
                    if (stream)
                        copy_streaming(dst + b0, src + b0, b1 - b0);
                    else
                        std::memcpy(dst + b0, src + b0, b1 - b0);
                },
                2048);
        return dnnl_success;
    }
};

} // namespace
} // namespace reorder

impl_entry_t reorder_memcpy_entry() {
    return make_impl_entry<reorder::memcpy_pd_t>("cpu:reorder:memcpy");
}

} // namespace cpu
} // namespace anydnn
