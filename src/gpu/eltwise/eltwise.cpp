// GPU eltwise, forward and backward, any OpenCL device: every algorithm, f32/bf16/f16/s8/u8/s32
// storage (computed in f32), any blocked layouts; dense tensors of one layout take a flat
// kernel; forward takes any post-op chain the shared applier handles (gpu/post_ops.hpp).
#include <algorithm>

#include "core/compute/compute.hpp"
#include "core/ops/eltwise/common.hpp"
#include "core/primitive.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/kernel_layout.hpp"
#include "gpu/launch.hpp"
#include "gpu/post_ops.hpp"
#include "gpu/tuning/op_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

const eltwise_desc_t &eltwise_of(const primitive_desc_t &pd) {
    return std::get<eltwise_desc_t>(pd.desc);
}

struct eltwise_t;

struct eltwise_pd_t : public primitive_desc_impl_t<eltwise_pd_t, eltwise_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "ocl:eltwise:generic"; }
    bool fwd = true;
    bool dense = false;
    bool vec = false; // dense, four elements per access (the tuning table's vector_elems)
    int width = 4; // elements per access (vector_width)
    int groups = 1; // groups of `width` elements per work-item (vector_groups)
    post_ops_t post_ops;

    static status_t init(eltwise_pd_t &pd) {
        const eltwise_desc_t &d = eltwise_of(pd);
        pd.fwd = cpu::eltwise::is_fwd(d);
        ANYDNN_CHECK(cpu::eltwise::check_attr(pd.attr, pd.fwd));
        if (pd.fwd) {
            memory_desc_t src, dst;
            ANYDNN_CHECK(cpu::eltwise::resolve_fwd(d, src, dst));
            ANYDNN_CHECK(check_tensors({&src, &dst}));
            pd.args[DNNL_ARG_SRC] = src;
            pd.args[DNNL_ARG_DST] = dst;
            ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst, pd.args));
            pd.dense = pd.post_ops.empty() && same_dense_layout({&src, &dst});
            const op_tuning_t &tune = op_tuning(engine_caps(pd.engine));
            const size_t widest
                    = std::max(data_type_size(src.data_type), data_type_size(dst.data_type));
            pd.width = vector_width(tune, widest);
            if (src.offset0 % pd.width || dst.offset0 % pd.width) pd.width = 4;
            pd.vec = pd.dense && tune.vector_elems == 4 && src.offset0 % 4 == 0
                     && dst.offset0 % 4 == 0;
            pd.groups = vector_groups(tune, widest, pd.width);
        } else {
            memory_desc_t data, dd, ds;
            ANYDNN_CHECK(cpu::eltwise::resolve_bwd(d, data, dd, ds));
            ANYDNN_CHECK(check_tensors({&data, &dd, &ds}));
            pd.args[cpu::eltwise::bwd_data_arg(d)] = data;
            pd.args[DNNL_ARG_DIFF_DST] = dd;
            pd.args[DNNL_ARG_DIFF_SRC] = ds;
        }
        return dnnl_success;
    }
};

struct eltwise_t : public primitive_t {
    using primitive_t::primitive_t;
    const eltwise_pd_t &pd_() const { return static_cast<const eltwise_pd_t &>(pd()); }

    status_t init() override {
        const eltwise_pd_t &pd = pd_();
        const eltwise_desc_t &d = eltwise_of(pd);
        std::string opt = " -DALG=" + std::to_string(static_cast<int>(d.alg_kind));
        const char *kname = nullptr;
        if (pd.fwd) {
            opt += " -DFWD" + data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type)
                    + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
                    + pd.post_ops.build_options();
            ANYDNN_CHECK(pd.post_ops.upload(pd.engine, post_ops_buffer_));
            if (pd.dense) opt += " -DDENSE";
            if (pd.vec)
                opt += " -DVEC=" + std::to_string(pd.width)
                        + " -DGROUPS=" + std::to_string(pd.groups);
            kname = pd.vec ? "eltwise_fwd_dense_vec"
                           : pd.dense ? "eltwise_fwd_dense" : "eltwise_fwd_generic";
        } else {
            const int data_arg = cpu::eltwise::bwd_data_arg(d);
            opt += " -DBWD" + data_type_options("SRC", pd.arg_md(data_arg).data_type)
                    + data_type_options("DIFF_DST", pd.arg_md(DNNL_ARG_DIFF_DST).data_type)
                    + data_type_options("DIFF_SRC", pd.arg_md(DNNL_ARG_DIFF_SRC).data_type);
            kname = "eltwise_bwd_generic";
        }
        return create_kernel(pd.engine, "eltwise/eltwise.cl", opt, kname, kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const eltwise_pd_t &pd = pd_();
        const eltwise_desc_t &d = eltwise_of(pd);
        kernel_args_t args;
        if (pd.fwd) {
            const memory_desc_t &src = pd.arg_md(DNNL_ARG_SRC), &dst = pd.arg_md(DNNL_ARG_DST);
            args.add(storage_of(ctx, DNNL_ARG_SRC));
            args.add(storage_of(ctx, DNNL_ARG_DST));
            const long n = pd.dense ? nelems(dst) : nelems(dst, true);
            if (pd.dense) {
                args.add_value<int64_t>(src.offset0);
                args.add_value<int64_t>(dst.offset0);
            } else {
                add_layout(args, src);
                add_layout(args, dst);
            }
            args.add_value<int64_t>(n);
            args.add_value(d.alpha);
            args.add_value(d.beta);
            if (!pd.dense) {
                add_logical_dims(args, dst);
                pd.post_ops.add_args(args, ctx, post_ops_buffer_.get());
            }
            return kernel_->launch(ctx.stream, args, range_1d(pd.vec ? vector_items(n, pd.groups, pd.width) : n));
        }
        const int data_arg = cpu::eltwise::bwd_data_arg(d);
        const memory_desc_t &ds = pd.arg_md(DNNL_ARG_DIFF_SRC);
        args.add(storage_of(ctx, data_arg));
        args.add(storage_of(ctx, DNNL_ARG_DIFF_DST));
        args.add(storage_of(ctx, DNNL_ARG_DIFF_SRC));
        add_layout(args, pd.arg_md(data_arg));
        add_layout(args, pd.arg_md(DNNL_ARG_DIFF_DST));
        add_layout(args, ds);
        const long n = nelems(ds, true);
        args.add_value<int64_t>(n);
        args.add_value(d.alpha);
        args.add_value(d.beta);
        add_logical_dims(args, ds);
        return kernel_->launch(ctx.stream, args, range_1d(n));
    }

private:
    std::shared_ptr<kernel_t> kernel_;
    std::unique_ptr<memory_storage_t> post_ops_buffer_; // the chain's parameters
};

} // namespace

impl_entry_t eltwise_entry() { return make_impl_entry<eltwise_pd_t>("ocl:eltwise:generic"); }

} // namespace gpu
} // namespace anydnn
