// GPU pooling (max, avg including / excluding padding), 1D/2D/3D, forward training (max
// records the window's tap in the workspace, laid out as the CPU engine's) and inference,
// backward; any blocked layouts, any OpenCL device. Post-ops are not supported yet.
#include <cstdio>

#include "core/compute/compute.hpp"
#include "core/data_types.hpp"
#include "core/ops/pooling/common.hpp"
#include "core/primitive.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/post_ops.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace pl = cpu::pooling;

// Mirrors pool_geom_t of pooling.cl.
struct pool_geom_t {
    int64_t mb, c, in[3], out[3], k[3], s[3], dl[3], pl[3];
    int64_t ndims, alg;
};

pool_geom_t kernel_geom(const pl::geom_t &g) {
    pool_geom_t k;
    k.mb = g.mb;
    k.c = g.c;
    for (int i = 0; i < 3; ++i) {
        k.in[i] = g.in[i];
        k.out[i] = g.out[i];
        k.k[i] = g.k[i];
        k.s[i] = g.s[i];
        k.dl[i] = g.dl[i];
        k.pl[i] = g.pl[i];
    }
    k.ndims = g.ndims;
    k.alg = g.alg == dnnl_pooling_max ? 0 : g.alg == dnnl_pooling_avg_include_padding ? 1 : 2;
    return k;
}

struct pooling_t;

struct pooling_pd_t : public primitive_desc_impl_t<pooling_pd_t, pooling_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return "ocl:pooling:generic";
    }
    bool fwd = true;
    post_ops_t post_ops;

    static status_t init(pooling_pd_t &pd) {
        pd.fwd = pl::is_fwd(pl::desc_of(pd));
        ANYDNN_CHECK(pl::check_attr(pd.attr, pd.fwd));
        ANYDNN_CHECK(pl::resolve(pd));
        for (const auto &a : pd.args)
            ANYDNN_CHECK(check_tensors({&a.second}));
        ANYDNN_REQUIRE(pd.fwd || pl::desc_of(pd).alg_kind != dnnl_pooling_max
                               || pd.args.count(DNNL_ARG_WORKSPACE),
                dnnl_unimplemented, "GPU max pooling backward needs the forward's workspace");
        if (pd.fwd) ANYDNN_CHECK(pd.post_ops.init(pd.attr, pd.args.at(DNNL_ARG_DST), pd.args));
        return dnnl_success;
    }
    bool has_ws() const {
        return args.count(DNNL_ARG_WORKSPACE) != 0;
    }
};

struct pooling_t : public primitive_t {
    using primitive_t::primitive_t;
    const pooling_pd_t &pd_() const {
        return static_cast<const pooling_pd_t &>(pd());
    }

    status_t init() override {
        const pooling_pd_t &pd = pd_();
        const dnnl_data_type_t ws_dt =
                pd.has_ws() ? pd.arg_md(DNNL_ARG_WORKSPACE).data_type : dnnl_u8;
        std::string opt = data_type_options("WS", ws_dt);
        if (pd.fwd) {
            // Max over a window of padding only: the source type's lowest value, exactly
            // (a hexadecimal literal).
            char lowest[48];
            std::snprintf(lowest, sizeof(lowest), " -DSRC_LOWEST=%af",
                    double(lowest_finite(pd.arg_md(DNNL_ARG_SRC).data_type)));
            opt += lowest;
            opt += " -DFWD" + data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type)
                   + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
                   + pd.post_ops.build_options();
            ANYDNN_CHECK(pd.post_ops.upload(pd.engine, post_ops_buffer_));
            return create_kernel(pd.engine, "pooling/pooling.cl", opt, "pooling_fwd", kernel_);
        }
        opt += " -DBWD" + data_type_options("DIFF_SRC", pd.arg_md(DNNL_ARG_DIFF_SRC).data_type)
               + data_type_options("DIFF_DST", pd.arg_md(DNNL_ARG_DIFF_DST).data_type);
        return create_kernel(pd.engine, "pooling/pooling.cl", opt, "pooling_bwd", kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const pooling_pd_t &pd = pd_();
        const pl::geom_t g = pl::make_geom(pl::desc_of(pd));
        const int first = pd.fwd ? DNNL_ARG_SRC : DNNL_ARG_DIFF_SRC;
        const int second = pd.fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST;
        const memory_desc_t &second_md = pd.arg_md(second);
        kernel_args_t args;
        args.add(storage_of(ctx, first));
        args.add(storage_of(ctx, second));
        args.add(pd.has_ws() ? storage_of(ctx, DNNL_ARG_WORKSPACE) : nullptr);
        add_layout(args, pd.arg_md(first));
        add_layout(args, second_md);
        add_layout(args, pd.has_ws() ? pd.arg_md(DNNL_ARG_WORKSPACE) : second_md);
        args.add_value(kernel_geom(g));
        const int64_t n = g.mb * g.c
                          * (pd.fwd ? g.out[0] * g.out[1] * g.out[2] : g.in[0] * g.in[1] * g.in[2]);
        if (pd.fwd) {
            args.add_value<int32_t>(pd.has_ws() ? 1 : 0);
            pd.post_ops.add_args(args, ctx, post_ops_buffer_.get());
        }
        return kernel_->launch(ctx.stream, args, range_1d(size_t(n)));
    }

private:
    std::shared_ptr<kernel_t> kernel_;
    std::unique_ptr<memory_storage_t> post_ops_buffer_; // the forward chain's parameters
};

} // namespace

impl_entry_t pooling_entry() {
    return make_impl_entry<pooling_pd_t>("ocl:pooling:generic");
}

} // namespace gpu
} // namespace anydnn
