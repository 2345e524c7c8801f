// Concat as copies of contiguous chunks: when dst and every source are dense, unpadded and
// laid out alike, each source fills one contiguous chunk of dst per index of the dimensions
// outside the axis. Chunks are cut into pieces so that few large ones still use every thread.
#include <algorithm>
#include <cstring>

#include "core/ops/concat/concat_conf.hpp"
#include "core/ops/layout.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"

namespace anydnn {
namespace cpu {

namespace {

struct concat_memcpy_t;

struct concat_memcpy_pd_t : public primitive_desc_impl_t<concat_memcpy_pd_t, concat_memcpy_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:concat:memcpy"; }

    static status_t init(concat_memcpy_pd_t &pd) {
        ANYDNN_CHECK(pd.conf.init(pd));
        const concat_conf_t &c = pd.conf;
        ANYDNN_REQUIRE(!c.has_scales, dnnl_unimplemented, "scales need arithmetic");
        ANYDNN_REQUIRE(is_dense_unpadded(c.dst), dnnl_unimplemented,
                "dst is not dense and unpadded");
        const memory_desc_t canon = md_like(c.dst, c.dst.ndims, c.dst.dims, c.dst.data_type);
        pd.outer = 1;
        pd.chunks.clear();
        if (nelems(c.dst) > 0) {
            const dim_t span = canon.blocking.strides[c.axis] * c.dst.dims[c.axis];
            dim_t blk = 1;
            for (int i = 0; i < canon.blocking.inner_nblks; ++i)
                if (canon.blocking.inner_idxs[i] == c.axis) blk *= canon.blocking.inner_blks[i];
            pd.outer = nelems(c.dst) / (span / blk);
        }
        const size_t esz = data_type_size(c.dst.data_type);
        for (size_t i = 0; i < c.srcs.size(); ++i) {
            const memory_desc_t &s = c.srcs[i];
            ANYDNN_REQUIRE(s.data_type == c.dst.data_type, dnnl_unimplemented,
                    "src %zu and dst data types differ", i);
            if (nelems(s) == 0) {
                pd.chunks.push_back(0);
                continue;
            }
            const memory_desc_t want = md_like(c.dst, s.ndims, s.dims, s.data_type);
            ANYDNN_REQUIRE(is_dense_unpadded(s) && same_layout(s, want), dnnl_unimplemented,
                    "src %zu is not laid out like dst", i);
            pd.chunks.push_back(static_cast<size_t>(nelems(s) / pd.outer) * esz);
        }
        return dnnl_success;
    }

    concat_conf_t conf;
    dim_t outer = 1; // chunks per source
    std::vector<size_t> chunks; // bytes of each source's chunk
};

struct concat_memcpy_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const concat_memcpy_pd_t &>(this->pd());
        const concat_conf_t &c = pd.conf;
        if (nelems(c.dst) == 0) return dnnl_success;
        const size_t esz = data_type_size(c.dst.data_type);
        const int n = static_cast<int>(c.srcs.size());
        constexpr size_t piece = 64 * 1024;

        // Work item = one piece of one source's chunk for one outer index.
        std::vector<const char *> src(n);
        std::vector<size_t> dst_start(n), first_piece(n + 1, 0);
        size_t dst_chunk = 0;
        for (int i = 0; i < n; ++i) {
            src[i] = static_cast<const char *>(ctx.host_ptr(DNNL_ARG_MULTIPLE_SRC + i))
                    + c.srcs[i].offset0 * esz;
            dst_start[i] = dst_chunk;
            dst_chunk += pd.chunks[i];
            first_piece[i + 1] = first_piece[i] + (pd.chunks[i] + piece - 1) / piece;
        }
        char *dst = static_cast<char *>(ctx.host_ptr(DNNL_ARG_DST)) + c.dst.offset0 * esz;
        const dim_t pieces_per_outer = static_cast<dim_t>(first_piece[n]);
        const dim_t items = pd.outer * pieces_per_outer;
        // Give each thread at least ~256 KiB of copying.
        const size_t avg_item = std::max<size_t>(1, dst_chunk / pieces_per_outer);
        const dim_t min_items = static_cast<dim_t>(std::max<size_t>(1, 4 * piece / avg_item));

        parallel_range(items, [&](dim_t start, dim_t end) {
            for (dim_t it = start; it < end; ++it) {
                const dim_t o = it / pieces_per_outer;
                const size_t p = static_cast<size_t>(it % pieces_per_outer);
                const int i = static_cast<int>(
                        std::upper_bound(first_piece.begin(), first_piece.end(), p)
                        - first_piece.begin() - 1);
                const size_t from = (p - first_piece[i]) * piece;
                const size_t bytes = std::min(piece, pd.chunks[i] - from);
                std::memcpy(dst + o * dst_chunk + dst_start[i] + from,
                        src[i] + o * pd.chunks[i] + from, bytes);
            }
        }, min_items);
        return dnnl_success;
    }
};

} // namespace

impl_entry_t concat_memcpy_entry() {
    return make_impl_entry<concat_memcpy_pd_t>("cpu:concat:memcpy");
}

} // namespace cpu
} // namespace anydnn
