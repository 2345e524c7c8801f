// dnnl_concat_primitive_desc_create: argument checks and the descriptor.
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

extern "C" DNNL_API dnnl_status_t dnnl_concat_primitive_desc_create(
        dnnl_primitive_desc_t *concat_primitive_desc, dnnl_engine_t engine,
        const_dnnl_memory_desc_t dst_desc, int n, int concat_dimension,
        const_dnnl_memory_desc_t const *src_descs, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(concat_primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_REQUIRE(n >= 1 && n <= DNNL_ARG_MULTIPLE_DST - DNNL_ARG_MULTIPLE_SRC,
                dnnl_invalid_arguments, "%d sources", n);
        ANYDNN_REQUIRE_NOT_NULL(src_descs);
        ANYDNN_CHECK(check_tensor(src_descs[0], 0));
        const memory_desc_t &s0 = *src_descs[0];
        const int axis = concat_dimension;
        ANYDNN_REQUIRE(axis >= 0 && axis < s0.ndims, dnnl_invalid_arguments,
                "concat dimension %d is outside [0, %d)", axis, s0.ndims);
        concat_desc_t d {};
        d.axis = axis;
        dim_t axis_total = 0;
        for (int i = 0; i < n; ++i) {
            ANYDNN_CHECK(check_tensor(src_descs[i], i));
            const memory_desc_t &s = *src_descs[i];
            ANYDNN_REQUIRE(s.ndims == s0.ndims, dnnl_invalid_arguments,
                    "src %d has %d dimensions, src 0 %d", i, s.ndims, s0.ndims);
            ANYDNN_REQUIRE(s.data_type == s0.data_type, dnnl_invalid_arguments,
                    "src %d is %s, src 0 %s", i, dnnl_dt2str(s.data_type),
                    dnnl_dt2str(s0.data_type));
            for (int k = 0; k < s.ndims; ++k)
                ANYDNN_REQUIRE(k == axis || s.dims[k] == s0.dims[k], dnnl_invalid_arguments,
                        "src %d dimension %d is %lld, src 0's is %lld", i, k,
                        static_cast<long long>(s.dims[k]), static_cast<long long>(s0.dims[k]));
            axis_total += s.dims[axis];
            d.src_mds.push_back(s);
        }
        if (dst_desc) {
            ANYDNN_REQUIRE(dst_desc->ndims == s0.ndims, dnnl_invalid_arguments,
                    "dst has %d dimensions, the sources %d", dst_desc->ndims, s0.ndims);
            ANYDNN_REQUIRE(dst_desc->data_type != dnnl_data_type_undef, dnnl_invalid_arguments,
                    "dst has no data type");
            ANYDNN_REQUIRE(!has_runtime_dims_or_strides(*dst_desc), dnnl_unimplemented,
                    "dst has runtime dimensions or strides");
            for (int k = 0; k < s0.ndims; ++k) {
                const dim_t want = k == axis ? axis_total : s0.dims[k];
                ANYDNN_REQUIRE(dst_desc->dims[k] == want, dnnl_invalid_arguments,
                        "dst dimension %d is %lld, expected %lld", k,
                        static_cast<long long>(dst_desc->dims[k]),
                        static_cast<long long>(want));
            }
            d.dst_md = *dst_desc;
        } else {
            // No dst given: the sources' type with the joined shape, layout left open.
            memory_desc_t &m = d.dst_md;
            m = s0;
            m.dims[axis] = axis_total;
            m.format_kind = dnnl_format_kind_any;
            m.offset0 = 0;
            m.blocking = {};
            for (int k = 0; k < m.ndims; ++k) {
                m.padded_dims[k] = m.dims[k];
                m.padded_offsets[k] = 0;
            }
        }
        return primitive_desc_create(concat_primitive_desc, d, attr, engine, nullptr);
    });
}
