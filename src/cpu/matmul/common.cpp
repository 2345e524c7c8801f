#include "cpu/matmul/common.hpp"

#include <algorithm>
#include <cstring>

#include "core/data_types.hpp"
#include "cpu/scales.hpp"
#include "cpu/tensor_run.hpp"

namespace anydnn {
namespace cpu {
namespace matmul {

namespace {

status_t quant_md(const quant_entry_t &q, dim_t n, memory_desc_t &md) {
    const dnnl_dims_t dims = {n};
    return md_init_with_tag(md, 1, dims, q.data_type, dnnl_a);
}

float read_scalar(const memory_t *m) {
    const memory_desc_t &md = m->md();
    if (md.format_kind == dnnl_format_kind_host_scalar)
        return load_as_f32(md.data_type, m->scalar_value, 0);
    return load_as_f32(md.data_type, m->host_ptr(), md.offset0);
}

bool is_float(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

status_t resolve_plain(memory_desc_t &md, const char *name) {
    if (md.format_kind != dnnl_format_kind_any) {
        ANYDNN_REQUIRE(md.format_kind == dnnl_blocked, dnnl_unimplemented,
                "%s layout is not a blocked one", name);
        return dnnl_success;
    }
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(md), dnnl_unimplemented,
            "%s: format any with runtime dimensions", name);
    return md_init_with_strides(md, md.ndims, md.dims, md.data_type, nullptr);
}

} // namespace

bool is_int8(const memory_desc_t &src) {
    return src.data_type == dnnl_u8 || src.data_type == dnnl_s8;
}

status_t resolve_matmul(const matmul_desc_t &d, memory_desc_t &src, memory_desc_t &wei,
        memory_desc_t &bias, memory_desc_t &dst) {
    src = d.src_md;
    wei = d.weights_md;
    bias = d.bias_md;
    dst = d.dst_md;
    const dnnl_data_type_t sdt = src.data_type, wdt = wei.data_type, ddt = dst.data_type;
    if (is_int8(src)) {
        ANYDNN_REQUIRE(wdt == dnnl_s8 || wdt == dnnl_u8, dnnl_unimplemented,
                "int8 src needs s8 or u8 weights (got %s)", dnnl_dt2str(wdt));
        ANYDNN_REQUIRE(is_float(ddt) || ddt == dnnl_s32 || ddt == dnnl_s8 || ddt == dnnl_u8,
                dnnl_unimplemented, "dst type %s is not supported", dnnl_dt2str(ddt));
    } else {
        ANYDNN_REQUIRE(is_float(sdt) && is_float(wdt), dnnl_unimplemented,
                "src/weights types %s/%s are not supported", dnnl_dt2str(sdt),
                dnnl_dt2str(wdt));
        ANYDNN_REQUIRE(is_float(ddt) || ((ddt == dnnl_s8 || ddt == dnnl_u8) && sdt == dnnl_f32),
                dnnl_unimplemented, "dst type %s is not supported with %s src",
                dnnl_dt2str(ddt), dnnl_dt2str(sdt));
    }
    if (!is_zero_md(bias))
        ANYDNN_REQUIRE(is_float(bias.data_type) || bias.data_type == dnnl_s32,
                dnnl_unimplemented, "bias type %s is not supported",
                dnnl_dt2str(bias.data_type));
    ANYDNN_CHECK(resolve_plain(src, "src"));
    ANYDNN_CHECK(resolve_plain(wei, "weights"));
    ANYDNN_CHECK(resolve_plain(dst, "dst"));
    if (!is_zero_md(bias)) ANYDNN_CHECK(resolve_plain(bias, "bias"));
    return dnnl_success;
}

status_t init_attr(const primitive_attr_t &attr, const memory_desc_t &dst, int wei_n_mask,
        const std::vector<int> &zp_args, post_ops_chain_t &po,
        std::map<int, memory_desc_t> &args) {
    const unsigned handled = attr_skip::scales | attr_skip::zero_points | attr_skip::post_ops
            | attr_skip::fpmath | attr_skip::scratchpad | attr_skip::deterministic
            | attr_skip::acc_mode;
    ANYDNN_REQUIRE(attr.has_default_values(handled), dnnl_unimplemented,
            "attributes other than scales, zero points and post-ops are not supported");
    for (const auto &s : attr.scales) {
        const int arg = s.first;
        const quant_entry_t &q = s.second;
        ANYDNN_REQUIRE(arg == DNNL_ARG_SRC || arg == DNNL_ARG_WEIGHTS || arg == DNNL_ARG_DST,
                dnnl_unimplemented, "scales for argument %d are not supported", arg);
        ANYDNN_REQUIRE(q.group_ndims == 0, dnnl_unimplemented, "grouped scales are not supported");
        ANYDNN_REQUIRE(q.mask == 0 || (arg == DNNL_ARG_WEIGHTS && q.mask == wei_n_mask),
                dnnl_unimplemented, "scales mask %d for argument %d is not supported", q.mask,
                arg);
        ANYDNN_REQUIRE(q.data_type == dnnl_f32 || q.data_type == dnnl_bf16
                        || q.data_type == dnnl_f16,
                dnnl_unimplemented, "scales of type %s are not supported",
                dnnl_dt2str(q.data_type));
        if (q.is_host_scalar) continue;
        memory_desc_t md;
        const dim_t n = q.mask == 0 ? 1 : dst.dims[dst.ndims - 1];
        ANYDNN_CHECK(quant_md(q, n, md));
        args[DNNL_ARG_ATTR_SCALES | arg] = md;
    }
    for (const auto &z : attr.zero_points) {
        const int arg = z.first;
        const quant_entry_t &q = z.second;
        ANYDNN_REQUIRE(std::find(zp_args.begin(), zp_args.end(), arg) != zp_args.end(),
                dnnl_unimplemented, "zero points for argument %d are not supported", arg);
        ANYDNN_REQUIRE(q.mask == 0 && q.group_ndims == 0, dnnl_unimplemented,
                "only a common zero point (mask 0) is supported");
        if (q.is_host_scalar) continue;
        memory_desc_t md;
        ANYDNN_CHECK(quant_md(q, 1, md));
        args[DNNL_ARG_ATTR_ZERO_POINTS | arg] = md;
    }
    ANYDNN_CHECK(po.init(attr, dst));
    po.add_args(args);
    return dnnl_success;
}

status_t read_zero_point(
        const exec_ctx_t &ctx, const primitive_attr_t &attr, int arg, float &value) {
    value = 0.f;
    if (attr.zero_points.find(arg) == attr.zero_points.end()) return dnnl_success;
    const memory_t *m = ctx.arg(DNNL_ARG_ATTR_ZERO_POINTS | arg);
    ANYDNN_REQUIRE(m, dnnl_invalid_arguments, "zero point memory for argument %d is missing",
            arg);
    value = read_scalar(m);
    return dnnl_success;
}

status_t out_stage_t::bind_matmul(const exec_ctx_t &ctx, const primitive_attr_t &attr,
        const post_ops_chain_t &chain, bool has_bias, dim_t &bias_stride_m) {
    const memory_desc_t &d = ctx.md(DNNL_ARG_DST);
    const int nd = d.ndims;
    ANYDNN_CHECK(bind(ctx, attr, chain, d.dims[nd - 1]));
    dst = ctx.host_ptr(DNNL_ARG_DST);
    dst_dt = d.data_type;
    dst_stride_n = d.blocking.strides[nd - 1];
    n_axis = nd - 1;
    bias_stride_m = 0;
    if (has_bias) {
        const memory_desc_t &b = ctx.md(DNNL_ARG_BIAS);
        bias = ctx.host_ptr(DNNL_ARG_BIAS);
        bias_dt = b.data_type;
        bias_stride_n = b.dims[nd - 1] == 1 ? 0 : b.blocking.strides[nd - 1];
        bias_stride_m = b.dims[nd - 2] == 1 ? 0 : b.blocking.strides[nd - 2];
    }
    return dnnl_success;
}

status_t out_stage_t::bind(const exec_ctx_t &ctx, const primitive_attr_t &attr,
        const post_ops_chain_t &chain, dim_t N) {
    po = chain.empty() ? nullptr : &chain;
    if (po) po_args = chain.bind(ctx);
    ANYDNN_CHECK(read_common_scale(ctx, attr, DNNL_ARG_SRC, src_scale));
    auto ws = attr.scales.find(DNNL_ARG_WEIGHTS);
    wei_scales.clear();
    wei_scale = 1.f;
    if (ws != attr.scales.end()) {
        const memory_t *m = ctx.arg(DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS);
        ANYDNN_REQUIRE(m, dnnl_invalid_arguments, "weights scale memory is missing");
        if (ws->second.mask == 0) {
            wei_scale = read_scalar(m);
        } else {
            const memory_desc_t &md = m->md();
            ANYDNN_REQUIRE(nelems(md) >= N, dnnl_invalid_arguments,
                    "weights scales hold fewer than N values");
            wei_scales.resize(N);
            load_f32(md.data_type, m->host_ptr(), md.offset0, 1, N, wei_scales.data());
        }
    }
    float ds = 1.f;
    ANYDNN_CHECK(read_common_scale(ctx, attr, DNNL_ARG_DST, ds));
    dst_scale_inv = 1.f / ds;
    ANYDNN_CHECK(read_zero_point(ctx, attr, DNNL_ARG_DST, dst_zp));
    return dnnl_success;
}

bool out_stage_t::trivial() const {
    return !po && src_scale == 1.f && wei_scale == 1.f && wei_scales.empty()
            && dst_scale_inv == 1.f && dst_zp == 0.f && !bias && dst_dt == dnnl_f32;
}

void out_stage_t::row(float *v, dim_t nb, const dim_t *pos, dim_t n0, dim_t bias_off,
        dim_t dst_off) const {
    constexpr dim_t chunk = 256;
    float tmp[chunk];
    for (dim_t s = 0; s < nb; s += chunk) {
        const dim_t n = std::min(chunk, nb - s);
        float *x = v + s;
        const float sc = src_scale * wei_scale;
        if (!wei_scales.empty()) {
            const float *w = wei_scales.data() + n0 + s;
            for (dim_t j = 0; j < n; ++j)
                x[j] *= sc * w[j];
        } else if (sc != 1.f) {
            for (dim_t j = 0; j < n; ++j)
                x[j] *= sc;
        }
        if (bias) {
            load_f32(bias_dt, bias, bias_off + s * bias_stride_n, bias_stride_n, n, tmp);
            for (dim_t j = 0; j < n; ++j)
                x[j] += tmp[j];
        }
        const dim_t off = dst_off + s * dst_stride_n;
        if (po) {
            dim_t p[max_ndims];
            std::memcpy(p, pos, sizeof(p));
            p[n_axis] = n0 + s;
            const char *d = static_cast<const char *>(dst);
            po->apply(po_args, x, n, p, n_axis, d ? d + off * data_type_size(po->sum_dt()) : nullptr,
                    dst_stride_n);
        }
        if (dst_scale_inv != 1.f || dst_zp != 0.f)
            for (dim_t j = 0; j < n; ++j)
                x[j] = x[j] * dst_scale_inv + dst_zp;
        float *out = static_cast<float *>(dst) + off;
        if (dst_dt == dnnl_f32 && dst_stride_n == 1 && out == x) continue;
        store_f32(dst_dt, dst, off, dst_stride_n, n, x);
    }
}

} // namespace matmul
} // namespace cpu
} // namespace anydnn
