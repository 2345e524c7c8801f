// GPU softmax forward and backward (accurate and log) over rows contiguous in memory, read
// once: the row is kept in registers by T work-items (softmax_rows.cl). Sizes come from the tuning table
// (row_elems per work-item, at most row_elems_max); rows wider than that are read twice by a
// whole work-group (ocl:softmax:rows_streamed). src/dst scales; rows whose layout or
// post-ops it does not take go to ocl:softmax:rows.
#include "core/compute/compute.hpp"
#include "core/ops/scales.hpp"
#include "core/ops/softmax/common.hpp"
#include "core/primitive.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/quant_attr.hpp"
#include "gpu/reduce_launch.hpp"
#include "gpu/row_plan.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace sm = cpu::softmax;

struct softmax_rows_t;

struct softmax_rows_pd_t : public primitive_desc_impl_t<softmax_rows_pd_t, softmax_rows_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return plan.streamed ? "ocl:softmax:rows_streamed" : "ocl:softmax:rows_in_registers";
    }
    row_plan_t plan;
    bool fwd = true;

    static status_t init(softmax_rows_pd_t &pd) {
        const softmax_desc_t &d = sm::desc_of(pd);
        pd.fwd = sm::is_fwd(d);
        if (!pd.fwd) return init_bwd(pd);
        memory_desc_t src, dst;
        ANYDNN_CHECK(sm::resolve_fwd(pd, src, dst, false));
        ANYDNN_CHECK(check_tensors({&src, &dst}));
        ANYDNN_CHECK(cpu::init_common_scales(pd.attr, {DNNL_ARG_SRC, DNNL_ARG_DST}, pd.args));
        ANYDNN_CHECK(check_quant_attr(pd.attr, true));
        ANYDNN_REQUIRE(d.axis == src.ndims - 1 && row_major_dense(src) && row_major_dense(dst),
                dnnl_unimplemented, "rows in registers take the innermost axis, rows dense");
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_DST] = dst;
        const bool aligned = src.offset0 % 4 == 0 && dst.offset0 % 4 == 0;
        const int64_t C = src.dims[src.ndims - 1];
        ANYDNN_REQUIRE(plan_rows(pd.engine, C, aligned, pd.plan)
                        || plan_streamed_rows(pd.engine, C, aligned, pd.plan),
                dnnl_unimplemented, "the device keeps rows to one work-item each");
        return dnnl_success;
    }

    // dst, diff_dst and diff_src rows dense along the innermost axis; registers hold two
    // arrays (the backward plan's half), wider rows are streamed.
    static status_t init_bwd(softmax_rows_pd_t &pd) {
        const softmax_desc_t &d = sm::desc_of(pd);
        ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::fpmath | attr_skip::scratchpad
                               | attr_skip::deterministic | attr_skip::acc_mode),
                dnnl_unimplemented, "backward softmax takes no scales or post-ops");
        memory_desc_t dst, dd, ds;
        ANYDNN_CHECK(sm::resolve_bwd(pd, dst, dd, ds));
        ANYDNN_CHECK(check_tensors({&dst, &dd, &ds}));
        ANYDNN_REQUIRE(d.axis == dst.ndims - 1 && row_major_dense(dst) && row_major_dense(dd)
                               && row_major_dense(ds),
                dnnl_unimplemented, "rows in registers take the innermost axis, rows dense");
        pd.args[DNNL_ARG_DST] = dst;
        pd.args[DNNL_ARG_DIFF_DST] = dd;
        pd.args[DNNL_ARG_DIFF_SRC] = ds;
        const bool aligned = dst.offset0 % 4 == 0 && dd.offset0 % 4 == 0 && ds.offset0 % 4 == 0;
        const int64_t C = dst.dims[dst.ndims - 1];
        ANYDNN_REQUIRE(plan_rows(pd.engine, C, aligned, pd.plan, true)
                        || plan_streamed_rows(pd.engine, C, aligned, pd.plan),
                dnnl_unimplemented, "the device keeps rows to one work-item each");
        return dnnl_success;
    }
};

struct softmax_rows_t : public primitive_t {
    using primitive_t::primitive_t;
    const softmax_rows_pd_t &pd_() const {
        return static_cast<const softmax_rows_pd_t &>(pd());
    }

    status_t init() override {
        const softmax_rows_pd_t &pd = pd_();
        plan_ = pd.plan;
        ANYDNN_CHECK(build());
        // A streamed row takes any number of work-items: where the built kernel allows fewer
        // than planned (NVIDIA's OpenCL gave 256 for T = 512), build it for that many.
        size_t limit = kernel_->max_work_group_size();
        if (!plan_.streamed || limit >= size_t(plan_.t)) return dnnl_success;
        size_t t = 1;
        while (t * 2 <= limit)
            t *= 2;
        plan_.t = int(t);
        plan_.group = t;
        return build();
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const softmax_rows_pd_t &pd = pd_();
        const softmax_desc_t &d = sm::desc_of(pd);
        const memory_desc_t &src = pd.arg_md(pd.fwd ? DNNL_ARG_SRC : DNNL_ARG_DST);
        const sm::geom_t g = sm::geom_of(src, d.axis);
        if (g.C == 0 || g.outer == 0) return dnnl_success;
        nd_range_t range;
        size_t local = 0;
        ANYDNN_REQUIRE(plan_.range(size_t(g.outer), kernel_->max_work_group_size(), range, local),
                dnnl_runtime_error, "softmax rows kernel allows fewer work-items than a row needs");
        kernel_args_t args;
        if (!pd.fwd) {
            for (int a : {DNNL_ARG_DST, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC})
                args.add(storage_of(ctx, a));
            for (int a : {DNNL_ARG_DST, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC})
                args.add_value<int64_t>(pd.arg_md(a).offset0);
            args.add_value<int64_t>(g.outer);
            args.add_value<int64_t>(g.C);
            args.add_value<int32_t>(d.alg_kind == dnnl_softmax_log);
            args.add_local(local * sizeof(float));
            return kernel_->launch(ctx.stream, args, range);
        }
        args.add(storage_of(ctx, DNNL_ARG_SRC));
        args.add(storage_of(ctx, DNNL_ARG_DST));
        args.add_value<int64_t>(src.offset0);
        args.add_value<int64_t>(pd.arg_md(DNNL_ARG_DST).offset0);
        args.add_value<int64_t>(g.outer);
        args.add_value<int64_t>(g.C);
        args.add_value<int32_t>(d.alg_kind == dnnl_softmax_log);
        for (int arg : {DNNL_ARG_SRC, DNNL_ARG_DST})
            args.add(pd.attr.scales.count(arg) ? storage_of(ctx, DNNL_ARG_ATTR_SCALES | arg)
                                               : nullptr);
        args.add_local(local * sizeof(float));
        return kernel_->launch(ctx.stream, args, range);
    }

private:
    status_t build() {
        const softmax_rows_pd_t &pd = pd_();
        if (!pd.fwd)
            return create_kernel(pd.engine, "softmax/softmax_rows.cl",
                    " -DBWD" + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
                            + data_type_options(
                                    "DIFF_DST", pd.arg_md(DNNL_ARG_DIFF_DST).data_type)
                            + data_type_options(
                                    "DIFF_SRC", pd.arg_md(DNNL_ARG_DIFF_SRC).data_type)
                            + plan_.options(),
                    "softmax_rows_bwd", kernel_);
        const std::string opt = data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type)
                                + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
                                + scale_type_options(pd.attr) + plan_.options();
        return create_kernel(
                pd.engine, "softmax/softmax_rows.cl", opt, "softmax_rows_fwd", kernel_);
    }

    row_plan_t plan_; // the pd's, with T cut to what the built kernel allows
    std::shared_ptr<kernel_t> kernel_;
};

} // namespace

impl_entry_t softmax_rows_entry() {
    return make_impl_entry<softmax_rows_pd_t>("ocl:softmax:rows_in_registers");
}

} // namespace gpu
} // namespace anydnn
