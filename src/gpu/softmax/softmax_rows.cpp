// GPU softmax forward (accurate and log) over rows contiguous in memory, read once: the row
// is kept in registers by T work-items (softmax_rows.cl). Sizes come from the tuning table
// (row_elems per work-item, at most row_elems_max); src/dst scales; rows whose layout, width
// or post-ops it does not take go to ocl:softmax:rows.
#include <algorithm>

#include "core/compute/compute.hpp"
#include "core/ops/scales.hpp"
#include "core/ops/softmax/common.hpp"
#include "core/primitive.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/quant_attr.hpp"
#include "gpu/reduce_launch.hpp"
#include "gpu/tuning/op_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace sm = cpu::softmax;

struct softmax_rows_t;

struct softmax_rows_pd_t : public primitive_desc_impl_t<softmax_rows_pd_t, softmax_rows_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return "ocl:softmax:rows_in_registers";
    }
    int vec = 1, t = 1, nreg = 1;
    size_t group = 1; // work-items per group: group / t rows each

    static status_t init(softmax_rows_pd_t &pd) {
        const softmax_desc_t &d = sm::desc_of(pd);
        ANYDNN_REQUIRE(sm::is_fwd(d), dnnl_unimplemented, "forward only");
        const op_tuning_t &tune = op_tuning(engine_caps(pd.engine));
        ANYDNN_REQUIRE(tune.bandwidth_group > 1, dnnl_unimplemented,
                "the device's tuning keeps rows to one work-item each");
        memory_desc_t src, dst;
        ANYDNN_CHECK(sm::resolve_fwd(pd, src, dst, false));
        ANYDNN_CHECK(check_tensors({&src, &dst}));
        ANYDNN_CHECK(cpu::init_common_scales(pd.attr, {DNNL_ARG_SRC, DNNL_ARG_DST}, pd.args));
        ANYDNN_CHECK(check_quant_attr(pd.attr, true));
        ANYDNN_REQUIRE(d.axis == src.ndims - 1 && row_major_dense(src) && row_major_dense(dst),
                dnnl_unimplemented, "rows in registers take the innermost axis, rows dense");
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_DST] = dst;
        const dim_t C = src.dims[src.ndims - 1];
        pd.vec = tune.vector_elems == 4 && C % 4 == 0 && src.offset0 % 4 == 0
                                 && dst.offset0 % 4 == 0
                         ? 4
                         : 1;
        const size_t max_group
                = std::min<size_t>(engine_caps(pd.engine).max_work_group_size, 1024);
        const dim_t want = std::max<dim_t>(1, (C + tune.row_elems - 1) / tune.row_elems);
        size_t t = 1;
        while (dim_t(t) < want && t * 2 <= max_group)
            t *= 2;
        pd.t = int(t);
        pd.nreg = int(std::max<dim_t>(1, (C + dim_t(t) * pd.vec - 1) / (dim_t(t) * pd.vec)));
        ANYDNN_REQUIRE(pd.nreg * pd.vec <= tune.row_elems_max, dnnl_unimplemented,
                "row too wide to keep in registers");
        pd.group = std::max(t, std::min<size_t>(size_t(tune.bandwidth_group), max_group));
        return dnnl_success;
    }
};

struct softmax_rows_t : public primitive_t {
    using primitive_t::primitive_t;
    const softmax_rows_pd_t &pd_() const {
        return static_cast<const softmax_rows_pd_t &>(pd());
    }

    status_t init() override {
        const softmax_rows_pd_t &pd = pd_();
        const std::string opt = data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type)
                                + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
                                + scale_type_options(pd.attr) + " -DVEC="
                                + std::to_string(pd.vec) + " -DT=" + std::to_string(pd.t)
                                + " -DNREG=" + std::to_string(pd.nreg);
        return create_kernel(
                pd.engine, "softmax/softmax_rows.cl", opt, "softmax_rows_fwd", kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const softmax_rows_pd_t &pd = pd_();
        const softmax_desc_t &d = sm::desc_of(pd);
        const memory_desc_t &src = pd.arg_md(DNNL_ARG_SRC);
        const sm::geom_t g = sm::geom_of(src, d.axis);
        if (g.C == 0 || g.outer == 0) return dnnl_success;
        // A kernel whose registers allow fewer work-items than planned runs a row per group.
        size_t group = pd.group;
        if (kernel_->max_work_group_size() < group) group = size_t(pd.t);
        ANYDNN_REQUIRE(kernel_->max_work_group_size() >= group, dnnl_runtime_error,
                "softmax rows kernel allows fewer work-items than a row needs");
        kernel_args_t args;
        args.add(storage_of(ctx, DNNL_ARG_SRC));
        args.add(storage_of(ctx, DNNL_ARG_DST));
        args.add_value<int64_t>(src.offset0);
        args.add_value<int64_t>(pd.arg_md(DNNL_ARG_DST).offset0);
        args.add_value<int64_t>(g.outer);
        args.add_value<int64_t>(g.C);
        args.add_value<int32_t>(d.alg_kind == dnnl_softmax_log);
        for (int arg : {DNNL_ARG_SRC, DNNL_ARG_DST})
            args.add(pd.attr.scales.count(arg) ? storage_of(ctx, DNNL_ARG_ATTR_SCALES | arg)
                                               : nullptr);
        args.add_local(group * sizeof(float));
        const size_t rows_per_group = group / size_t(pd.t);
        const size_t groups = (size_t(g.outer) + rows_per_group - 1) / rows_per_group;
        nd_range_t r;
        r.global[0] = groups * group;
        r.local[0] = group;
        return kernel_->launch(ctx.stream, args, r);
    }

private:
    std::shared_ptr<kernel_t> kernel_;
};

} // namespace

impl_entry_t softmax_rows_entry() {
    return make_impl_entry<softmax_rows_pd_t>("ocl:softmax:rows_in_registers");
}

} // namespace gpu
} // namespace anydnn
