#include "graph_mem.hpp"

#include <cstring>

#include "data_types.hpp"
#include "test_mem.hpp"

#if __has_include("oneapi/dnnl/dnnl_ocl.h") && __has_include(<CL/cl.h>)
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include "oneapi/dnnl/dnnl_ocl.h"
#define BENCHDNN_GRAPH_OCL 1
#endif

namespace benchdnn {

namespace {

// Host view of a memory for the life of the object.
struct mapped_t {
    dnnl_memory_t mem;
    void *ptr = nullptr;
    explicit mapped_t(dnnl_memory_t m) : mem(m) {
        BENCHDNN_CHECK(dnnl_memory_map_data(mem, &ptr));
    }
    ~mapped_t() {
        dnnl_memory_unmap_data(mem, ptr);
    }
};

dims_t lt_dims(const dnnl_graph_logical_tensor_t &lt) {
    return dims_t(lt.dims, lt.dims + (lt.ndims > 0 ? lt.ndims : 0));
}

// Booleans are bytes holding 0 or 1.
dnnl_data_type_t storage_dt(dnnl_data_type_t dt) {
    return dt == dnnl_boolean ? dnnl_u8 : dt;
}

int64_t offset_of(const dnnl_graph_logical_tensor_t &lt, const int64_t *pos) {
    int64_t off = 0;
    for (int d = 0; d < lt.ndims; ++d)
        off += pos[d] * lt.layout.strides[d];
    return off;
}

#ifdef BENCHDNN_GRAPH_OCL
// Whether `engine` runs on OpenCL (SYCL engines too): it has an OpenCL context.
bool is_ocl_engine(dnnl_engine_t engine) {
    auto get_context = BENCHDNN_API(dnnl_ocl_interop_engine_get_context);
    cl_context context = nullptr;
    return get_context && get_context(engine, &context) == dnnl_success && context;
}
#endif

} // namespace

graph_buffer_t::graph_buffer_t(dnnl_engine_t engine, const dnnl_graph_logical_tensor_t &lt)
    : lt_(lt) {
    if (lt.layout_type != dnnl_graph_layout_type_strided)
        throw dnnl_error(dnnl_unimplemented,
                "tensor " + std::to_string(lt.id)
                        + ": only strided layouts are read and written by benchdnn");
    BENCHDNN_CHECK(dnnl_graph_logical_tensor_get_mem_size(&lt, &bytes_));
    const dnnl_dims_t dims = {static_cast<dnnl_dim_t>(bytes_ ? bytes_ : 1)};
    md_h md;
    BENCHDNN_CHECK(dnnl_memory_desc_create_with_tag(md.out(), 1, dims, dnnl_u8, dnnl_a));
    dnnl_engine_kind_t kind;
    BENCHDNN_CHECK(dnnl_engine_get_kind(engine, &kind));
    // The graph API takes device tensors as USM pointers: memory of that kind, made by the
    // library, which the tester maps to read and write. A Level Zero engine's memory is USM
    // already; an OpenCL engine's is a buffer unless asked for USM.
    if (kind == dnnl_cpu) {
        BENCHDNN_CHECK(dnnl_memory_create(mem_.out(), md.get(), engine, DNNL_MEMORY_ALLOCATE));
    } else {
#ifdef BENCHDNN_GRAPH_OCL
        auto create = BENCHDNN_API(dnnl_ocl_interop_memory_create);
        if (!create) throw dnnl_error(dnnl_unimplemented, "library has no OpenCL interop");
        if (is_ocl_engine(engine))
            BENCHDNN_CHECK(create(
                    mem_.out(), md.get(), engine, dnnl_ocl_interop_usm, DNNL_MEMORY_ALLOCATE));
        else
            BENCHDNN_CHECK(
                    dnnl_memory_create(mem_.out(), md.get(), engine, DNNL_MEMORY_ALLOCATE));
#else
        throw dnnl_error(dnnl_unimplemented, "benchdnn built without OpenCL headers");
#endif
    }
    BENCHDNN_CHECK(dnnl_memory_get_data_handle(mem_.get(), &handle_));
    mapped_t m(mem_.get());
    std::memset(m.ptr, 0xff, bytes_); // NaN / -1 where the library writes nothing
}

void graph_buffer_t::write(const std::vector<double> &values) {
    mapped_t m(mem_.get());
    const dims_t dims = lt_dims(lt_);
    std::vector<int64_t> pos(dims.size() + 1);
    for (size_t i = 0; i < values.size(); ++i) {
        logical_position(dims, static_cast<int64_t>(i), pos.data());
        store_elem(m.ptr, static_cast<size_t>(offset_of(lt_, pos.data())),
                storage_dt(lt_.data_type), values[i]);
    }
}

std::vector<double> graph_buffer_t::read() const {
    mapped_t m(mem_.get());
    const dims_t dims = lt_dims(lt_);
    std::vector<double> values(static_cast<size_t>(product(dims)));
    std::vector<int64_t> pos(dims.size() + 1);
    for (size_t i = 0; i < values.size(); ++i) {
        logical_position(dims, static_cast<int64_t>(i), pos.data());
        values[i] = load_elem(
                m.ptr, static_cast<size_t>(offset_of(lt_, pos.data())), storage_dt(lt_.data_type));
    }
    return values;
}

} // namespace benchdnn
