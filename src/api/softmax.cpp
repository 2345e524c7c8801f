// dnnl_softmax_{forward,backward}_primitive_desc_create: argument checks and the descriptor.
#include <cstring>

#include "api/api.hpp"
#include "core/primitive_desc.hpp"

using namespace anydnn;

namespace {

bool same_dims(const memory_desc_t &a, const memory_desc_t &b) {
    return a.ndims == b.ndims
            && std::memcmp(a.dims, b.dims, sizeof(dnnl_dim_t) * a.ndims) == 0;
}

status_t check_tensor(const memory_desc_t *md, const char *name) {
    ANYDNN_REQUIRE(md != nullptr, dnnl_invalid_arguments, "%s descriptor is null", name);
    ANYDNN_REQUIRE(md->ndims >= 1 && md->ndims <= DNNL_MAX_NDIMS, dnnl_invalid_arguments,
            "%s has %d dimensions", name, md->ndims);
    ANYDNN_REQUIRE(md->data_type != dnnl_data_type_undef, dnnl_invalid_arguments,
            "%s has no data type", name);
    for (int d = 0; d < md->ndims; ++d)
        ANYDNN_REQUIRE(md->dims[d] >= 0 || md->dims[d] == DNNL_RUNTIME_DIM_VAL,
                dnnl_invalid_arguments, "%s has a negative dimension", name);
    return dnnl_success;
}

status_t check_alg_axis(dnnl_alg_kind_t alg, int axis, const memory_desc_t &md) {
    ANYDNN_REQUIRE(alg == dnnl_softmax_accurate || alg == dnnl_softmax_log,
            dnnl_invalid_arguments, "alg kind %s is not a softmax algorithm",
            dnnl_alg_kind2str(alg));
    ANYDNN_REQUIRE(axis >= 0 && axis < md.ndims, dnnl_invalid_arguments,
            "axis %d is outside [0, %d)", axis, md.ndims);
    return dnnl_success;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_softmax_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t dst_desc, int softmax_axis, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_REQUIRE(prop_kind == dnnl_forward_training || prop_kind == dnnl_forward_inference,
                dnnl_invalid_arguments, "prop kind %s is not a forward one",
                dnnl_prop_kind2str(prop_kind));
        ANYDNN_CHECK(check_tensor(src_desc, "src"));
        ANYDNN_CHECK(check_tensor(dst_desc, "dst"));
        ANYDNN_REQUIRE(same_dims(*src_desc, *dst_desc), dnnl_invalid_arguments,
                "src and dst dimensions differ");
        ANYDNN_CHECK(check_alg_axis(alg_kind, softmax_axis, *src_desc));

        softmax_desc_t d {};
        d.prop_kind = prop_kind;
        d.alg_kind = alg_kind;
        d.src_md = *src_desc;
        d.dst_md = *dst_desc;
        d.diff_src_md = zero_md();
        d.diff_dst_md = zero_md();
        d.axis = softmax_axis;
        return primitive_desc_create(primitive_desc, d, attr, engine, nullptr);
    });
}

DNNL_API dnnl_status_t dnnl_softmax_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
        const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
        const_dnnl_memory_desc_t dst_desc, int softmax_axis,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_CHECK(check_tensor(diff_src_desc, "diff_src"));
        ANYDNN_CHECK(check_tensor(diff_dst_desc, "diff_dst"));
        ANYDNN_CHECK(check_tensor(dst_desc, "dst"));
        ANYDNN_REQUIRE(same_dims(*diff_src_desc, *dst_desc)
                        && same_dims(*diff_dst_desc, *dst_desc),
                dnnl_invalid_arguments, "diff_src, diff_dst and dst dimensions differ");
        ANYDNN_CHECK(check_alg_axis(alg_kind, softmax_axis, *dst_desc));
        // A backward primitive is created against the forward one it differentiates.
        ANYDNN_REQUIRE(hint_fwd_pd != nullptr, dnnl_invalid_arguments,
                "backward softmax needs hint_fwd_pd");
        ANYDNN_REQUIRE_LIVE(primitive_desc, hint_fwd_pd);
        ANYDNN_REQUIRE(hint_fwd_pd->impl && hint_fwd_pd->impl->kind() == dnnl_softmax,
                dnnl_invalid_arguments, "hint_fwd_pd is not a softmax primitive descriptor");

        softmax_desc_t d {};
        d.prop_kind = dnnl_backward_data;
        d.alg_kind = alg_kind;
        d.src_md = zero_md();
        d.dst_md = *dst_desc;
        d.diff_src_md = *diff_src_desc;
        d.diff_dst_md = *diff_dst_desc;
        d.axis = softmax_axis;
        return primitive_desc_create(primitive_desc, d, attr, engine, hint_fwd_pd);
    });
}

} // extern "C"
