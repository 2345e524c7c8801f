// dnnl_resampling_{forward,backward}_primitive_desc_create: argument checks, factors from dims
// (or the dst shape from factors), and the descriptor.
#include <cmath>
#include <vector>

#include "api/api.hpp"
#include "core/primitive_desc.hpp"

using namespace anydnn;

namespace {

status_t check_tensor(const memory_desc_t *md, const char *name) {
    ANYDNN_REQUIRE(md != nullptr, dnnl_invalid_arguments, "%s descriptor is null", name);
    ANYDNN_REQUIRE(md->ndims >= 3 && md->ndims <= 5, dnnl_invalid_arguments,
            "%s has %d dimensions (resampling takes 3 to 5)", name, md->ndims);
    ANYDNN_REQUIRE(md->data_type != dnnl_data_type_undef, dnnl_invalid_arguments,
            "%s has no data type", name);
    for (int d = 0; d < md->ndims; ++d)
        ANYDNN_REQUIRE(md->dims[d] >= 0, dnnl_invalid_arguments,
                "%s has a negative or runtime dimension", name);
    return dnnl_success;
}

// `small` is src (diff_src), `big` dst (diff_dst), possibly null: derived from factors then.
status_t fill_desc(resampling_desc_t &d, dnnl_alg_kind_t alg, const float *factors,
        const memory_desc_t *src, const memory_desc_t *dst, const char *sname,
        const char *dname, memory_desc_t &src_out, memory_desc_t &dst_out) {
    ANYDNN_REQUIRE(alg == dnnl_resampling_nearest || alg == dnnl_resampling_linear,
            dnnl_invalid_arguments, "alg kind %s is not a resampling algorithm",
            dnnl_alg_kind2str(alg));
    ANYDNN_CHECK(check_tensor(src, sname));
    const int nsp = src->ndims - 2;
    const bool has_dst = dst != nullptr && dst->ndims != 0;
    ANYDNN_REQUIRE(has_dst || factors != nullptr, dnnl_invalid_arguments,
            "%s is missing and there are no factors to derive it from", dname);
    if (factors)
        for (int i = 0; i < nsp; ++i)
            ANYDNN_REQUIRE(std::isfinite(factors[i]) && factors[i] > 0.f,
                    dnnl_invalid_arguments, "factor %d is %g (must be positive)", i,
                    factors[i]);
    src_out = *src;
    if (has_dst) {
        ANYDNN_CHECK(check_tensor(dst, dname));
        dst_out = *dst;
    } else {
        dnnl_dims_t dims;
        dims[0] = src->dims[0];
        dims[1] = src->dims[1];
        for (int i = 0; i < nsp; ++i)
            dims[2 + i] = static_cast<dim_t>(std::floor(src->dims[2 + i] * factors[i]));
        ANYDNN_CHECK(md_init_with_tag(
                dst_out, src->ndims, dims, src->data_type, dnnl_format_tag_any));
    }
    ANYDNN_REQUIRE(dst_out.ndims == src_out.ndims, dnnl_invalid_arguments,
            "%s and %s have different ranks", sname, dname);
    ANYDNN_REQUIRE(dst_out.dims[0] == src_out.dims[0] && dst_out.dims[1] == src_out.dims[1],
            dnnl_invalid_arguments, "%s and %s differ in the batch or channel dimension",
            sname, dname);
    d.factors.resize(nsp);
    for (int i = 0; i < nsp; ++i) {
        const dim_t in = src_out.dims[2 + i], out = dst_out.dims[2 + i];
        ANYDNN_REQUIRE((in == 0) == (out == 0), dnnl_invalid_arguments,
                "spatial dimension %d is empty on one side only", i);
        // As oneDNN reports them: the ratio of the shapes, whatever factors were passed.
        d.factors[i] = in ? static_cast<float>(out) / in : 1.f;
    }
    d.alg_kind = alg;
    return dnnl_success;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_resampling_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        dnnl_alg_kind_t alg_kind, const float *factors, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t dst_desc, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_REQUIRE(prop_kind == dnnl_forward_training || prop_kind == dnnl_forward_inference,
                dnnl_invalid_arguments, "prop kind %s is not a forward one",
                dnnl_prop_kind2str(prop_kind));
        resampling_desc_t d {};
        d.prop_kind = prop_kind;
        ANYDNN_CHECK(fill_desc(
                d, alg_kind, factors, src_desc, dst_desc, "src", "dst", d.src_md, d.dst_md));
        d.diff_src_md = zero_md();
        d.diff_dst_md = zero_md();
        return primitive_desc_create(primitive_desc, d, attr, engine, nullptr);
    });
}

DNNL_API dnnl_status_t dnnl_resampling_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
        const float *factors, const_dnnl_memory_desc_t diff_src_desc,
        const_dnnl_memory_desc_t diff_dst_desc, const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        if (hint_fwd_pd) {
            ANYDNN_REQUIRE_LIVE(primitive_desc, hint_fwd_pd);
            ANYDNN_REQUIRE(hint_fwd_pd->impl && hint_fwd_pd->impl->kind() == dnnl_resampling,
                    dnnl_invalid_arguments,
                    "hint_fwd_pd is not a resampling primitive descriptor");
        }
        resampling_desc_t d {};
        d.prop_kind = dnnl_backward_data;
        ANYDNN_CHECK(fill_desc(d, alg_kind, factors, diff_src_desc, diff_dst_desc, "diff_src",
                "diff_dst", d.diff_src_md, d.diff_dst_md));
        d.src_md = zero_md();
        d.dst_md = zero_md();
        return primitive_desc_create(primitive_desc, d, attr, engine, hint_fwd_pd);
    });
}

} // extern "C"
