// GPU resampling (nearest, linear), forward and backward, over dense channels-first (NCW,
// NCHW, NCDHW) or channels-last tensors with no post-ops: sizes compiled into the kernel, the
// taps a table of the CPU engine's index maps, VEC elements per work-item along the innermost
// dim (resampling_dense.cl); nearest forward over channels first along the flat dst, with a
// src row offset per (od, oh) and a src iw per ow in the table. Work-groups of the tuning
// table's bandwidth_group. ocl:resampling:generic takes everything else.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/compute/compute.hpp"
#include "core/ops/resampling/common.hpp"
#include "core/primitive.hpp"
#include "core/ops/resampling/coeffs.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/tuning/op_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace rs = cpu::resampling;

// Whether md lies in memory as N C spatial... (channels first) or N spatial... C (channels
// last), densely with no padding.
bool dense_order(const memory_desc_t &md, bool channels_last) {
    if (!cpu::is_dense_unpadded(md) || md.blocking.inner_nblks != 0) return false;
    const int nd = md.ndims;
    dim_t expect = 1;
    for (int i = nd - 1; i >= 0; --i) {
        const int d = !channels_last || i == 0 ? i : i == nd - 1 ? 1 : i + 1;
        if (md.dims[d] != 1 && md.blocking.strides[d] != expect) return false;
        expect *= md.dims[d];
    }
    return true;
}

// The table of taps (resampling_dense.cl): 32-bit words, float weights as their bits.
struct tap_table_t {
    std::vector<int32_t> words;
    int64_t fwd[3] = {}, offs[3] = {}, pairs[3] = {};
    int64_t rows = 0, cols = 0; // nearest forward over channels first: the maps' offsets

    void push_float(float f) {
        int32_t w;
        std::memcpy(&w, &f, sizeof(w));
        words.push_back(w);
    }

    tap_table_t(const rs::geometry_t &g, bool fwd_dir) {
        for (int k = 0; k < 3; ++k) {
            if (fwd_dir) {
                fwd[k] = int64_t(words.size());
                for (const rs::tap_t &t : g.fwd[k]) {
                    words.push_back(int32_t(t.i0));
                    words.push_back(int32_t(t.i1));
                    push_float(t.w0);
                    push_float(t.w1);
                }
                continue;
            }
            offs[k] = int64_t(words.size());
            if (g.bwd_off[k].empty()) // an empty dim: no readers
                words.insert(words.end(), size_t(g.in[k] + 1), 0);
            for (dim_t o : g.bwd_off[k])
                words.push_back(int32_t(o));
        }
        for (int k = 0; k < 3 && !fwd_dir; ++k) {
            pairs[k] = int64_t(words.size());
            for (const auto &p : g.bwd[k]) {
                words.push_back(int32_t(p.first));
                push_float(p.second);
            }
        }
        if (fwd_dir && !g.linear) nearest_maps(g);
        if (words.empty()) words.push_back(0); // no taps (an empty tensor): a buffer still
    }

    // Per (od, oh) the offset of the src row it reads within an image, per ow the src iw
    // (where every dim's taps exist: a non-empty src). cols starts at a multiple of 8 words,
    // so that a group of 4 or 8 of its entries is one aligned vector.
    void nearest_maps(const rs::geometry_t &g) {
        for (int k = 0; k < 3; ++k)
            if (dim_t(g.fwd[k].size()) != g.out[k]) return;
        rows = int64_t(words.size());
        for (dim_t od = 0; od < g.out[0]; ++od)
            for (dim_t oh = 0; oh < g.out[1]; ++oh)
                words.push_back(int32_t((g.fwd[0][od].i0 * g.in[1] + g.fwd[1][oh].i0) * g.in[2]));
        words.resize((words.size() + 7) / 8 * 8, 0);
        cols = int64_t(words.size());
        for (const rs::tap_t &t : g.fwd[2])
            words.push_back(int32_t(t.i0));
    }
};

struct resampling_dense_t;

struct resampling_dense_pd_t
    : public primitive_desc_impl_t<resampling_dense_pd_t, resampling_dense_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return "ocl:resampling:dense";
    }
    bool fwd = true;
    bool channels_last = false;
    bool nearest_rows = false; // nearest forward over channels first: the flat path
    int vec = 1;
    size_t group = 0; // work-group size (0: the runtime's choice)

    static status_t init(resampling_dense_pd_t &pd) {
        const auto &d = rs::desc_of(pd);
        pd.fwd = rs::is_fwd(d);
        ANYDNN_CHECK(rs::check_attr(pd.attr, pd.fwd));
        ANYDNN_REQUIRE(pd.attr.post_ops.entries.empty(), dnnl_unimplemented,
                "post-ops (ocl:resampling:generic applies them)");
        memory_desc_t src, dst;
        ANYDNN_CHECK(rs::resolve(pd, src, dst));
        ANYDNN_CHECK(check_tensors({&src, &dst}));
        ANYDNN_REQUIRE(src.ndims >= 3 && src.ndims <= 5, dnnl_unimplemented,
                "resampling takes 3 to 5 dimensions");
        pd.channels_last = dense_order(src, true) && dense_order(dst, true);
        ANYDNN_REQUIRE(pd.channels_last || (dense_order(src, false) && dense_order(dst, false)),
                dnnl_unimplemented,
                "src and dst are not both dense channels-first or both dense channels-last");
        ANYDNN_REQUIRE(nelems(src) < (int64_t(1) << 31) && nelems(dst) < (int64_t(1) << 31),
                dnnl_unimplemented, "tensors of 2^31 elements or more (32-bit indices)");
        for (int k = 2; k < src.ndims; ++k)
            ANYDNN_REQUIRE(src.dims[k] > 0 || nelems(dst) == 0 || !pd.fwd, dnnl_unimplemented,
                    "empty spatial src dimension with a non-empty dst");
        // VEC along the innermost dim of the tensor written (channels, or W), where both
        // tensors' innermost extent and offset0 allow whole groups.
        const dim_t inner_w = pd.fwd ? dst.dims[src.ndims - 1] : src.dims[src.ndims - 1];
        const dim_t inner = pd.channels_last ? src.dims[1] : inner_w;
        const op_tuning_t &t = op_tuning(engine_caps(pd.engine));
        pd.vec = t.vector_elems == 4 && inner % 4 == 0 && src.offset0 % 4 == 0
                                 && dst.offset0 % 4 == 0
                         ? 4
                         : 1;
        // Nearest forward over channels first stores groups along the flat dst (rows run into
        // each other), so only dst's offset0 matters; eight 2-byte elements where the table's
        // access width takes them.
        pd.nearest_rows =
                pd.fwd && !pd.channels_last && rs::desc_of(pd).alg_kind == dnnl_resampling_nearest;
        if (pd.nearest_rows) {
            const int w = vector_width(
                    t, std::max(data_type_size(src.data_type), data_type_size(dst.data_type)));
            pd.vec = t.vector_elems == 4 && dst.offset0 % w == 0 ? w : 1;
        }
        if (t.bandwidth_group > 1) pd.group = size_t(t.bandwidth_group);
        pd.args[pd.fwd ? DNNL_ARG_SRC : DNNL_ARG_DIFF_SRC] = src;
        pd.args[pd.fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST] = dst;
        return dnnl_success;
    }
};

struct resampling_dense_t : public primitive_t {
    using primitive_t::primitive_t;
    const resampling_dense_pd_t &pd_() const {
        return static_cast<const resampling_dense_pd_t &>(pd());
    }

    status_t init() override {
        const resampling_dense_pd_t &pd = pd_();
        const memory_desc_t &src = pd.arg_md(pd.fwd ? DNNL_ARG_SRC : DNNL_ARG_DIFF_SRC),
                            &dst = pd.arg_md(pd.fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST);
        const rs::geometry_t g(src, dst, rs::desc_of(pd).alg_kind, !pd.fwd);
        const tap_table_t tab(g, pd.fwd);
        std::string opt = pd.fwd ? " -DFWD" + data_type_options("SRC", src.data_type)
                                           + data_type_options("DST", dst.data_type)
                                 : " -DBWD" + data_type_options("DIFF_SRC", src.data_type)
                                           + data_type_options("DIFF_DST", dst.data_type);
        auto def = [&opt](const char *name, int64_t v) {
            opt += " -D" + std::string(name) + "=" + std::to_string(v);
        };
        def("VEC", pd.vec), def("MB", g.mb), def("C", g.c), def("LINEAR", g.linear);
        const char *in[] = {"ID", "IH", "IW"}, *out[] = {"OD", "OH", "OW"};
        const char *tf[] = {"TF_D", "TF_H", "TF_W"}, *to[] = {"TO_D", "TO_H", "TO_W"},
                   *te[] = {"TE_D", "TE_H", "TE_W"};
        for (int k = 0; k < 3; ++k) {
            def(in[k], g.in[k]), def(out[k], g.out[k]);
            def(tf[k], tab.fwd[k]), def(to[k], tab.offs[k]), def(te[k], tab.pairs[k]);
        }
        def("SRC_OFF", src.offset0), def("DST_OFF", dst.offset0);
        if (pd.channels_last) opt += " -DCHANNELS_LAST";
        if (pd.nearest_rows) {
            opt += " -DNEAREST_ROWS";
            def("TN_R", tab.rows), def("TN_W", tab.cols);
        }
        ANYDNN_CHECK(upload(pd.engine, tab.words));
        return create_kernel(pd.engine, "resampling/resampling_dense.cl", opt,
                pd.fwd ? "resampling_dense_fwd" : "resampling_dense_bwd", kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const resampling_dense_pd_t &pd = pd_();
        const int first = pd.fwd ? DNNL_ARG_SRC : DNNL_ARG_DIFF_SRC;
        const int second = pd.fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST;
        // One work-item per VEC elements written: dst forward, diff_src backward.
        const int64_t n = nelems(pd.arg_md(pd.fwd ? second : first));
        if (n == 0) return dnnl_success;
        kernel_args_t args;
        args.add(storage_of(ctx, first));
        args.add(storage_of(ctx, second));
        args.add(table_.get());
        // Forward nearest over channels first: a last short group of its own.
        const size_t items = size_t(pd.nearest_rows ? (n + pd.vec - 1) / pd.vec : n / pd.vec);
        nd_range_t range = range_1d(items);
        const size_t group = std::min(pd.group, kernel_->max_work_group_size());
        if (group > 1) {
            range.global[0] = (items + group - 1) / group * group;
            range.local[0] = group;
        }
        return kernel_->launch(ctx.stream, args, range);
    }

private:
    status_t upload(engine_t *engine, const std::vector<int32_t> &words) {
        const size_t bytes = words.size() * sizeof(int32_t);
        ANYDNN_CHECK(engine->create_memory_storage(table_, bytes, DNNL_MEMORY_ALLOCATE));
        void *host = nullptr;
        ANYDNN_CHECK(table_->map(&host));
        std::memcpy(host, words.data(), bytes);
        return table_->unmap(host);
    }

    std::shared_ptr<kernel_t> kernel_;
    std::unique_ptr<memory_storage_t> table_; // the taps (tap_table_t)
};

} // namespace

impl_entry_t resampling_dense_entry() {
    return make_impl_entry<resampling_dense_pd_t>("ocl:resampling:dense");
}

} // namespace gpu
} // namespace anydnn
