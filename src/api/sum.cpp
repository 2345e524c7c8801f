// dnnl_sum_primitive_desc_create: argument checks and the descriptor.
#include "api/api.hpp"
#include "core/primitive_desc.hpp"

using namespace anydnn;

namespace {

status_t check_tensor(const memory_desc_t *md, int index) {
    ANYDNN_REQUIRE(md != nullptr, dnnl_invalid_arguments, "src %d descriptor is null", index);
    ANYDNN_REQUIRE(md->ndims >= 1 && md->ndims <= DNNL_MAX_NDIMS, dnnl_invalid_arguments,
            "src %d has %d dimensions", index, md->ndims);
    ANYDNN_REQUIRE(md->data_type != dnnl_data_type_undef, dnnl_invalid_arguments,
            "src %d has no data type", index);
    ANYDNN_REQUIRE(md->format_kind != dnnl_format_kind_any, dnnl_invalid_arguments,
            "src %d may not have format any", index);
    for (int d = 0; d < md->ndims; ++d)
        ANYDNN_REQUIRE(md->dims[d] >= 0 || md->dims[d] == DNNL_RUNTIME_DIM_VAL,
                dnnl_invalid_arguments, "src %d dimension %d is negative", index, d);
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(*md), dnnl_unimplemented,
            "src %d has runtime dimensions or strides", index);
    return dnnl_success;
}

} // namespace

extern "C" DNNL_API dnnl_status_t dnnl_sum_primitive_desc_create(
        dnnl_primitive_desc_t *sum_primitive_desc, dnnl_engine_t engine,
        const_dnnl_memory_desc_t dst_desc, int n, const float *scales,
        const_dnnl_memory_desc_t const *src_descs, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(sum_primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_REQUIRE(n >= 1 && n <= DNNL_ARG_MULTIPLE_DST - DNNL_ARG_MULTIPLE_SRC,
                dnnl_invalid_arguments, "%d sources", n);
        ANYDNN_REQUIRE_NOT_NULL(scales);
        ANYDNN_REQUIRE_NOT_NULL(src_descs);
        sum_desc_t d {};
        for (int i = 0; i < n; ++i) {
            ANYDNN_CHECK(check_tensor(src_descs[i], i));
            const memory_desc_t &s = *src_descs[i], &s0 = *src_descs[0];
            ANYDNN_REQUIRE(s.ndims == s0.ndims, dnnl_invalid_arguments,
                    "src %d has %d dimensions, src 0 %d", i, s.ndims, s0.ndims);
            for (int k = 0; k < s.ndims; ++k)
                ANYDNN_REQUIRE(s.dims[k] == s0.dims[k], dnnl_invalid_arguments,
                        "src %d dimension %d is %lld, src 0's is %lld", i, k,
                        static_cast<long long>(s.dims[k]), static_cast<long long>(s0.dims[k]));
            d.src_mds.push_back(s);
            d.scales.push_back(scales[i]);
        }
        if (dst_desc) {
            const memory_desc_t &s0 = *src_descs[0];
            ANYDNN_REQUIRE(dst_desc->ndims == s0.ndims, dnnl_invalid_arguments,
                    "dst has %d dimensions, the sources %d", dst_desc->ndims, s0.ndims);
            ANYDNN_REQUIRE(dst_desc->data_type != dnnl_data_type_undef, dnnl_invalid_arguments,
                    "dst has no data type");
            ANYDNN_REQUIRE(!has_runtime_dims_or_strides(*dst_desc), dnnl_unimplemented,
                    "dst has runtime dimensions or strides");
            for (int k = 0; k < s0.ndims; ++k)
                ANYDNN_REQUIRE(dst_desc->dims[k] == s0.dims[k], dnnl_invalid_arguments,
                        "dst dimension %d is %lld, the sources' %lld", k,
                        static_cast<long long>(dst_desc->dims[k]),
                        static_cast<long long>(s0.dims[k]));
            d.dst_md = *dst_desc;
        } else {
            // No dst given: the sources' shape and type, layout left to the implementation.
            d.dst_md = *src_descs[0];
            d.dst_md.format_kind = dnnl_format_kind_any;
            d.dst_md.offset0 = 0;
            d.dst_md.blocking = {};
            for (int k = 0; k < d.dst_md.ndims; ++k) {
                d.dst_md.padded_dims[k] = d.dst_md.dims[k];
                d.dst_md.padded_offsets[k] = 0;
            }
        }
        return primitive_desc_create(sum_primitive_desc, d, attr, engine, nullptr);
    });
}
