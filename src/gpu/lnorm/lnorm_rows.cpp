// GPU layer normalization and RMS norm over rows contiguous in memory, read once: the row is
// kept in registers by T work-items (lnorm_rows.cl). Forward: statistics computed or given,
// scale/shift, src/dst scales. Backward: diff_src, and diff scale/shift through per-segment
// partial sums in the scratchpad. Other layouts and wider rows go to ocl:lnorm:rows.
#include <algorithm>

#include "core/compute/compute.hpp"
#include "core/ops/lnorm/common.hpp"
#include "core/primitive.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/lnorm/lnorm_flags.hpp"
#include "gpu/quant_attr.hpp"
#include "gpu/reduce_launch.hpp"
#include "gpu/row_plan.hpp"
#include "gpu/tuning/op_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace ln = cpu::lnorm;

using namespace lnorm_flags;

struct lnorm_rows_t;

struct lnorm_rows_pd_t : public primitive_desc_impl_t<lnorm_rows_pd_t, lnorm_rows_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return "ocl:lnorm:rows_in_registers";
    }
    row_plan_t plan;
    int64_t bwd_groups = 0; // backward: work-groups, each group / T row segments

    static status_t init(lnorm_rows_pd_t &pd) {
        const auto &d = ln::desc_of(pd);
        ANYDNN_CHECK(check_quant_attr(pd.attr, true));
        ANYDNN_CHECK(ln::init_args(pd, 1));
        ANYDNN_REQUIRE(pd.attr.post_ops.entries.empty(), dnnl_unimplemented,
                "rows in registers apply no post-ops (ocl:lnorm:rows does)");
        pd.scratchpad_size = 0;
        for (const auto &a : pd.args)
            ANYDNN_CHECK(check_tensors({&a.second}));
        for (int a : {DNNL_ARG_MEAN, DNNL_ARG_VARIANCE}) {
            auto it = pd.args.find(a);
            ANYDNN_REQUIRE(it == pd.args.end() || it->second.data_type == dnnl_f32,
                    dnnl_unimplemented, "GPU layer normalization keeps f32 statistics");
        }
        const bool fwd = is_fwd(d);
        const memory_desc_t &src = pd.arg_md(DNNL_ARG_SRC);
        const memory_desc_t &dst = pd.arg_md(fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC);
        const memory_desc_t &dd = fwd ? src : pd.arg_md(DNNL_ARG_DIFF_DST);
        const bool ss = d.flags & (dnnl_use_scale | dnnl_use_shift);
        auto st = pd.args.find(DNNL_ARG_VARIANCE);
        ANYDNN_REQUIRE(row_major_dense(src) && row_major_dense(dst) && row_major_dense(dd)
                               && (!ss || d.scaleshift_md.offset0 == 0)
                               && (st == pd.args.end() || row_major_dense(st->second)),
                dnnl_unimplemented,
                "rows in registers take dense rows, row-major statistics, scale/shift at 0");
        const bool aligned
                = src.offset0 % 4 == 0 && dst.offset0 % 4 == 0 && dd.offset0 % 4 == 0;
        // Forward rows of 2-byte types take eight-element groups where the table's
        // access_bytes asks for them (one 16-byte access each).
        const int widest = int(std::max(
                data_type_size(src.data_type), data_type_size(dst.data_type)));
        const int max_vec = fwd && src.offset0 % 8 == 0 && dst.offset0 % 8 == 0
                        && vector_width(op_tuning(engine_caps(pd.engine)), widest) == 8
                ? 8
                : 4;
        ANYDNN_REQUIRE(src.ndims > 0
                               && plan_rows(pd.engine, src.dims[src.ndims - 1], aligned,
                                       pd.plan, !fwd, max_vec),
                dnnl_unimplemented, "rows too wide to keep in registers");
        if (!fwd) {
            const int64_t C = src.dims[src.ndims - 1], rows = C ? nelems(src) / C : 0;
            const int64_t per_group = int64_t(pd.plan.group) / pd.plan.t;
            const int64_t segs = std::min<int64_t>(
                    rows, op_tuning(engine_caps(pd.engine)).row_bwd_segments);
            pd.bwd_groups = std::max<int64_t>(1, (segs + per_group - 1) / per_group);
            pd.scratchpad_size = size_t(2 * pd.bwd_groups * per_group * C) * sizeof(float);
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
};

struct lnorm_rows_t : public primitive_t {
    using primitive_t::primitive_t;
    const lnorm_rows_pd_t &pd_() const {
        return static_cast<const lnorm_rows_pd_t &>(pd());
    }

    status_t init() override {
        const lnorm_rows_pd_t &pd = pd_();
        const auto &d = ln::desc_of(pd);
        const dnnl_data_type_t ss_dt = d.scaleshift_md.ndims ? d.scaleshift_md.data_type : dnnl_f32;
        std::string opt = data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type)
                          + data_type_options("SS", ss_dt) + pd.plan.options();
        const char *file = "lnorm/lnorm_rows.cl";
        if (is_fwd(d))
            return create_kernel(pd.engine, file,
                    opt + " -DFWD" + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
                            + scale_type_options(pd.attr)
                            + ((d.flags & dnnl_rms_norm) ? " -DRMS" : ""),
                    "lnorm_rows_fwd", kernel_);
        const dnnl_data_type_t dss_dt
                = d.diff_scaleshift_md.ndims ? d.diff_scaleshift_md.data_type : dnnl_f32;
        opt += " -DBWD" + data_type_options("DIFF_DST", pd.arg_md(DNNL_ARG_DIFF_DST).data_type)
               + data_type_options("DIFF_SRC", pd.arg_md(DNNL_ARG_DIFF_SRC).data_type)
               + data_type_options("DIFF_SS", dss_dt);
        ANYDNN_CHECK(create_kernel(pd.engine, file, opt, "lnorm_rows_bwd", kernel_));
        return create_kernel(pd.engine, file, opt, "lnorm_rows_bwd_scaleshift", ss_kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const lnorm_rows_pd_t &pd = pd_();
        const auto &d = ln::desc_of(pd);
        const memory_desc_t &src = pd.arg_md(DNNL_ARG_SRC);
        const int64_t C = src.dims[src.ndims - 1];
        const int64_t rows = C ? nelems(src) / C : 0;
        auto st = pd.args.find(DNNL_ARG_VARIANCE);
        if (!is_fwd(d) && C > 0) return backward(ctx, rows, C, st->second.offset0);
        if (rows == 0) return dnnl_success;
        nd_range_t range;
        size_t local = 0;
        ANYDNN_REQUIRE(pd.plan.range(size_t(rows), kernel_->max_work_group_size(), range, local),
                dnnl_runtime_error, "lnorm rows kernel allows fewer work-items than a row needs");
        kernel_args_t args;
        for (int a : {DNNL_ARG_SRC, DNNL_ARG_DST, DNNL_ARG_MEAN, DNNL_ARG_VARIANCE,
                     DNNL_ARG_SCALE, DNNL_ARG_SHIFT})
            args.add(storage_of(ctx, a));
        args.add_value<int64_t>(src.offset0);
        args.add_value<int64_t>(pd.arg_md(DNNL_ARG_DST).offset0);
        args.add_value<int64_t>(st != pd.args.end() ? st->second.offset0 : 0);
        args.add_value<int64_t>(rows);
        args.add_value<int64_t>(C);
        args.add_value<int32_t>(pd.flags());
        args.add_value(d.epsilon);
        for (int arg : {DNNL_ARG_SRC, DNNL_ARG_DST})
            args.add(pd.attr.scales.count(arg) ? storage_of(ctx, DNNL_ARG_ATTR_SCALES | arg)
                                               : nullptr);
        args.add_local(local * sizeof(float));
        return kernel_->launch(ctx.stream, args, range);
    }

private:
    status_t backward(const exec_ctx_t &ctx, int64_t rows, int64_t C, int64_t stat_off) const {
        const lnorm_rows_pd_t &pd = pd_();
        const auto &d = ln::desc_of(pd);
        size_t local = pd.plan.group;
        if (kernel_->max_work_group_size() < local) local = size_t(pd.plan.t);
        ANYDNN_REQUIRE(kernel_->max_work_group_size() >= local, dnnl_runtime_error,
                "lnorm rows kernel allows fewer work-items than a row needs");
        // No rows: no segments, diff scale / shift written as zeros.
        const int64_t nseg = rows ? pd.bwd_groups * int64_t(local / size_t(pd.plan.t)) : 0;
        kernel_args_t args;
        for (int a : {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC, DNNL_ARG_MEAN,
                     DNNL_ARG_VARIANCE, DNNL_ARG_SCALE})
            args.add(storage_of(ctx, a));
        for (int a : {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC})
            args.add_value<int64_t>(pd.arg_md(a).offset0);
        args.add_value<int64_t>(stat_off);
        args.add_value<int64_t>(rows);
        args.add_value<int64_t>(C);
        args.add_value<int32_t>(pd.flags());
        args.add_value(d.epsilon);
        args.add(ctx.scratchpad_storage);
        args.add_local(local * sizeof(float));
        nd_range_t r;
        r.global[0] = size_t(pd.bwd_groups) * local;
        r.local[0] = local;
        if (rows) ANYDNN_CHECK(kernel_->launch(ctx.stream, args, r));
        if (!(pd.flags() & (ln_diff_scale | ln_diff_shift))) return dnnl_success;
        kernel_args_t ss;
        ss.add(ctx.scratchpad_storage);
        ss.add(storage_of(ctx, DNNL_ARG_DIFF_SCALE));
        ss.add(storage_of(ctx, DNNL_ARG_DIFF_SHIFT));
        ss.add_value<int64_t>(C);
        ss.add_value<int64_t>(nseg);
        ss.add_value<int32_t>(pd.flags());
        return ss_kernel_->launch(ctx.stream, ss, range_1d(size_t(C)));
    }

    std::shared_ptr<kernel_t> kernel_, ss_kernel_;
};

} // namespace

impl_entry_t lnorm_rows_entry() {
    return make_impl_entry<lnorm_rows_pd_t>("ocl:lnorm:rows_in_registers");
}

} // namespace gpu
} // namespace anydnn
