// GPU local response normalization, across and within channels, forward and backward (no
// workspace: the backward recomputes the window sums, as the CPU engine does), f32/bf16/f16,
// any blocked layouts, any OpenCL device: one work-item per output element. The descriptor
// checks are the shared ones (core/ops/lrn/common.hpp).
#include "core/compute/compute.hpp"
#include "core/ops/lrn/common.hpp"
#include "core/primitive.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace lr = cpu::lrn;

struct lrn_t;

struct lrn_pd_t : public primitive_desc_impl_t<lrn_pd_t, lrn_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "ocl:lrn:direct"; }

    static status_t init(lrn_pd_t &pd) {
        ANYDNN_CHECK(lr::resolve(pd));
        ANYDNN_REQUIRE(pd.arg_md(DNNL_ARG_SRC).ndims <= 5, dnnl_unimplemented,
                "GPU lrn takes at most 3 spatial dimensions");
        for (const auto &a : pd.args)
            ANYDNN_CHECK(check_tensors({&a.second}));
        return dnnl_success;
    }
};

struct lrn_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t init() override {
        const primitive_desc_t &pd = this->pd();
        std::string opt = data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type);
        if (lr::is_fwd(lr::desc_of(pd))) {
            opt += " -DFWD" + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type);
            return create_kernel(pd.engine, "lrn/lrn.cl", opt, "lrn_fwd", kernel_);
        }
        opt += " -DBWD" + data_type_options("DIFF_DST", pd.arg_md(DNNL_ARG_DIFF_DST).data_type)
                + data_type_options("DIFF_SRC", pd.arg_md(DNNL_ARG_DIFF_SRC).data_type);
        return create_kernel(pd.engine, "lrn/lrn.cl", opt, "lrn_bwd", kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const primitive_desc_t &pd = this->pd();
        const auto &d = lr::desc_of(pd);
        const bool fwd = lr::is_fwd(d);
        const memory_desc_t &src = pd.arg_md(DNNL_ARG_SRC);
        const memory_desc_t &out = pd.arg_md(fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC);
        const int64_t n = nelems(out, true);
        if (n == 0) return dnnl_success;
        const bool across = d.alg_kind == dnnl_lrn_across_channels;
        // alpha is divided by the number of summands of a full window.
        double summands = 1;
        for (int i = 0; i < (across ? 1 : src.ndims - 2); ++i)
            summands *= double(d.local_size);
        kernel_args_t args;
        if (fwd) {
            for (int a : {DNNL_ARG_SRC, DNNL_ARG_DST})
                args.add(storage_of(ctx, a));
            for (int a : {DNNL_ARG_SRC, DNNL_ARG_DST})
                add_layout(args, pd.arg_md(a));
        } else {
            for (int a : {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC})
                args.add(storage_of(ctx, a));
            for (int a : {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC})
                add_layout(args, pd.arg_md(a));
        }
        args.add_value(n);
        add_logical_dims(args, out);
        args.add_value<int32_t>(across ? 1 : 0);
        args.add_value<int64_t>((d.local_size - 1) / 2);
        args.add_value(d.k);
        args.add_value(static_cast<float>(d.alpha / summands));
        args.add_value(d.beta);
        return kernel_->launch(ctx.stream, args, range_1d(static_cast<size_t>(n)));
    }

private:
    std::shared_ptr<kernel_t> kernel_;
};

} // namespace

impl_entry_t lrn_entry() { return make_impl_entry<lrn_pd_t>("ocl:lrn:direct"); }

} // namespace gpu
} // namespace anydnn
