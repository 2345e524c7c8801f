// C entry points of the ukernel attribute parameters (dnnl_ukernel.h): the run-time pointers
// of a brgemm's post-op tensors and scales.
#include "oneapi/dnnl/dnnl_ukernel.h"

#ifdef DNNL_EXPERIMENTAL_UKERNEL

#include <memory>

#include "api/api.hpp"
#include "api/ukernel_handles.hpp"
#include "core/ukernel.hpp"

using namespace anydnn;

#define ANYDNN_REQUIRE_LIVE_PARAMS(p) \
    ANYDNN_REQUIRE(ukernel_handle_live(ukernel_handle::attr_params, (p)), \
            dnnl_invalid_arguments, "%s is null or not live ukernel attribute parameters", #p)

DNNL_API dnnl_status_t dnnl_ukernel_attr_params_create(dnnl_ukernel_attr_params_t *attr_params) {
    ANYDNN_REQUIRE_NOT_NULL(attr_params);
    return guarded(__func__, [&] {
        auto p = std::make_unique<dnnl_ukernel_attr_params>();
        ukernel_handle_add(ukernel_handle::attr_params, p.get());
        *attr_params = p.release();
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_ukernel_attr_params_set_post_ops_args(
        dnnl_ukernel_attr_params_t attr_params, const void **post_ops_args) {
    ANYDNN_REQUIRE_LIVE_PARAMS(attr_params);
    attr_params->post_ops_args = post_ops_args;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_ukernel_attr_params_set_A_scales(
        dnnl_ukernel_attr_params_t attr_params, const void *a_scales) {
    ANYDNN_REQUIRE_LIVE_PARAMS(attr_params);
    attr_params->a_scales = a_scales;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_ukernel_attr_params_set_B_scales(
        dnnl_ukernel_attr_params_t attr_params, const void *b_scales) {
    ANYDNN_REQUIRE_LIVE_PARAMS(attr_params);
    attr_params->b_scales = b_scales;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_ukernel_attr_params_set_D_scales(
        dnnl_ukernel_attr_params_t attr_params, const void *d_scales) {
    ANYDNN_REQUIRE_LIVE_PARAMS(attr_params);
    attr_params->d_scales = d_scales;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_ukernel_attr_params_destroy(dnnl_ukernel_attr_params_t attr_params) {
    if (!attr_params) return dnnl_success;
    ANYDNN_REQUIRE_LIVE_PARAMS(attr_params);
    ukernel_handle_remove(ukernel_handle::attr_params, attr_params);
    delete attr_params;
    return dnnl_success;
}

#endif
