// GPU reduction, all nine algorithms, any blocked layouts, any OpenCL device: one work-group
// per dst element; post-ops.
#include "core/compute/compute.hpp"
#include "core/ops/reduction/common.hpp"
#include "core/primitive.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/post_ops.hpp"
#include "gpu/reduce_launch.hpp"
#include "gpu/reduction/reduction_codes.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace rd = cpu::reduction;

struct reduction_t;

struct reduction_pd_t : public primitive_desc_impl_t<reduction_pd_t, reduction_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return "ocl:reduction:groups";
    }
    post_ops_t post_ops;

    static status_t init(reduction_pd_t &pd) {
        memory_desc_t src, dst;
        ANYDNN_CHECK(rd::resolve(pd, src, dst));
        ANYDNN_CHECK(check_tensors({&src, &dst}));
        for (int d = 0; d < src.ndims; ++d)
            ANYDNN_REQUIRE(dst.dims[d] == src.dims[d] || dst.dims[d] == 1, dnnl_invalid_arguments,
                    "dst dim %d must be src's or 1", d);
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_DST] = dst;
        return pd.post_ops.init(pd.attr, dst, pd.args);
    }
};

struct reduction_t : public primitive_t {
    using primitive_t::primitive_t;
    const reduction_pd_t &pd_() const {
        return static_cast<const reduction_pd_t &>(pd());
    }

    status_t init() override {
        const reduction_pd_t &pd = pd_();
        const std::string opt = data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type)
                                + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
                                + pd.post_ops.build_options();
        ANYDNN_CHECK(pd.post_ops.upload(pd.engine, post_ops_buffer_));
        return create_kernel(pd.engine, "reduction/reduction.cl", opt + row_options(pd.engine),
                "reduction", kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const reduction_pd_t &pd = pd_();
        const auto &d = rd::desc_of(pd);
        const memory_desc_t &src = pd.arg_md(DNNL_ARG_SRC), &dst = pd.arg_md(DNNL_ARG_DST);
        kernel_args_t args;
        args.add(storage_of(ctx, DNNL_ARG_SRC));
        args.add(storage_of(ctx, DNNL_ARG_DST));
        add_layout(args, src);
        add_layout(args, dst);
        add_logical_dims(args, src);
        add_logical_dims(args, dst);
        args.add_value<int32_t>(acc_code(rd::acc_kind(d.alg_kind, d.p)));
        args.add_value<int32_t>(finalize_code(d.alg_kind));
        args.add_value(d.p);
        args.add_value(d.eps);
        const size_t local = row_group_size(*kernel_, pd.engine);
        add_row_buffer(args, local);
        pd.post_ops.add_args(args, ctx, post_ops_buffer_.get());
        return kernel_->launch(ctx.stream, args, rows_range(size_t(nelems(dst)), local));
    }

private:
    std::shared_ptr<kernel_t> kernel_;
    std::unique_ptr<memory_storage_t> post_ops_buffer_; // the chain's parameters
};

} // namespace

impl_entry_t reduction_entry() {
    return make_impl_entry<reduction_pd_t>("ocl:reduction:groups");
}

} // namespace gpu
} // namespace anydnn
