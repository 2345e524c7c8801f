// dnnl_reorder_primitive_desc_create: copies a tensor between layouts, data types and engines.
#include "api/api.hpp"
#include "core/primitive_desc.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

using namespace anydnn;

namespace {

status_t check_md(const memory_desc_t &md, const char *which) {
    ANYDNN_REQUIRE(md.ndims > 0 && md.ndims <= DNNL_MAX_NDIMS, dnnl_invalid_arguments,
            "reorder: %s has %d dimensions", which, md.ndims);
    ANYDNN_REQUIRE(md.data_type != dnnl_data_type_undef, dnnl_invalid_arguments,
            "reorder: %s has no data type", which);
    ANYDNN_REQUIRE(md.format_kind != dnnl_format_kind_any, dnnl_invalid_arguments,
            "reorder: %s has format_kind any; a reorder needs concrete layouts", which);
    ANYDNN_REQUIRE(md.format_kind != dnnl_format_kind_undef, dnnl_invalid_arguments,
            "reorder: %s has no layout", which);
    return dnnl_success;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_reorder_primitive_desc_create(
        dnnl_primitive_desc_t *reorder_primitive_desc, const_dnnl_memory_desc_t src_desc,
        dnnl_engine_t src_engine, const_dnnl_memory_desc_t dst_desc, dnnl_engine_t dst_engine,
        const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(reorder_primitive_desc);
        ANYDNN_REQUIRE_NOT_NULL(src_desc);
        ANYDNN_REQUIRE_NOT_NULL(dst_desc);
        ANYDNN_REQUIRE_LIVE(engine, src_engine);
        ANYDNN_REQUIRE_LIVE(engine, dst_engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_CHECK(check_md(*src_desc, "src"));
        ANYDNN_CHECK(check_md(*dst_desc, "dst"));
        ANYDNN_REQUIRE(src_desc->ndims == dst_desc->ndims, dnnl_invalid_arguments,
                "reorder: src has %d dimensions and dst %d", src_desc->ndims, dst_desc->ndims);
        for (int d = 0; d < src_desc->ndims; ++d)
            ANYDNN_REQUIRE(src_desc->dims[d] == dst_desc->dims[d], dnnl_invalid_arguments,
                    "reorder: dimension %d is %lld in src and %lld in dst", d,
                    static_cast<long long>(src_desc->dims[d]),
                    static_cast<long long>(dst_desc->dims[d]));
        // Between the CPU and a device the device's engine runs the copy (its implementations
        // know both sides); between two device engines the source's does, as in oneDNN.
        ANYDNN_REQUIRE(src_engine->kind() != dnnl_cpu || dst_engine->kind() != dnnl_cpu
                        || src_engine->runtime() == dst_engine->runtime(),
                dnnl_unimplemented, "reorder: CPU engines of different runtimes");
        engine_t *engine = src_engine->kind() == dnnl_cpu && dst_engine->kind() != dnnl_cpu
                ? dst_engine
                : src_engine;
        reorder_desc_t desc;
        desc.src_md = *src_desc;
        desc.dst_md = *dst_desc;
        desc.src_engine_kind = src_engine->kind();
        desc.dst_engine_kind = dst_engine->kind();
        desc.cross_engine = src_engine != dst_engine && src_engine->kind() == dnnl_gpu
                && dst_engine->kind() == dnnl_gpu;
        ANYDNN_CHECK(primitive_desc_create(reorder_primitive_desc, desc, attr, engine, nullptr));
        (*reorder_primitive_desc)->reorder_src_engine = engine_ref_t(src_engine);
        (*reorder_primitive_desc)->reorder_dst_engine = engine_ref_t(dst_engine);
        return dnnl_success;
    });
}

} // extern "C"
