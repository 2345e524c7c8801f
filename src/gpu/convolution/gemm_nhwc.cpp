// GPU forward convolution over channels-last tensors on the shared GEMM core
// (gpu/gemm/gemm.hpp) on any OpenCL device: a 1x1 stride-1 convolution multiplies src itself,
// every other one first gathers its columns into the scratchpad (im2col_nhwc.cl, in src's
// type). f32/bf16/f16, 1D/2D, groups (a batch dimension of the GEMM), strides, padding,
// dilation; bias, scales and the post-op chain in the GEMM's output stage. The core picks its
// kernel from the device tuning table (tensor cores where the device has them, strict FMA
// for f32).
#include "core/primitive.hpp"
#include "gpu/convolution/nhwc_gemm_geometry.hpp"
#include "gpu/gemm/gemm.hpp"
#include "gpu/gemm/sgemm_launch.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/tuning/conv_sgemm_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

// Mirrors im2col_geom_t of convolution/im2col_nhwc.cl.
struct im2col_geom_t {
    int64_t g, ic, ih, iw, oh, ow, kh, kw;
    int64_t sh, sw, ph, pw, dh, dw;
    int64_t src_sn, src_sh, src_sw, src_off;
    int64_t k_total, ld;
};
static_assert(sizeof(im2col_geom_t) == 20 * 8, "must match convolution/im2col_nhwc.cl");

bool is_float(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

struct gemm_nhwc_t;

struct gemm_nhwc_pd_t : public primitive_desc_impl_t<gemm_nhwc_pd_t, gemm_nhwc_t> {
    using base_t = primitive_desc_impl_t<gemm_nhwc_pd_t, gemm_nhwc_t>;
    using base_t::base_t;
    static const char *impl_name() {
        return "ocl:convolution:gemm_nhwc";
    }
    const char *name() const override {
        return impl_name();
    }

    nhwc_conv_geometry_t q;
    post_ops_t post_ops;
    bool direct_a = false;  // A is src itself: pointwise, its pixels flatten
    bool per_image = false; // images as a batch dimension: post-ops that read positions
    int64_t col_ld = 0;     // elements between rows of the columns
    gemm_kind_t gemm_kind = gemm_kind_t::tiled;

    static status_t init(gemm_nhwc_pd_t &pd) {
        const convolution_desc_t &d = std::get<convolution_desc_t>(pd.desc);
        ANYDNN_REQUIRE(d.alg_kind != dnnl_convolution_winograd, dnnl_unimplemented,
                "winograd is not implemented");
        memory_desc_t src, wei, bias, dst;
        nhwc_conv_geometry_t &q = pd.q;
        ANYDNN_CHECK(init_nhwc_conv(d, src, wei, bias, dst, q));
        ANYDNN_REQUIRE(is_float(src.data_type) && is_float(wei.data_type) && is_float(dst.data_type)
                               && (!q.with_bias || is_float(bias.data_type)),
                dnnl_unimplemented, "channels-last GEMM convolution takes f32, bf16 or f16");
        ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::fpmath | attr_skip::scratchpad
                                                  | attr_skip::scales | attr_skip::post_ops),
                dnnl_unimplemented, "attributes other than scales and post-ops");
        // Devices the tiled kernels do not fit (work-group or local-memory limits) take the
        // generic one: every device keeps the channels-last layouts `any` chose.
        pd.gemm_kind = gemm_tiled_supported(pd.engine) ? gemm_kind_t::tiled : gemm_kind_t::generic;
        ANYDNN_CHECK(init_nhwc_conv_scales(pd.attr, q, pd.args));
        const auto wscale = pd.attr.scales.find(DNNL_ARG_WEIGHTS);
        ANYDNN_REQUIRE(q.g == 1 || wscale == pd.attr.scales.end() || wscale->second.mask == 0,
                dnnl_unimplemented, "per-channel weights scales with groups");
        ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst, pd.args));
        for (const post_op_t &op : pd.attr.post_ops.entries)
            if (op.kind != dnnl_eltwise && op.kind != dnnl_sum) pd.per_image = true;

        pd.direct_a = q.pointwise() && (q.mb == 1 || q.src_sn == q.ih * q.src_sh)
                      && (q.ih == 1 || q.src_sh == q.iw * q.src_sw);
        if (!pd.direct_a) {
            pd.col_ld = (q.g * q.k() + 7) / 8 * 8; // 16-byte rows for the tensor-core kernels
            const int64_t bytes =
                    q.m() * pd.col_ld * static_cast<int64_t>(data_type_size(src.data_type));
            ANYDNN_REQUIRE(bytes <= (int64_t(1) << 30), dnnl_unimplemented,
                    "the column matrix would exceed 1 GiB");
            pd.scratchpad_size = static_cast<size_t>(bytes);
        }
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_WEIGHTS] = wei;
        pd.args[DNNL_ARG_DST] = dst;
        if (q.with_bias) pd.args[DNNL_ARG_BIAS] = bias;
        return dnnl_success;
    }

    // The GEMM of every group (batch dimension 3) and, with per_image, every image (2).
    gemm_params_t gemm_params() const {
        const int64_t P = q.oh * q.ow;
        gemm_params_t p;
        p.M = per_image ? P : q.m();
        p.N = q.oc;
        p.K = q.k();
        p.batch_dims[2] = per_image ? q.mb : 1;
        p.batch_dims[3] = q.g;
        if (direct_a) {
            p.a_off = q.src_off, p.a_sm = q.src_sw, p.a_sk = 1;
            p.a_sb[2] = P * q.src_sw, p.a_sb[3] = q.ic;
        } else {
            p.a_sm = col_ld, p.a_sk = 1;
            p.a_sb[2] = P * col_ld, p.a_sb[3] = q.k();
        }
        p.b_off = q.wei_off, p.b_sk = 1, p.b_sn = q.wei_so;
        p.b_sb[3] = q.wei_sg;
        p.c_off = q.dst_off, p.c_sm = q.ldc, p.c_sn = 1;
        p.c_sb[2] = P * q.ldc, p.c_sb[3] = q.oc;
        if (q.with_bias) {
            p.has_bias = 1;
            p.bias_off = arg_md(DNNL_ARG_BIAS).offset0, p.bias_sm = 0, p.bias_sn = 1;
            p.bias_sb[3] = q.oc;
        }
        const auto wscale = attr.scales.find(DNNL_ARG_WEIGHTS);
        p.scale_b_sn = wscale != attr.scales.end() && wscale->second.mask != 0;
        // Post-ops: dst (n, g * oc + c, oh, ow) row-major over its logical dims; positions
        // are right where per_image holds (the chains that read them).
        p.set_post_op_dims(arg_md(DNNL_ARG_DST));
        p.po_ls_m = 1, p.po_ls_n = P;
        p.po_ls_b[2] = q.g * q.oc * P, p.po_ls_b[3] = q.oc * P;
        return p;
    }
};

struct gemm_nhwc_t : public primitive_t {
    using primitive_t::primitive_t;
    const gemm_nhwc_pd_t &pd_() const {
        return static_cast<const gemm_nhwc_pd_t &>(pd());
    }

    status_t init() override {
        const gemm_nhwc_pd_t &pd = pd_();
        gemm_types_t t;
        t.a = pd.arg_md(DNNL_ARG_SRC).data_type;
        t.b = pd.arg_md(DNNL_ARG_WEIGHTS).data_type;
        t.c = pd.arg_md(DNNL_ARG_DST).data_type;
        if (pd.q.with_bias) t.bias = pd.arg_md(DNNL_ARG_BIAS).data_type;
        t.set_scale_types(pd.attr);
        ANYDNN_CHECK(pd.post_ops.upload(pd.engine, post_ops_buffer_));
        const gemm_params_t p = pd.gemm_params();
        // No TF32 wgmma offer here: on an H200 it was slower than strict f32 on sgemm_ptx
        // (mb64 3x3 64@56 1.79 ms against 1.65; 1x1 256->64@56 0.57 against 0.29: N = OC is
        // narrow for its tiles, and weights are copied K-major each execution).
        ANYDNN_CHECK(gemm_.init(
                pd.engine, t, pd.gemm_kind, nelems(pd.arg_md(DNNL_ARG_DST)), &pd.post_ops, p.M));
        // The strict f32 PTX GEMM takes the convolutions' tiles (conv_sgemm_tiles: 64 output
        // channels in 256 x 64 blocks where the device loads sm_90a PTX).
        const device_caps_t &caps = engine_caps(pd.engine);
        if (const char *tiles = conv_sgemm_tiles(
                    caps.compute_units, caps.ptx_binary_sm, p.batch(), p.M, p.N, p.K))
            gemm_.prefer_sgemm_config(sgemm_config_index(tiles));
        if (pd.direct_a) return dnnl_success;
        return create_kernel(pd.engine, "convolution/im2col_nhwc.cl",
                data_type_size(t.a) == 4 ? "-DCOPY_T=uint" : "-DCOPY_T=ushort", "im2col_nhwc",
                im2col_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const gemm_nhwc_pd_t &pd = pd_();
        const nhwc_conv_geometry_t &q = pd.q;
        if (q.m() == 0 || q.oc == 0) return dnnl_success;
        if (!pd.direct_a && q.k() > 0) {
            const im2col_geom_t g{q.g, q.ic, q.ih, q.iw, q.oh, q.ow, q.kh, q.kw, q.stride_h,
                    q.stride_w, q.pad_h, q.pad_w, q.dil_h, q.dil_w, q.src_sn, q.src_sh, q.src_sw,
                    q.src_off, q.g * q.k(), pd.col_ld};
            const int64_t total = q.m() * g.k_total;
            kernel_args_t args;
            args.add(storage_of(ctx, DNNL_ARG_SRC));
            args.add(ctx.scratchpad_storage);
            args.add_value(g);
            args.add_value(total);
            ANYDNN_CHECK(im2col_->launch(ctx.stream, args, range_1d(static_cast<size_t>(total))));
        }
        gemm_operands_t ops;
        ops.a = pd.direct_a ? storage_of(ctx, DNNL_ARG_SRC) : ctx.scratchpad_storage;
        ops.b = storage_of(ctx, DNNL_ARG_WEIGHTS);
        ops.c = storage_of(ctx, DNNL_ARG_DST);
        ops.bias = q.with_bias ? storage_of(ctx, DNNL_ARG_BIAS) : nullptr;
        bind_quant(ctx, pd.attr, ops);
        ops.post_ops = &pd.post_ops;
        ops.post_ops_buffer = post_ops_buffer_.get();
        ops.ctx = &ctx;
        return gemm_.launch(ctx.stream, ops, pd.gemm_params());
    }

private:
    std::shared_ptr<kernel_t> im2col_;
    gemm_kernel_t gemm_;
    std::unique_ptr<memory_storage_t> post_ops_buffer_;
};

} // namespace

impl_entry_t convolution_gemm_nhwc_entry() {
    return make_impl_entry<gemm_nhwc_pd_t>(gemm_nhwc_pd_t::impl_name());
}

} // namespace gpu
} // namespace anydnn
