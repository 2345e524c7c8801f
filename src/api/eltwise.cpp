// dnnl_eltwise_{forward,backward}_primitive_desc_create: argument checks and the descriptor.
#include <cstring>

#include "api/api.hpp"
#include "core/ops/eltwise/eltwise_math.hpp"
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

// Parameter combinations that have no meaning whatever the direction.
status_t check_alg(dnnl_alg_kind_t alg, float alpha, float beta) {
    ANYDNN_REQUIRE(cpu::is_eltwise_alg(alg), dnnl_invalid_arguments,
            "alg kind %s is not an eltwise algorithm", dnnl_alg_kind2str(alg));
    // dst keeps the sign of src only for a non-negative slope.
    ANYDNN_REQUIRE(!(alg == dnnl_eltwise_relu_use_dst_for_bwd
                           || alg == dnnl_eltwise_elu_use_dst_for_bwd)
                    || alpha >= 0.f,
            dnnl_invalid_arguments, "%s needs alpha >= 0 (got %g)", dnnl_alg_kind2str(alg),
            alpha);
    ANYDNN_REQUIRE(alg != dnnl_eltwise_clip_v2_use_dst_for_bwd || alpha <= beta,
            dnnl_invalid_arguments, "%s needs alpha <= beta", dnnl_alg_kind2str(alg));
    ANYDNN_REQUIRE(alg != dnnl_eltwise_soft_relu || alpha != 0.f, dnnl_invalid_arguments,
            "soft_relu needs a non-zero alpha");
    return dnnl_success;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_eltwise_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, dnnl_alg_kind_t alg_kind,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc, float alpha,
        float beta, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_REQUIRE(prop_kind == dnnl_forward_training || prop_kind == dnnl_forward_inference,
                dnnl_invalid_arguments, "prop kind %s is not a forward one",
                dnnl_prop_kind2str(prop_kind));
        ANYDNN_CHECK(check_alg(alg_kind, alpha, beta));
        ANYDNN_CHECK(check_tensor(src_desc, "src"));
        ANYDNN_CHECK(check_tensor(dst_desc, "dst"));
        ANYDNN_REQUIRE(same_dims(*src_desc, *dst_desc), dnnl_invalid_arguments,
                "src and dst dimensions differ");

        eltwise_desc_t d {};
        d.prop_kind = prop_kind;
        d.alg_kind = alg_kind;
        d.src_md = *src_desc;
        d.dst_md = *dst_desc;
        d.diff_src_md = zero_md();
        d.diff_dst_md = zero_md();
        d.alpha = alpha;
        d.beta = beta;
        return primitive_desc_create(primitive_desc, d, attr, engine, nullptr);
    });
}

DNNL_API dnnl_status_t dnnl_eltwise_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
        const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
        const_dnnl_memory_desc_t data_desc, float alpha, float beta,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_CHECK(check_alg(alg_kind, alpha, beta));
        ANYDNN_REQUIRE(cpu::eltwise_has_bwd(alg_kind), dnnl_invalid_arguments,
                "%s has no backward propagation", dnnl_alg_kind2str(alg_kind));
        ANYDNN_CHECK(check_tensor(diff_src_desc, "diff_src"));
        ANYDNN_CHECK(check_tensor(diff_dst_desc, "diff_dst"));
        ANYDNN_CHECK(check_tensor(data_desc, "data"));
        ANYDNN_REQUIRE(same_dims(*diff_src_desc, *data_desc)
                        && same_dims(*diff_dst_desc, *data_desc),
                dnnl_invalid_arguments, "diff_src, diff_dst and data dimensions differ");
        // A backward primitive is created against the forward one it differentiates.
        ANYDNN_REQUIRE(hint_fwd_pd != nullptr, dnnl_invalid_arguments,
                "backward eltwise needs hint_fwd_pd");
        ANYDNN_REQUIRE_LIVE(primitive_desc, hint_fwd_pd);
        ANYDNN_REQUIRE(hint_fwd_pd->impl && hint_fwd_pd->impl->kind() == dnnl_eltwise,
                dnnl_invalid_arguments, "hint_fwd_pd is not an eltwise primitive descriptor");

        eltwise_desc_t d {};
        d.prop_kind = dnnl_backward_data;
        d.alg_kind = alg_kind;
        const bool use_dst = cpu::eltwise_uses_dst_for_bwd(alg_kind);
        d.src_md = use_dst ? zero_md() : *data_desc;
        d.dst_md = use_dst ? *data_desc : zero_md();
        d.diff_src_md = *diff_src_desc;
        d.diff_dst_md = *diff_dst_desc;
        d.alpha = alpha;
        d.beta = beta;
        return primitive_desc_create(primitive_desc, d, attr, engine, hint_fwd_pd);
    });
}

} // extern "C"
