// Reorders into and out of the packed sparse layout (core/sparse_packed.hpp) on the CPU:
// dense weights of any blocked layout are packed (how a packed matmul's weights are filled),
// and packed ones unpacked into any blocked layout. Values convert between f32, f16, bf16,
// s8, u8 and s32 (rounding and saturating); an element is stored when its converted value is
// non-zero. No attributes.
#include <algorithm>
#include <vector>

#include "core/data_types.hpp"
#include "core/ops/reorder/common.hpp"
#include "core/parallel.hpp"
#include "core/sparse_packed.hpp"
#include "cpu/impl_entries.hpp"

namespace anydnn {
namespace cpu {
namespace reorder {

namespace {

using sparse_packed::chunk_cols;
using sparse_packed::geometry_t;

struct sparse_packed_t;

struct sparse_packed_pd_t : public primitive_desc_impl_t<sparse_packed_pd_t, sparse_packed_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:reorder:sparse_packed"; }
    bool pack = true; // dense -> packed; else packed -> dense

    static status_t init(sparse_packed_pd_t &pd) {
        const auto &d = reorder_desc(pd);
        const memory_desc_t &s = d.src_md, &t = d.dst_md;
        const bool sp = sparse_packed::is_packed(s), tp = sparse_packed::is_packed(t);
        ANYDNN_REQUIRE(sp || tp, dnnl_unimplemented, "reorder: neither side is packed sparse");
        ANYDNN_REQUIRE(d.src_engine_kind == dnnl_cpu && d.dst_engine_kind == dnnl_cpu,
                dnnl_unimplemented, "reorder: the packed sparse layout is a CPU engine one");
        const memory_desc_t &packed = tp ? t : s, &dense = tp ? s : t;
        ANYDNN_REQUIRE(!sparse_packed::is_request(packed), dnnl_invalid_arguments,
                "reorder: a packed encoding request has no layout yet; query the "
                "primitive's weights descriptor");
        ANYDNN_REQUIRE(sparse_packed::is_resolved(packed) && dense.format_kind == dnnl_blocked,
                dnnl_unimplemented,
                "reorder: packed sparse takes a dense blocked layout on the other side");
        ANYDNN_REQUIRE(!has_runtime_dims_or_strides(dense), dnnl_unimplemented,
                "reorder: packed sparse with runtime dimensions");
        ANYDNN_REQUIRE(tp || nelems(dense, true) == nelems(dense), dnnl_unimplemented,
                "reorder: unpacking into a padded layout");
        ANYDNN_REQUIRE(is_vector_type(s.data_type) && is_vector_type(t.data_type),
                dnnl_unimplemented, "reorder: packed sparse converts f32, f16, bf16, s8, u8 "
                "and s32, not %s to %s", dnnl_dt2str(s.data_type), dnnl_dt2str(t.data_type));
        ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::scratchpad), dnnl_unimplemented,
                "reorder: packed sparse takes no scales, zero points or post-ops");
        pd.pack = tp;
        pd.args[DNNL_ARG_SRC] = s;
        pd.args[DNNL_ARG_DST] = t;
        return dnnl_success;
    }
};

// The dense element (r, c): r runs over every dimension but the last, c over the last.
dim_t dense_off(const memory_desc_t &md, const geometry_t &g, dim_t r, dim_t c) {
    return off_linear(md, r * g.cols + c);
}

// Converts a src element to dst's type and back: what dst will hold, as f32.
float converted(dnnl_data_type_t sdt, const void *src, dim_t i, dnnl_data_type_t ddt) {
    unsigned char tmp[8];
    store_from_f32(ddt, tmp, 0, load_as_f32(sdt, src, i));
    return load_as_f32(ddt, tmp, 0);
}

// Copies one element from src[i] to dst[j] (s32 to s32 without passing through f32).
void copy_element(dnnl_data_type_t sdt, const void *src, dim_t i, dnnl_data_type_t ddt,
        void *dst, dim_t j) {
    if (sdt == dnnl_s32 && ddt == dnnl_s32)
        static_cast<int32_t *>(dst)[j] = static_cast<const int32_t *>(src)[i];
    else
        store_from_f32(ddt, dst, j, load_as_f32(sdt, src, i));
}

bool is_nonzero(dnnl_data_type_t sdt, const void *src, dim_t i, dnnl_data_type_t ddt) {
    if (sdt == dnnl_s32 && ddt == dnnl_s32) return static_cast<const int32_t *>(src)[i] != 0;
    return converted(sdt, src, i, ddt) != 0.f;
}

status_t run_pack(const exec_ctx_t &ctx) {
    const memory_desc_t &smd = ctx.md(DNNL_ARG_SRC), &dmd = ctx.md(DNNL_ARG_DST);
    const geometry_t g = sparse_packed::geometry(dmd);
    if (g.chunks() == 0) return dnnl_success;
    const memory_t *dm = ctx.arg(DNNL_ARG_DST);
    const void *src = ctx.host_ptr<const void>(DNNL_ARG_SRC);
    void *values = dm->host_ptr(0);
    int64_t *offsets = static_cast<int64_t *>(dm->host_ptr(1));
    uint64_t *masks = static_cast<uint64_t *>(dm->host_ptr(2));
    ANYDNN_REQUIRE(offsets && masks, dnnl_invalid_arguments,
            "reorder: the packed memory's offsets or masks buffer is missing");
    const dnnl_data_type_t sdt = smd.data_type, ddt = dmd.data_type;

    // Masks and the count of each row, then each row's first value, then the values.
    std::vector<dim_t> row_start(static_cast<size_t>(g.rows) + 1, 0);
    parallel_range(g.rows, [&](dim_t r0, dim_t r1) {
        for (dim_t r = r0; r < r1; ++r) {
            dim_t count = 0;
            for (dim_t c = 0; c < g.chunks_per_row; ++c) {
                uint64_t bits = 0;
                const dim_t n0 = c * chunk_cols, n1 = std::min(g.cols, n0 + chunk_cols);
                for (dim_t n = n0; n < n1; ++n)
                    if (is_nonzero(sdt, src, dense_off(smd, g, r, n), ddt))
                        bits |= uint64_t(1) << (n - n0);
                masks[r * g.chunks_per_row + c] = bits;
                count += __builtin_popcountll(bits);
            }
            row_start[static_cast<size_t>(r) + 1] = count;
        }
    }, 16);
    for (dim_t r = 0; r < g.rows; ++r)
        row_start[static_cast<size_t>(r) + 1] += row_start[static_cast<size_t>(r)];
    const dim_t total = row_start.back();
    ANYDNN_REQUIRE(total <= dmd.sparse.nnz, dnnl_invalid_arguments,
            "reorder: the weights hold %lld non-zero values, the packed descriptor was made "
            "for at most %lld", static_cast<long long>(total),
            static_cast<long long>(dmd.sparse.nnz));
    ANYDNN_REQUIRE(values || total == 0, dnnl_invalid_arguments,
            "reorder: the packed memory's values buffer is missing");
    parallel_range(g.rows, [&](dim_t r0, dim_t r1) {
        for (dim_t r = r0; r < r1; ++r) {
            int64_t p = row_start[static_cast<size_t>(r)];
            for (dim_t c = 0; c < g.chunks_per_row; ++c) {
                const dim_t chunk = r * g.chunks_per_row + c;
                offsets[chunk] = p;
                for (uint64_t bits = masks[chunk]; bits; bits &= bits - 1) {
                    const dim_t n = c * chunk_cols + __builtin_ctzll(bits);
                    copy_element(sdt, src, dense_off(smd, g, r, n), ddt, values, p++);
                }
            }
        }
    }, 16);
    return dnnl_success;
}

status_t run_unpack(const exec_ctx_t &ctx) {
    const memory_desc_t &smd = ctx.md(DNNL_ARG_SRC), &dmd = ctx.md(DNNL_ARG_DST);
    const geometry_t g = sparse_packed::geometry(smd);
    if (g.chunks() == 0) return dnnl_success;
    const memory_t *sm = ctx.arg(DNNL_ARG_SRC);
    const void *values = sm->host_ptr(0);
    const int64_t *offsets = static_cast<const int64_t *>(sm->host_ptr(1));
    const uint64_t *masks = static_cast<const uint64_t *>(sm->host_ptr(2));
    dim_t count = 0;
    ANYDNN_CHECK(sparse_packed::check_metadata(smd, offsets, masks, count));
    ANYDNN_REQUIRE(values || count == 0, dnnl_invalid_arguments,
            "reorder: the packed memory's values buffer is missing");
    void *dst = ctx.host_ptr<void>(DNNL_ARG_DST);
    const dnnl_data_type_t sdt = smd.data_type, ddt = dmd.data_type;
    parallel_range(g.rows, [&](dim_t r0, dim_t r1) {
        for (dim_t r = r0; r < r1; ++r)
            for (dim_t c = 0; c < g.chunks_per_row; ++c) {
                const dim_t chunk = r * g.chunks_per_row + c;
                const uint64_t bits = masks[chunk];
                int64_t p = offsets[chunk];
                const dim_t n0 = c * chunk_cols, n1 = std::min(g.cols, n0 + chunk_cols);
                for (dim_t n = n0; n < n1; ++n) {
                    const dim_t o = dense_off(dmd, g, r, n);
                    if (bits >> (n - n0) & 1) copy_element(sdt, values, p++, ddt, dst, o);
                    else store_from_f32(ddt, dst, o, 0.f);
                }
            }
    }, 16);
    return dnnl_success;
}

struct sparse_packed_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const sparse_packed_pd_t &>(this->pd());
        return pd.pack ? run_pack(ctx) : run_unpack(ctx);
    }
};

} // namespace

} // namespace reorder

impl_entry_t reorder_sparse_packed_entry() {
    return make_impl_entry<reorder::sparse_packed_pd_t>("cpu:reorder:sparse_packed");
}

} // namespace cpu
} // namespace anydnn
