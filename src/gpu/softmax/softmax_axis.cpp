// GPU softmax forward and backward (accurate and log) along an axis that is not innermost in
// memory (axis 1 of NCHW): dense tensors as [outer, C, inner], a work-item per (outer, VEC
// inner positions) walking down the axis (softmax_axis.cl); src/dst scales. Forward columns
// of up to 4 x row_elems elements per work-item are kept in registers (read once); longer
// ones are read twice.
#include <algorithm>

#include "core/compute/compute.hpp"
#include "core/ops/scales.hpp"
#include "core/ops/softmax/common.hpp"
#include "core/primitive.hpp"
#include "gpu/dense_split.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/quant_attr.hpp"
#include "gpu/tuning/op_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace sm = cpu::softmax;

struct softmax_axis_t;

struct softmax_axis_pd_t : public primitive_desc_impl_t<softmax_axis_pd_t, softmax_axis_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "ocl:softmax:axis_columns"; }
    bool fwd = true;
    int vec = 1;
    int64_t outer = 1, C = 1, inner = 1;
    int creg = 0; // the column length kept in registers (0: read twice)

    static status_t init(softmax_axis_pd_t &pd) {
        const softmax_desc_t &d = sm::desc_of(pd);
        pd.fwd = sm::is_fwd(d);
        std::vector<const memory_desc_t *> mds;
        memory_desc_t a, b, c;
        if (pd.fwd) {
            ANYDNN_CHECK(sm::resolve_fwd(pd, a, b, false));
            ANYDNN_CHECK(check_tensors({&a, &b}));
            ANYDNN_CHECK(
                    cpu::init_common_scales(pd.attr, {DNNL_ARG_SRC, DNNL_ARG_DST}, pd.args));
            ANYDNN_CHECK(check_quant_attr(pd.attr, true));
            ANYDNN_REQUIRE(same_dense_layout({&a, &b}), dnnl_unimplemented,
                    "src and dst must share one dense layout");
            pd.args[DNNL_ARG_SRC] = a;
            pd.args[DNNL_ARG_DST] = b;
            mds = {&pd.args[DNNL_ARG_SRC], &pd.args[DNNL_ARG_DST]};
        } else {
            ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::fpmath | attr_skip::scratchpad
                                   | attr_skip::deterministic | attr_skip::acc_mode),
                    dnnl_unimplemented, "backward softmax takes no scales or post-ops");
            ANYDNN_CHECK(sm::resolve_bwd(pd, a, b, c));
            ANYDNN_CHECK(check_tensors({&a, &b, &c}));
            ANYDNN_REQUIRE(same_dense_layout({&a, &b, &c}), dnnl_unimplemented,
                    "dst, diff_dst and diff_src must share one dense layout");
            pd.args[DNNL_ARG_DST] = a;
            pd.args[DNNL_ARG_DIFF_DST] = b;
            pd.args[DNNL_ARG_DIFF_SRC] = c;
            mds = {&pd.args[DNNL_ARG_DST], &pd.args[DNNL_ARG_DIFF_DST],
                    &pd.args[DNNL_ARG_DIFF_SRC]};
        }
        bool keep[DNNL_MAX_NDIMS] = {};
        keep[d.axis] = true;
        dense_split_t s;
        ANYDNN_REQUIRE(split_dense(a, keep, s) && s.inner > 1, dnnl_unimplemented,
                "the axis must have dense positions after it in memory (innermost axes take "
                "the rows kernels)");
        pd.outer = s.outer;
        pd.C = s.kept;
        pd.inner = s.inner;
        const op_tuning_t &t = op_tuning(engine_caps(pd.engine));
        size_t widest = 0;
        bool aligned = true;
        for (const memory_desc_t *md : mds) {
            widest = std::max(widest, data_type_size(md->data_type));
            aligned = aligned && md->offset0 % 8 == 0;
        }
        const int width = t.vector_elems == 1 ? 1 : vector_width(t, widest);
        pd.vec = aligned && pd.inner % width == 0 ? width
                : aligned && width > 1 && pd.inner % 4 == 0 ? 4 : 1;
        // Kept in registers up to row_elems groups of four (the rows kernels' budget).
        if (pd.fwd && pd.C * pd.vec <= 4 * int64_t(t.row_elems)) pd.creg = int(pd.C);
        return dnnl_success;
    }
};

struct softmax_axis_t : public primitive_t {
    using primitive_t::primitive_t;
    const softmax_axis_pd_t &pd_() const {
        return static_cast<const softmax_axis_pd_t &>(pd());
    }

    status_t init() override {
        const softmax_axis_pd_t &pd = pd_();
        std::string opt = " -DVEC=" + std::to_string(pd.vec);
        if (pd.creg) opt += " -DCREG=" + std::to_string(pd.creg);
        if (!pd.fwd) {
            opt += " -DBWD" + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
                    + data_type_options("DIFF_DST", pd.arg_md(DNNL_ARG_DIFF_DST).data_type)
                    + data_type_options("DIFF_SRC", pd.arg_md(DNNL_ARG_DIFF_SRC).data_type);
            return create_kernel(
                    pd.engine, "softmax/softmax_axis.cl", opt, "softmax_axis_bwd", kernel_);
        }
        opt += data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type)
                + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
                + scale_type_options(pd.attr);
        return create_kernel(
                pd.engine, "softmax/softmax_axis.cl", opt, "softmax_axis_fwd", kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const softmax_axis_pd_t &pd = pd_();
        const softmax_desc_t &d = sm::desc_of(pd);
        const int64_t items = pd.outer * (pd.inner / pd.vec);
        if (items == 0 || pd.C == 0) return dnnl_success;
        const std::vector<int> tensors = pd.fwd
                ? std::vector<int> {DNNL_ARG_SRC, DNNL_ARG_DST}
                : std::vector<int> {DNNL_ARG_DST, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC};
        kernel_args_t args;
        for (int a : tensors)
            args.add(storage_of(ctx, a));
        for (int a : tensors)
            args.add_value<int64_t>(pd.arg_md(a).offset0);
        for (int64_t v : {pd.C, pd.inner, items})
            args.add_value<int64_t>(v);
        args.add_value<int32_t>(d.alg_kind == dnnl_softmax_log);
        if (pd.fwd)
            for (int arg : {DNNL_ARG_SRC, DNNL_ARG_DST})
                args.add(pd.attr.scales.count(arg) ? storage_of(ctx, DNNL_ARG_ATTR_SCALES | arg)
                                                   : nullptr);
        return kernel_->launch(ctx.stream, args, range_1d(size_t(items)));
    }

private:
    std::shared_ptr<kernel_t> kernel_;
};

} // namespace

impl_entry_t softmax_axis_entry() {
    return make_impl_entry<softmax_axis_pd_t>("ocl:softmax:axis_columns");
}

} // namespace gpu
} // namespace anydnn
