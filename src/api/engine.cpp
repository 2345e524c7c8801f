// dnnl_engine_* entry points.
#include "api/api.hpp"
#include "oneapi/dnnl/dnnl_config.h"
#include "runtime/cpu/cpu_engine.hpp"
#include "runtime/ocl/ocl_engine.hpp"
#include "runtime/ze/ze_engine.hpp"
#ifdef DNNL_WITH_SYCL
#include "runtime/sycl/sycl_devices.hpp"
#endif

using namespace anydnn;

extern "C" {

DNNL_API size_t dnnl_engine_get_count(dnnl_engine_kind_t kind) {
    switch (raw_value(kind)) {
        case dnnl_cpu: return 1;
        case dnnl_gpu: // ANYDNN_GPU_RUNTIME=ze: Level Zero devices instead of OpenCL ones
#ifdef DNNL_WITH_SYCL
            if (sycl_rt::gpu_runtime_is_sycl()) return sycl_rt::engine_count(); // or SYCL's
#endif
            return ze::gpu_runtime_is_ze() ? ze::all_devices().size()
                                           : ocl::engine_devices().size();
        default: return 0;
    }
}

DNNL_API dnnl_status_t dnnl_engine_create(
        dnnl_engine_t *engine, dnnl_engine_kind_t kind, size_t index) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(engine);
        const int k = raw_value(kind);
        ANYDNN_REQUIRE(k == dnnl_cpu || k == dnnl_gpu, dnnl_invalid_arguments,
                "engine kind %d is not cpu or gpu", k);
        ANYDNN_REQUIRE(index < dnnl_engine_get_count(kind), dnnl_invalid_arguments,
                "no %s engine with index %zu (there are %zu)", dnnl_engine_kind2str(kind),
                index, dnnl_engine_get_count(kind));
        engine_t *e = nullptr;
        if (k == dnnl_cpu) {
            e = new cpu::cpu_engine_t();
#ifdef DNNL_WITH_SYCL
        } else if (sycl_rt::gpu_runtime_is_sycl()) {
            ANYDNN_CHECK(sycl_rt::create_engine(&e, index));
#endif
        } else if (ze::gpu_runtime_is_ze()) {
            ze::ze_engine_t *z = nullptr;
            ANYDNN_CHECK(ze::ze_engine_t::create_own(&z, index));
            e = z;
        } else {
            ocl::ocl_engine_t *g = nullptr;
            ANYDNN_CHECK(ocl::ocl_engine_t::create(
                    &g, ocl::engine_devices()[index], nullptr, index));
            e = g;
        }
        registry_add(object_kind::engine, e);
        *engine = e;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_engine_get_kind(dnnl_engine_t engine, dnnl_engine_kind_t *kind) {
    ANYDNN_REQUIRE_LIVE(engine, engine);
    ANYDNN_REQUIRE_NOT_NULL(kind);
    *kind = engine->kind();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_engine_destroy(dnnl_engine_t engine) {
    if (!engine) return dnnl_success;
    ANYDNN_REQUIRE_LIVE(engine, engine);
    registry_remove(object_kind::engine, engine);
    engine->release(); // memory, streams and primitives may still hold it
    return dnnl_success;
}

} // extern "C"
