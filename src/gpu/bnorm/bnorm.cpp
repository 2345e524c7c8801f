// GPU batch normalization: forward training/inference, backward (data, and scale/shift),
// global statistics, scale/shift, fused relu and add+relu (the relu mask in a u8 workspace,
// laid out as the CPU engine's), the relu post-op (any slope); any blocked layouts, any OpenCL device: one work-group per
// channel.
#include "core/compute/compute.hpp"
#include "core/ops/bnorm/common.hpp"
#include "core/primitive.hpp"
#include "gpu/bnorm/bnorm_flags.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/reduce_launch.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace bn = cpu::bnorm;

struct bnorm_t;

struct bnorm_pd_t : public primitive_desc_impl_t<bnorm_pd_t, bnorm_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return "ocl:bnorm:channels";
    }
    bn::conf_t conf;
    bool po_relu = false;
    float po_alpha = 0.f;

    static status_t init(bnorm_pd_t &pd) {
        ANYDNN_CHECK(init_bnorm_common(pd));
        pd.po_relu = bn::relu_post_op(pd.attr, pd.po_alpha);
        return dnnl_success;
    }

    int flags() const {
        return bnorm_flags(conf, args) | (po_relu ? bn_po_relu : 0);
    }
    // A tensor's layout, or src's for tensors that take no part (never read then).
    const memory_desc_t &md_or_src(int arg) const {
        auto it = args.find(arg);
        return it != args.end() ? it->second : arg_md(DNNL_ARG_SRC);
    }
};

struct bnorm_t : public primitive_t {
    using primitive_t::primitive_t;
    const bnorm_pd_t &pd_() const {
        return static_cast<const bnorm_pd_t &>(pd());
    }

    status_t init() override {
        const bnorm_pd_t &pd = pd_();
        std::string opt = data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type);
        if (pd.conf.fwd) {
            opt += " -DFWD" + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type);
            return create_kernel(pd.engine, "bnorm/bnorm.cl", opt + row_options(pd.engine),
                    "bnorm_fwd", kernel_);
        }
        opt += " -DBWD" + data_type_options("DIFF_DST", pd.arg_md(DNNL_ARG_DIFF_DST).data_type)
               + data_type_options("DIFF_SRC", pd.arg_md(DNNL_ARG_DIFF_SRC).data_type);
        return create_kernel(
                pd.engine, "bnorm/bnorm.cl", opt + row_options(pd.engine), "bnorm_bwd", kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const bnorm_pd_t &pd = pd_();
        const memory_desc_t &src = pd.arg_md(DNNL_ARG_SRC);
        kernel_args_t args;
        if (pd.conf.fwd) {
            for (int a : {DNNL_ARG_SRC, DNNL_ARG_DST, DNNL_ARG_MEAN, DNNL_ARG_VARIANCE,
                         DNNL_ARG_SCALE, DNNL_ARG_SHIFT, DNNL_ARG_SRC_1, DNNL_ARG_WORKSPACE})
                args.add(storage_of(ctx, a));
            for (int a : {DNNL_ARG_SRC, DNNL_ARG_DST, DNNL_ARG_SRC_1, DNNL_ARG_WORKSPACE,
                         DNNL_ARG_VARIANCE})
                add_layout(args, pd.md_or_src(a));
        } else {
            for (int a : {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC, DNNL_ARG_MEAN,
                         DNNL_ARG_VARIANCE, DNNL_ARG_SCALE, DNNL_ARG_WORKSPACE, DNNL_ARG_DIFF_SCALE,
                         DNNL_ARG_DIFF_SHIFT, DNNL_ARG_DIFF_SRC_1})
                args.add(storage_of(ctx, a));
            for (int a : {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC, DNNL_ARG_WORKSPACE,
                         DNNL_ARG_VARIANCE})
                add_layout(args, pd.md_or_src(a));
        }
        add_logical_dims(args, src);
        args.add_value<int32_t>(pd.flags());
        args.add_value(pd.conf.eps);
        if (pd.conf.fwd) args.add_value(pd.po_alpha);
        const size_t local = row_group_size(*kernel_, pd.engine);
        add_row_buffer(args, local);
        return kernel_->launch(ctx.stream, args, rows_range(size_t(pd.conf.c), local));
    }

private:
    std::shared_ptr<kernel_t> kernel_;
};

} // namespace

impl_entry_t bnorm_entry() {
    return make_impl_entry<bnorm_pd_t>("ocl:bnorm:channels");
}

} // namespace gpu
} // namespace anydnn
