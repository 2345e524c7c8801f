// GPU forward f32 convolution by Winograd F(2x2, 3x3) (convolution/winograd_f23.cl) on any
// OpenCL device: the source and weights transforms into the scratchpad, 16 GEMMs over
// channels on the shared GEMM core (one batched launch: the strict f32 PTX kernels where the
// tuning table gives them, the device's tiled kernel elsewhere), and the output transform,
// which applies scales, bias and the post-op chain. 2D, 3x3, stride 1, no dilation, one group,
// any padding; channels-last tensors (what `any` becomes). Taken for alg_kind winograd, and
// for auto where the tuning table says so (gpu/tuning/conv_winograd_tuning); every value is
// computed in f32 (no TF32, no reduced precision), within f32 tolerances of the direct sum.
#include <string>

#include "core/primitive.hpp"
#include "core/verbose.hpp"
#include "gpu/convolution/nhwc_gemm_geometry.hpp"
#include "gpu/gemm/gemm.hpp"
#include "gpu/gemm/sgemm_launch.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/tuning/conv_winograd_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

// Mirrors wino_geom_t of convolution/winograd_f23.cl.
struct wino_geom_t {
    int64_t ic, oc, ih, iw, oh, ow, pad_h, pad_w;
    int64_t tiles_h, tiles_w, tiles;
    int64_t src_sn, src_sh, src_sw, src_off;
    int64_t wei_so, wei_off;
    int64_t ldc, dst_off;
    int64_t bias_off, has_bias, wei_scale_per_oc;
    int64_t v_off, u_off, m_off;
};
static_assert(sizeof(wino_geom_t) == 25 * 8, "must match convolution/winograd_f23.cl");

constexpr int64_t wino_planes = 16; // 4 x 4 transformed elements per tile

struct winograd_f32_t;

struct winograd_f32_pd_t : public primitive_desc_impl_t<winograd_f32_pd_t, winograd_f32_t> {
    using base_t = primitive_desc_impl_t<winograd_f32_pd_t, winograd_f32_t>;
    using base_t::base_t;
    static const char *impl_name() {
        return "ocl:convolution:winograd_f32";
    }
    const char *name() const override {
        return impl_name();
    }

    nhwc_conv_geometry_t q;
    post_ops_t post_ops;
    wino_geom_t w {};
    gemm_kind_t gemm_kind = gemm_kind_t::tiled;

    static status_t init(winograd_f32_pd_t &pd) {
        convolution_desc_t &d = std::get<convolution_desc_t>(pd.desc);
        ANYDNN_REQUIRE(d.alg_kind == dnnl_convolution_winograd
                               || d.alg_kind == dnnl_convolution_auto,
                dnnl_unimplemented, "Winograd runs for alg_kind winograd or auto only");
        memory_desc_t src, wei, bias, dst;
        nhwc_conv_geometry_t &q = pd.q;
        ANYDNN_CHECK(init_nhwc_conv(d, src, wei, bias, dst, q));
        ANYDNN_REQUIRE(src.data_type == dnnl_f32 && wei.data_type == dnnl_f32
                               && dst.data_type == dnnl_f32
                               && (!q.with_bias || bias.data_type == dnnl_f32),
                dnnl_unimplemented, "Winograd F(2x2, 3x3) takes f32 src, weights, bias and dst");
        ANYDNN_REQUIRE(src.ndims == 4 && q.kh == 3 && q.kw == 3 && q.stride_h == 1
                               && q.stride_w == 1 && q.dil_h == 1 && q.dil_w == 1,
                dnnl_unimplemented,
                "Winograd F(2x2, 3x3) takes 2D 3x3 windows, stride 1, no dilation");
        ANYDNN_REQUIRE(q.g == 1, dnnl_unimplemented, "Winograd F(2x2, 3x3) takes one group");
        ANYDNN_REQUIRE(q.ic > 0, dnnl_unimplemented, "Winograd F(2x2, 3x3) needs IC > 0");
        ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::fpmath | attr_skip::scratchpad
                                                  | attr_skip::scales | attr_skip::post_ops),
                dnnl_unimplemented, "attributes other than scales and post-ops");
        ANYDNN_CHECK(init_nhwc_conv_scales(pd.attr, q, pd.args));
        ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst, pd.args));

        const device_caps_t &caps = engine_caps(pd.engine);
        pd.gemm_kind = gemm_tiled_supported(pd.engine) ? gemm_kind_t::tiled : gemm_kind_t::generic;
        std::string why = "alg_kind winograd";
        if (d.alg_kind == dnnl_convolution_auto) {
            gemm_problem_t problem;
            problem.c_elems = wino_planes * q.mb * q.oh * q.ow * q.oc;
            // Devices no tiled row fits run the GEMMs on the generic kernel.
            gemm_tuning_t gemm;
            if (gemm_tuning(caps, problem, gemm) != dnnl_success)
                gemm.variant = gemm_variant_t::generic;
            conv_winograd_tuning_t tuning;
            ANYDNN_CHECK(conv_winograd_tuning(caps, gemm.variant, q.ic, q.oc, tuning));
            ANYDNN_REQUIRE(tuning.for_auto, dnnl_unimplemented,
                    "alg_kind auto stays direct here: %s", tuning.why.c_str());
            why = "alg_kind auto, " + tuning.why;
        }

        // The scratchpad: V (16 x tiles x IC), U (16 x OC x IC), M (16 x tiles x OC), f32,
        // each region 256-byte aligned.
        wino_geom_t &w = pd.w;
        w.ic = q.ic, w.oc = q.oc, w.ih = q.ih, w.iw = q.iw, w.oh = q.oh, w.ow = q.ow;
        w.pad_h = q.pad_h, w.pad_w = q.pad_w;
        w.tiles_h = (q.oh + 1) / 2, w.tiles_w = (q.ow + 1) / 2;
        w.tiles = q.mb * w.tiles_h * w.tiles_w;
        w.src_sn = q.src_sn, w.src_sh = q.src_sh, w.src_sw = q.src_sw, w.src_off = q.src_off;
        w.wei_so = q.wei_so, w.wei_off = q.wei_off;
        w.ldc = q.ldc, w.dst_off = q.dst_off;
        w.has_bias = q.with_bias;
        w.bias_off = q.with_bias ? bias.offset0 : 0;
        const auto wscale = pd.attr.scales.find(DNNL_ARG_WEIGHTS);
        w.wei_scale_per_oc = wscale != pd.attr.scales.end() && wscale->second.mask != 0;
        auto aligned = [](int64_t elems) { return (elems + 63) / 64 * 64; };
        const int64_t limit = int64_t(1) << 28; // f32 elements: 1 GiB
        ANYDNN_REQUIRE(w.tiles < limit && q.ic < limit && q.oc < limit
                               && w.tiles * q.ic < limit / wino_planes
                               && w.tiles * q.oc < limit / wino_planes
                               && q.oc * q.ic < limit / wino_planes,
                dnnl_unimplemented, "Winograd's transformed tensors would exceed 1 GiB");
        w.v_off = 0;
        w.u_off = w.v_off + aligned(wino_planes * w.tiles * q.ic);
        w.m_off = w.u_off + aligned(wino_planes * q.oc * q.ic);
        const int64_t elems = w.m_off + aligned(wino_planes * w.tiles * q.oc);
        ANYDNN_REQUIRE(elems <= limit, dnnl_unimplemented,
                "Winograd's transformed tensors would exceed 1 GiB");
        pd.scratchpad_size = static_cast<size_t>(elems * 4);

        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_WEIGHTS] = wei;
        pd.args[DNNL_ARG_DST] = dst;
        if (q.with_bias) pd.args[DNNL_ARG_BIAS] = bias;
        // What the primitive descriptor reports: the algorithm that runs.
        d.alg_kind = dnnl_convolution_winograd;
        if (verbose_on(verbose_flag::dispatch))
            verbose_print("primitive,create:dispatch",
                    "convolution,winograd F(2x2 3x3) f32,chosen: " + why + "; "
                            + std::to_string(w.tiles) + " tiles, 16 GEMMs of "
                            + std::to_string(w.tiles) + "x" + std::to_string(q.oc) + "x"
                            + std::to_string(q.ic));
        return dnnl_success;
    }

    // The 16 GEMMs as one launch (batch dimension 3): M(p, o) = sum_c V(p, c) * U(o, c).
    gemm_params_t gemm_params() const {
        gemm_params_t p;
        p.M = w.tiles;
        p.N = q.oc;
        p.K = q.ic;
        p.batch_dims[3] = wino_planes;
        p.a_off = w.v_off, p.a_sm = q.ic, p.a_sk = 1, p.a_sb[3] = w.tiles * q.ic;
        p.b_off = w.u_off, p.b_sk = 1, p.b_sn = q.ic, p.b_sb[3] = q.oc * q.ic;
        p.c_off = w.m_off, p.c_sm = q.oc, p.c_sn = 1, p.c_sb[3] = w.tiles * q.oc;
        return p;
    }
};

struct winograd_f32_t : public primitive_t {
    using primitive_t::primitive_t;
    const winograd_f32_pd_t &pd_() const {
        return static_cast<const winograd_f32_pd_t &>(pd());
    }

    status_t init() override {
        const winograd_f32_pd_t &pd = pd_();
        const char *file = "convolution/winograd_f23.cl";
        ANYDNN_CHECK(create_kernel(pd.engine, file, "", "wino_src_transform", src_));
        ANYDNN_CHECK(create_kernel(pd.engine, file, "", "wino_wei_transform", wei_));
        ANYDNN_CHECK(create_kernel(
                pd.engine, file, pd.post_ops.build_options(), "wino_dst_transform", dst_));
        ANYDNN_CHECK(pd.post_ops.upload(pd.engine, post_ops_buffer_));
        gemm_types_t t; // f32 throughout, no output stage: the dst transform applies it
        if (const char *tiles =
                        conv_winograd_sgemm_tiles(pd.q.oc, engine_caps(pd.engine).ptx_binary_sm))
            gemm_.prefer_sgemm_config(sgemm_config_index(tiles));
        return gemm_.init(pd.engine, t, pd.gemm_kind, wino_planes * pd.w.tiles * pd.q.oc,
                nullptr, pd.w.tiles, pd.q.oc);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const winograd_f32_pd_t &pd = pd_();
        const nhwc_conv_geometry_t &q = pd.q;
        const wino_geom_t &w = pd.w;
        if (q.mb == 0 || q.oh == 0 || q.ow == 0 || q.oc == 0) return dnnl_success;
        const memory_storage_t *scratch = ctx.scratchpad_storage;
        auto transform = [&](const kernel_t &k, const memory_storage_t *from, int64_t n) {
            kernel_args_t args;
            args.add(from);
            args.add(scratch);
            args.add_value(w);
            return k.launch(ctx.stream, args, range_1d(static_cast<size_t>(n)));
        };
        ANYDNN_CHECK(transform(*src_, storage_of(ctx, DNNL_ARG_SRC), w.tiles * q.ic));
        ANYDNN_CHECK(transform(*wei_, storage_of(ctx, DNNL_ARG_WEIGHTS), q.oc * q.ic));
        gemm_operands_t ops;
        ops.a = ops.b = ops.c = scratch;
        ops.ctx = &ctx;
        ANYDNN_CHECK(gemm_.launch(ctx.stream, ops, pd.gemm_params()));
        kernel_args_t args;
        args.add(scratch);
        args.add(storage_of(ctx, DNNL_ARG_DST));
        args.add(q.with_bias ? storage_of(ctx, DNNL_ARG_BIAS) : nullptr);
        args.add(storage_of(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC));
        args.add(storage_of(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS));
        args.add(storage_of(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST));
        args.add_value(w);
        pd.post_ops.add_args(args, ctx, post_ops_buffer_.get());
        return dst_->launch(ctx.stream, args, range_1d(static_cast<size_t>(w.tiles * q.oc)));
    }

private:
    std::shared_ptr<kernel_t> src_, wei_, dst_;
    gemm_kernel_t gemm_;
    std::unique_ptr<memory_storage_t> post_ops_buffer_;
};

} // namespace

impl_entry_t convolution_winograd_f32_entry() {
    return make_impl_entry<winograd_f32_pd_t>(winograd_f32_pd_t::impl_name());
}

} // namespace gpu
} // namespace anydnn
