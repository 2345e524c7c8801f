// dnnl_binary_primitive_desc_create(_v2): argument checks and the descriptor.
#include "api/api.hpp"
#include "core/ops/binary/binary_math.hpp"
#include "core/primitive_desc.hpp"

using namespace anydnn;

namespace {

status_t check_tensor(const memory_desc_t *md, const char *name) {
    ANYDNN_REQUIRE(md != nullptr, dnnl_invalid_arguments, "%s descriptor is null", name);
    ANYDNN_REQUIRE(md->ndims >= 1 && md->ndims <= DNNL_MAX_NDIMS, dnnl_invalid_arguments,
            "%s has %d dimensions", name, md->ndims);
    ANYDNN_REQUIRE(md->data_type != dnnl_data_type_undef, dnnl_invalid_arguments,
            "%s has no data type", name);
    for (int d = 0; d < md->ndims; ++d)
        ANYDNN_REQUIRE(md->dims[d] >= 0 || md->dims[d] == DNNL_RUNTIME_DIM_VAL,
                dnnl_invalid_arguments, "%s dimension %d is negative", name, d);
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(*md), dnnl_unimplemented,
            "%s has runtime dimensions or strides", name);
    return dnnl_success;
}

// Every source dimension equals dst's or is 1 (broadcast).
status_t check_broadcast(const memory_desc_t &src, const memory_desc_t &dst, const char *name) {
    ANYDNN_REQUIRE(src.ndims == dst.ndims, dnnl_invalid_arguments,
            "%s has %d dimensions, dst %d", name, src.ndims, dst.ndims);
    for (int d = 0; d < dst.ndims; ++d)
        ANYDNN_REQUIRE(src.dims[d] == dst.dims[d] || src.dims[d] == 1, dnnl_invalid_arguments,
                "%s dimension %d is %lld, dst's is %lld (must match or be 1)", name, d,
                static_cast<long long>(src.dims[d]), static_cast<long long>(dst.dims[d]));
    return dnnl_success;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_binary_primitive_desc_create_v2(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
        const_dnnl_memory_desc_t src0_desc, const_dnnl_memory_desc_t src1_desc,
        const_dnnl_memory_desc_t src2_desc, const_dnnl_memory_desc_t dst_desc,
        const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_REQUIRE(cpu::is_binary_alg(alg_kind), dnnl_invalid_arguments,
                "alg kind %s is not a binary algorithm", dnnl_alg_kind2str(alg_kind));
        const bool select = alg_kind == dnnl_binary_select;
        ANYDNN_CHECK(check_tensor(src0_desc, "src0"));
        ANYDNN_CHECK(check_tensor(src1_desc, "src1"));
        ANYDNN_CHECK(check_tensor(dst_desc, "dst"));
        ANYDNN_REQUIRE(src0_desc->format_kind != dnnl_format_kind_any, dnnl_invalid_arguments,
                "src0 may not have format any");
        ANYDNN_CHECK(check_broadcast(*src0_desc, *dst_desc, "src0"));
        ANYDNN_CHECK(check_broadcast(*src1_desc, *dst_desc, "src1"));
        for (int d = 0; d < dst_desc->ndims; ++d)
            ANYDNN_REQUIRE(src0_desc->dims[d] == dst_desc->dims[d]
                            || src1_desc->dims[d] == dst_desc->dims[d],
                    dnnl_invalid_arguments,
                    "dimension %d: dst's extent %lld comes from neither source", d,
                    static_cast<long long>(dst_desc->dims[d]));
        if (select) {
            ANYDNN_REQUIRE(src2_desc != nullptr, dnnl_invalid_arguments,
                    "binary_select needs src2 (the condition)");
            ANYDNN_CHECK(check_tensor(src2_desc, "src2"));
            ANYDNN_CHECK(check_broadcast(*src2_desc, *dst_desc, "src2"));
            ANYDNN_REQUIRE(src2_desc->data_type == dnnl_s8, dnnl_invalid_arguments,
                    "src2 (the select condition) must be s8, not %s",
                    dnnl_dt2str(src2_desc->data_type));
        }

        binary_desc_t d {};
        d.alg_kind = alg_kind;
        d.src0_md = *src0_desc;
        d.src1_md = *src1_desc;
        d.src2_md = select ? *src2_desc : zero_md();
        d.dst_md = *dst_desc;
        return primitive_desc_create(primitive_desc, d, attr, engine, nullptr);
    });
}

DNNL_API dnnl_status_t dnnl_binary_primitive_desc_create(dnnl_primitive_desc_t *primitive_desc,
        dnnl_engine_t engine, dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src0_desc,
        const_dnnl_memory_desc_t src1_desc, const_dnnl_memory_desc_t dst_desc,
        const_dnnl_primitive_attr_t attr) {
    if (alg_kind == dnnl_binary_select)
        return fail(dnnl_invalid_arguments, __func__,
                "binary_select needs src2: use dnnl_binary_primitive_desc_create_v2");
    return dnnl_binary_primitive_desc_create_v2(
            primitive_desc, engine, alg_kind, src0_desc, src1_desc, nullptr, dst_desc, attr);
}

} // extern "C"
