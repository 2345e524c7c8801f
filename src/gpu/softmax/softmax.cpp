// GPU softmax (accurate and log), forward and backward, any axis, any blocked layouts, any
// OpenCL device: one work-group per row; forward src/dst scales (f32, one value each) and
// post-ops.
#include "core/compute/compute.hpp"
#include "core/ops/scales.hpp"
#include "core/ops/softmax/common.hpp"
#include "core/primitive.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/post_ops.hpp"
#include "gpu/quant_attr.hpp"
#include "gpu/reduce_launch.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace sm = cpu::softmax;

struct softmax_t;

struct softmax_pd_t : public primitive_desc_impl_t<softmax_pd_t, softmax_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return "ocl:softmax:rows";
    }
    bool fwd = true;
    bool rows_f32 = false; // f32 rows contiguous in memory, CPU device: vector kernel
    post_ops_t post_ops;

    static status_t init(softmax_pd_t &pd) {
        const softmax_desc_t &d = sm::desc_of(pd);
        pd.fwd = sm::is_fwd(d);
        if (pd.fwd) {
            memory_desc_t src, dst;
            ANYDNN_CHECK(sm::resolve_fwd(pd, src, dst, true));
            ANYDNN_CHECK(check_tensors({&src, &dst}));
            ANYDNN_CHECK(cpu::init_common_scales(pd.attr, {DNNL_ARG_SRC, DNNL_ARG_DST}, pd.args));
            ANYDNN_CHECK(check_quant_attr(pd.attr, true));
            pd.args[DNNL_ARG_SRC] = src;
            pd.args[DNNL_ARG_DST] = dst;
            ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst, pd.args));
            pd.rows_f32 = !group_reduce(pd.engine) && pd.attr.scales.empty()
                          && pd.post_ops.empty() && src.data_type == dnnl_f32
                          && dst.data_type == dnnl_f32 && d.axis == src.ndims - 1
                          && row_major_dense(src) && row_major_dense(dst);
        } else {
            ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::fpmath | attr_skip::scratchpad
                                   | attr_skip::deterministic | attr_skip::acc_mode),
                    dnnl_unimplemented, "backward softmax takes no scales or post-ops");
            memory_desc_t dst, dd, ds;
            ANYDNN_CHECK(sm::resolve_bwd(pd, dst, dd, ds));
            ANYDNN_CHECK(check_tensors({&dst, &dd, &ds}));
            pd.args[DNNL_ARG_DST] = dst;
            pd.args[DNNL_ARG_DIFF_DST] = dd;
            pd.args[DNNL_ARG_DIFF_SRC] = ds;
        }
        return dnnl_success;
    }
};

struct softmax_t : public primitive_t {
    using primitive_t::primitive_t;
    const softmax_pd_t &pd_() const {
        return static_cast<const softmax_pd_t &>(pd());
    }

    status_t init() override {
        const softmax_pd_t &pd = pd_();
        std::string opt;
        if (pd.rows_f32)
            return create_kernel(pd.engine, "softmax/softmax.cl", " -DROWS_F32",
                    "softmax_fwd_rows_f32", kernel_);
        if (pd.fwd)
            opt = " -DFWD" + data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type)
                  + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
                  + pd.post_ops.build_options() + scale_type_options(pd.attr);
        else
            opt = " -DBWD" + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
                  + data_type_options("DIFF_DST", pd.arg_md(DNNL_ARG_DIFF_DST).data_type)
                  + data_type_options("DIFF_SRC", pd.arg_md(DNNL_ARG_DIFF_SRC).data_type);
        ANYDNN_CHECK(pd.post_ops.upload(pd.engine, post_ops_buffer_));
        return create_kernel(pd.engine, "softmax/softmax.cl", opt + row_options(pd.engine),
                pd.fwd ? "softmax_fwd" : "softmax_bwd", kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const softmax_pd_t &pd = pd_();
        const softmax_desc_t &d = sm::desc_of(pd);
        const int is_log = d.alg_kind == dnnl_softmax_log;
        const memory_desc_t &data = pd.arg_md(pd.fwd ? DNNL_ARG_SRC : DNNL_ARG_DST);
        const sm::geom_t g = sm::geom_of(data, d.axis);
        kernel_args_t args;
        if (pd.rows_f32) {
            args.add(storage_of(ctx, DNNL_ARG_SRC));
            args.add(storage_of(ctx, DNNL_ARG_DST));
            args.add_value<int64_t>(data.offset0);
            args.add_value<int64_t>(pd.arg_md(DNNL_ARG_DST).offset0);
            args.add_value<int64_t>(g.C);
            args.add_value<int32_t>(is_log);
            if (g.C == 0) return dnnl_success;
            return kernel_->launch(ctx.stream, args, range_1d(size_t(g.outer)));
        }
        const int list_fwd[] = {DNNL_ARG_SRC, DNNL_ARG_DST};
        const int list_bwd[] = {DNNL_ARG_DST, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC};
        const int *list = pd.fwd ? list_fwd : list_bwd;
        const int n = pd.fwd ? 2 : 3;
        for (int i = 0; i < n; ++i)
            args.add(storage_of(ctx, list[i]));
        for (int i = 0; i < n; ++i)
            add_layout(args, pd.arg_md(list[i]));
        add_logical_dims(args, data);
        args.add_value<int32_t>(d.axis);
        args.add_value<int32_t>(is_log);
        if (pd.fwd)
            for (int arg : {DNNL_ARG_SRC, DNNL_ARG_DST})
                args.add(pd.attr.scales.count(arg)
                                ? storage_of(ctx, DNNL_ARG_ATTR_SCALES | arg)
                                : nullptr);
        const size_t local = row_group_size(*kernel_, pd.engine);
        add_row_buffer(args, local);
        if (pd.fwd) pd.post_ops.add_args(args, ctx, post_ops_buffer_.get());
        if (g.C == 0) return dnnl_success;
        return kernel_->launch(ctx.stream, args, rows_range(size_t(g.outer * g.inner), local));
    }

private:
    std::shared_ptr<kernel_t> kernel_;
    std::unique_ptr<memory_storage_t> post_ops_buffer_; // the forward chain's parameters
};

} // namespace

impl_entry_t softmax_entry() {
    return make_impl_entry<softmax_pd_t>("ocl:softmax:rows");
}

} // namespace gpu
} // namespace anydnn
