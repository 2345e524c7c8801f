// dnnl_inner_product_{forward,backward_data,backward_weights}_primitive_desc_create.
#include "api/api.hpp"
#include "core/primitive_desc.hpp"

using namespace anydnn;

namespace {

status_t check_tensor(const memory_desc_t *md, const char *name, int lo, int hi) {
    ANYDNN_REQUIRE(md != nullptr, dnnl_invalid_arguments, "%s descriptor is null", name);
    ANYDNN_REQUIRE(md->ndims >= lo && md->ndims <= hi, dnnl_invalid_arguments,
            "%s has %d dimensions (%d to %d)", name, md->ndims, lo, hi);
    ANYDNN_REQUIRE(md->data_type != dnnl_data_type_undef, dnnl_invalid_arguments,
            "%s has no data type", name);
    for (int d = 0; d < md->ndims; ++d)
        ANYDNN_REQUIRE(md->dims[d] >= 0, dnnl_invalid_arguments,
                "%s has a negative or runtime dimension", name);
    return dnnl_success;
}

// src [MB, IC, spatial...], weights [OC, IC, spatial...], dst [MB, OC], bias [OC].
status_t check_shapes(const memory_desc_t *src, const memory_desc_t *wei,
        const memory_desc_t *bias, const memory_desc_t *dst, const char *s, const char *w,
        const char *b, const char *d) {
    ANYDNN_CHECK(check_tensor(src, s, 2, 5));
    ANYDNN_CHECK(check_tensor(wei, w, 2, 5));
    ANYDNN_CHECK(check_tensor(dst, d, 2, 2));
    ANYDNN_REQUIRE(wei->ndims == src->ndims, dnnl_invalid_arguments, "%s and %s ranks differ",
            s, w);
    for (int i = 1; i < src->ndims; ++i)
        ANYDNN_REQUIRE(src->dims[i] == wei->dims[i], dnnl_invalid_arguments,
                "%s and %s differ in dimension %d", s, w, i);
    ANYDNN_REQUIRE(dst->dims[0] == src->dims[0], dnnl_invalid_arguments,
            "%s and %s minibatches differ", s, d);
    ANYDNN_REQUIRE(dst->dims[1] == wei->dims[0], dnnl_invalid_arguments,
            "%s channels differ from the output channels of %s", d, w);
    if (bias && bias->ndims) {
        ANYDNN_CHECK(check_tensor(bias, b, 1, 1));
        ANYDNN_REQUIRE(bias->dims[0] == wei->dims[0], dnnl_invalid_arguments,
                "%s has %ld elements, not OC", b, (long)bias->dims[0]);
    }
    return dnnl_success;
}

status_t check_hint(const dnnl_primitive_desc *hint) {
    ANYDNN_REQUIRE(hint != nullptr, dnnl_invalid_arguments,
            "backward inner product needs hint_fwd_pd");
    ANYDNN_REQUIRE_LIVE(primitive_desc, hint);
    ANYDNN_REQUIRE(hint->impl && hint->impl->kind() == dnnl_inner_product,
            dnnl_invalid_arguments, "hint_fwd_pd is not an inner product one");
    return dnnl_success;
}

inner_product_desc_t empty_desc(dnnl_prop_kind_t prop) {
    inner_product_desc_t d {};
    d.prop_kind = prop;
    d.src_md = d.diff_src_md = d.weights_md = d.diff_weights_md = zero_md();
    d.bias_md = d.diff_bias_md = d.dst_md = d.diff_dst_md = zero_md();
    return d;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_inner_product_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t weights_desc,
        const_dnnl_memory_desc_t bias_desc, const_dnnl_memory_desc_t dst_desc,
        const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_REQUIRE(prop_kind == dnnl_forward_training || prop_kind == dnnl_forward_inference,
                dnnl_invalid_arguments, "prop kind %s is not a forward one",
                dnnl_prop_kind2str(prop_kind));
        ANYDNN_CHECK(check_shapes(src_desc, weights_desc, bias_desc, dst_desc, "src", "weights",
                "bias", "dst"));
        inner_product_desc_t d = empty_desc(prop_kind);
        d.src_md = *src_desc;
        d.weights_md = *weights_desc;
        if (bias_desc && bias_desc->ndims) d.bias_md = *bias_desc;
        d.dst_md = *dst_desc;
        return primitive_desc_create(primitive_desc, d, attr, engine, nullptr);
    });
}

DNNL_API dnnl_status_t dnnl_inner_product_backward_data_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t weights_desc,
        const_dnnl_memory_desc_t diff_dst_desc, const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_CHECK(check_shapes(diff_src_desc, weights_desc, nullptr, diff_dst_desc,
                "diff_src", "weights", "bias", "diff_dst"));
        ANYDNN_CHECK(check_hint(hint_fwd_pd));
        inner_product_desc_t d = empty_desc(dnnl_backward_data);
        d.diff_src_md = *diff_src_desc;
        d.weights_md = *weights_desc;
        d.diff_dst_md = *diff_dst_desc;
        return primitive_desc_create(primitive_desc, d, attr, engine, hint_fwd_pd);
    });
}

DNNL_API dnnl_status_t dnnl_inner_product_backward_weights_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t diff_weights_desc,
        const_dnnl_memory_desc_t diff_bias_desc, const_dnnl_memory_desc_t diff_dst_desc,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_CHECK(check_shapes(src_desc, diff_weights_desc, diff_bias_desc, diff_dst_desc,
                "src", "diff_weights", "diff_bias", "diff_dst"));
        ANYDNN_CHECK(check_hint(hint_fwd_pd));
        inner_product_desc_t d = empty_desc(dnnl_backward_weights);
        d.src_md = *src_desc;
        d.diff_weights_md = *diff_weights_desc;
        if (diff_bias_desc && diff_bias_desc->ndims) d.diff_bias_md = *diff_bias_desc;
        d.diff_dst_md = *diff_dst_desc;
        return primitive_desc_create(primitive_desc, d, attr, engine, hint_fwd_pd);
    });
}

} // extern "C"
