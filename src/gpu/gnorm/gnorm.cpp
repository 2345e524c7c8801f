// GPU group normalization: forward training/inference and backward (data, and scale/shift),
// global statistics, scale/shift, forward src/dst scales and post-ops (the shared applier);
// any blocked layouts, f32/bf16/f16 (forward dst also s8/u8, training included), any OpenCL
// device: one work-group per (mb, group).
// The descriptor checks are the shared ones (core/ops/gnorm/common.hpp).
#include <array>
#include <initializer_list>

#include "core/compute/compute.hpp"
#include "core/ops/gnorm/common.hpp"
#include "core/ops/scales.hpp"
#include "core/primitive.hpp"
#include "gpu/gnorm/gnorm_flags.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/post_ops.hpp"
#include "gpu/quant_attr.hpp"
#include "gpu/reduce_launch.hpp"
#include "gpu/zero_padding.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace gn = cpu::gnorm;

// The stride of one step along a tensor's spatial points (row-major over dims 2...) when
// they collapse into one (no inner block on them), else 0.
int64_t spatial_stride(const memory_desc_t &md) {
    for (int b = 0; b < md.blocking.inner_nblks; ++b)
        if (md.blocking.inner_idxs[b] >= 2) return 0;
    int64_t inner = 0, expected = 0; // the innermost non-unit dim's stride; the next one's
    for (int d = md.ndims - 1; d >= 2; --d) {
        if (md.dims[d] == 1) continue;
        const int64_t stride = md.blocking.strides[d];
        if (!inner) inner = stride;
        else if (stride != expected) return 0;
        expected = stride * md.dims[d];
    }
    return inner ? inner : 1;
}

struct gnorm_t;

struct gnorm_pd_t : public primitive_desc_impl_t<gnorm_pd_t, gnorm_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "ocl:gnorm:groups"; }
    post_ops_t post_ops;

    static status_t init(gnorm_pd_t &pd) {
        const auto &d = gn::desc_of(pd);
        const bool fwd = gn::is_fwd(d);
        ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::scratchpad
                               | (fwd ? attr_skip::post_ops | attr_skip::scales : 0u)),
                dnnl_unimplemented,
                fwd ? "attributes other than scales and post-ops are not supported"
                    : "attributes are not supported");
        ANYDNN_CHECK(check_quant_attr(pd.attr, true));
        ANYDNN_CHECK(gn::resolve(pd));
        if (fwd)
            ANYDNN_CHECK(cpu::init_common_scales(pd.attr, {DNNL_ARG_SRC, DNNL_ARG_DST}, pd.args));
        for (const auto &a : pd.args)
            ANYDNN_CHECK(check_tensors({&a.second}));
        if (fwd) ANYDNN_CHECK(pd.post_ops.init(pd.attr, pd.arg_md(DNNL_ARG_DST), pd.args));
        return dnnl_success;
    }

    bool fwd() const { return gn::is_fwd(gn::desc_of(*this)); }
    const memory_desc_t &out_md() const {
        return arg_md(fwd() ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC);
    }
    int flags() const { return gnorm_kernel_flags(*this); }
    // The spatial strides of tensors `args` as a longN kernel argument (unused entries 0).
    template <size_t N>
    std::array<int64_t, N> spatial_strides(std::initializer_list<int> tensors) const {
        std::array<int64_t, N> r {};
        size_t i = 0;
        for (int a : tensors)
            r[i++] = spatial_stride(arg_md(a));
        return r;
    }
    // Statistics' layout, or src's when they take no part (never read then).
    const memory_desc_t &stat_md() const {
        auto it = args.find(DNNL_ARG_VARIANCE);
        return it != args.end() ? it->second : arg_md(DNNL_ARG_SRC);
    }
};

struct gnorm_t : public primitive_t {
    using primitive_t::primitive_t;
    const gnorm_pd_t &pd_() const { return static_cast<const gnorm_pd_t &>(pd()); }

    status_t init() override {
        const gnorm_pd_t &pd = pd_();
        const std::string rows = row_options(pd.engine);
        std::string opt = data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type) + rows;
        const memory_desc_t &out = pd.out_md();
        ANYDNN_CHECK(zero_.init(pd.engine, out));
        if (pd.fwd()) {
            opt += " -DFWD" + data_type_options("DST", out.data_type)
                    + scale_type_options(pd.attr) + pd.post_ops.build_options();
            ANYDNN_CHECK(pd.post_ops.upload(pd.engine, post_ops_buffer_));
            return create_kernel(pd.engine, "gnorm/gnorm.cl", opt, "gnorm_fwd", kernel_);
        }
        opt += " -DBWD" + data_type_options("DIFF_DST", pd.arg_md(DNNL_ARG_DIFF_DST).data_type)
                + data_type_options("DIFF_SRC", out.data_type);
        ANYDNN_CHECK(create_kernel(pd.engine, "gnorm/gnorm.cl", opt, "gnorm_bwd", kernel_));
        if (pd.flags() & (gn_diff_scale | gn_diff_shift))
            ANYDNN_CHECK(create_kernel(
                    pd.engine, "gnorm/gnorm.cl", opt, "gnorm_bwd_scaleshift", ss_kernel_));
        return dnnl_success;
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const gnorm_pd_t &pd = pd_();
        const auto &d = gn::desc_of(pd);
        const memory_desc_t &src = pd.arg_md(DNNL_ARG_SRC);
        const int64_t groups = d.groups, rows = src.dims[0] * groups;
        const bool empty = nelems(src) == 0;
        if (ss_kernel_ && src.dims[1]) {
            // First: diff_src may overwrite diff_dst (in place). An empty batch gives zeros.
            kernel_args_t ss;
            for (int a : {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_MEAN, DNNL_ARG_VARIANCE,
                         DNNL_ARG_DIFF_SCALE, DNNL_ARG_DIFF_SHIFT})
                ss.add(storage_of(ctx, a));
            add_layout(ss, src);
            add_layout(ss, pd.arg_md(DNNL_ARG_DIFF_DST));
            add_layout(ss, pd.stat_md());
            add_logical_dims(ss, src);
            ss.add_value(pd.spatial_strides<4>({DNNL_ARG_SRC, DNNL_ARG_DIFF_DST}));
            ss.add_value(groups);
            ss.add_value<int32_t>(pd.flags());
            ss.add_value(d.epsilon);
            const size_t local = row_group_size(*ss_kernel_, pd.engine);
            add_row_buffer(ss, local);
            ANYDNN_CHECK(ss_kernel_->launch(
                    ctx.stream, ss, rows_range(static_cast<size_t>(src.dims[1]), local)));
        }
        if (!empty) {
            kernel_args_t args;
            if (pd.fwd()) {
                for (int a : {DNNL_ARG_SRC, DNNL_ARG_DST, DNNL_ARG_MEAN, DNNL_ARG_VARIANCE,
                             DNNL_ARG_SCALE, DNNL_ARG_SHIFT})
                    args.add(storage_of(ctx, a));
                add_layout(args, src);
                add_layout(args, pd.arg_md(DNNL_ARG_DST));
            } else {
                for (int a : {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC, DNNL_ARG_MEAN,
                             DNNL_ARG_VARIANCE, DNNL_ARG_SCALE})
                    args.add(storage_of(ctx, a));
                add_layout(args, src);
                add_layout(args, pd.arg_md(DNNL_ARG_DIFF_DST));
                add_layout(args, pd.arg_md(DNNL_ARG_DIFF_SRC));
            }
            add_layout(args, pd.stat_md());
            add_logical_dims(args, src);
            if (pd.fwd())
                args.add_value(pd.spatial_strides<2>({DNNL_ARG_SRC, DNNL_ARG_DST}));
            else
                args.add_value(pd.spatial_strides<4>(
                        {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC}));
            args.add_value(groups);
            args.add_value<int32_t>(pd.flags());
            args.add_value(d.epsilon);
            if (pd.fwd())
                for (int arg : {DNNL_ARG_SRC, DNNL_ARG_DST})
                    args.add(pd.attr.scales.count(arg)
                                    ? storage_of(ctx, DNNL_ARG_ATTR_SCALES | arg)
                                    : nullptr);
            const size_t local = row_group_size(*kernel_, pd.engine);
            add_row_buffer(args, local);
            if (pd.fwd()) pd.post_ops.add_args(args, ctx, post_ops_buffer_.get());
            ANYDNN_CHECK(kernel_->launch(
                    ctx.stream, args, rows_range(static_cast<size_t>(rows), local)));
        }
        return zero_.launch(ctx, pd.fwd() ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC, pd.out_md());
    }

private:
    std::shared_ptr<kernel_t> kernel_, ss_kernel_;
    zero_padding_t zero_;
    std::unique_ptr<memory_storage_t> post_ops_buffer_; // the chain's parameters
};

} // namespace

impl_entry_t gnorm_entry() { return make_impl_entry<gnorm_pd_t>("ocl:gnorm:groups"); }

} // namespace gpu
} // namespace anydnn
