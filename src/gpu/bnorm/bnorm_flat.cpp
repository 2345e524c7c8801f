// GPU batch normalization at memory bandwidth for plain dense layouts (NCHW-like and
// channels-last): partial statistics over many work-groups per channel (shifted sums), a
// per-channel finalize, then a vectorised elementwise apply (bnorm_flat.cl). Every flag the
// channel kernel takes; channel-blocked layouts (nChw16c, nChw8c, with channel tails) too;
// other blocked layouts go to ocl:bnorm:channels.
#include <algorithm>

#include "core/compute/compute.hpp"
#include "core/ops/bnorm/common.hpp"
#include "core/ops/layout.hpp"
#include "core/primitive.hpp"
#include "gpu/bnorm/bnorm_flags.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/tuning/op_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace bn = cpu::bnorm;

size_t pow2_at_least(size_t n) {
    size_t p = 1;
    while (p < n)
        p *= 2;
    return p;
}

dim_t div_up(dim_t a, dim_t b) {
    return (a + b - 1) / b;
}

// The data tensors viewed as [O][C][I]: false unless the layout is plain with the channel's
// elements I apart and every other dimension outside or inside it.
bool channel_view(const memory_desc_t &md, dim_t &O, dim_t &C, dim_t &I) {
    if (md.format_kind != dnnl_blocked || md.blocking.inner_nblks != 0 || md.ndims < 2)
        return false;
    C = md.dims[1];
    const dim_t total = nelems(md);
    if (C <= 1) { // no channel structure to respect
        I = 1;
        O = C ? total : 0;
        return true;
    }
    const dim_t cs = md.blocking.strides[1];
    I = 1;
    for (int d = 0; d < md.ndims; ++d)
        if (d != 1 && md.dims[d] > 1 && md.blocking.strides[d] < cs) I *= md.dims[d];
    if (cs != I) return false;
    for (int d = 0; d < md.ndims; ++d)
        if (d != 1 && md.dims[d] > 1 && md.blocking.strides[d] > cs
                && md.blocking.strides[d] < C * I)
            return false;
    O = total / (C * I);
    return true;
}

// The data tensors viewed as [O][C / B][I][B]: channels blocked by B (8 or 16) innermost, the
// blocks outside the spatial dims and inside the batch, densely (padding included).
bool block_view(const memory_desc_t &md, dim_t &O, dim_t &C, dim_t &I, int &B) {
    const auto &bk = md.blocking;
    if (md.format_kind != dnnl_blocked || bk.inner_nblks != 1 || bk.inner_idxs[0] != 1
            || (bk.inner_blks[0] != 8 && bk.inner_blks[0] != 16) || md.ndims < 3
            || !is_dense(md, true))
        return false;
    B = int(bk.inner_blks[0]);
    C = md.dims[1];
    O = md.dims[0];
    I = 1;
    for (int d = 2; d < md.ndims; ++d)
        I *= md.dims[d];
    // Strides, innermost out: spatial dims row-major from B, the channel blocks, the batch.
    dim_t expect = B;
    for (int d = md.ndims - 1; d >= 2; --d) {
        if (md.padded_dims[d] != md.dims[d] || (md.dims[d] > 1 && bk.strides[d] != expect))
            return false;
        expect *= md.dims[d];
    }
    if (md.padded_dims[1] > B && bk.strides[1] != expect) return false;
    expect *= md.padded_dims[1] / B;
    return md.padded_dims[0] == O && (O <= 1 || bk.strides[0] == expect)
            && md.padded_dims[1] == (C + B - 1) / B * B;
}

struct bnorm_flat_t;

struct bnorm_flat_pd_t : public primitive_desc_impl_t<bnorm_flat_pd_t, bnorm_flat_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return "ocl:bnorm:flat";
    }
    bn::conf_t conf;
    dim_t O = 0, C = 0, I = 1;
    bool ch_last = false;
    bool po_relu = false; // a relu post-op of slope 0
    int vec = 1;
    int block = 0; // channel block (8, 16) of a blocked layout; 0: plain
    dim_t cpad = 0; // channels padded to the block (plain: C)
    size_t group = 1; // work-group size of the stats and apply kernels
    int tx_n = 1; // channels-last stats: work-items along C
    dim_t o_per_part = 1;
    int parts = 0; // work-groups along O per channel (tile); 0: no stats kernel
    dim_t part_off = 0; // floats of coefficients before the partial sums

    std::vector<int> data_args() const {
        if (conf.fwd)
            return {DNNL_ARG_SRC, DNNL_ARG_DST, DNNL_ARG_SRC_1, DNNL_ARG_WORKSPACE};
        return {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC, DNNL_ARG_DIFF_SRC_1,
                DNNL_ARG_WORKSPACE};
    }

    static status_t init(bnorm_flat_pd_t &pd) {
        ANYDNN_CHECK(init_bnorm_common(pd));
        // A relu post-op of slope 0 is the fused relu without its workspace.
        float alpha = 0.f;
        pd.po_relu = cpu::bnorm::relu_post_op(pd.attr, alpha);
        ANYDNN_REQUIRE(!pd.po_relu || alpha == 0.f, dnnl_unimplemented,
                "relu post-op with a negative slope (ocl:bnorm:channels applies it)");
        const memory_desc_t &src = pd.arg_md(DNNL_ARG_SRC);
        const bool blocked = block_view(src, pd.O, pd.C, pd.I, pd.block);
        bool same = true;
        for (int a : pd.data_args()) {
            auto it = pd.args.find(a);
            if (it == pd.args.end()) continue;
            same = same
                    && (blocked ? cpu::same_layout(src, it->second)
                                : same_dense_layout({&src, &it->second}));
        }
        if (!blocked) pd.block = 0;
        ANYDNN_REQUIRE(same && (blocked || channel_view(src, pd.O, pd.C, pd.I)),
                dnnl_unimplemented,
                "flat batch normalization takes one dense layout, plain or channels blocked "
                "by 8 or 16, for every data tensor");
        pd.cpad = blocked ? (pd.C + pd.block - 1) / pd.block * pd.block : pd.C;
        auto st = pd.args.find(DNNL_ARG_VARIANCE);
        ANYDNN_REQUIRE(st == pd.args.end() || is_dense(st->second), dnnl_unimplemented,
                "flat batch normalization takes dense statistics");
        pd.ch_last = !blocked && pd.I == 1;
        const op_tuning_t &t = op_tuning(engine_caps(pd.engine));
        const dim_t row_len = blocked ? pd.block : pd.ch_last ? pd.C : pd.I;
        bool aligned = row_len % 4 == 0;
        for (const auto &a : pd.args)
            aligned = aligned && a.second.offset0 % 4 == 0;
        pd.vec = t.vector_elems == 4 && aligned ? 4 : 1;
        pd.group = size_t(t.bandwidth_group);
        const bool stats = !pd.conf.fwd || !pd.conf.global_stats;
        if (blocked) {
            // tx_n work-items cover a block's channels, VEC each (the stats kernel's local
            // size is at least tx_n).
            pd.tx_n = pd.block / pd.vec;
            pd.parts = int(std::clamp<dim_t>(div_up(t.bnorm_stat_groups, pd.cpad / pd.block), 1,
                    std::max<dim_t>(pd.O, 1)));
        } else if (pd.ch_last) {
            pd.tx_n = int(std::min(pd.group, pow2_at_least(size_t(div_up(pd.C, pd.vec)))));
            const dim_t ty_n = dim_t(pd.group) / pd.tx_n;
            const dim_t ctiles = div_up(pd.C, dim_t(pd.tx_n) * pd.vec);
            const dim_t max_parts = std::max<dim_t>(1, div_up(pd.O, ty_n));
            pd.parts = int(std::clamp<dim_t>(div_up(t.bnorm_stat_groups, ctiles), 1, max_parts));
        } else {
            pd.parts = int(std::clamp<dim_t>(
                    div_up(t.bnorm_stat_groups, pd.C), 1, std::max<dim_t>(pd.O, 1)));
        }
        pd.o_per_part = std::max<dim_t>(1, div_up(pd.O, pd.parts));
        pd.parts = stats ? int(std::max<dim_t>(1, div_up(pd.O, pd.o_per_part))) : 0;
        pd.part_off = div_up(3 * pd.cpad, 4) * 4;
        pd.scratchpad_size = size_t(pd.part_off + 2 * pd.cpad * pd.parts) * sizeof(float);
        return dnnl_success;
    }
};

struct bnorm_flat_t : public primitive_t {
    using primitive_t::primitive_t;
    const bnorm_flat_pd_t &pd_() const {
        return static_cast<const bnorm_flat_pd_t &>(pd());
    }

    status_t init() override {
        const bnorm_flat_pd_t &pd = pd_();
        std::string opt = data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type)
                          + " -DVEC=" + std::to_string(pd.vec);
        if (pd.ch_last) opt += " -DCH_LAST";
        if (pd.block) opt += " -DBLOCK=" + std::to_string(pd.block);
        if (pd.group > 1) opt += " -DGROUP_REDUCE";
        if (pd.conf.fwd)
            opt += " -DFWD" + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type);
        else
            opt += " -DBWD"
                   + data_type_options("DIFF_DST", pd.arg_md(DNNL_ARG_DIFF_DST).data_type)
                   + data_type_options("DIFF_SRC", pd.arg_md(DNNL_ARG_DIFF_SRC).data_type);
        const char *file = "bnorm/bnorm_flat.cl";
        if (pd.parts) ANYDNN_CHECK(create_kernel(pd.engine, file, opt, "bnorm_flat_stats", stats_));
        ANYDNN_CHECK(create_kernel(pd.engine, file, opt, "bnorm_flat_finalize", finalize_));
        return create_kernel(pd.engine, file, opt, "bnorm_flat_apply", apply_);
    }

    int64_t off(int arg) const {
        auto it = pd_().args.find(arg);
        return it != pd_().args.end() ? it->second.offset0 : 0;
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const bnorm_flat_pd_t &pd = pd_();
        if (pd.C == 0) return dnnl_success;
        const int flags = bnorm_flags(pd.conf, pd.args) | (pd.po_relu ? bn_relu : 0);
        const memory_storage_t *scratch = ctx.scratchpad_storage;
        const int64_t stat_off = off(DNNL_ARG_VARIANCE);
        // The stats and apply work-group: the tuned size where the kernel allows it.
        size_t group = 1;
        if (pd.group > 1) {
            const size_t limit = std::min(pd.group, apply_->max_work_group_size());
            while (group * 2 <= limit)
                group *= 2;
        }
        if (pd.parts) {
            // The channels-last split was planned for pd.group work-items; a smaller limit
            // keeps tx_n and shortens ty.
            const size_t sg = std::min(group, stats_->max_work_group_size());
            size_t local = 1;
            while (local * 2 <= sg)
                local *= 2;
            // Blocked: the block's channels need tx_n work-items side by side.
            if (pd.block) local = std::max(local, size_t(pd.tx_n));
            const int tx_n = int(std::min<size_t>(size_t(pd.tx_n), local));
            kernel_args_t a;
            a.add(storage_of(ctx, DNNL_ARG_SRC));
            if (!pd.conf.fwd) {
                a.add(storage_of(ctx, DNNL_ARG_DIFF_DST));
                a.add(storage_of(ctx, DNNL_ARG_WORKSPACE));
                a.add(storage_of(ctx, DNNL_ARG_MEAN));
                a.add_value<int64_t>(off(DNNL_ARG_DIFF_DST));
                a.add_value<int64_t>(off(DNNL_ARG_WORKSPACE));
                a.add_value<int64_t>(stat_off);
            }
            a.add_value<int64_t>(off(DNNL_ARG_SRC));
            for (dim_t v : {pd.O, pd.C, pd.I, pd.o_per_part})
                a.add_value<int64_t>(v);
            a.add_value<int32_t>(pd.parts);
            a.add_value<int32_t>(tx_n);
            a.add_value<int32_t>(flags);
            a.add(scratch);
            a.add_value<int64_t>(pd.part_off);
            a.add_local(local * pd.vec * sizeof(float));
            const dim_t tiles = pd.block ? pd.cpad / pd.block
                    : pd.ch_last           ? div_up(pd.C, dim_t(tx_n) * pd.vec)
                                           : pd.C;
            ANYDNN_CHECK(stats_->launch(
                    ctx.stream, a, group_range(size_t(tiles * pd.parts), local)));
        }
        kernel_args_t f;
        f.add(storage_of(ctx, DNNL_ARG_SRC));
        for (int arg : {DNNL_ARG_MEAN, DNNL_ARG_VARIANCE, DNNL_ARG_SCALE, DNNL_ARG_SHIFT,
                     DNNL_ARG_DIFF_SCALE, DNNL_ARG_DIFF_SHIFT})
            f.add(storage_of(ctx, arg));
        f.add(scratch);
        f.add_value<int64_t>(pd.part_off);
        f.add_value<int64_t>(off(DNNL_ARG_SRC));
        f.add_value<int64_t>(stat_off);
        for (dim_t v : {pd.O, pd.C, pd.I})
            f.add_value<int64_t>(v);
        f.add_value<int32_t>(pd.parts);
        f.add_value<int32_t>(flags);
        f.add_value(pd.conf.eps);
        // A group per channel, sized to the parts it joins.
        size_t fl = 1;
        while (fl < group && fl < size_t(pd.parts) && fl * 2 <= finalize_->max_work_group_size())
            fl *= 2;
        f.add_local(fl * sizeof(float));
        ANYDNN_CHECK(finalize_->launch(ctx.stream, f, group_range(size_t(pd.cpad), fl)));

        const dim_t row_len = pd.block ? pd.I * pd.block : pd.ch_last ? pd.C : pd.I;
        const dim_t rows = pd.block ? pd.O * (pd.cpad / pd.block)
                : pd.ch_last        ? pd.O
                                    : pd.O * pd.C;
        if (row_len == 0 || rows == 0) return dnnl_success;
        kernel_args_t e;
        const std::vector<int> data = pd.data_args();
        for (int arg : data)
            e.add(storage_of(ctx, arg));
        e.add(scratch);
        for (int arg : data)
            e.add_value<int64_t>(off(arg));
        for (dim_t v : {pd.O, pd.C, pd.I})
            e.add_value<int64_t>(v);
        e.add_value<int32_t>(flags);
        return apply_->launch(ctx.stream, e, apply_range(size_t(div_up(row_len, pd.vec)),
                                                     size_t(rows), group));
    }

private:
    // n work-groups of `local` work-items (the kernel reads its group and local ids).
    static nd_range_t group_range(size_t n, size_t local) {
        nd_range_t r;
        r.global[0] = n * local;
        r.local[0] = local;
        return r;
    }
    // cols x rows work-items, in groups of `local` shaped to the row's width.
    static nd_range_t apply_range(size_t cols, size_t rows, size_t local) {
        nd_range_t r;
        r.ndims = 2;
        if (local <= 1) {
            r.global[0] = cols;
            r.global[1] = rows;
            return r;
        }
        const size_t lx = std::min(local, pow2_at_least(cols)), ly = local / lx;
        r.local[0] = lx;
        r.local[1] = ly;
        r.global[0] = (cols + lx - 1) / lx * lx;
        r.global[1] = (rows + ly - 1) / ly * ly;
        return r;
    }

    std::shared_ptr<kernel_t> stats_, finalize_, apply_;
};

} // namespace

impl_entry_t bnorm_flat_entry() {
    return make_impl_entry<bnorm_flat_pd_t>("ocl:bnorm:flat");
}

} // namespace gpu
} // namespace anydnn
