// GPU PReLU forward, any OpenCL device: every weights broadcast (scalar, per channel, any
// subset of dimensions, full), kernel data types, any blocked layouts. Backward is not
// implemented on the GPU yet (dnnl_unimplemented).
#include "cpu/eltwise/layout.hpp"
#include "cpu/layout.hpp"
#include "gpu/compute.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/kernel_layout.hpp"
#include "gpu/launch.hpp"

namespace anydnn {
namespace gpu {

namespace {

const prelu_desc_t &prelu_of(const primitive_desc_t &pd) {
    return std::get<prelu_desc_t>(pd.desc);
}

struct prelu_t;

struct prelu_pd_t : public primitive_desc_impl_t<prelu_pd_t, prelu_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "ocl:prelu:generic"; }

    static status_t init(prelu_pd_t &pd) {
        const auto &d = prelu_of(pd);
        ANYDNN_REQUIRE(d.prop_kind == dnnl_forward_training || d.prop_kind == dnnl_forward_inference,
                dnnl_unimplemented, "GPU prelu: backward is not implemented");
        ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::scratchpad), dnnl_unimplemented,
                "prelu takes no attributes");
        memory_desc_t src = d.src_md, wei = d.weights_md, dst = d.dst_md;
        if (src.format_kind == dnnl_format_kind_any)
            src = dst.format_kind == dnnl_format_kind_any
                    ? cpu::md_like(src, src.ndims, src.dims, src.data_type)
                    : cpu::md_like(dst, src.ndims, src.dims, src.data_type);
        cpu::eltwise::resolve_any(dst, src);
        if (wei.format_kind == dnnl_format_kind_any)
            wei = cpu::md_like(src, wei.ndims, wei.dims, wei.data_type);
        ANYDNN_CHECK(check_tensors({&src, &wei, &dst}));
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_WEIGHTS] = wei;
        pd.args[DNNL_ARG_DST] = dst;
        return dnnl_success;
    }
};

struct prelu_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t init() override {
        const std::string opt = data_type_options("SRC", pd().arg_md(DNNL_ARG_SRC).data_type)
                + data_type_options("WEI", pd().arg_md(DNNL_ARG_WEIGHTS).data_type)
                + data_type_options("DST", pd().arg_md(DNNL_ARG_DST).data_type);
        return create_kernel(pd().engine, "prelu/prelu.cl", opt, "prelu_fwd", kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const memory_desc_t &wei = pd().arg_md(DNNL_ARG_WEIGHTS), &dst = pd().arg_md(DNNL_ARG_DST);
        kernel_args_t args;
        args.add(storage_of(ctx, DNNL_ARG_SRC));
        args.add(storage_of(ctx, DNNL_ARG_WEIGHTS));
        args.add(storage_of(ctx, DNNL_ARG_DST));
        add_layout(args, pd().arg_md(DNNL_ARG_SRC));
        // Logical sizes say where the weights broadcast.
        tensor_layout_t wl;
        make_layout(wei, wl);
        for (int d = 0; d < wei.ndims; ++d) wl.dims[d] = wei.dims[d];
        args.add_value(wl);
        add_layout(args, dst);
        const int64_t n = nelems(dst, true);
        args.add_value(n);
        add_logical_dims(args, dst);
        return kernel_->launch(ctx.stream, args, range_1d(static_cast<size_t>(n)));
    }

private:
    std::shared_ptr<kernel_t> kernel_;
};

} // namespace

impl_entry_t prelu_entry() { return make_impl_entry<prelu_pd_t>("ocl:prelu:generic"); }

} // namespace gpu
} // namespace anydnn
