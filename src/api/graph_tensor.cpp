// dnnl_graph logical tensor and tensor entry points.
#include <cstring>

#include "api/api.hpp"
#include "graph/tensor.hpp"

using namespace anydnn;
using namespace anydnn::graph;

namespace {

status_t check_lt_args(dnnl_graph_logical_tensor_t *lt, dnnl_data_type_t dtype, int32_t ndims,
        int ltype, int ptype) {
    ANYDNN_REQUIRE_NOT_NULL(lt);
    const int dt = raw_value(dtype);
    ANYDNN_REQUIRE(dt >= dnnl_data_type_undef && dt <= dnnl_s64, dnnl_invalid_arguments,
            "data type %d is not valid", dt);
    ANYDNN_REQUIRE(ndims >= DNNL_GRAPH_UNKNOWN_NDIMS && ndims <= DNNL_MAX_NDIMS,
            dnnl_invalid_arguments, "ndims %d is out of range", ndims);
    ANYDNN_REQUIRE(ltype >= dnnl_graph_layout_type_undef && ltype <= dnnl_graph_layout_type_opaque,
            dnnl_invalid_arguments, "layout type %d is not valid", ltype);
    ANYDNN_REQUIRE(ptype >= dnnl_graph_tensor_property_undef
                    && ptype <= dnnl_graph_tensor_property_host_scalar,
            dnnl_invalid_arguments, "property type %d is not valid", ptype);
    return dnnl_success;
}

void init_lt(dnnl_graph_logical_tensor_t *lt, size_t tid, dnnl_data_type_t dtype, int32_t ndims,
        dnnl_graph_layout_type_t ltype, dnnl_graph_tensor_property_t ptype) {
    std::memset(lt, 0, sizeof(*lt));
    lt->id = tid;
    lt->data_type = dtype;
    lt->ndims = ndims;
    lt->layout_type = ltype;
    lt->property = ptype;
    for (int d = 0; d < DNNL_MAX_NDIMS; ++d) {
        lt->dims[d] = DNNL_GRAPH_UNKNOWN_DIM;
        lt->layout.strides[d] = DNNL_GRAPH_UNKNOWN_DIM;
    }
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_graph_logical_tensor_init(dnnl_graph_logical_tensor_t *logical_tensor,
        size_t tid, dnnl_data_type_t dtype, int32_t ndims, dnnl_graph_layout_type_t ltype,
        dnnl_graph_tensor_property_t ptype) {
    return guarded(__func__, [&] {
        ANYDNN_CHECK(check_lt_args(
                logical_tensor, dtype, ndims, raw_value(ltype), raw_value(ptype)));
        init_lt(logical_tensor, tid, dtype, ndims, ltype, ptype);
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_logical_tensor_init_with_dims(
        dnnl_graph_logical_tensor_t *logical_tensor, size_t tid, dnnl_data_type_t dtype,
        int32_t ndims, const dnnl_dims_t dims, dnnl_graph_layout_type_t ltype,
        dnnl_graph_tensor_property_t ptype) {
    return guarded(__func__, [&] {
        ANYDNN_CHECK(check_lt_args(
                logical_tensor, dtype, ndims, raw_value(ltype), raw_value(ptype)));
        ANYDNN_REQUIRE(ndims >= 0, dnnl_invalid_arguments, "ndims %d with dims", ndims);
        ANYDNN_REQUIRE(ndims == 0 || dims, dnnl_invalid_arguments, "dims is null");
        for (int d = 0; d < ndims; ++d)
            ANYDNN_REQUIRE(dims[d] >= 0 || dims[d] == DNNL_GRAPH_UNKNOWN_DIM,
                    dnnl_invalid_arguments, "dims[%d] = %lld is negative", d,
                    (long long)dims[d]);
        init_lt(logical_tensor, tid, dtype, ndims, ltype, ptype);
        for (int d = 0; d < ndims; ++d)
            logical_tensor->dims[d] = dims[d];
        if (ltype == dnnl_graph_layout_type_strided) set_dense_strides(*logical_tensor);
        if (ltype == dnnl_graph_layout_type_opaque) logical_tensor->layout.layout_id = 0;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_logical_tensor_init_with_strides(
        dnnl_graph_logical_tensor_t *logical_tensor, size_t tid, dnnl_data_type_t dtype,
        int32_t ndims, const dnnl_dims_t dims, const dnnl_dims_t strides,
        dnnl_graph_tensor_property_t ptype) {
    return guarded(__func__, [&] {
        ANYDNN_CHECK(check_lt_args(logical_tensor, dtype, ndims, dnnl_graph_layout_type_strided,
                raw_value(ptype)));
        ANYDNN_REQUIRE(ndims >= 0, dnnl_invalid_arguments, "ndims %d with dims", ndims);
        ANYDNN_REQUIRE(ndims == 0 || (dims && strides), dnnl_invalid_arguments,
                "dims or strides is null");
        for (int d = 0; d < ndims; ++d)
            ANYDNN_REQUIRE(dims[d] >= 0 || dims[d] == DNNL_GRAPH_UNKNOWN_DIM,
                    dnnl_invalid_arguments, "dims[%d] = %lld is negative", d,
                    (long long)dims[d]);
        init_lt(logical_tensor, tid, dtype, ndims, dnnl_graph_layout_type_strided, ptype);
        for (int d = 0; d < ndims; ++d) {
            logical_tensor->dims[d] = dims[d];
            logical_tensor->layout.strides[d] = strides[d];
        }
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_logical_tensor_get_mem_size(
        const dnnl_graph_logical_tensor_t *logical_tensor, size_t *size) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(logical_tensor);
        ANYDNN_REQUIRE_NOT_NULL(size);
        ANYDNN_REQUIRE(logical_tensor->layout_type != dnnl_graph_layout_type_opaque,
                dnnl_unimplemented, "opaque layouts are never produced by this library");
        ANYDNN_REQUIRE(logical_tensor->layout_type != dnnl_graph_layout_type_any
                        || logical_tensor->property == dnnl_graph_tensor_property_host_scalar,
                dnnl_invalid_arguments, "a layout of kind any has no size yet");
        *size = lt_mem_size(*logical_tensor);
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_logical_tensor_is_equal(const dnnl_graph_logical_tensor_t *lt1,
        const dnnl_graph_logical_tensor_t *lt2, uint8_t *is_equal) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(lt1);
        ANYDNN_REQUIRE_NOT_NULL(lt2);
        ANYDNN_REQUIRE_NOT_NULL(is_equal);
        *is_equal = lt_equal(*lt1, *lt2) ? 1 : 0;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_tensor_create(dnnl_graph_tensor_t *tensor,
        const dnnl_graph_logical_tensor_t *logical_tensor, dnnl_engine_t engine, void *handle) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(tensor);
        ANYDNN_REQUIRE_NOT_NULL(logical_tensor);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        ANYDNN_REQUIRE(logical_tensor->property != dnnl_graph_tensor_property_host_scalar,
                dnnl_invalid_arguments,
                "host scalar tensors are made with dnnl_graph_tensor_create_scalar");
        auto t = std::make_unique<dnnl_graph_tensor>();
        t->lt = *logical_tensor;
        t->engine = engine_ref_t(engine);
        if (handle == DNNL_MEMORY_ALLOCATE) {
            ANYDNN_REQUIRE(known_shape(*logical_tensor)
                            && logical_tensor->layout_type == dnnl_graph_layout_type_strided,
                    dnnl_invalid_arguments,
                    "allocating a tensor needs a known shape and a strided layout");
            ANYDNN_CHECK(t->owned.allocate(engine, lt_mem_size(*logical_tensor)));
            t->handle = t->owned.get();
        } else {
            t->handle = handle;
        }
        *tensor = t.release();
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_tensor_create_scalar(dnnl_graph_tensor_t *tensor,
        const dnnl_graph_logical_tensor_t *logical_tensor, void *handle) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(tensor);
        ANYDNN_REQUIRE_NOT_NULL(logical_tensor);
        ANYDNN_REQUIRE_NOT_NULL(handle);
        ANYDNN_REQUIRE(logical_tensor->property == dnnl_graph_tensor_property_host_scalar,
                dnnl_invalid_arguments, "logical tensor %zu is not a host scalar",
                logical_tensor->id);
        const size_t bytes = data_type_size(logical_tensor->data_type);
        ANYDNN_REQUIRE(bytes > 0 && bytes <= 8, dnnl_invalid_arguments,
                "host scalar of data type %s", dnnl_dt2str(logical_tensor->data_type));
        auto t = std::make_unique<dnnl_graph_tensor>();
        t->lt = *logical_tensor;
        std::memcpy(t->scalar, handle, bytes);
        *tensor = t.release();
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_tensor_destroy(dnnl_graph_tensor_t tensor) {
    if (!tensor) return dnnl_success;
    ANYDNN_REQUIRE_GRAPH_HANDLE(tensor, tensor);
    delete tensor;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_tensor_get_data_handle(
        const_dnnl_graph_tensor_t tensor, void **handle) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(tensor, tensor);
    ANYDNN_REQUIRE_NOT_NULL(handle);
    *handle = tensor->data();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_tensor_set_data_handle(dnnl_graph_tensor_t tensor, void *handle) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(tensor, tensor);
    ANYDNN_REQUIRE(!tensor->is_scalar(), dnnl_invalid_arguments,
            "a host scalar tensor keeps its value inline");
    tensor->owned.release();
    tensor->handle = handle;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_tensor_get_engine(
        const_dnnl_graph_tensor_t tensor, dnnl_engine_t *engine) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(tensor, tensor);
    ANYDNN_REQUIRE_NOT_NULL(engine);
    ANYDNN_REQUIRE(tensor->engine.get(), dnnl_invalid_arguments,
            "a host scalar tensor has no engine");
    *engine = tensor->engine.get();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_tensor_get_logical_tensor(
        const_dnnl_graph_tensor_t tensor, dnnl_graph_logical_tensor_t *logical_tensor) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(tensor, tensor);
    ANYDNN_REQUIRE_NOT_NULL(logical_tensor);
    *logical_tensor = tensor->lt;
    return dnnl_success;
}

} // extern "C"
