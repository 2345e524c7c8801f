// anydnn: graph API OpenCL interoperability, C++ (oneDNN v3.13 compatible): inline wrappers
// over dnnl_graph_ocl.h.
#ifndef ONEAPI_DNNL_DNNL_GRAPH_OCL_HPP
#define ONEAPI_DNNL_DNNL_GRAPH_OCL_HPP

#include <vector>

#include "oneapi/dnnl/dnnl_graph.hpp"
#include "oneapi/dnnl/dnnl_graph_ocl.h"
#include "oneapi/dnnl/dnnl_ocl.hpp"

namespace dnnl {
namespace graph {
namespace ocl_interop {

inline allocator make_allocator(
        dnnl_graph_ocl_allocate_f ocl_malloc, dnnl_graph_ocl_deallocate_f ocl_free) {
    dnnl_graph_allocator_t a = nullptr;
    error::wrap_c_api(dnnl_graph_ocl_interop_allocator_create(&a, ocl_malloc, ocl_free),
            "could not create an OpenCL graph allocator");
    return allocator(a);
}

inline engine make_engine_with_allocator(
        cl_device_id device, cl_context context, const allocator &alloc) {
    dnnl_engine_t e = nullptr;
    error::wrap_c_api(
            dnnl_graph_ocl_interop_make_engine_with_allocator(&e, device, context, alloc.get()),
            "could not make an OpenCL engine with an allocator");
    return engine(e);
}

inline engine make_engine_with_allocator(cl_device_id device, cl_context context,
        const allocator &alloc, const std::vector<uint8_t> &cache_blob) {
    dnnl_engine_t e = nullptr;
    error::wrap_c_api(dnnl_graph_ocl_interop_make_engine_from_cache_blob_with_allocator(&e,
                              device, context, alloc.get(), cache_blob.size(),
                              cache_blob.data()),
            "could not make an OpenCL engine with an allocator from a cache blob");
    return engine(e);
}

namespace detail {
inline std::vector<const_dnnl_graph_tensor_t> c_tensors(const std::vector<tensor> &ts) {
    std::vector<const_dnnl_graph_tensor_t> c;
    c.reserve(ts.size());
    for (const auto &t : ts)
        c.push_back(t.get());
    return c;
}
} // namespace detail

inline cl_event execute(compiled_partition &c_partition, stream &astream,
        const std::vector<tensor> &inputs, std::vector<tensor> &outputs,
        const std::vector<cl_event> &deps = {}) {
    auto ins = detail::c_tensors(inputs), outs = detail::c_tensors(outputs);
    cl_event ev = nullptr;
    error::wrap_c_api(dnnl_graph_ocl_interop_compiled_partition_execute(c_partition.get(),
                              astream.get(), ins.size(), ins.data(), outs.size(), outs.data(),
                              deps.empty() ? nullptr : deps.data(), (int)deps.size(), &ev),
            "could not execute the compiled partition on an OpenCL stream");
    return ev;
}

inline cl_event execute(compiled_partition &c_partition, stream &astream,
        const std::vector<tensor> &inputs, std::vector<tensor> &outputs,
        const tensor &scratchpad, const std::vector<cl_event> &deps = {}) {
    auto ins = detail::c_tensors(inputs), outs = detail::c_tensors(outputs);
    cl_event ev = nullptr;
    error::wrap_c_api(dnnl_graph_ocl_interop_compiled_partition_execute_v2(c_partition.get(),
                              astream.get(), ins.size(), ins.data(), outs.size(), outs.data(),
                              scratchpad.get(), deps.empty() ? nullptr : deps.data(),
                              (int)deps.size(), &ev),
            "could not execute the compiled partition on an OpenCL stream");
    return ev;
}

} // namespace ocl_interop
} // namespace graph
} // namespace dnnl

#endif
