#include "cpu/matmul/woq_args.hpp"

#include <algorithm>

#include "core/data_types_narrow.hpp"

namespace anydnn {
namespace cpu {
namespace matmul {

namespace {

status_t bind_one(const exec_ctx_t &ctx, int arg, const grouped_quant_t &q, woq_args_t::param_t &p,
        float &host) {
    p = woq_args_t::param_t();
    if (!q.present) return dnnl_success;
    const memory_t *m = ctx.arg(arg);
    ANYDNN_REQUIRE(m, dnnl_invalid_arguments, "argument %d (quantization) is missing", arg);
    const memory_desc_t &md = m->md();
    if (md.format_kind == dnnl_format_kind_host_scalar) {
        host = load_any_as_f32(md.data_type, m->scalar_value, 0);
        p.ptr = &host;
        p.dt = dnnl_f32;
        return dnnl_success;
    }
    p.ptr = m->host_ptr();
    p.dt = q.dt;
    p.off = ctx.md(arg).offset0;
    return dnnl_success;
}

woq_args_t::param_t at_batch(
        const woq_args_t::param_t &p, const grouped_quant_t *q, const dim_t *wpos) {
    woq_args_t::param_t r = p;
    if (!p.ptr || !q) return r;
    const int nd = q->ndims;
    dim_t base[max_ndims];
    std::copy(wpos, wpos + nd, base);
    base[nd - 2] = base[nd - 1] = 0;
    r.off += q->index(base);
    r.sk = q->stride[nd - 2];
    r.sn = q->stride[nd - 1];
    r.group_k = q->group[nd - 2];
    r.group_n = q->group[nd - 1];
    return r;
}

} // namespace

status_t woq_args_t::bind(const exec_ctx_t &ctx, const matmul_quant_t &q) {
    if (!q.woq && !q.int8_grouped) return dnnl_success;
    if (q.src_scales.present) {
        src_scale_q = &q.src_scales;
        ANYDNN_CHECK(bind_one(
                ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, q.src_scales, src_scale, host_[2]));
    }
    const grouped_quant_t &scales = q.wei_scales, &zero_points = q.wei_zps;
    scale_q = scales.present ? &scales : nullptr;
    zp_q = zero_points.present ? &zero_points : nullptr;
    ANYDNN_CHECK(bind_one(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, scales, scale, host_[0]));
    return bind_one(
            ctx, DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS, zero_points, zp, host_[1]);
}

float woq_args_t::dequant(float w, const dim_t *wpos) const {
    const float z
            = zp.ptr ? load_any_as_f32(zp.dt, zp.ptr, zp.off + zp_q->index(wpos)) : 0.f;
    const float s = scale.ptr
            ? load_any_as_f32(scale.dt, scale.ptr, scale.off + scale_q->index(wpos))
            : 1.f;
    return (w - z) * s;
}

float woq_args_t::value(const param_t &p, dim_t i, float none) {
    return i < 0 ? none : load_any_as_f32(p.dt, p.ptr, i);
}

ukernels::gemm_dequant_t woq_args_t::for_batch(const dim_t *wpos, dim_t b_off) const {
    ukernels::gemm_dequant_t d;
    d.scale = at_batch(scale, scale_q, wpos);
    d.zp = at_batch(zp, zp_q, wpos);
    d.b_off = b_off;
    return d;
}

} // namespace matmul
} // namespace cpu
} // namespace anydnn
