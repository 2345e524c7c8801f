// GPU PReLU on dense tensors whose weights' dims sit together in src's memory order (per
// channel of NCHW or NHWC, scalar, full tensor): forward VEC per access, a weight per access
// or VEC of them; backward in one pass over src and diff_dst, writing diff_src and reducing
// diff_weights in slices (gpu/dense_reduce_plan.hpp) joined by the dense reduction's last
// kernel (prelu_dense.cl). Other layouts go to ocl:prelu:generic.
#include <algorithm>
#include <cstring>

#include "core/compute/compute.hpp"
#include "core/ops/prelu/common.hpp"
#include "gpu/dense_reduce_plan.hpp"
#include "gpu/dense_split.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/reduce_launch.hpp"
#include "gpu/tuning/op_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace pr = cpu::prelu;

struct prelu_dense_t;

struct prelu_dense_pd_t : public primitive_desc_impl_t<prelu_dense_pd_t, prelu_dense_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "ocl:prelu:dense"; }
    bool fwd = true;
    dense_split_t split;
    // Forward: VEC, GROUPS, and whether an access takes VEC weights (R2 == 1).
    int vec = 1, groups = 1;
    bool wvec = false;
    dense_reduce_plan_t plan; // backward
    bool direct = false; // backward: one slice per weight, diff_weights written at once

    static status_t init(prelu_dense_pd_t &pd) {
        ANYDNN_CHECK(pr::init_common(pd));
        for (const auto &a : pd.args)
            ANYDNN_CHECK(check_tensors({&a.second}));
        pd.fwd = pr::is_fwd(pr::desc_of(pd));
        const memory_desc_t &src = pd.args[DNNL_ARG_SRC], &wei = pd.args[DNNL_ARG_WEIGHTS];
        const std::vector<int> data = pd.fwd
                ? std::vector<int> {DNNL_ARG_SRC, DNNL_ARG_DST}
                : std::vector<int> {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC};
        bool same = true, aligned = true;
        size_t widest = 0;
        for (int a : data) {
            const memory_desc_t &md = pd.args[a];
            same = same && same_dense_layout({&src, &md});
            aligned = aligned && md.offset0 % 8 == 0;
            widest = std::max(widest, data_type_size(md.data_type));
        }
        ANYDNN_REQUIRE(same, dnnl_unimplemented, "the data tensors must share one dense layout");
        bool keep[DNNL_MAX_NDIMS] = {};
        for (int d = 0; d < src.ndims; ++d)
            keep[d] = wei.dims[d] == src.dims[d];
        ANYDNN_REQUIRE(split_dense(src, keep, pd.split) && pd.split.batch == 1, dnnl_unimplemented,
                "src is not dense with the weights' dims together in memory order");
        // Weights (and diff_weights) dense in src's order of those dims.
        for (int a : {DNNL_ARG_WEIGHTS, DNNL_ARG_DIFF_WEIGHTS}) {
            if (!pd.args.count(a)) continue;
            const memory_desc_t &w = pd.args[a];
            dense_split_t ws;
            ANYDNN_REQUIRE(split_dense(w, keep, ws) && ws.batch == 1 && ws.outer == 1
                            && ws.inner == 1
                            && std::memcmp(ws.kept_stride, pd.split.kept_stride,
                                       sizeof(ws.kept_stride))
                                    == 0,
                    dnnl_unimplemented, "weights are not dense in src's order");
            aligned = aligned && w.offset0 % 8 == 0;
        }
        const op_tuning_t &t = op_tuning(engine_caps(pd.engine));
        const int64_t R2 = pd.split.inner, B = pd.split.kept;
        if (pd.fwd) {
            const int width = t.vector_elems == 1 ? 1 : vector_width(t, widest);
            pd.vec = aligned ? width : 1;
            pd.wvec = R2 == 1 && pd.vec > 1 && B % pd.vec == 0;
            if (!pd.wvec)
                while (pd.vec > 1 && R2 % pd.vec)
                    pd.vec = pd.vec == 8 ? 4 : 1; // groups of 8, 4 or 1
            pd.groups = vector_groups(t, widest, std::max(pd.vec, 4));
            return dnnl_success;
        }
        ANYDNN_REQUIRE(pd.plan.init(pd.engine, pd.split, widest, aligned, true),
                dnnl_unimplemented, "no weights");
        pd.direct = pd.plan.S == 1 && pd.plan.K == 1;
        if (!pd.direct) pd.scratchpad_size = pd.plan.partials() * sizeof(float);
        return dnnl_success;
    }
};

struct prelu_dense_t : public primitive_t {
    using primitive_t::primitive_t;
    const prelu_dense_pd_t &pd_() const { return static_cast<const prelu_dense_pd_t &>(pd()); }

    status_t init() override {
        const prelu_dense_pd_t &pd = pd_();
        std::string opt = data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type)
                + data_type_options("WEI", pd.arg_md(DNNL_ARG_WEIGHTS).data_type);
        const int64_t n = nelems(pd.arg_md(DNNL_ARG_SRC));
        if (n < (int64_t(1) << 32)) opt += " -DINDEX32";
        if (pd.fwd) {
            opt += " -DFWD" + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
                    + " -DVEC=" + std::to_string(pd.vec) + " -DGROUPS="
                    + std::to_string(pd.groups) + (pd.wvec ? " -DWVEC" : "");
            return create_kernel(pd.engine, "prelu/prelu_dense.cl", opt, "prelu_dense_fwd", main_);
        }
        const dense_reduce_plan_t &pl = pd.plan;
        const dnnl_data_type_t dw_t = pd.arg_md(DNNL_ARG_DIFF_WEIGHTS).data_type;
        opt += " -DBWD" + data_type_options("DIFF_DST", pd.arg_md(DNNL_ARG_DIFF_DST).data_type)
                + data_type_options("DIFF_SRC", pd.arg_md(DNNL_ARG_DIFF_SRC).data_type)
                + data_type_options("DIFF_WEI", dw_t) + pl.options() + row_options(pd.engine)
                + (pd.direct ? " -DDIRECT" : "")
                + (!pl.rows && pl.R2 == 1 && pl.vec > 1 ? " -DWVEC" : "");
        ANYDNN_CHECK(create_kernel(pd.engine, "prelu/prelu_dense.cl", opt,
                pl.rows ? "prelu_dense_bwd_rows" : "prelu_dense_bwd_cols", main_));
        if (pd.direct) return dnnl_success;
        const std::string fin = " -DFINAL -DVEC=1 -DGROUPS=1 -DACC=2"
                + data_type_options("DST", dw_t)
                + (pl.join_in_groups(pd.engine) ? " -DGROUP_REDUCE" : "");
        return create_kernel(pd.engine, "reduction/reduction_dense.cl", fin,
                "reduction_dense_final", join_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const prelu_dense_pd_t &pd = pd_();
        const dense_split_t &s = pd.split;
        const int64_t n = s.outer * s.kept * s.inner;
        kernel_args_t a;
        if (pd.fwd) {
            for (int arg : {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST})
                a.add(storage_of(ctx, arg));
            for (int arg : {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST})
                a.add_value<int64_t>(pd.arg_md(arg).offset0);
            for (int64_t v : {n, s.inner, s.kept})
                a.add_value<int64_t>(v);
            return main_->launch(ctx.stream, a,
                    range_1d(size_t(vector_items(n, pd.groups, pd.vec))));
        }
        const dense_reduce_plan_t &pl = pd.plan;
        const int tensors[] = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DIFF_DST,
                DNNL_ARG_DIFF_SRC};
        for (int arg : tensors)
            a.add(storage_of(ctx, arg));
        a.add(pd.direct ? nullptr : ctx.scratchpad_storage);
        a.add(storage_of(ctx, DNNL_ARG_DIFF_WEIGHTS));
        for (int arg : tensors)
            a.add_value<int64_t>(pd.arg_md(arg).offset0);
        a.add_value<int64_t>(pd.arg_md(DNNL_ARG_DIFF_WEIGHTS).offset0);
        size_t local = 0;
        const nd_range_t range = pl.range(main_->max_work_group_size(), local);
        if (pl.rows) {
            for (int64_t v : {pl.R1, pl.B, pl.R2, pl.rows1, pl.len2, pl.S2})
                a.add_value<int64_t>(v);
            add_row_buffer(a, local);
        } else {
            for (int64_t v : {pl.R1, pl.B * pl.R2, pl.R2, pl.rows1, pl.col_items()})
                a.add_value<int64_t>(v);
        }
        ANYDNN_CHECK(main_->launch(ctx.stream, a, range));
        if (pd.direct) return dnnl_success;
        const memory_desc_t &dw = pd.arg_md(DNNL_ARG_DIFF_WEIGHTS);
        kernel_args_t f;
        f.add(ctx.scratchpad_storage);
        f.add(storage_of(ctx, DNNL_ARG_DIFF_WEIGHTS));
        add_layout(f, dw);
        add_logical_dims(f, dw);
        add_kept_strides(f, s);
        for (int64_t v : {pl.B, pl.K, pl.S, pl.R1 * pl.R2})
            f.add_value<int64_t>(v);
        f.add_value<int32_t>(0);
        f.add_value(0.f);
        f.add_value(0.f);
        size_t jl = 0;
        const nd_range_t jr = pl.join_range(pd.engine, join_->max_work_group_size(), jl);
        add_row_buffer(f, jl);
        return join_->launch(ctx.stream, f, jr);
    }

private:
    std::shared_ptr<kernel_t> main_, join_;
};

} // namespace

impl_entry_t prelu_dense_entry() { return make_impl_entry<prelu_dense_pd_t>("ocl:prelu:dense"); }

} // namespace gpu
} // namespace anydnn
