// GPU reduction of plain dense tensors whose kept dims form at most two runs in memory order
// (the innermost axis, the outer axes around channels as NCHW -> 1C11, a middle axis,
// everything): wide loads
// along rows or down columns, slices reduced side by side into scratch, then joined with the
// final step and post-ops (reduction_dense.cl, gpu/dense_reduce_plan.hpp). Other layouts go
// to ocl:reduction:groups.
#include <algorithm>

#include "core/compute/compute.hpp"
#include "core/ops/reduction/common.hpp"
#include "core/primitive.hpp"
#include "gpu/dense_reduce_plan.hpp"
#include "gpu/dense_split.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/post_ops.hpp"
#include "gpu/reduce_launch.hpp"
#include "gpu/reduction/reduction_codes.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace rd = cpu::reduction;

struct reduction_dense_t;

struct reduction_dense_pd_t
    : public primitive_desc_impl_t<reduction_dense_pd_t, reduction_dense_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "ocl:reduction:dense"; }
    post_ops_t post_ops;
    dense_split_t split;
    dense_reduce_plan_t plan;

    static status_t init(reduction_dense_pd_t &pd) {
        memory_desc_t src, dst;
        ANYDNN_CHECK(rd::resolve(pd, src, dst));
        ANYDNN_CHECK(check_tensors({&src, &dst}));
        bool keep[DNNL_MAX_NDIMS] = {};
        for (int d = 0; d < src.ndims; ++d) {
            ANYDNN_REQUIRE(dst.dims[d] == src.dims[d] || dst.dims[d] == 1, dnnl_invalid_arguments,
                    "dst dim %d must be src's or 1", d);
            keep[d] = dst.dims[d] == src.dims[d];
        }
        ANYDNN_REQUIRE(split_dense(src, keep, pd.split), dnnl_unimplemented,
                "src is not plain dense with the kept dims in at most two runs of memory order");
        const size_t widest = std::max(data_type_size(src.data_type), size_t(1));
        ANYDNN_REQUIRE(pd.plan.init(pd.engine, pd.split, widest, src.offset0 % 8 == 0),
                dnnl_unimplemented, "nothing to reduce into");
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_DST] = dst;
        pd.scratchpad_size = pd.plan.partials() * sizeof(float);
        return pd.post_ops.init(pd.attr, dst, pd.args);
    }
};

struct reduction_dense_t : public primitive_t {
    using primitive_t::primitive_t;
    const reduction_dense_pd_t &pd_() const {
        return static_cast<const reduction_dense_pd_t &>(pd());
    }

    status_t init() override {
        const reduction_dense_pd_t &pd = pd_();
        const auto &d = rd::desc_of(pd);
        const std::string acc
                = " -DACC=" + std::to_string(acc_code(rd::acc_kind(d.alg_kind, d.p)));
        const std::string src_t = data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type);
        ANYDNN_CHECK(create_kernel(pd.engine, "reduction/reduction_dense.cl",
                src_t + acc + pd.plan.options() + row_options(pd.engine),
                pd.plan.rows ? "reduction_dense_rows" : "reduction_dense_cols", slices_));
        ANYDNN_CHECK(pd.post_ops.upload(pd.engine, post_ops_buffer_));
        const std::string fin = " -DFINAL -DVEC=1 -DGROUPS=1" + acc
                + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
                + pd.post_ops.build_options()
                + (pd.plan.join_in_groups(pd.engine) ? " -DGROUP_REDUCE" : "");
        return create_kernel(pd.engine, "reduction/reduction_dense.cl", fin,
                "reduction_dense_final", join_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const reduction_dense_pd_t &pd = pd_();
        const dense_reduce_plan_t &pl = pd.plan;
        const auto &d = rd::desc_of(pd);
        const memory_desc_t &src = pd.arg_md(DNNL_ARG_SRC), &dst = pd.arg_md(DNNL_ARG_DST);
        const memory_storage_t *part = ctx.scratchpad_storage;
        kernel_args_t a;
        a.add(storage_of(ctx, DNNL_ARG_SRC));
        a.add(part);
        a.add_value<int64_t>(src.offset0);
        size_t local = 0;
        const nd_range_t range = pl.range(slices_->max_work_group_size(), local);
        if (pl.rows) {
            for (int64_t v : {pl.A, pl.R1, pl.B, pl.R2, pl.rows1, pl.len2, pl.S2})
                a.add_value<int64_t>(v);
            a.add_value(d.p);
            add_row_buffer(a, local);
        } else {
            for (int64_t v : {pl.A, pl.R1, pl.B * pl.R2, pl.rows1, pl.col_items()})
                a.add_value<int64_t>(v);
            a.add_value(d.p);
        }
        ANYDNN_CHECK(slices_->launch(ctx.stream, a, range));

        kernel_args_t f;
        f.add(part);
        f.add(storage_of(ctx, DNNL_ARG_DST));
        add_layout(f, dst);
        add_logical_dims(f, dst);
        add_kept_strides(f, pd.split);
        for (int64_t v : {pl.A * pl.B, pl.K, pl.S, pl.R1 * pl.R2})
            f.add_value<int64_t>(v);
        f.add_value<int32_t>(finalize_code(d.alg_kind));
        f.add_value(d.p);
        f.add_value(d.eps);
        size_t jl = 0;
        const nd_range_t jr = pl.join_range(pd.engine, join_->max_work_group_size(), jl);
        add_row_buffer(f, jl);
        pd.post_ops.add_args(f, ctx, post_ops_buffer_.get());
        return join_->launch(ctx.stream, f, jr);
    }

private:
    std::shared_ptr<kernel_t> slices_, join_;
    std::unique_ptr<memory_storage_t> post_ops_buffer_; // the chain's parameters
};

} // namespace

impl_entry_t reduction_dense_entry() {
    return make_impl_entry<reduction_dense_pd_t>("ocl:reduction:dense");
}

} // namespace gpu
} // namespace anydnn
