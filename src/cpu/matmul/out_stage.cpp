#include "cpu/matmul/out_stage.hpp"

#include <algorithm>
#include <cstring>

#include "core/data_types_narrow.hpp"
#include "core/ops/scales.hpp"
#include "cpu/tensor_run.hpp"

namespace anydnn {
namespace cpu {
namespace matmul {

namespace {

float read_scalar(const memory_t *m) {
    const memory_desc_t &md = m->md();
    if (md.format_kind == dnnl_format_kind_host_scalar)
        return load_as_f32(md.data_type, m->scalar_value, 0);
    return load_as_f32(md.data_type, m->host_ptr(), md.offset0);
}

} // namespace

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
    dst_zps.clear();
    dst_zp = 0.f;
    auto dz = attr.zero_points.find(DNNL_ARG_DST);
    if (dz != attr.zero_points.end() && dz->second.mask != 0) {
        const memory_t *m = ctx.arg(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST);
        ANYDNN_REQUIRE(m, dnnl_invalid_arguments, "dst zero point memory is missing");
        const memory_desc_t &md = m->md();
        ANYDNN_REQUIRE(nelems(md) >= N, dnnl_invalid_arguments,
                "dst zero points hold fewer than N values");
        dst_zps.resize(N);
        load_f32(md.data_type, m->host_ptr(), md.offset0, 1, N, dst_zps.data());
        return dnnl_success;
    }
    ANYDNN_CHECK(read_zero_point(ctx, attr, DNNL_ARG_DST, dst_zp));
    return dnnl_success;
}

bool out_stage_t::trivial() const {
    return !po && src_scale == 1.f && wei_scale == 1.f && wei_scales.empty()
            && dst_scale_inv == 1.f && dst_zp == 0.f && dst_zps.empty() && !bias
            && dst_dt == dnnl_f32;
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
        if (!dst_zps.empty()) {
            const float *z = dst_zps.data() + n0 + s;
            for (dim_t j = 0; j < n; ++j)
                x[j] = x[j] * dst_scale_inv + z[j];
        } else if (dst_scale_inv != 1.f || dst_zp != 0.f) {
            for (dim_t j = 0; j < n; ++j)
                x[j] = x[j] * dst_scale_inv + dst_zp;
        }
        float *out = static_cast<float *>(dst) + off;
        if (dst_dt == dnnl_f32 && dst_stride_n == 1 && out == x) continue;
        if (is_f8(dst_dt) || is_f4(dst_dt)) {
            for (dim_t j = 0; j < n; ++j)
                store_any_from_f32(dst_dt, dst, off + j * dst_stride_n, x[j]);
            continue;
        }
        store_f32(dst_dt, dst, off, dst_stride_n, n, x);
    }
}

} // namespace matmul
} // namespace cpu
} // namespace anydnn
