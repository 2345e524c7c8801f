// dnnl_lrn_{forward,backward}_primitive_desc_create: argument checks and the descriptor.
#include <cstring>

#include "api/api.hpp"
#include "core/primitive_desc.hpp"

using namespace anydnn;

namespace {

status_t check_tensor(const memory_desc_t *md, const char *name) {
    ANYDNN_REQUIRE(md != nullptr, dnnl_invalid_arguments, "%s descriptor is null", name);
    ANYDNN_REQUIRE(md->ndims >= 2 && md->ndims <= 5, dnnl_invalid_arguments,
            "%s has %d dimensions (lrn takes 2 to 5)", name, md->ndims);
    ANYDNN_REQUIRE(md->data_type != dnnl_data_type_undef, dnnl_invalid_arguments,
            "%s has no data type", name);
    for (int d = 0; d < md->ndims; ++d)
        ANYDNN_REQUIRE(md->dims[d] >= 0, dnnl_invalid_arguments,
                "%s has a negative or runtime dimension", name);
    return dnnl_success;
}

bool same_dims(const memory_desc_t &a, const memory_desc_t &b) {
    return a.ndims == b.ndims
            && std::memcmp(a.dims, b.dims, sizeof(dnnl_dim_t) * a.ndims) == 0;
}

status_t check_params(dnnl_alg_kind_t alg, const memory_desc_t &src, dim_t local_size) {
    ANYDNN_REQUIRE(alg == dnnl_lrn_across_channels || alg == dnnl_lrn_within_channel,
            dnnl_invalid_arguments, "alg kind %s is not an lrn algorithm",
            dnnl_alg_kind2str(alg));
    ANYDNN_REQUIRE(alg != dnnl_lrn_within_channel || src.ndims >= 3, dnnl_invalid_arguments,
            "lrn within a channel needs spatial dimensions");
    ANYDNN_REQUIRE(local_size >= 1, dnnl_invalid_arguments, "local size %lld is not positive",
            static_cast<long long>(local_size));
    return dnnl_success;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_lrn_forward_primitive_desc_create(dnnl_primitive_desc_t *primitive_desc,
        dnnl_engine_t engine, dnnl_prop_kind_t prop_kind, dnnl_alg_kind_t alg_kind,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc, dnnl_dim_t local_size,
        float alpha, float beta, float k, const_dnnl_primitive_attr_t attr) {
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
        ANYDNN_CHECK(check_params(alg_kind, *src_desc, local_size));

        lrn_desc_t d {};
        d.prop_kind = prop_kind;
        d.alg_kind = alg_kind;
        d.src_md = *src_desc;
        d.dst_md = *dst_desc;
        d.diff_src_md = zero_md();
        d.diff_dst_md = zero_md();
        d.local_size = local_size;
        d.alpha = alpha;
        d.beta = beta;
        d.k = k;
        return primitive_desc_create(primitive_desc, d, attr, engine, nullptr);
    });
}

DNNL_API dnnl_status_t dnnl_lrn_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
        const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
        const_dnnl_memory_desc_t src_desc, dnnl_dim_t local_size, float alpha, float beta, float k,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_CHECK(check_tensor(src_desc, "src"));
        ANYDNN_CHECK(check_tensor(diff_src_desc, "diff_src"));
        ANYDNN_CHECK(check_tensor(diff_dst_desc, "diff_dst"));
        ANYDNN_REQUIRE(same_dims(*src_desc, *diff_src_desc)
                        && same_dims(*src_desc, *diff_dst_desc),
                dnnl_invalid_arguments, "src, diff_src and diff_dst dimensions differ");
        ANYDNN_CHECK(check_params(alg_kind, *src_desc, local_size));
        ANYDNN_REQUIRE(hint_fwd_pd != nullptr, dnnl_invalid_arguments,
                "backward lrn needs hint_fwd_pd");
        ANYDNN_REQUIRE_LIVE(primitive_desc, hint_fwd_pd);
        ANYDNN_REQUIRE(hint_fwd_pd->impl && hint_fwd_pd->impl->kind() == dnnl_lrn,
                dnnl_invalid_arguments, "hint_fwd_pd is not an lrn primitive descriptor");

        lrn_desc_t d {};
        d.prop_kind = dnnl_backward_data;
        d.alg_kind = alg_kind;
        d.src_md = *src_desc;
        d.dst_md = zero_md();
        d.diff_src_md = *diff_src_desc;
        d.diff_dst_md = *diff_dst_desc;
        d.local_size = local_size;
        d.alpha = alpha;
        d.beta = beta;
        d.k = k;
        return primitive_desc_create(primitive_desc, d, attr, engine, hint_fwd_pd);
    });
}

} // extern "C"
