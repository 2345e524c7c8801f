// GPU shuffle, forward and backward, any OpenCL device: any axis and group size, any blocked
// layouts, every kernel data type copied bit for bit.
#include "core/compute/compute.hpp"
#include "core/ops/eltwise/layout.hpp"
#include "core/ops/layout.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/kernel_layout.hpp"
#include "gpu/launch.hpp"

namespace anydnn {
namespace gpu {

namespace {

const shuffle_desc_t &shuffle_of(const primitive_desc_t &pd) {
    return std::get<shuffle_desc_t>(pd.desc);
}
bool is_fwd(const shuffle_desc_t &d) { return d.prop_kind != dnnl_backward_data; }
int in_arg(const shuffle_desc_t &d) { return is_fwd(d) ? DNNL_ARG_SRC : DNNL_ARG_DIFF_DST; }
int out_arg(const shuffle_desc_t &d) { return is_fwd(d) ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC; }

struct shuffle_t;

struct shuffle_pd_t : public primitive_desc_impl_t<shuffle_pd_t, shuffle_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "ocl:shuffle:generic"; }

    static status_t init(shuffle_pd_t &pd) {
        const auto &d = shuffle_of(pd);
        memory_desc_t in = is_fwd(d) ? d.src_md : d.diff_dst_md;
        memory_desc_t out = is_fwd(d) ? d.dst_md : d.diff_src_md;
        ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::scratchpad), dnnl_unimplemented,
                "shuffle takes no attributes");
        if (in.format_kind == dnnl_format_kind_any && pd.hint)
            in = cpu::md_like(pd.hint->arg_md(DNNL_ARG_DST), in.ndims, in.dims, in.data_type);
        if (in.format_kind == dnnl_format_kind_any)
            in = cpu::md_like(out, in.ndims, in.dims, in.data_type);
        cpu::eltwise::resolve_any(out, in);
        ANYDNN_CHECK(check_tensors({&in, &out}));
        ANYDNN_REQUIRE(in.data_type == out.data_type, dnnl_unimplemented,
                "GPU shuffle copies one data type");
        pd.args[in_arg(d)] = in;
        pd.args[out_arg(d)] = out;
        return dnnl_success;
    }
};

// The OpenCL storage type of dt (bit-for-bit copies).
const char *storage_type(dnnl_data_type_t dt) {
    switch (data_type_size(dt)) {
        case 1: return "uchar";
        case 2: return "ushort";
        default: return "uint";
    }
}

struct shuffle_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t init() override {
        const auto &d = shuffle_of(pd());
        const std::string opt = std::string(" -DDATA_T=")
                + storage_type(pd().arg_md(out_arg(d)).data_type);
        return create_kernel(pd().engine, "shuffle/shuffle.cl", opt, "shuffle_generic", kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &d = shuffle_of(pd());
        const memory_desc_t &in = pd().arg_md(in_arg(d)), &out = pd().arg_md(out_arg(d));
        const int64_t C = out.dims[d.axis], G = d.group_size;
        kernel_args_t args;
        args.add(storage_of(ctx, in_arg(d)));
        args.add(storage_of(ctx, out_arg(d)));
        add_layout(args, in);
        add_layout(args, out);
        const int64_t n = nelems(out, true);
        args.add_value(n);
        add_logical_dims(args, out);
        args.add_value<int32_t>(d.axis);
        args.add_value<int64_t>(G);
        args.add_value<int64_t>(G ? C / G : 0);
        args.add_value<int32_t>(is_fwd(d) ? 1 : 0);
        return kernel_->launch(ctx.stream, args, range_1d(static_cast<size_t>(n)));
    }

private:
    std::shared_ptr<kernel_t> kernel_;
};

} // namespace

impl_entry_t shuffle_entry() { return make_impl_entry<shuffle_pd_t>("ocl:shuffle:generic"); }

} // namespace gpu
} // namespace anydnn
