// GPU forward convolution on Hopper's warpgroup tensor cores: an implicit GEMM
// (gpu/gemm/hopper/wgmma_conv.cu) whose A tiles the kernel gathers from channels-last src,
// loaded through OpenCL where the device takes sm_90a PTX. bf16 or f16 src and weights,
// dst f32 or that type, 1D/2D, strides, padding, dilation, one group (IC not a multiple of 8:
// src and weights first copied with channels padded to 8);
// bias, f32 scales and a sum and an eltwise post-op in the kernel's epilogue. Anything else
// is left to the next implementation, with the reason. The tuning table picks the kernel: a
// tile per CTA (wgmma_conv.cu), or where the problem fits it (64 input channels, stride 1,
// K <= 576) a persistent one holding its 64 channels of weights in shared memory and loading
// each tile's input pixels once for all taps (wgmma_conv_halo.cu; one or two CTAs per
// compute unit, walking the tiles).
#include <algorithm>
#include <string>

#include "core/primitive.hpp"
#include "core/verbose.hpp"
#include "gpu/convolution/halo_fit.hpp"
#include "gpu/convolution/nhwc_gemm_geometry.hpp"
#include "gpu/gemm/wgmma_launch.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/tuning/conv_wgmma_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

struct implicit_wgmma_t;

struct implicit_wgmma_pd_t : public primitive_desc_impl_t<implicit_wgmma_pd_t, implicit_wgmma_t> {
    using base_t = primitive_desc_impl_t<implicit_wgmma_pd_t, implicit_wgmma_t>;
    using base_t::base_t;
    static const char *impl_name() {
        return "ocl:convolution:implicit_wgmma_sm90a";
    }
    const char *name() const override {
        return impl_name();
    }

    nhwc_conv_geometry_t q;
    wgmma_epilogue_t epilogue;
    std::string kernel_name;
    int tile_n = 0;
    int halo_halves = 0;     // the persistent kernel's 128-row halves a tile (0: tile kernels)
    int halo_runs = 0;       // and its runs of input lines in shared memory
    bool halo_pingpong = false; // its warpgroups walk tiles apart (two tiles a CTA at once)
    int64_t icp = 0;         // channels as gathered: IC rounded up to 8
    bool pad = false;        // src and weights copied with icp channels into the scratchpad
    int64_t wei_pad_off = 0; // where the padded weights start there (elements)

    static status_t init(implicit_wgmma_pd_t &pd) {
        const convolution_desc_t &d = std::get<convolution_desc_t>(pd.desc);
        ANYDNN_REQUIRE(d.alg_kind != dnnl_convolution_winograd, dnnl_unimplemented,
                "winograd is not implemented");
        memory_desc_t src, wei, bias, dst;
        nhwc_conv_geometry_t &q = pd.q;
        ANYDNN_CHECK(init_nhwc_conv(d, src, wei, bias, dst, q));
        const dnnl_data_type_t t = src.data_type;
        ANYDNN_REQUIRE((t == dnnl_bf16 || t == dnnl_f16) && wei.data_type == t
                               && (dst.data_type == t || dst.data_type == dnnl_f32),
                dnnl_unimplemented,
                "wgmma takes bf16 or f16 src and weights of one type, dst f32 or that type");
        ANYDNN_REQUIRE(!q.with_bias || bias.data_type == t || bias.data_type == dnnl_f32,
                dnnl_unimplemented, "wgmma bias is f32 or the src type");
        ANYDNN_REQUIRE(q.g == 1, dnnl_unimplemented, "wgmma convolution takes one group");
        ANYDNN_REQUIRE(q.k() > 0, dnnl_unimplemented, "wgmma convolution needs IC > 0");
        const device_caps_t &caps = engine_caps(pd.engine);
        // A 16-byte piece of an A row is 8 channels of one pixel: other channel counts (the
        // first layer's 3) are padded into the scratchpad first, src and weights.
        pd.icp = (q.ic + 7) / 8 * 8;
        conv_wgmma_tuning_t tuning;
        ANYDNN_CHECK(conv_wgmma_tuning(caps, q.m(), q.oc, q.kh * q.kw * pd.icp, tuning));
        pd.pad = q.ic != pd.icp;
        ANYDNN_REQUIRE(!pd.pad || tuning.pad_channels, dnnl_unimplemented,
                "wgmma gathers 8 channels at a time: IC %lld is not a multiple of 8 and the "
                "tuning table turns channel padding off",
                (long long)q.ic);
        ANYDNN_REQUIRE(
                pd.pad
                        || (q.src_sn % 8 == 0 && q.src_sh % 8 == 0 && q.src_sw % 8 == 0
                                && q.src_off % 8 == 0 && q.wei_so % 8 == 0 && q.wei_off % 8 == 0),
                dnnl_unimplemented,
                "wgmma gathers 16-byte pieces: src and weights strides and offsets must be "
                "multiples of 8 elements");
        ANYDNN_REQUIRE(bias.offset0 == 0, dnnl_unimplemented, "wgmma bias is dense");
        if (pd.pad) {
            // Padded src, then padded weights 256-byte aligned: elements of 2 bytes.
            const int64_t src_elems = q.mb * q.ih * q.iw * pd.icp;
            pd.wei_pad_off = (src_elems + 127) / 128 * 128;
            const int64_t bytes = 2 * (pd.wei_pad_off + q.oc * q.kh * q.kw * pd.icp);
            ANYDNN_REQUIRE(bytes <= (int64_t(1) << 30), dnnl_unimplemented,
                    "channel-padded src and weights would exceed 1 GiB");
            pd.scratchpad_size = static_cast<size_t>(bytes);
        }
        ANYDNN_REQUIRE(wgmma_sizes_fit(1, q.m(), q.oc, q.kh * q.kw * pd.icp)
                               && (q.m() + 127) / 128 < 65536,
                dnnl_unimplemented, "sizes exceed the kernel's index range");
        ANYDNN_CHECK(init_nhwc_conv_scales(pd.attr, q, pd.args));
        ANYDNN_CHECK(wgmma_epilogue(pd.attr, dst, pd.epilogue));
        // Last among the checks, so that every device names what the kernels lack.
        ANYDNN_REQUIRE(caps.ptx_binary_sm >= 90, dnnl_unimplemented,
                "the device does not load sm_90a PTX programs");
        pd.tile_n = tuning.tile_n;
        std::string why = tuning.why;
        const char *misfit = tuning.halo.empty() ? nullptr : halo_misfit(q, pd.pad);
        if (!tuning.halo.empty() && !misfit) {
            pd.halo_halves = tuning.halo[1] - '0';
            pd.halo_runs = tuning.halo[3] - '0';
            pd.halo_pingpong = tuning.halo.size() > 4; // "p" or "t" (swapped)
            pd.kernel_name = std::string("anydnn_wgmma_conv_halo_")
                             + (t == dnnl_bf16 ? "bf16_" : "f16_") + tuning.halo
                             + (pd.epilogue.any ? "_epi" : "");
        } else {
            if (misfit)
                why += std::string("; halo kernel ") + tuning.halo + " passed over: " + misfit;
            pd.kernel_name = std::string("anydnn_wgmma_conv_") + (t == dnnl_bf16 ? "bf16_" : "f16_")
                             + conv_wgmma_config(tuning) + (pd.epilogue.any ? "_epi" : "");
        }
        ANYDNN_REQUIRE(ptx_module(pd.kernel_name.c_str()), dnnl_unimplemented,
                "no PTX kernel %s in this build (built without nvcc?)", pd.kernel_name.c_str());
        if (verbose_on(verbose_flag::dispatch))
            verbose_print("primitive,create:dispatch",
                    "convolution,implicit wgmma " + pd.kernel_name + ",chosen: " + why
                            + (pd.pad ? "; channels padded to " + std::to_string(pd.icp) : ""));
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_WEIGHTS] = wei;
        pd.args[DNNL_ARG_DST] = dst;
        if (q.with_bias) pd.args[DNNL_ARG_BIAS] = bias;
        return dnnl_success;
    }
};

struct implicit_wgmma_t : public primitive_t {
    using primitive_t::primitive_t;
    const implicit_wgmma_pd_t &pd_() const {
        return static_cast<const implicit_wgmma_pd_t &>(pd());
    }

    status_t init() override {
        if (pd_().pad)
            ANYDNN_CHECK(create_kernel(
                    pd_().engine, "convolution/pad_channels.cl", "", "pad_channels", pad_));
        return create_ptx_kernel(pd_().engine, pd_().kernel_name.c_str(), kernel_);
    }

    // Pixels (n, y, x) of c channels (dense, strides sn, sh, sw from off) into dense pixels
    // of icp channels at element `to` of the scratchpad.
    status_t pad(const exec_ctx_t &ctx, const memory_storage_t *from, int64_t to, int64_t off,
            int64_t sn, int64_t sh, int64_t sw, int64_t n, int64_t h, int64_t w, int64_t c) const {
        const int64_t icp = pd_().icp, total = n * h * w * icp;
        kernel_args_t args;
        args.add(from);
        args.add(ctx.scratchpad_storage);
        for (int64_t v : {to, off, sn, sh, sw, h, w, c, icp, total})
            args.add_value<int64_t>(v);
        return pad_->launch(ctx.stream, args, range_1d(static_cast<size_t>(total)));
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const implicit_wgmma_pd_t &pd = pd_();
        const nhwc_conv_geometry_t &q = pd.q;
        const int64_t M = q.m(), N = q.oc;
        if (M == 0 || N == 0) return dnnl_success;
        const dnnl_data_type_t c_type = pd.arg_md(DNNL_ARG_DST).data_type;
        // The problem as the kernel gathers it: padded copies, or src and weights in place.
        const int64_t icp = pd.icp, K = q.kh * q.kw * icp;
        const memory_storage_t *a = storage_of(ctx, DNNL_ARG_SRC),
                               *b = storage_of(ctx, DNNL_ARG_WEIGHTS);
        int64_t a_off = q.src_off, b_off = q.wei_off, ldb = q.wei_so, sn = q.src_sn, sh = q.src_sh,
                sw = q.src_sw;
        if (pd.pad) {
            ANYDNN_CHECK(pad(
                    ctx, a, 0, q.src_off, q.src_sn, q.src_sh, q.src_sw, q.mb, q.ih, q.iw, q.ic));
            ANYDNN_CHECK(pad(ctx, b, pd.wei_pad_off, q.wei_off, q.wei_so, q.kw * q.ic, q.ic, q.oc,
                    q.kh, q.kw, q.ic));
            a = b = ctx.scratchpad_storage;
            a_off = 0, b_off = pd.wei_pad_off, ldb = K;
            sn = q.ih * q.iw * icp, sh = q.iw * icp, sw = icp;
        }
        kernel_args_t args;
        args.add(a);
        args.add(b);
        args.add(storage_of(ctx, DNNL_ARG_DST));
        args.add(q.with_bias ? storage_of(ctx, DNNL_ARG_BIAS) : nullptr);
        args.add(storage_of(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC));
        args.add(storage_of(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS));
        args.add(storage_of(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST));
        for (int64_t v : {a_off, b_off, q.dst_off, ldb, q.ldc, sn, sh, sw})
            args.add_value<int64_t>(v);
        nd_range_t range;
        range.ndims = 3;
        if (pd.halo_halves) {
            for (int64_t v : {M, N, K, q.mb, q.ih, q.iw, q.oh, q.ow, q.kh, q.kw, q.pad_h, q.pad_w})
                args.add_value<int32_t>(static_cast<int32_t>(v));
            // Tiles of 128 * halves lines (oy * P + ox) per image; one CTA per compute unit
            // (two for the one-run configuration "m1s1") and 64 output channels, each
            // walking its tiles (two at a time in the ping-pong ones).
            const int64_t rows = 128 * pd.halo_halves, p = q.ow + q.kw - 1;
            const int64_t per_cta = pd.halo_pingpong ? 2 : 1;
            const int64_t tiles = (q.mb * ((q.oh * p + rows - 1) / rows) + per_cta - 1) / per_cta;
            const int64_t blocks_n = (N + 63) / 64;
            const int64_t units = std::max<int64_t>(engine_caps(pd.engine).compute_units, 1)
                                  * (pd.halo_runs == 1 && !pd.halo_pingpong ? 2 : 1);
            range.global[0] = static_cast<size_t>(blocks_n) * 256;
            range.global[1] = static_cast<size_t>(
                    std::min<int64_t>({tiles, std::max<int64_t>(units / blocks_n, 1), 65535}));
        } else {
            for (int64_t v : {M, N, K, icp, q.ih, q.iw, q.oh, q.ow, q.kw, q.stride_h, q.stride_w,
                         q.pad_h, q.pad_w, q.dil_h, q.dil_w})
                args.add_value<int32_t>(static_cast<int32_t>(v));
            range.global[0] = static_cast<size_t>((N + pd.tile_n - 1) / pd.tile_n) * 256;
            range.global[1] = static_cast<size_t>((M + 127) / 128);
        }
        args.add_value<int32_t>(wgmma_c_kind(c_type));
        const dnnl_data_type_t bias_type =
                q.with_bias ? pd.arg_md(DNNL_ARG_BIAS).data_type : dnnl_data_type_undef;
        args.add_value<int32_t>(wgmma_bias_kind(bias_type));
        add_wgmma_epilogue(args, pd.epilogue);
        range.global[2] = 1;
        range.local[0] = 256;
        range.local[1] = range.local[2] = 1;
        return kernel_->launch(ctx.stream, args, range);
    }

private:
    std::shared_ptr<kernel_t> kernel_, pad_;
};

} // namespace

impl_entry_t convolution_implicit_wgmma_entry() {
    return make_impl_entry<implicit_wgmma_pd_t>(implicit_wgmma_pd_t::impl_name());
}

} // namespace gpu
} // namespace anydnn
