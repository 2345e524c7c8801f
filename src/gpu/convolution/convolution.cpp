// GPU convolution and deconvolution, direct kernels (convolution/convolution.cl) on any
// OpenCL device: forward, backward data, backward weights (+ bias); 1D/2D/3D, groups,
// strides, dilation, asymmetric padding; any blocked layouts; f32/bf16/f16 (computed in f32)
// and int8 forward (int accumulation, scales, src/dst zero points, post-ops).
#include <variant>

#include "core/compute/compute.hpp"
#include "core/ops/layout.hpp"
#include "core/primitive.hpp"
#include "gpu/gemm/gemm.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/kernel_layout.hpp"
#include "gpu/launch.hpp"
#include "gpu/zero_padding.hpp"

namespace anydnn {
namespace gpu {

namespace {

// Mirrors conv_geom_t of convolution/convolution.cl.
struct conv_geom_t {
    int64_t mb = 1, g = 1, icv = 1, ocv = 1;
    int64_t i[3] = {1, 1, 1}, o[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1},
            dl[3] = {1, 1, 1}, p[3] = {0, 0, 0};
    int64_t ns = 1, grouped = 0, swap = 0;
    int64_t has_bias = 0, scale_oc = 0;
    int64_t zp_src_c = 0, zp_dst_c = 0;
    int64_t bias_off = 0, bias_s = 1;
};

bool is_float(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}
bool is_int8(dnnl_data_type_t dt) { return dt == dnnl_s8 || dt == dnnl_u8; }
bool is_out_type(dnnl_data_type_t dt) { return is_float(dt) || is_int8(dt) || dt == dnnl_s32; }

dnnl_format_tag_t plain_tag(int ndims) {
    static const dnnl_format_tag_t tags[] = {dnnl_format_tag_undef, dnnl_a, dnnl_ab, dnnl_abc,
            dnnl_abcd, dnnl_abcde, dnnl_abcdef};
    return ndims >= 1 && ndims <= 6 ? tags[ndims] : dnnl_format_tag_undef;
}

// `any` takes the layout of `like` (when it is blocked with the same ndims) or a plain one.
status_t resolve(memory_desc_t &md, const memory_desc_t &like) {
    if (md.format_kind != dnnl_format_kind_any) return dnnl_success;
    if (like.format_kind == dnnl_blocked && like.ndims == md.ndims) {
        md = cpu::md_like(like, md.ndims, md.dims, md.data_type);
        return dnnl_success;
    }
    return md_init_with_tag(md, md.ndims, md.dims, md.data_type, plain_tag(md.ndims));
}

enum class kernel_kind_t { small, big, wei };

// Gemm: forward convolution as columns (im2col into the scratchpad) times weights on the
// tiled GEMM, for float types without attributes, plain weights and dst.
template <bool Deconv, bool Gemm = false>
struct conv_t;

template <bool Deconv, bool Gemm = false>
struct conv_pd_t
    : public primitive_desc_impl_t<conv_pd_t<Deconv, Gemm>, conv_t<Deconv, Gemm>> {
    using base_t = primitive_desc_impl_t<conv_pd_t<Deconv, Gemm>, conv_t<Deconv, Gemm>>;
    using base_t::base_t;
    static const char *impl_name() {
        if (Gemm) return "ocl:convolution:gemm";
        return Deconv ? "ocl:deconvolution:direct" : "ocl:convolution:direct";
    }
    const char *name() const override { return impl_name(); }

    conv_geom_t q;
    kernel_kind_t kernel = kernel_kind_t::small;
    bool fwd = true, int8 = false;
    int arg_big = 0, arg_small = 0, arg_wei = 0, arg_out = 0;
    post_ops_t post_ops;

    const convolution_desc_t &cd() const {
        if (Deconv) return std::get<deconvolution_desc_t>(this->desc);
        return std::get<convolution_desc_t>(this->desc);
    }

    status_t init_attr(dim_t n_oc, const memory_desc_t &src, const memory_desc_t &dst) {
        if (!fwd) {
            ANYDNN_REQUIRE(
                    this->attr.has_default_values(attr_skip::fpmath | attr_skip::scratchpad),
                    dnnl_unimplemented, "backward takes no attributes on the GPU");
            return dnnl_success;
        }
        ANYDNN_REQUIRE(this->attr.has_default_values(attr_skip::fpmath | attr_skip::scratchpad
                               | attr_skip::scales | attr_skip::zero_points
                               | attr_skip::post_ops),
                dnnl_unimplemented, "attributes other than scales and zero points");
        ANYDNN_CHECK(this->post_ops.init(this->attr, dst, this->args));
        ANYDNN_CHECK(check_quant_attr(this->attr));
        const int per_oc = q.grouped ? 3 : 1;
        for (const auto &s : this->attr.scales) {
            const int arg = s.first;
            ANYDNN_REQUIRE(arg == DNNL_ARG_SRC || arg == DNNL_ARG_WEIGHTS || arg == DNNL_ARG_DST,
                    dnnl_unimplemented, "scales for argument %d are not supported", arg);
            ANYDNN_REQUIRE(s.second.group_ndims == 0
                            && (s.second.mask == 0
                                    || (arg == DNNL_ARG_WEIGHTS && s.second.mask == per_oc)),
                    dnnl_unimplemented, "scales mask %d for argument %d", s.second.mask, arg);
            if (arg == DNNL_ARG_WEIGHTS) q.scale_oc = s.second.mask != 0;
            memory_desc_t md;
            const dnnl_dims_t n = {s.second.mask ? n_oc : 1};
            ANYDNN_CHECK(md_init_with_tag(md, 1, n, dnnl_f32, dnnl_a));
            this->args[DNNL_ARG_ATTR_SCALES | arg] = md;
        }
        for (const auto &z : this->attr.zero_points) {
            const int arg = z.first;
            ANYDNN_REQUIRE(int8 && (arg == DNNL_ARG_SRC || arg == DNNL_ARG_DST),
                    dnnl_unimplemented, "zero points only on src and dst of int8 forward");
            // Per channel is bit 1 of the src or dst dims (N, C, spatial...).
            ANYDNN_REQUIRE((z.second.mask == 0 || z.second.mask == 2)
                            && z.second.group_ndims == 0,
                    dnnl_unimplemented,
                    "zero points for argument %d: mask %d not supported (0 or 2, per channel)",
                    arg, z.second.mask);
            const bool per_c = z.second.mask != 0;
            (arg == DNNL_ARG_SRC ? q.zp_src_c : q.zp_dst_c) = per_c;
            memory_desc_t md;
            const dnnl_dims_t n = {per_c ? (arg == DNNL_ARG_DST ? dst : src).dims[1] : 1};
            ANYDNN_CHECK(md_init_with_tag(md, 1, n, dnnl_s32, dnnl_a));
            this->args[DNNL_ARG_ATTR_ZERO_POINTS | arg] = md;
        }
        return dnnl_success;
    }

    static status_t init(conv_pd_t &pd) {
        const convolution_desc_t &d = pd.cd();
        const dnnl_prop_kind_t prop = d.prop_kind;
        pd.fwd = prop == dnnl_forward_training || prop == dnnl_forward_inference;
        const bool bwd_d = prop == dnnl_backward_data, bwd_w = prop == dnnl_backward_weights;
        ANYDNN_REQUIRE(pd.fwd || bwd_d || bwd_w, dnnl_unimplemented, "prop kind %d",
                static_cast<int>(prop));
        memory_desc_t src = bwd_d ? d.diff_src_md : d.src_md;
        memory_desc_t wei = bwd_w ? d.diff_weights_md : d.weights_md;
        memory_desc_t bia = pd.fwd ? d.bias_md : d.diff_bias_md;
        memory_desc_t dst = pd.fwd ? d.dst_md : d.diff_dst_md;
        const int nd = src.ndims;
        ANYDNN_REQUIRE(nd >= 3 && nd <= 5, dnnl_unimplemented, "%d dimensions", nd);
        const bool with_bias = !is_zero_md(bia) && !bwd_d;

        if (src.format_kind == dnnl_format_kind_any) ANYDNN_CHECK(resolve(src, dst));
        ANYDNN_CHECK(resolve(src, zero_md()));
        ANYDNN_CHECK(resolve(dst, src));
        ANYDNN_CHECK(resolve(wei, zero_md()));
        if (with_bias) ANYDNN_CHECK(resolve(bia, zero_md()));
        ANYDNN_CHECK(check_tensors({&src, &wei, &dst}));
        if (with_bias) {
            ANYDNN_CHECK(check_tensors({&bia}));
            ANYDNN_REQUIRE(is_plain(bia), dnnl_unimplemented, "bias must be plain");
        }

        const dnnl_data_type_t sdt = src.data_type, wdt = wei.data_type, ddt = dst.data_type;
        pd.int8 = pd.fwd && is_int8(sdt) && wdt == dnnl_s8;
        if (pd.fwd) {
            ANYDNN_REQUIRE((is_float(sdt) && is_float(wdt)) || pd.int8, dnnl_unimplemented,
                    "forward data types src %s, weights %s not supported", dnnl_dt2str(sdt),
                    dnnl_dt2str(wdt));
            ANYDNN_REQUIRE(is_out_type(ddt) && (!with_bias || is_out_type(bia.data_type)),
                    dnnl_unimplemented, "dst or bias type not supported");
        } else {
            ANYDNN_REQUIRE(is_float(sdt) && is_float(wdt) && is_float(ddt)
                            && (!with_bias || is_float(bia.data_type)),
                    dnnl_unimplemented, "backward takes f32, bf16 or f16 only");
        }

        conv_geom_t &q = pd.q;
        q.grouped = wei.ndims == nd + 1;
        q.swap = Deconv;
        const int w0 = q.grouped ? 1 : 0, ns = nd - 2;
        q.ns = ns;
        q.mb = src.dims[0];
        q.g = q.grouped ? wei.dims[0] : 1;
        q.ocv = wei.dims[w0 + (Deconv ? 1 : 0)];
        q.icv = wei.dims[w0 + (Deconv ? 0 : 1)];
        const memory_desc_t &big = Deconv ? dst : src, &small = Deconv ? src : dst;
        for (int i = 0; i < ns; ++i) {
            const int c = 3 - ns + i;
            q.i[c] = big.dims[2 + i];
            q.o[c] = small.dims[2 + i];
            q.k[c] = wei.dims[w0 + 2 + i];
            q.s[c] = d.strides.v[i];
            q.dl[c] = d.dilates.v[i] + 1;
            q.p[c] = d.padding_l.v[i];
        }
        if (with_bias) {
            q.has_bias = pd.fwd;
            q.bias_off = bia.offset0;
            q.bias_s = bia.blocking.strides[0];
        }
        ANYDNN_CHECK(pd.init_attr(q.g * (Deconv ? q.icv : q.ocv), src, dst));

        const int src_arg = bwd_d ? DNNL_ARG_DIFF_SRC : DNNL_ARG_SRC;
        const int dst_arg = pd.fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST;
        pd.arg_big = Deconv ? dst_arg : src_arg;
        pd.arg_small = Deconv ? src_arg : dst_arg;
        pd.arg_wei = bwd_w ? DNNL_ARG_DIFF_WEIGHTS : DNNL_ARG_WEIGHTS;
        if (bwd_w) {
            pd.kernel = kernel_kind_t::wei;
            pd.arg_out = pd.arg_wei;
        } else {
            pd.arg_out = pd.fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC;
            // The written tensor is small for conv forward and deconv backward data.
            pd.kernel = (pd.arg_out == pd.arg_small) ? kernel_kind_t::small : kernel_kind_t::big;
        }
        pd.args[src_arg] = src;
        pd.args[pd.arg_wei] = wei;
        if (with_bias) pd.args[pd.fwd ? DNNL_ARG_BIAS : DNNL_ARG_DIFF_BIAS] = bia;
        pd.args[dst_arg] = dst;
        return Gemm ? pd.init_gemm(src, wei, dst) : dnnl_success;
    }

    // Strides the GEMM walks: weights rows [oc][ic * taps] dense, dst spatial flattened.
    int64_t dst_sp_stride = 1;

    status_t init_gemm(const memory_desc_t &src, const memory_desc_t &wei,
            const memory_desc_t &dst) {
        ANYDNN_REQUIRE(!Deconv && fwd && !int8 && this->attr.scales.empty(), dnnl_unimplemented,
                "the GEMM convolution takes float forward problems without scales");
        ANYDNN_REQUIRE(gemm_tiled_supported(this->engine), dnnl_unimplemented,
                "the device cannot run the tiled GEMM");
        ANYDNN_REQUIRE(is_plain(wei) && is_plain(dst), dnnl_unimplemented,
                "the GEMM convolution takes plain weights and dst");
        const int w0 = q.grouped ? 1 : 0;
        dim_t expect = 1;
        for (int d = wei.ndims - 1; d > w0; --d) {
            ANYDNN_REQUIRE(wei.blocking.strides[d] == expect, dnnl_unimplemented,
                    "weights rows are not dense [ic][taps]");
            expect *= wei.dims[d];
        }
        dst_sp_stride = dst.blocking.strides[dst.ndims - 1];
        expect = dst_sp_stride;
        for (int d = dst.ndims - 1; d >= 2; --d) {
            ANYDNN_REQUIRE(dst.blocking.strides[d] == expect, dnnl_unimplemented,
                    "dst spatial dimensions do not flatten");
            expect *= dst.dims[d];
        }
        const int64_t col = q.mb * q.g * q.icv * q.k[0] * q.k[1] * q.k[2] * q.o[0] * q.o[1]
                * q.o[2] * static_cast<int64_t>(data_type_size(src.data_type));
        ANYDNN_REQUIRE(col <= (int64_t(1) << 30), dnnl_unimplemented,
                "the column matrix would exceed 1 GiB");
        this->scratchpad_size = static_cast<size_t>(col);
        return dnnl_success;
    }
};

template <bool Deconv, bool Gemm>
struct conv_t : public primitive_t {
    using primitive_t::primitive_t;
    using pd_t = conv_pd_t<Deconv, Gemm>;
    const pd_t &pd_() const { return static_cast<const pd_t &>(pd()); }

    status_t init() override {
        const pd_t &pd = pd_();
        const int bias_arg = pd.fwd ? DNNL_ARG_BIAS : DNNL_ARG_DIFF_BIAS;
        const bool with_bias = pd.args.count(bias_arg) != 0;
        std::string opt = data_type_options("BIG", pd.arg_md(pd.arg_big).data_type)
                + data_type_options("SMALL", pd.arg_md(pd.arg_small).data_type)
                + data_type_options("WEI", pd.arg_md(pd.arg_wei).data_type)
                + data_type_options("BIAS",
                        with_bias ? pd.arg_md(bias_arg).data_type : dnnl_f32)
                + data_type_options("GRAD", pd.arg_md(DNNL_ARG_DIFF_DST).data_type);
        if (pd.int8) opt += " -DACC_INT";
        ANYDNN_CHECK(pd.post_ops.upload(pd.engine, post_ops_buffer_));
        if (Gemm) {
            gemm_types_t t;
            t.a = pd.arg_md(DNNL_ARG_WEIGHTS).data_type;
            t.b = pd.arg_md(DNNL_ARG_SRC).data_type;
            t.c = pd.arg_md(DNNL_ARG_DST).data_type;
            if (with_bias) t.bias = pd.arg_md(DNNL_ARG_BIAS).data_type;
            ANYDNN_CHECK(gemm_.init(pd.engine, t, gemm_kind_t::tiled,
                    nelems(pd.arg_md(DNNL_ARG_DST)), &pd.post_ops));
            return create_kernel(
                    pd.engine, "convolution/convolution.cl", opt, "conv_im2col", kernel_);
        }
        static const char *names[] = {"conv_small", "conv_big", "conv_wei"};
        const int out_arg = pd.kernel == kernel_kind_t::wei ? pd.arg_wei : pd.arg_out;
        ANYDNN_CHECK(zero_.init(pd.engine, pd.arg_md(out_arg)));
        opt += pd.post_ops.build_options();
        ANYDNN_CHECK(create_kernel(pd.engine, "convolution/convolution.cl", opt,
                names[static_cast<int>(pd.kernel)], kernel_));
        if (pd.kernel == kernel_kind_t::wei && with_bias)
            ANYDNN_CHECK(create_kernel(
                    pd.engine, "convolution/convolution.cl", opt, "conv_bias", bias_kernel_));
        return dnnl_success;
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        if (Gemm) return execute_gemm(ctx);
        const pd_t &pd = pd_();
        const conv_geom_t &q = pd.q;
        kernel_args_t args;
        if (pd.kernel == kernel_kind_t::wei) {
            const memory_desc_t &wmd = pd.arg_md(pd.arg_wei);
            args.add(storage_of(ctx, pd.arg_big));
            args.add(storage_of(ctx, pd.arg_small));
            args.add(storage_of(ctx, pd.arg_wei));
            add_layout(args, pd.arg_md(pd.arg_big));
            add_layout(args, pd.arg_md(pd.arg_small));
            add_layout(args, wmd);
            args.add_value(q);
            const int64_t n = nelems(wmd);
            args.add_value(n);
            ANYDNN_CHECK(kernel_->launch(ctx.stream, args, range_1d(n)));
            ANYDNN_CHECK(zero_.launch(ctx, pd.arg_wei, wmd));
            return bias_kernel_ ? launch_bias(ctx) : dnnl_success;
        }
        const bool small_out = pd.kernel == kernel_kind_t::small;
        const int in_arg = small_out ? pd.arg_big : pd.arg_small;
        args.add(storage_of(ctx, in_arg));
        args.add(storage_of(ctx, pd.arg_wei));
        args.add(storage_of(ctx, pd.arg_out));
        args.add(q.has_bias ? storage_of(ctx, DNNL_ARG_BIAS) : nullptr);
        auto quant = [&](int kind, int arg) {
            const auto &m = kind == DNNL_ARG_ATTR_SCALES ? pd.attr.scales.count(arg)
                                                         : pd.attr.zero_points.count(arg);
            return m ? storage_of(ctx, kind | arg) : nullptr;
        };
        args.add(quant(DNNL_ARG_ATTR_SCALES, DNNL_ARG_SRC));
        args.add(quant(DNNL_ARG_ATTR_SCALES, DNNL_ARG_WEIGHTS));
        args.add(quant(DNNL_ARG_ATTR_SCALES, DNNL_ARG_DST));
        args.add(quant(DNNL_ARG_ATTR_ZERO_POINTS, DNNL_ARG_SRC));
        args.add(quant(DNNL_ARG_ATTR_ZERO_POINTS, DNNL_ARG_DST));
        add_layout(args, pd.arg_md(in_arg));
        add_layout(args, pd.arg_md(pd.arg_wei));
        add_layout(args, pd.arg_md(pd.arg_out));
        args.add_value(q);
        const int64_t n = nelems(pd.arg_md(pd.arg_out));
        args.add_value(n);
        pd.post_ops.add_args(args, ctx, post_ops_buffer_.get());
        ANYDNN_CHECK(kernel_->launch(ctx.stream, args, range_1d(n)));
        return zero_.launch(ctx, pd.arg_out, pd.arg_md(pd.arg_out));
    }

private:
    status_t execute_gemm(const exec_ctx_t &ctx) const {
        const pd_t &pd = pd_();
        const conv_geom_t &q = pd.q;
        const int64_t taps = q.k[0] * q.k[1] * q.k[2], osp = q.o[0] * q.o[1] * q.o[2];
        const int64_t n_rows = q.mb * q.g * q.icv * taps * q.o[0] * q.o[1];
        kernel_args_t args;
        args.add(storage_of(ctx, DNNL_ARG_SRC));
        args.add(ctx.scratchpad_storage);
        add_layout(args, pd.arg_md(DNNL_ARG_SRC));
        args.add_value(q);
        args.add_value(n_rows);
        ANYDNN_CHECK(kernel_->launch(ctx.stream, args, range_1d(n_rows)));
        // Per (image, group): dst[oc][osp] = wei[oc][ic * taps] * col[ic * taps][osp].
        const memory_desc_t &wei = pd.arg_md(DNNL_ARG_WEIGHTS), &dst = pd.arg_md(DNNL_ARG_DST);
        const int w0 = q.grouped ? 1 : 0;
        gemm_params_t p;
        p.M = q.ocv, p.N = osp, p.K = q.icv * taps;
        p.a_off = wei.offset0, p.a_sm = wei.blocking.strides[w0], p.a_sk = 1;
        p.b_sk = osp, p.b_sn = 1;
        p.c_off = dst.offset0, p.c_sm = dst.blocking.strides[1], p.c_sn = pd.dst_sp_stride;
        p.batch_dims[2] = q.mb, p.batch_dims[3] = q.g;
        p.a_sb[3] = q.grouped ? wei.blocking.strides[0] : 0;
        p.b_sb[2] = q.g * p.K * osp, p.b_sb[3] = p.K * osp;
        p.c_sb[2] = dst.blocking.strides[0], p.c_sb[3] = q.ocv * dst.blocking.strides[1];
        gemm_operands_t ops;
        ops.a = storage_of(ctx, DNNL_ARG_WEIGHTS);
        ops.b = ctx.scratchpad_storage;
        ops.c = storage_of(ctx, DNNL_ARG_DST);
        if (q.has_bias) {
            p.has_bias = 1;
            p.bias_off = q.bias_off, p.bias_sm = q.bias_s, p.bias_sn = 0;
            p.bias_sb[3] = q.ocv * q.bias_s;
            ops.bias = storage_of(ctx, DNNL_ARG_BIAS);
        }
        // Post-ops: dst (n, g * ocv + m, spatial n) row-major over its logical dims.
        p.set_post_op_dims(dst);
        p.po_ls_n = 1, p.po_ls_m = osp;
        p.po_ls_b[2] = q.g * q.ocv * osp, p.po_ls_b[3] = q.ocv * osp;
        ops.post_ops = &pd.post_ops;
        ops.post_ops_buffer = post_ops_buffer_.get();
        ops.ctx = &ctx;
        return gemm_.launch(ctx.stream, ops, p);
    }

    status_t launch_bias(const exec_ctx_t &ctx) const {
        const pd_t &pd = pd_();
        const conv_geom_t &q = pd.q;
        const memory_desc_t &grad = pd.arg_md(DNNL_ARG_DIFF_DST);
        // The gradient is the small tensor for convolution, the big one for deconvolution.
        const int64_t *sp = Deconv ? q.i : q.o;
        const int64_t channels = grad.dims[1];
        kernel_args_t args;
        args.add(storage_of(ctx, DNNL_ARG_DIFF_DST));
        args.add(storage_of(ctx, DNNL_ARG_DIFF_BIAS));
        add_layout(args, grad);
        args.add_value(q);
        args.add_value(channels);
        const int64_t sp8[8] = {sp[0], sp[1], sp[2], 1, 1, 1, 1, 1};
        args.add_value(sp8);
        return bias_kernel_->launch(ctx.stream, args, range_1d(channels));
    }

    std::shared_ptr<kernel_t> kernel_, bias_kernel_;
    zero_padding_t zero_; // the direct kernels write logical elements only
    gemm_kernel_t gemm_;
    std::unique_ptr<memory_storage_t> post_ops_buffer_; // the forward chain's parameters
};

} // namespace

impl_entry_t convolution_direct_entry() {
    return make_impl_entry<conv_pd_t<false>>(conv_pd_t<false>::impl_name());
}
impl_entry_t convolution_gemm_entry() {
    using pd_t = conv_pd_t<false, true>;
    return make_impl_entry<pd_t>(pd_t::impl_name());
}
impl_entry_t deconvolution_direct_entry() {
    return make_impl_entry<conv_pd_t<true>>(conv_pd_t<true>::impl_name());
}

} // namespace gpu
} // namespace anydnn
