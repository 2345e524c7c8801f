// GPU resampling (nearest, linear), 1D/2D/3D, forward and backward, any blocked layouts, any
// OpenCL device; forward post-ops.
#include "core/compute/compute.hpp"
#include "core/ops/resampling/common.hpp"
#include "core/primitive.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/post_ops.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace rs = cpu::resampling;

// Mirrors rs_geom_t of resampling.cl.
struct rs_geom_t {
    int64_t mb, c, in[3], out[3];
    int64_t ndims, linear;
};

rs_geom_t kernel_geom(const memory_desc_t &src, const memory_desc_t &dst, bool linear) {
    rs_geom_t g;
    g.mb = src.dims[0];
    g.c = src.dims[1];
    const int nsp = src.ndims - 2;
    for (int k = 0; k < 3; ++k)
        g.in[k] = g.out[k] = 1;
    for (int k = 0; k < nsp; ++k) {
        g.in[3 - nsp + k] = src.dims[2 + k];
        g.out[3 - nsp + k] = dst.dims[2 + k];
    }
    g.ndims = src.ndims;
    g.linear = linear;
    return g;
}

struct resampling_t;

struct resampling_pd_t : public primitive_desc_impl_t<resampling_pd_t, resampling_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return "ocl:resampling:generic";
    }
    bool fwd = true;
    post_ops_t post_ops;

    static status_t init(resampling_pd_t &pd) {
        const auto &d = rs::desc_of(pd);
        pd.fwd = rs::is_fwd(d);
        ANYDNN_CHECK(rs::check_attr(pd.attr, pd.fwd));
        memory_desc_t src, dst;
        ANYDNN_CHECK(rs::resolve(pd, src, dst));
        ANYDNN_CHECK(check_tensors({&src, &dst}));
        ANYDNN_REQUIRE(src.ndims >= 3 && src.ndims <= 5, dnnl_unimplemented,
                "resampling takes 3 to 5 dimensions");
        for (int k = 2; k < src.ndims; ++k)
            ANYDNN_REQUIRE(src.dims[k] > 0 || nelems(src) == 0, dnnl_unimplemented,
                    "empty spatial src dimension with a non-empty dst");
        pd.args[pd.fwd ? DNNL_ARG_SRC : DNNL_ARG_DIFF_SRC] = src;
        pd.args[pd.fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST] = dst;
        if (pd.fwd) ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst, pd.args));
        return dnnl_success;
    }
};

struct resampling_t : public primitive_t {
    using primitive_t::primitive_t;
    const resampling_pd_t &pd_() const {
        return static_cast<const resampling_pd_t &>(pd());
    }

    status_t init() override {
        const resampling_pd_t &pd = pd_();
        std::string opt;
        if (pd.fwd)
            opt = " -DFWD" + data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type)
                  + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
                  + pd.post_ops.build_options();
        else
            opt = " -DBWD" + data_type_options("DIFF_SRC", pd.arg_md(DNNL_ARG_DIFF_SRC).data_type)
                  + data_type_options("DIFF_DST", pd.arg_md(DNNL_ARG_DIFF_DST).data_type);
        ANYDNN_CHECK(pd.post_ops.upload(pd.engine, post_ops_buffer_));
        return create_kernel(pd.engine, "resampling/resampling.cl", opt,
                pd.fwd ? "resampling_fwd" : "resampling_bwd", kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const resampling_pd_t &pd = pd_();
        const int s_arg = pd.fwd ? DNNL_ARG_SRC : DNNL_ARG_DIFF_SRC;
        const int d_arg = pd.fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST;
        const memory_desc_t &src = pd.arg_md(s_arg), &dst = pd.arg_md(d_arg);
        const rs_geom_t g =
                kernel_geom(src, dst, rs::desc_of(pd).alg_kind == dnnl_resampling_linear);
        kernel_args_t args;
        args.add(storage_of(ctx, s_arg));
        args.add(storage_of(ctx, d_arg));
        add_layout(args, src);
        add_layout(args, dst);
        args.add_value(g);
        pd.post_ops.add_args(args, ctx, post_ops_buffer_.get());
        return kernel_->launch(ctx.stream, args, range_1d(size_t(nelems(pd.fwd ? dst : src))));
    }

private:
    std::shared_ptr<kernel_t> kernel_;
    std::unique_ptr<memory_storage_t> post_ops_buffer_; // the chain's parameters
};

} // namespace

impl_entry_t resampling_entry() {
    return make_impl_entry<resampling_pd_t>("ocl:resampling:generic");
}

} // namespace gpu
} // namespace anydnn
