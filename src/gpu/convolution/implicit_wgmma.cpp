// GPU forward convolution on Hopper's warpgroup tensor cores: an implicit GEMM
// (gpu/gemm/hopper/wgmma_conv.cu) whose A tiles the kernel gathers from channels-last src,
// loaded through OpenCL where the device takes sm_90a PTX. bf16 or f16 src and weights,
// dst f32 or that type, 1D/2D, strides, padding, dilation, one group, IC a multiple of 8;
// bias, f32 scales and a sum and an eltwise post-op in the kernel's epilogue. Anything else
// is left to the next implementation, with the reason.
#include <string>

#include "core/primitive.hpp"
#include "core/verbose.hpp"
#include "gpu/convolution/nhwc_gemm_geometry.hpp"
#include "gpu/gemm/wgmma_launch.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/tuning/conv_wgmma_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

struct implicit_wgmma_t;

struct implicit_wgmma_pd_t
    : public primitive_desc_impl_t<implicit_wgmma_pd_t, implicit_wgmma_t> {
    using base_t = primitive_desc_impl_t<implicit_wgmma_pd_t, implicit_wgmma_t>;
    using base_t::base_t;
    static const char *impl_name() { return "ocl:convolution:implicit_wgmma_sm90a"; }
    const char *name() const override { return impl_name(); }

    nhwc_conv_geometry_t q;
    wgmma_epilogue_t epilogue;
    std::string kernel_name;
    int tile_n = 0;

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
        // A 16-byte piece of an A row is 8 channels of one pixel.
        ANYDNN_REQUIRE(q.ic % 8 == 0 && q.src_sn % 8 == 0 && q.src_sh % 8 == 0
                        && q.src_sw % 8 == 0 && q.src_off % 8 == 0,
                dnnl_unimplemented,
                "wgmma gathers 8 channels at a time: IC %lld and src strides must be "
                "multiples of 8",
                (long long)q.ic);
        ANYDNN_REQUIRE(q.wei_so % 8 == 0 && q.wei_off % 8 == 0 && bias.offset0 == 0,
                dnnl_unimplemented, "wgmma weights rows are 16-byte pieces");
        // M tiles go on the grid's second axis (at most 65535 on NVIDIA).
        ANYDNN_REQUIRE(wgmma_sizes_fit(1, q.m(), q.oc, q.k()) && (q.m() + 127) / 128 < 65536,
                dnnl_unimplemented, "sizes exceed the kernel's index range");
        ANYDNN_CHECK(init_nhwc_conv_scales(pd.attr, q, pd.args));
        ANYDNN_CHECK(wgmma_epilogue(pd.attr, dst, pd.epilogue));
        // Last among the checks, so that every device names what the kernels lack.
        const device_caps_t &caps = engine_caps(pd.engine);
        ANYDNN_REQUIRE(caps.ptx_binary_sm >= 90, dnnl_unimplemented,
                "the device does not load sm_90a PTX programs");
        conv_wgmma_tuning_t tuning;
        ANYDNN_CHECK(conv_wgmma_tuning(caps, q.m(), q.oc, tuning));
        pd.tile_n = tuning.tile_n;
        pd.kernel_name = std::string("anydnn_wgmma_conv_") + (t == dnnl_bf16 ? "bf16_" : "f16_")
                + std::to_string(pd.tile_n) + "x64s4p1" + (pd.epilogue.any ? "_epi" : "");
        ANYDNN_REQUIRE(ptx_module(pd.kernel_name.c_str()), dnnl_unimplemented,
                "no PTX kernel %s in this build (built without nvcc?)", pd.kernel_name.c_str());
        if (verbose_on(verbose_flag::dispatch))
            verbose_print("primitive,create:dispatch",
                    "convolution,implicit wgmma " + pd.kernel_name + ",chosen: " + tuning.why);
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
        return create_ptx_kernel(pd_().engine, pd_().kernel_name.c_str(), kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const implicit_wgmma_pd_t &pd = pd_();
        const nhwc_conv_geometry_t &q = pd.q;
        const int64_t M = q.m(), N = q.oc, K = q.k();
        if (M == 0 || N == 0) return dnnl_success;
        const dnnl_data_type_t c_type = pd.arg_md(DNNL_ARG_DST).data_type;
        kernel_args_t args;
        args.add(storage_of(ctx, DNNL_ARG_SRC));
        args.add(storage_of(ctx, DNNL_ARG_WEIGHTS));
        args.add(storage_of(ctx, DNNL_ARG_DST));
        args.add(q.with_bias ? storage_of(ctx, DNNL_ARG_BIAS) : nullptr);
        args.add(storage_of(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC));
        args.add(storage_of(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS));
        args.add(storage_of(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST));
        for (int64_t v : {q.src_off, q.wei_off, q.dst_off, q.wei_so, q.ldc, q.src_sn, q.src_sh,
                     q.src_sw})
            args.add_value<int64_t>(v);
        for (int64_t v : {M, N, K, q.ic, q.ih, q.iw, q.oh, q.ow, q.kw, q.stride_h, q.stride_w,
                     q.pad_h, q.pad_w, q.dil_h, q.dil_w})
            args.add_value<int32_t>(static_cast<int32_t>(v));
        args.add_value<int32_t>(c_type == dnnl_f32 ? 1 : 0);
        const dnnl_data_type_t bias_type
                = q.with_bias ? pd.arg_md(DNNL_ARG_BIAS).data_type : dnnl_data_type_undef;
        args.add_value<int32_t>(!q.with_bias ? 0 : bias_type == dnnl_f32 ? 1 : 2);
        add_wgmma_epilogue(args, pd.epilogue);
        nd_range_t range;
        range.ndims = 3;
        range.global[0] = static_cast<size_t>((N + pd.tile_n - 1) / pd.tile_n) * 256;
        range.global[1] = static_cast<size_t>((M + 127) / 128);
        range.global[2] = 1;
        range.local[0] = 256;
        range.local[1] = range.local[2] = 1;
        return kernel_->launch(ctx.stream, args, range);
    }

private:
    std::shared_ptr<kernel_t> kernel_;
};

} // namespace

impl_entry_t convolution_implicit_wgmma_entry() {
    return make_impl_entry<implicit_wgmma_pd_t>(implicit_wgmma_pd_t::impl_name());
}

} // namespace gpu
} // namespace anydnn
