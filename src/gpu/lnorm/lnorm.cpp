// GPU layer normalization (and RMS normalization), forward training/inference and backward,
// scale/shift, statistics in or out, any blocked layouts, any OpenCL device: one work-group
// per row; forward src/dst scales (f32, one value each) and post-ops (eltwise, binary).
#include "core/compute/compute.hpp"
#include "core/ops/lnorm/common.hpp"
#include "core/primitive.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/lnorm/lnorm_flags.hpp"
#include "gpu/post_ops.hpp"
#include "gpu/quant_attr.hpp"
#include "gpu/reduce_launch.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace ln = cpu::lnorm;

using namespace lnorm_flags;

struct lnorm_t;

struct lnorm_pd_t : public primitive_desc_impl_t<lnorm_pd_t, lnorm_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return "ocl:lnorm:rows";
    }
    bool rows_f32 = false; // forward, f32 rows contiguous in memory, CPU device
    post_ops_t post_ops; // forward

    static status_t init(lnorm_pd_t &pd) {
        ANYDNN_CHECK(check_quant_attr(pd.attr, true));
        ANYDNN_CHECK(ln::init_args(pd, 1));
        pd.scratchpad_size = 0;
        const auto &d = ln::desc_of(pd);
        const memory_desc_t &src = pd.arg_md(DNNL_ARG_SRC);
        if (is_fwd(d))
            ANYDNN_CHECK(pd.post_ops.init(pd.attr, pd.arg_md(DNNL_ARG_DST), pd.args));
        pd.rows_f32 = is_fwd(d) && !group_reduce(pd.engine) && pd.attr.scales.empty()
                && pd.post_ops.empty()
                && src.data_type == dnnl_f32
                && pd.arg_md(DNNL_ARG_DST).data_type == dnnl_f32 && row_major_dense(src)
                && row_major_dense(pd.arg_md(DNNL_ARG_DST))
                && (!(d.flags & (dnnl_use_scale | dnnl_use_shift))
                        || (d.scaleshift_md.data_type == dnnl_f32 && d.scaleshift_md.offset0 == 0))
                && (!pd.args.count(DNNL_ARG_VARIANCE)
                        || row_major_dense(pd.arg_md(DNNL_ARG_VARIANCE)));
        for (const auto &a : pd.args)
            ANYDNN_CHECK(check_tensors({&a.second}));
        for (int a : {DNNL_ARG_MEAN, DNNL_ARG_VARIANCE}) {
            auto it = pd.args.find(a);
            ANYDNN_REQUIRE(it == pd.args.end() || it->second.data_type == dnnl_f32,
                    dnnl_unimplemented, "GPU layer normalization keeps f32 statistics");
        }
        return dnnl_success;
    }

    int flags() const {
        const auto &d = ln::desc_of(*this);
        int f = 0;
        if (d.flags & dnnl_use_scale) f |= ln_scale;
        if (d.flags & dnnl_use_shift) f |= ln_shift;
        if (d.flags & dnnl_use_global_stats) f |= ln_global;
        if (d.prop_kind == dnnl_forward_training && !(d.flags & dnnl_use_global_stats))
            f |= ln_stats_out;
        if (d.flags & dnnl_rms_norm) f |= ln_rms;
        if (args.count(DNNL_ARG_DIFF_SCALE)) f |= ln_diff_scale;
        if (args.count(DNNL_ARG_DIFF_SHIFT)) f |= ln_diff_shift;
        return f;
    }
    const memory_desc_t &stat_md() const {
        auto it = args.find(DNNL_ARG_VARIANCE);
        return it != args.end() ? it->second : arg_md(DNNL_ARG_SRC); // unused without stats
    }
};

struct lnorm_t : public primitive_t {
    using primitive_t::primitive_t;
    const lnorm_pd_t &pd_() const {
        return static_cast<const lnorm_pd_t &>(pd());
    }

    status_t init() override {
        const lnorm_pd_t &pd = pd_();
        const auto &d = ln::desc_of(pd);
        const dnnl_data_type_t ss_dt = d.scaleshift_md.ndims ? d.scaleshift_md.data_type : dnnl_f32;
        std::string opt = data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type)
                          + data_type_options("SS", ss_dt);
        if (pd.rows_f32)
            return create_kernel(
                    pd.engine, "lnorm/lnorm.cl", " -DROWS_F32", "lnorm_fwd_rows_f32", kernel_);
        if (is_fwd(d)) {
            opt += " -DFWD" + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
                    + scale_type_options(pd.attr) + pd.post_ops.build_options();
            ANYDNN_CHECK(pd.post_ops.upload(pd.engine, post_ops_buffer_));
            return create_kernel(pd.engine, "lnorm/lnorm.cl", opt + row_options(pd.engine),
                    "lnorm_fwd", kernel_);
        }
        const dnnl_data_type_t dss_dt =
                d.diff_scaleshift_md.ndims ? d.diff_scaleshift_md.data_type : dnnl_f32;
        opt += " -DBWD" + data_type_options("DIFF_DST", pd.arg_md(DNNL_ARG_DIFF_DST).data_type)
               + data_type_options("DIFF_SRC", pd.arg_md(DNNL_ARG_DIFF_SRC).data_type)
               + data_type_options("DIFF_SS", dss_dt);
        ANYDNN_CHECK(create_kernel(
                pd.engine, "lnorm/lnorm.cl", opt + row_options(pd.engine), "lnorm_bwd", kernel_));
        if (pd.flags() & (ln_diff_scale | ln_diff_shift))
            ANYDNN_CHECK(create_kernel(pd.engine, "lnorm/lnorm.cl", opt + row_options(pd.engine),
                    "lnorm_bwd_scaleshift", ss_kernel_));
        return dnnl_success;
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const lnorm_pd_t &pd = pd_();
        const auto &d = ln::desc_of(pd);
        const memory_desc_t &src = pd.arg_md(DNNL_ARG_SRC);
        const int64_t C = src.ndims ? src.dims[src.ndims - 1] : 0;
        const int64_t rows = C ? nelems(src) / C : 0;
        const int flags = pd.flags();
        if (pd.rows_f32) {
            kernel_args_t args;
            for (int a : {DNNL_ARG_SRC, DNNL_ARG_DST, DNNL_ARG_MEAN, DNNL_ARG_VARIANCE,
                         DNNL_ARG_SCALE, DNNL_ARG_SHIFT})
                args.add(storage_of(ctx, a));
            args.add_value<int64_t>(src.offset0);
            args.add_value<int64_t>(pd.arg_md(DNNL_ARG_DST).offset0);
            args.add_value<int64_t>(pd.stat_md().offset0);
            args.add_value<int64_t>(C);
            args.add_value<int32_t>(flags);
            args.add_value(d.epsilon);
            if (C == 0) return dnnl_success;
            return kernel_->launch(ctx.stream, args, range_1d(size_t(rows)));
        }
        if (is_fwd(d)) {
            kernel_args_t args;
            for (int a : {DNNL_ARG_SRC, DNNL_ARG_DST, DNNL_ARG_MEAN, DNNL_ARG_VARIANCE,
                         DNNL_ARG_SCALE, DNNL_ARG_SHIFT})
                args.add(storage_of(ctx, a));
            add_layout(args, src);
            add_layout(args, pd.arg_md(DNNL_ARG_DST));
            add_layout(args, pd.stat_md());
            add_logical_dims(args, src);
            args.add_value<int32_t>(flags);
            args.add_value(d.epsilon);
            for (int arg : {DNNL_ARG_SRC, DNNL_ARG_DST})
                args.add(pd.attr.scales.count(arg)
                                ? storage_of(ctx, DNNL_ARG_ATTR_SCALES | arg)
                                : nullptr);
            const size_t local = row_group_size(*kernel_, pd.engine);
            add_row_buffer(args, local);
            pd.post_ops.add_args(args, ctx, post_ops_buffer_.get());
            if (C == 0) return dnnl_success;
            return kernel_->launch(ctx.stream, args, rows_range(size_t(rows), local));
        }
        if (ss_kernel_ && C) {
            // First: diff_src may overwrite diff_dst (in place).
            kernel_args_t ss;
            for (int a : {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_MEAN, DNNL_ARG_VARIANCE,
                         DNNL_ARG_DIFF_SCALE, DNNL_ARG_DIFF_SHIFT})
                ss.add(storage_of(ctx, a));
            add_layout(ss, src);
            add_layout(ss, pd.arg_md(DNNL_ARG_DIFF_DST));
            add_layout(ss, pd.stat_md());
            add_logical_dims(ss, src);
            ss.add_value<int32_t>(flags);
            ss.add_value(d.epsilon);
            ANYDNN_CHECK(ss_kernel_->launch(ctx.stream, ss, range_1d(size_t(C))));
        }
        kernel_args_t args;
        for (int a : {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC, DNNL_ARG_MEAN,
                     DNNL_ARG_VARIANCE, DNNL_ARG_SCALE})
            args.add(storage_of(ctx, a));
        add_layout(args, src);
        add_layout(args, pd.arg_md(DNNL_ARG_DIFF_DST));
        add_layout(args, pd.arg_md(DNNL_ARG_DIFF_SRC));
        add_layout(args, pd.stat_md());
        add_logical_dims(args, src);
        args.add_value<int32_t>(flags);
        args.add_value(d.epsilon);
        const size_t local = row_group_size(*kernel_, pd.engine);
        add_row_buffer(args, local);
        if (C == 0) return dnnl_success;
        return kernel_->launch(ctx.stream, args, rows_range(size_t(rows), local));
    }

private:
    std::shared_ptr<kernel_t> kernel_, ss_kernel_;
    std::unique_ptr<memory_storage_t> post_ops_buffer_; // the chain's parameters
};

} // namespace

impl_entry_t lnorm_entry() {
    return make_impl_entry<lnorm_pd_t>("ocl:lnorm:rows");
}

} // namespace gpu
} // namespace anydnn
