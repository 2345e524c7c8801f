#include "gpu/convolution/nhwc_gemm_geometry.hpp"

#include "gpu/launch.hpp"

namespace anydnn {
namespace gpu {

namespace {

// Channels-last tags for 3 and 4 dimensions; (g)ohwi weights for 3 to 5.
dnnl_format_tag_t act_tag(int nd) {
    return nd == 3 ? dnnl_acb : dnnl_acdb;
}
dnnl_format_tag_t wei_tag(int nd, bool grouped) {
    if (grouped) return nd == 3 ? dnnl_abdc : dnnl_abdec;
    return nd == 3 ? dnnl_acb : dnnl_acdb;
}

status_t resolve(memory_desc_t &md, dnnl_format_tag_t tag) {
    if (md.format_kind != dnnl_format_kind_any) return dnnl_success;
    return md_init_with_tag(md, md.ndims, md.dims, md.data_type, tag);
}

} // namespace

status_t init_nhwc_conv(const convolution_desc_t &d, memory_desc_t &src, memory_desc_t &wei,
        memory_desc_t &bias, memory_desc_t &dst, nhwc_conv_geometry_t &q) {
    ANYDNN_REQUIRE(d.prop_kind == dnnl_forward_training || d.prop_kind == dnnl_forward_inference,
            dnnl_unimplemented, "channels-last GEMM convolution is forward only");
    src = d.src_md, wei = d.weights_md, bias = d.bias_md, dst = d.dst_md;
    const int nd = src.ndims;
    ANYDNN_REQUIRE(nd == 3 || nd == 4, dnnl_unimplemented,
            "channels-last GEMM convolution takes 1D and 2D problems, not %dD", nd - 2);
    const bool grouped = wei.ndims == nd + 1;
    q.with_bias = !is_zero_md(bias);
    ANYDNN_CHECK(resolve(src, act_tag(nd)));
    ANYDNN_CHECK(resolve(dst, act_tag(nd)));
    ANYDNN_CHECK(resolve(wei, wei_tag(nd, grouped)));
    if (q.with_bias) ANYDNN_CHECK(resolve(bias, dnnl_a));
    ANYDNN_CHECK(check_tensors({&src, &wei, &dst}));
    ANYDNN_REQUIRE(is_plain(src) && is_plain(wei) && is_plain(dst)
                           && (!q.with_bias || (is_plain(bias) && bias.blocking.strides[0] == 1)),
            dnnl_unimplemented, "channels-last GEMM convolution takes plain layouts");

    const int w0 = grouped ? 1 : 0;
    q.mb = src.dims[0];
    q.g = grouped ? wei.dims[0] : 1;
    q.oc = wei.dims[w0];
    q.ic = wei.dims[w0 + 1];
    const bool two_d = nd == 4;
    q.ih = two_d ? src.dims[2] : 1;
    q.iw = src.dims[nd - 1];
    q.oh = two_d ? dst.dims[2] : 1;
    q.ow = dst.dims[nd - 1];
    q.kh = two_d ? wei.dims[w0 + 2] : 1;
    q.kw = wei.dims[w0 + nd - 1];
    q.stride_h = two_d ? d.strides.v[0] : 1;
    q.stride_w = d.strides.v[nd - 3];
    q.pad_h = two_d ? d.padding_l.v[0] : 0;
    q.pad_w = d.padding_l.v[nd - 3];
    q.dil_h = two_d ? d.dilates.v[0] + 1 : 1;
    q.dil_w = d.dilates.v[nd - 3] + 1;

    // src: channels dense; any image, row and pixel strides.
    const dim_t *ss = src.blocking.strides, *ds = dst.blocking.strides, *ws = wei.blocking.strides;
    ANYDNN_REQUIRE(ss[1] == 1 || src.dims[1] == 1, dnnl_unimplemented,
            "src channels are not dense (not channels-last)");
    q.src_sn = ss[0], q.src_sh = two_d ? ss[2] : 0, q.src_sw = ss[nd - 1];
    // dst: channels dense, pixels ldc apart over (n, oh, ow).
    q.ldc = ds[nd - 1];
    ANYDNN_REQUIRE((ds[1] == 1 || dst.dims[1] == 1) && (!two_d || ds[2] == q.ow * q.ldc)
                           && (q.mb == 1 || ds[0] == q.oh * q.ow * q.ldc),
            dnnl_unimplemented, "dst is not channels-last with pixels that flatten");
    // weights: (g, oc) rows of dense (kh, kw, ic).
    ANYDNN_REQUIRE((ws[w0 + 1] == 1 || q.ic == 1) && (ws[w0 + nd - 1] == q.ic || q.kw == 1)
                           && (!two_d || ws[w0 + 2] == q.kw * q.ic || q.kh == 1),
            dnnl_unimplemented, "weights are not (g)ohwi rows");
    q.wei_so = ws[w0];
    q.wei_sg = grouped ? ws[0] : 0;
    q.src_off = src.offset0, q.dst_off = dst.offset0, q.wei_off = wei.offset0;
    return dnnl_success;
}

status_t init_nhwc_conv_scales(const primitive_attr_t &attr, const nhwc_conv_geometry_t &q,
        std::map<int, memory_desc_t> &args) {
    ANYDNN_REQUIRE(attr.zero_points.empty(), dnnl_unimplemented,
            "channels-last GEMM convolution takes no zero points");
    const int per_oc = q.g > 1 ? 3 : 1;
    for (const auto &s : attr.scales) {
        const int arg = s.first;
        ANYDNN_REQUIRE(arg == DNNL_ARG_SRC || arg == DNNL_ARG_WEIGHTS || arg == DNNL_ARG_DST,
                dnnl_unimplemented, "scales for argument %d are not supported", arg);
        ANYDNN_REQUIRE(s.second.group_ndims == 0 && s.second.data_type == dnnl_f32
                               && (s.second.mask == 0
                                       || (arg == DNNL_ARG_WEIGHTS && s.second.mask == per_oc)),
                dnnl_unimplemented, "scales of argument %d: mask %d, not f32 or grouped", arg,
                s.second.mask);
        memory_desc_t md;
        const dnnl_dims_t n = {s.second.mask ? q.g * q.oc : 1};
        ANYDNN_CHECK(md_init_with_tag(md, 1, n, dnnl_f32, dnnl_a));
        args[DNNL_ARG_ATTR_SCALES | arg] = md;
    }
    return dnnl_success;
}

} // namespace gpu
} // namespace anydnn
