#include "core/ops/reorder/quant.hpp"

#include "oneapi/dnnl/dnnl_debug.h"

namespace anydnn {
namespace cpu {
namespace reorder {

namespace {

bool is_scale_type(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

bool is_zero_point_type(dnnl_data_type_t dt) {
    return dt == dnnl_s32 || dt == dnnl_s8 || dt == dnnl_u8 || dt == dnnl_f32;
}

status_t read_entry(
        quant_arg_t &a, const quant_entry_t &e, int arg, const memory_desc_t &md, bool scale) {
    const char *what = scale ? "scales" : "zero points";
    ANYDNN_REQUIRE(!e.is_host_scalar || (e.mask == 0 && e.group_ndims == 0), dnnl_invalid_arguments,
            "reorder: host-scalar %s need mask 0", what);
    ANYDNN_REQUIRE(e.qmode == dnnl_quantization_mode_undef
                           || e.qmode == dnnl_quantization_mode_static_sazp,
            dnnl_unimplemented, "reorder: dynamic quantization is not supported");
    ANYDNN_REQUIRE(scale ? is_scale_type(e.data_type) : is_zero_point_type(e.data_type),
            dnnl_unimplemented, "reorder: %s of type %s are not supported", what,
            dnnl_dt2str(e.data_type));
    ANYDNN_REQUIRE(e.mask >= 0 && e.mask < (1 << md.ndims), dnnl_invalid_arguments,
            "reorder: %s mask %d does not fit a %d-d tensor", what, e.mask, md.ndims);
    ANYDNN_REQUIRE(e.group_ndims >= 0 && e.group_ndims <= md.ndims, dnnl_invalid_arguments,
            "reorder: %s have %d group dimensions for a %d-d tensor", what, e.group_ndims,
            md.ndims);
    a.present = true;
    a.mask = e.mask;
    a.dt = e.data_type;
    a.host_scalar = e.is_host_scalar;
    a.arg = (scale ? DNNL_ARG_ATTR_SCALES : DNNL_ARG_ATTR_ZERO_POINTS) | arg;
    a.group_ndims = 0;
    for (int d = 0; d < md.ndims; ++d)
        a.groups[d] = 1;
    // Groups apply to the innermost group_ndims logical dimensions.
    for (int k = 0; k < e.group_ndims; ++k) {
        int d = md.ndims - e.group_ndims + k;
        dim_t g = e.groups[k];
        ANYDNN_REQUIRE(g >= 1, dnnl_invalid_arguments, "reorder: %s group %lld is not positive",
                what, static_cast<long long>(g));
        ANYDNN_REQUIRE(g == 1 || (e.mask >> d & 1), dnnl_invalid_arguments,
                "reorder: %s are grouped along dimension %d, which the mask leaves out", what, d);
        a.groups[d] = g;
        if (g > 1) a.group_ndims = e.group_ndims;
    }
    return dnnl_success;
}

} // namespace

bool quant_t::masks_within(int allowed) const {
    for (const quant_arg_t *a : {&src_scale, &dst_scale, &src_zp, &dst_zp}) {
        if (!a->present) continue;
        if (a->grouped()) return false;
        if ((a->mask & ~allowed) != 0) return false;
    }
    return true;
}

status_t quant_init(quant_t &q, const primitive_attr_t &attr, const memory_desc_t &src,
        const memory_desc_t &dst) {
    q = quant_t();
    for (const auto &s : attr.scales) {
        ANYDNN_REQUIRE(s.first == DNNL_ARG_SRC || s.first == DNNL_ARG_DST, dnnl_unimplemented,
                "reorder: scales are only supported on src and dst (got argument %d)", s.first);
        bool is_src = s.first == DNNL_ARG_SRC;
        ANYDNN_CHECK(read_entry(
                is_src ? q.src_scale : q.dst_scale, s.second, s.first, is_src ? src : dst, true));
    }
    for (const auto &z : attr.zero_points) {
        ANYDNN_REQUIRE(z.first == DNNL_ARG_SRC || z.first == DNNL_ARG_DST, dnnl_unimplemented,
                "reorder: zero points are only supported on src and dst (got argument %d)",
                z.first);
        bool is_src = z.first == DNNL_ARG_SRC;
        ANYDNN_CHECK(read_entry(
                is_src ? q.src_zp : q.dst_zp, z.second, z.first, is_src ? src : dst, false));
    }
    ANYDNN_REQUIRE(attr.precomputed_reductions.empty(), dnnl_unimplemented,
            "reorder: precomputed reductions are not supported");
    ANYDNN_REQUIRE(!attr.dropout_enabled, dnnl_unimplemented, "reorder: dropout is not supported");
    for (const auto &r : attr.rounding)
        ANYDNN_REQUIRE(r.second == dnnl_rounding_mode_environment, dnnl_unimplemented,
                "reorder: stochastic rounding is not supported");
    const auto &po = attr.post_ops.entries;
    ANYDNN_REQUIRE(po.size() <= 1, dnnl_unimplemented,
            "reorder: only a single sum post-op is supported (got %zu post-ops)", po.size());
    if (po.size() == 1) {
        ANYDNN_REQUIRE(po[0].kind == dnnl_sum, dnnl_unimplemented,
                "reorder: only a sum post-op is supported (got %s)",
                dnnl_prim_kind2str(po[0].kind));
        dnnl_data_type_t dt = po[0].sum_dt == dnnl_data_type_undef ? dst.data_type : po[0].sum_dt;
        ANYDNN_REQUIRE(data_type_size(dt) == data_type_size(dst.data_type), dnnl_unimplemented,
                "reorder: sum data type %s differs in size from dst %s", dnnl_dt2str(dt),
                dnnl_dt2str(dst.data_type));
        q.sum = true;
        q.sum_scale = po[0].sum_scale;
        q.sum_zp = static_cast<float>(po[0].sum_zero_point);
        q.sum_dt = dt;
    }
    return dnnl_success;
}

status_t quant_add_args(const quant_t &q, primitive_desc_t &pd, const memory_desc_t &src) {
    for (const quant_arg_t *a : {&q.src_scale, &q.dst_scale, &q.src_zp, &q.dst_zp}) {
        if (!a->present || a->host_scalar) continue;
        memory_desc_t md;
        dnnl_dims_t dims = {};
        int ndims = 0;
        bool runtime = false;
        if (a->grouped()) {
            // Grouped arrays are described by their own shape over the masked dimensions.
            for (int d = 0; d < src.ndims; ++d) {
                if (!(a->mask >> d & 1)) continue;
                runtime = runtime || src.dims[d] == DNNL_RUNTIME_DIM_VAL;
                dims[ndims++] = runtime ? DNNL_RUNTIME_DIM_VAL : a->count(d, src.dims);
            }
        } else {
            // Otherwise one flat array, as oneDNN applications create it.
            dim_t n = 1;
            for (int d = 0; d < src.ndims; ++d) {
                if (!(a->mask >> d & 1)) continue;
                if (src.dims[d] == DNNL_RUNTIME_DIM_VAL)
                    runtime = true;
                else
                    n *= src.dims[d];
            }
            dims[ndims++] = runtime ? DNNL_RUNTIME_DIM_VAL : n;
        }
        if (runtime) {
            dnnl_dims_t strides;
            for (int d = 0; d < ndims; ++d)
                strides[d] = DNNL_RUNTIME_DIM_VAL;
            ANYDNN_CHECK(md_init_with_strides(md, ndims, dims, a->dt, strides));
        } else {
            ANYDNN_CHECK(md_init_with_strides(md, ndims, dims, a->dt, nullptr));
        }
        pd.args[a->arg] = md;
    }
    return dnnl_success;
}

namespace {

status_t locate(const quant_arg_t &a, const exec_ctx_t &ctx, const void *&p) {
    p = nullptr;
    if (!a.present) return dnnl_success;
    const memory_t *m = ctx.arg(a.arg);
    ANYDNN_REQUIRE(
            m, dnnl_invalid_arguments, "reorder: quantization argument %d is missing", a.arg);
    if (a.host_scalar) {
        ANYDNN_REQUIRE(
                m->md().format_kind == dnnl_format_kind_host_scalar && m->md().data_type == a.dt,
                dnnl_invalid_arguments,
                "reorder: quantization argument %d is not a host scalar of type %s", a.arg,
                dnnl_dt2str(a.dt));
        p = m->scalar_value;
        return dnnl_success;
    }
    p = m->host_ptr();
    ANYDNN_REQUIRE(
            p, dnnl_invalid_arguments, "reorder: quantization argument %d has no data", a.arg);
    return dnnl_success;
}

} // namespace

status_t quant_data(const quant_t &q, const exec_ctx_t &ctx, quant_data_t &data) {
    ANYDNN_CHECK(locate(q.src_scale, ctx, data.src_scale));
    ANYDNN_CHECK(locate(q.dst_scale, ctx, data.dst_scale));
    ANYDNN_CHECK(locate(q.src_zp, ctx, data.src_zp));
    ANYDNN_CHECK(locate(q.dst_zp, ctx, data.dst_zp));
    return dnnl_success;
}

void quant_strides(const quant_arg_t &a, int ndims, const dim_t *dims, dim_t *strides) {
    dim_t s = 1;
    for (int d = ndims - 1; d >= 0; --d) {
        if (a.mask >> d & 1) {
            strides[d] = s;
            s *= a.count(d, dims);
        } else {
            strides[d] = 0;
        }
    }
}

} // namespace reorder
} // namespace cpu
} // namespace anydnn
