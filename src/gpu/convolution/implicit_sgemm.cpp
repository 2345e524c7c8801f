// GPU forward f32 convolution as an implicit GEMM on the strict f32 PTX kernels
// (gpu/gemm/sgemm, entry anydnn_sgemm_conv_*): the kernel gathers its A tiles from
// channels-last src (strides, padding, dilation, any IC), so no column matrix is written and
// read again as in ocl:convolution:gemm_nhwc. 1D/2D, groups (a batch dimension), bias, f32
// scales and the sum/eltwise chain in the kernels' output stage. Taken where the tuning table
// gives the f32 PTX kernels (NVIDIA GPUs loading sm_80 PTX); 1x1 stride-1 convolutions stay
// with gemm_nhwc (src is A there already). ANYDNN_GPU_TUNING="sgemm:implicit=0" turns it off
// (timing against the im2col path).
#include <string>

#include "core/primitive.hpp"
#include "core/verbose.hpp"
#include "gpu/convolution/nhwc_gemm_geometry.hpp"
#include "gpu/gemm/gemm.hpp"
#include "gpu/gemm/sgemm_launch.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/tuning/conv_sgemm_tuning.hpp"
#include "gpu/tuning/gemm_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

struct implicit_sgemm_t;

struct implicit_sgemm_pd_t : public primitive_desc_impl_t<implicit_sgemm_pd_t, implicit_sgemm_t> {
    using base_t = primitive_desc_impl_t<implicit_sgemm_pd_t, implicit_sgemm_t>;
    using base_t::base_t;
    static const char *impl_name() {
        return "ocl:convolution:implicit_sgemm_f32";
    }
    const char *name() const override {
        return impl_name();
    }

    nhwc_conv_geometry_t q;
    post_ops_t post_ops;
    wgmma_epilogue_t epilogue;
    int tiles = -1; // sgemm_config's index conv_sgemm_tiles gives, -1: the size's pick

    static status_t init(implicit_sgemm_pd_t &pd) {
        const convolution_desc_t &d = std::get<convolution_desc_t>(pd.desc);
        ANYDNN_REQUIRE(d.alg_kind != dnnl_convolution_winograd, dnnl_unimplemented,
                "winograd is not implemented");
        memory_desc_t src, wei, bias, dst;
        nhwc_conv_geometry_t &q = pd.q;
        ANYDNN_CHECK(init_nhwc_conv(d, src, wei, bias, dst, q));
        ANYDNN_REQUIRE(src.data_type == dnnl_f32 && wei.data_type == dnnl_f32
                               && dst.data_type == dnnl_f32
                               && (!q.with_bias || bias.data_type == dnnl_f32),
                dnnl_unimplemented, "the implicit f32 GEMM takes f32 src, weights, bias and dst");
        ANYDNN_REQUIRE(!q.pointwise(), dnnl_unimplemented,
                "1x1 stride-1 unpadded: A is src itself (left to gemm_nhwc)");
        ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::fpmath | attr_skip::scratchpad
                                                  | attr_skip::scales | attr_skip::post_ops),
                dnnl_unimplemented, "attributes other than scales and post-ops");
        ANYDNN_CHECK(init_nhwc_conv_scales(pd.attr, q, pd.args));
        const auto wscale = pd.attr.scales.find(DNNL_ARG_WEIGHTS);
        ANYDNN_REQUIRE(q.g == 1 || wscale == pd.attr.scales.end() || wscale->second.mask == 0,
                dnnl_unimplemented, "per-channel weights scales with groups");
        ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst, pd.args));
        gemm_types_t t;
        t.set_scale_types(pd.attr);
        std::string reason;
        if (const char *why = sgemm_build_refusal(t, &pd.post_ops, pd.epilogue, reason))
            return fail(dnnl_unimplemented, __func__, "f32 PTX GEMM: %s", why);
        // The kernel gathers with 32-bit offsets from src's first element (plus its offset):
        // window corners reach the padding before it, taps (which stay within the padded
        // image, or there would be no output) the padding after it.
        const int64_t span = (q.mb - 1) * q.src_sn + (q.ih + 2 * q.pad_h) * q.src_sh
                             + (q.iw + 2 * q.pad_w) * q.src_sw + q.g * q.ic;
        const int64_t limit = int64_t(1) << 31;
        ANYDNN_REQUIRE(span < limit && q.ih + 2 * q.pad_h < (1 << 29)
                               && q.iw + 2 * q.pad_w < (1 << 29),
                dnnl_unimplemented, "src beyond the gather's 32-bit offsets");
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_WEIGHTS] = wei;
        pd.args[DNNL_ARG_DST] = dst;
        if (q.with_bias) pd.args[DNNL_ARG_BIAS] = bias;
        const gemm_params_t p = pd.gemm_params();
        if (const char *why = sgemm_launch_refusal(t, gemm_operands_t(), p))
            return fail(dnnl_unimplemented, __func__, "f32 PTX GEMM: %s", why);

        // Where the table gives the GEMM core the f32 PTX kernels (the device loads them).
        const device_caps_t &caps = engine_caps(pd.engine);
        gemm_problem_t problem;
        problem.c_elems = q.m() * q.g * q.oc, problem.m = q.m(), problem.n = q.oc;
        gemm_tuning_t tuning;
        ANYDNN_CHECK(gemm_tuning(caps, problem, tuning));
        ANYDNN_REQUIRE(tuning.variant == gemm_variant_t::sgemm_ptx, dnnl_unimplemented,
                "the tuning table gives f32 GEMMs %s here (%s), not sgemm_ptx",
                gemm_variant_name(tuning.variant), tuning.why.c_str());
        ANYDNN_REQUIRE(sgemm_override("implicit") != "0", dnnl_unimplemented,
                "turned off by ANYDNN_GPU_TUNING (sgemm:implicit=0)");
        // The tiles: once here, executions do not parse the override.
        const char *tiles = conv_sgemm_tiles(
                caps.compute_units, caps.ptx_binary_sm, p.batch(), p.M, p.N, p.K, q.ic);
        pd.tiles = tiles ? sgemm_config_index(tiles) : -1;
        if (verbose_on(verbose_flag::dispatch)) {
            verbose_print("primitive,create:dispatch",
                    "convolution,implicit sgemm_ptx,chosen: " + tuning.why
                            + "; A gathered from src (K = " + std::to_string(q.k())
                            + "); tiles: " + (tiles ? tiles : "the size's pick"));
        }
        return dnnl_success;
    }

    // One GEMM per group (batch dimension 3): A is src, B the weights' K-major rows.
    gemm_params_t gemm_params() const {
        gemm_params_t p;
        p.M = q.m();
        p.N = q.oc;
        p.K = q.k();
        p.batch_dims[3] = q.g;
        p.a_off = q.src_off, p.a_sm = 0, p.a_sk = 1;
        p.a_sb[3] = q.ic;
        p.b_off = q.wei_off, p.b_sk = 1, p.b_sn = q.wei_so;
        p.b_sb[3] = q.wei_sg;
        p.c_off = q.dst_off, p.c_sm = q.ldc, p.c_sn = 1;
        p.c_sb[3] = q.oc;
        if (q.with_bias) {
            p.has_bias = 1;
            p.bias_off = arg_md(DNNL_ARG_BIAS).offset0, p.bias_sm = 0, p.bias_sn = 1;
            p.bias_sb[3] = q.oc;
        }
        const auto wscale = attr.scales.find(DNNL_ARG_WEIGHTS);
        p.scale_b_sn = wscale != attr.scales.end() && wscale->second.mask != 0;
        return p;
    }

    sgemm_conv_t conv() const {
        return {q.ic, q.ih, q.iw, q.oh, q.ow, q.kw, q.stride_h, q.stride_w, q.pad_h, q.pad_w,
                q.dil_h, q.dil_w, q.src_sn, q.src_sh, q.src_sw};
    }
};

struct implicit_sgemm_t : public primitive_t {
    using primitive_t::primitive_t;
    const implicit_sgemm_pd_t &pd_() const {
        return static_cast<const implicit_sgemm_pd_t &>(pd());
    }

    status_t init() override {
        return sgemm_.init(pd_().engine, pd_().epilogue);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const implicit_sgemm_pd_t &pd = pd_();
        const nhwc_conv_geometry_t &q = pd.q;
        if (q.m() == 0 || q.oc == 0) return dnnl_success;
        const gemm_params_t p = pd.gemm_params();
        gemm_operands_t ops;
        ops.a = storage_of(ctx, DNNL_ARG_SRC);
        ops.b = storage_of(ctx, DNNL_ARG_WEIGHTS);
        ops.c = storage_of(ctx, DNNL_ARG_DST);
        ops.bias = q.with_bias ? storage_of(ctx, DNNL_ARG_BIAS) : nullptr;
        bind_quant(ctx, pd.attr, ops);
        ops.ctx = &ctx;
        const device_caps_t &caps = engine_caps(pd.engine);
        // The convolutions' row of the table (conv_sgemm_tiles, read at creation), else the
        // size's pick.
        const int config = sgemm_.pick_config(caps.compute_units, p.batch(), p.M, p.N,
                caps.ptx_binary_sm, pd.tiles);
        if (verbose_on(verbose_flag::dispatch))
            verbose_print("primitive,exec:dispatch",
                    std::string("convolution,implicit sgemm_ptx ") + sgemm_config[config].name
                            + ",M " + std::to_string(p.M) + " N " + std::to_string(p.N) + " K "
                            + std::to_string(p.K));
        return sgemm_.launch_conv(ctx.stream, ops, p, config, pd.conv());
    }

private:
    sgemm_f32_t sgemm_;
};

} // namespace

impl_entry_t convolution_implicit_sgemm_entry() {
    return make_impl_entry<implicit_sgemm_pd_t>(implicit_sgemm_pd_t::impl_name());
}

} // namespace gpu
} // namespace anydnn
