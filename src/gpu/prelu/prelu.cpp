// GPU PReLU, any OpenCL device: forward and backward (diff_src, and diff_weights reduced over
// the broadcast dims with one work-group per weight), every weights broadcast (scalar, per
// channel, any subset of dimensions, full), kernel data types, any blocked layouts. The
// descriptor checks are the shared ones (core/ops/prelu/common.hpp).
#include "core/compute/compute.hpp"
#include "core/ops/prelu/common.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/kernel_layout.hpp"
#include "gpu/launch.hpp"
#include "gpu/reduce_launch.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace pr = cpu::prelu;

// A layout whose dims are the logical sizes, so that kernels broadcast along size-1 dims.
void add_bcast_layout(kernel_args_t &args, const memory_desc_t &md) {
    tensor_layout_t l;
    make_layout(md, l);
    for (int d = 0; d < md.ndims; ++d) l.dims[d] = md.dims[d];
    args.add_value(l);
}

struct prelu_t;

struct prelu_pd_t : public primitive_desc_impl_t<prelu_pd_t, prelu_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "ocl:prelu:generic"; }

    static status_t init(prelu_pd_t &pd) {
        ANYDNN_CHECK(pr::init_common(pd));
        for (const auto &a : pd.args)
            ANYDNN_CHECK(check_tensors({&a.second}));
        return dnnl_success;
    }
};

struct prelu_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t init() override {
        const primitive_desc_t &pd = this->pd();
        std::string opt = data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type)
                + data_type_options("WEI", pd.arg_md(DNNL_ARG_WEIGHTS).data_type);
        if (pr::is_fwd(pr::desc_of(pd))) {
            opt += " -DFWD" + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type);
            return create_kernel(pd.engine, "prelu/prelu.cl", opt, "prelu_fwd", kernel_);
        }
        opt += " -DBWD" + data_type_options("DIFF_DST", pd.arg_md(DNNL_ARG_DIFF_DST).data_type)
                + data_type_options("DIFF_SRC", pd.arg_md(DNNL_ARG_DIFF_SRC).data_type)
                + data_type_options("DIFF_WEI", pd.arg_md(DNNL_ARG_DIFF_WEIGHTS).data_type)
                + row_options(pd.engine);
        ANYDNN_CHECK(create_kernel(pd.engine, "prelu/prelu.cl", opt, "prelu_bwd_data", kernel_));
        return create_kernel(
                pd.engine, "prelu/prelu.cl", opt, "prelu_bwd_weights", weights_kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const primitive_desc_t &pd = this->pd();
        if (pr::is_fwd(pr::desc_of(pd))) {
            const memory_desc_t &dst = pd.arg_md(DNNL_ARG_DST);
            kernel_args_t args;
            for (int a : {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST})
                args.add(storage_of(ctx, a));
            add_layout(args, pd.arg_md(DNNL_ARG_SRC));
            add_bcast_layout(args, pd.arg_md(DNNL_ARG_WEIGHTS));
            add_layout(args, dst);
            const int64_t n = nelems(dst, true);
            args.add_value(n);
            add_logical_dims(args, dst);
            if (n == 0) return dnnl_success;
            return kernel_->launch(ctx.stream, args, range_1d(static_cast<size_t>(n)));
        }
        const memory_desc_t &src = pd.arg_md(DNNL_ARG_SRC),
                            &ds = pd.arg_md(DNNL_ARG_DIFF_SRC),
                            &dw = pd.arg_md(DNNL_ARG_DIFF_WEIGHTS);
        // diff_weights first: diff_src may overwrite diff_dst (in place).
        const int64_t nw = nelems(dw, true);
        if (nw) {
            kernel_args_t args;
            for (int a : {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_WEIGHTS})
                args.add(storage_of(ctx, a));
            add_layout(args, src);
            add_layout(args, pd.arg_md(DNNL_ARG_DIFF_DST));
            add_layout(args, dw);
            add_logical_dims(args, src);
            add_logical_dims(args, dw);
            const size_t local = row_group_size(*weights_kernel_, pd.engine);
            add_row_buffer(args, local);
            ANYDNN_CHECK(weights_kernel_->launch(
                    ctx.stream, args, rows_range(static_cast<size_t>(nw), local)));
        }
        const int64_t n = nelems(ds, true);
        if (n == 0) return dnnl_success;
        kernel_args_t args;
        for (int a : {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC})
            args.add(storage_of(ctx, a));
        add_layout(args, src);
        add_bcast_layout(args, pd.arg_md(DNNL_ARG_WEIGHTS));
        add_layout(args, pd.arg_md(DNNL_ARG_DIFF_DST));
        add_layout(args, ds);
        args.add_value(n);
        add_logical_dims(args, ds);
        return kernel_->launch(ctx.stream, args, range_1d(static_cast<size_t>(n)));
    }

private:
    std::shared_ptr<kernel_t> kernel_, weights_kernel_;
};

} // namespace

impl_entry_t prelu_entry() { return make_impl_entry<prelu_pd_t>("ocl:prelu:generic"); }

} // namespace gpu
} // namespace anydnn
