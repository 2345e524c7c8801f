// C entry points of the transform ukernel (dnnl_ukernel.h); the packing itself is in
// cpu/ukernel/transform.cpp.
#include "oneapi/dnnl/dnnl_ukernel.h"

#ifdef DNNL_EXPERIMENTAL_UKERNEL

#include <memory>

#include "api/api.hpp"
#include "api/ukernel_handles.hpp"
#include "core/ukernel.hpp"

using namespace anydnn;

#define ANYDNN_REQUIRE_LIVE_TRANSFORM(p) \
    ANYDNN_REQUIRE(ukernel_handle_live(ukernel_handle::transform, (p)), dnnl_invalid_arguments, \
            "%s is null or not a live transform", #p)

DNNL_API dnnl_status_t dnnl_transform_create(dnnl_transform_t *transform, dnnl_dim_t K,
        dnnl_dim_t N, dnnl_pack_type_t in_pack_type, dnnl_dim_t in_ld, dnnl_dim_t out_ld,
        dnnl_data_type_t in_dt, dnnl_data_type_t out_dt) {
    ANYDNN_REQUIRE_NOT_NULL(transform);
    *transform = nullptr;
    return guarded(__func__, [&] {
        auto p = std::make_unique<dnnl_transform>();
        ANYDNN_CHECK(cpu::ukernel::transform_init(p->conf, K, N, raw_value(in_pack_type), in_ld,
                out_ld, static_cast<dnnl_data_type_t>(raw_value(in_dt)),
                static_cast<dnnl_data_type_t>(raw_value(out_dt))));
        ukernel_handle_add(ukernel_handle::transform, p.get());
        *transform = p.release();
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_transform_generate(dnnl_transform_t transform) {
    ANYDNN_REQUIRE_LIVE_TRANSFORM(transform);
    transform->generated = true;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_transform_execute(
        const_dnnl_transform_t transform, const void *in_ptr, void *out_ptr) {
    ANYDNN_REQUIRE_NOT_NULL(transform);
    ANYDNN_REQUIRE_NOT_NULL(in_ptr);
    ANYDNN_REQUIRE_NOT_NULL(out_ptr);
    ANYDNN_REQUIRE(transform->generated, dnnl_invalid_arguments,
            "transform executed before dnnl_transform_generate");
    cpu::ukernel::transform_run(transform->conf, in_ptr, out_ptr);
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_transform_destroy(dnnl_transform_t transform) {
    if (!transform) return dnnl_success;
    ANYDNN_REQUIRE_LIVE_TRANSFORM(transform);
    ukernel_handle_remove(ukernel_handle::transform, transform);
    delete transform;
    return dnnl_success;
}

#endif
