// GPU pooling, forward and backward, over dense channels-first (NCDHW, NCHW, NCW) or
// channels-last tensors with no post-ops: the problem's sizes compiled into the kernel
// (pooling_dense.cl), one work-item per dst (backward: diff_src) element in memory order.
// ocl:pooling:generic takes everything else.
#include <cstdio>
#include <string>

#include "core/compute/compute.hpp"
#include "core/data_types.hpp"
#include "core/ops/layout.hpp"
#include "core/ops/pooling/common.hpp"
#include "core/primitive.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace pl = cpu::pooling;

// Whether md's dimensions lie in memory as N C spatial... (channels first) or N spatial... C
// (channels last), densely; false for other orders.
bool dense_order(const memory_desc_t &md, bool channels_last) {
    if (!cpu::is_dense_unpadded(md) || !is_plain(md)) return false;
    const int nd = md.ndims;
    int order[max_ndims];
    order[0] = 0;
    for (int i = 1; i < nd; ++i)
        order[i] = channels_last ? (i == nd - 1 ? 1 : i + 1) : i;
    // Outermost to innermost: each stride is the next one's stride times its extent.
    dim_t expect = 1;
    for (int i = nd - 1; i >= 0; --i) {
        const int d = order[i];
        if (md.dims[d] != 1 && md.blocking.strides[d] != expect) return false;
        expect *= md.dims[d];
    }
    return true;
}

struct pooling_dense_t;

struct pooling_dense_pd_t : public primitive_desc_impl_t<pooling_dense_pd_t, pooling_dense_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "ocl:pooling:dense"; }
    bool fwd = true;
    bool channels_last = false;

    static status_t init(pooling_dense_pd_t &pd) {
        pd.fwd = pl::is_fwd(pl::desc_of(pd));
        ANYDNN_CHECK(pl::check_attr(pd.attr, false));
        ANYDNN_CHECK(pl::resolve(pd));
        for (const auto &a : pd.args)
            ANYDNN_CHECK(check_tensors({&a.second}));
        const memory_desc_t &src = pd.args.at(pd.fwd ? DNNL_ARG_SRC : DNNL_ARG_DIFF_SRC),
                            &dst = pd.args.at(pd.fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST);
        pd.channels_last = dense_order(src, true) && dense_order(dst, true);
        ANYDNN_REQUIRE(pd.channels_last || (dense_order(src, false) && dense_order(dst, false)),
                dnnl_unimplemented,
                "src and dst are not both dense channels-first or both dense channels-last");
        // Indices are 32-bit in the kernel.
        ANYDNN_REQUIRE(nelems(src) < (int64_t(1) << 31) && nelems(dst) < (int64_t(1) << 31),
                dnnl_unimplemented, "tensors of 2^31 elements or more");
        const auto ws = pd.args.find(DNNL_ARG_WORKSPACE);
        ANYDNN_REQUIRE(ws == pd.args.end() || cpu::same_layout(ws->second, dst),
                dnnl_unimplemented, "the workspace is not laid out as dst");
        ANYDNN_REQUIRE(pd.fwd || pl::desc_of(pd).alg_kind != dnnl_pooling_max
                               || ws != pd.args.end(),
                dnnl_unimplemented, "max pooling backward needs the forward's workspace");
        return dnnl_success;
    }
};

struct pooling_dense_t : public primitive_t {
    using primitive_t::primitive_t;
    const pooling_dense_pd_t &pd_() const {
        return static_cast<const pooling_dense_pd_t &>(pd());
    }

    status_t init() override {
        const pooling_dense_pd_t &pd = pd_();
        const pl::geom_t g = pl::make_geom(pl::desc_of(pd));
        const memory_desc_t &src = pd.arg_md(pd.fwd ? DNNL_ARG_SRC : DNNL_ARG_DIFF_SRC),
                            &dst = pd.arg_md(pd.fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST);
        const bool with_ws = pd.args.count(DNNL_ARG_WORKSPACE) != 0;
        const int alg = g.alg == dnnl_pooling_max ? 0
                : g.alg == dnnl_pooling_avg_include_padding ? 1
                                                            : 2;
        std::string opt = data_type_options(pd.fwd ? "SRC" : "DIFF_SRC", src.data_type)
                + data_type_options(pd.fwd ? "DST" : "DIFF_DST", dst.data_type)
                + (pd.fwd ? "" : " -DBWD")
                + data_type_options(
                        "WS", with_ws ? pd.arg_md(DNNL_ARG_WORKSPACE).data_type : dnnl_u8);
        auto def = [&opt](const char *name, int64_t v) {
            opt += " -D" + std::string(name) + "=" + std::to_string(v);
        };
        def("MB", g.mb), def("C", g.c), def("ALG", alg);
        const char *in[] = {"ID", "IH", "IW"}, *out[] = {"OD", "OH", "OW"},
                   *k[] = {"KD", "KH", "KW"}, *s[] = {"SD", "SH", "SW"},
                   *dl[] = {"DD", "DH", "DW"}, *pad[] = {"PD", "PH", "PW"};
        for (int i = 0; i < 3; ++i) {
            def(in[i], g.in[i]), def(out[i], g.out[i]), def(k[i], g.k[i]), def(s[i], g.s[i]);
            def(dl[i], g.dl[i] + 1), def(pad[i], g.pl[i]);
        }
        def("SRC_OFF", src.offset0), def("DST_OFF", dst.offset0);
        def("WS_OFF", with_ws ? pd.arg_md(DNNL_ARG_WORKSPACE).offset0 : 0);
        if (with_ws) opt += " -DWITH_WS";
        if (pd.channels_last) opt += " -DCHANNELS_LAST";
        // Max over a window of padding only: the source type's lowest value, exactly.
        char lowest[48];
        std::snprintf(lowest, sizeof(lowest), " -DSRC_LOWEST=%af",
                double(lowest_finite(src.data_type)));
        opt += lowest;
        return create_kernel(pd.engine, "pooling/pooling_dense.cl", opt,
                pd.fwd ? "pooling_dense_fwd" : "pooling_dense_bwd", kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const pooling_dense_pd_t &pd = pd_();
        const int first = pd.fwd ? DNNL_ARG_SRC : DNNL_ARG_DIFF_SRC;
        const int second = pd.fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST;
        kernel_args_t args;
        args.add(storage_of(ctx, first));
        args.add(storage_of(ctx, second));
        args.add(pd.args.count(DNNL_ARG_WORKSPACE) ? storage_of(ctx, DNNL_ARG_WORKSPACE)
                                                   : nullptr);
        // One work-item per element written: dst forward, diff_src backward.
        const int64_t n = nelems(pd.arg_md(pd.fwd ? second : first));
        if (n == 0) return dnnl_success;
        return kernel_->launch(ctx.stream, args, range_1d(size_t(n)));
    }

private:
    std::shared_ptr<kernel_t> kernel_;
};

} // namespace

impl_entry_t pooling_dense_entry() {
    return make_impl_entry<pooling_dense_pd_t>("ocl:pooling:dense");
}

} // namespace gpu
} // namespace anydnn
