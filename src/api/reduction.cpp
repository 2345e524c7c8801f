// dnnl_reduction_primitive_desc_create: argument checks and the descriptor.
#include <cmath>

#include "api/api.hpp"
#include "core/primitive_desc.hpp"

using namespace anydnn;

namespace {

bool is_reduction_alg(dnnl_alg_kind_t a) {
    switch (a) {
        case dnnl_reduction_max:
        case dnnl_reduction_min:
        case dnnl_reduction_sum:
        case dnnl_reduction_mul:
        case dnnl_reduction_mean:
        case dnnl_reduction_norm_lp_max:
        case dnnl_reduction_norm_lp_sum:
        case dnnl_reduction_norm_lp_power_p_max:
        case dnnl_reduction_norm_lp_power_p_sum: return true;
        default: return false;
    }
}

bool is_norm_alg(dnnl_alg_kind_t a) {
    return a == dnnl_reduction_norm_lp_max || a == dnnl_reduction_norm_lp_sum
            || a == dnnl_reduction_norm_lp_power_p_max || a == dnnl_reduction_norm_lp_power_p_sum;
}

status_t check_tensor(const memory_desc_t *md, const char *name) {
    ANYDNN_REQUIRE(md != nullptr, dnnl_invalid_arguments, "%s descriptor is null", name);
    ANYDNN_REQUIRE(md->ndims >= 1 && md->ndims <= DNNL_MAX_NDIMS, dnnl_invalid_arguments,
            "%s has %d dimensions", name, md->ndims);
    ANYDNN_REQUIRE(md->data_type != dnnl_data_type_undef, dnnl_invalid_arguments,
            "%s has no data type", name);
    for (int d = 0; d < md->ndims; ++d)
        ANYDNN_REQUIRE(md->dims[d] >= 0, dnnl_invalid_arguments,
                "%s has a negative or runtime dimension", name);
    return dnnl_success;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_reduction_primitive_desc_create(dnnl_primitive_desc_t *primitive_desc,
        dnnl_engine_t engine, dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t dst_desc, float p, float eps, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_REQUIRE(is_reduction_alg(alg_kind), dnnl_invalid_arguments,
                "alg kind %s is not a reduction algorithm", dnnl_alg_kind2str(alg_kind));
        ANYDNN_REQUIRE(!is_norm_alg(alg_kind) || (std::isfinite(p) && p >= 1.f),
                dnnl_invalid_arguments, "Lp-norm reduction needs a finite p >= 1 (got %g)", p);
        ANYDNN_REQUIRE(!is_norm_alg(alg_kind) || std::isfinite(eps), dnnl_invalid_arguments,
                "Lp-norm reduction needs a finite eps (got %g)", eps);
        ANYDNN_CHECK(check_tensor(src_desc, "src"));
        ANYDNN_CHECK(check_tensor(dst_desc, "dst"));
        ANYDNN_REQUIRE(src_desc->ndims == dst_desc->ndims, dnnl_invalid_arguments,
                "src and dst have different ranks (%d, %d)", src_desc->ndims, dst_desc->ndims);
        for (int i = 0; i < src_desc->ndims; ++i)
            ANYDNN_REQUIRE(dst_desc->dims[i] == src_desc->dims[i] || dst_desc->dims[i] == 1,
                    dnnl_invalid_arguments,
                    "dst dimension %d is %lld: must equal src's (%lld) or be 1", i,
                    (long long)dst_desc->dims[i], (long long)src_desc->dims[i]);

        reduction_desc_t d {};
        d.alg_kind = alg_kind;
        d.src_md = *src_desc;
        d.dst_md = *dst_desc;
        d.p = p;
        d.eps = eps;
        return primitive_desc_create(primitive_desc, d, attr, engine, nullptr);
    });
}

} // extern "C"
