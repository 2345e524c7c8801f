// anydnn: graph API SYCL interoperability, C++ (oneDNN v3.13 compatible): inline wrappers
// over dnnl_graph_sycl.h.
#ifndef ONEAPI_DNNL_DNNL_GRAPH_SYCL_HPP
#define ONEAPI_DNNL_DNNL_GRAPH_SYCL_HPP

#include <vector>

#include <sycl/sycl.hpp>

#include "oneapi/dnnl/dnnl_graph.hpp"
#include "oneapi/dnnl/dnnl_graph_sycl.h"
#include "oneapi/dnnl/dnnl_sycl.hpp"

namespace dnnl {
namespace graph {
namespace sycl_interop {

inline allocator make_allocator(
        dnnl_graph_sycl_allocate_f sycl_malloc, dnnl_graph_sycl_deallocate_f sycl_free) {
    dnnl_graph_allocator_t a = nullptr;
    error::wrap_c_api(dnnl_graph_sycl_interop_allocator_create(&a, sycl_malloc, sycl_free),
            "could not create a SYCL graph allocator");
    return allocator(a);
}

inline engine make_engine_with_allocator(
        const sycl::device &adevice, const sycl::context &acontext, const allocator &alloc) {
    dnnl_engine_t e = nullptr;
    error::wrap_c_api(dnnl_graph_sycl_interop_make_engine_with_allocator(
                              &e, &adevice, &acontext, alloc.get()),
            "could not make a SYCL engine with an allocator");
    return engine(e);
}

namespace detail {
inline std::vector<const_dnnl_graph_tensor_t> sycl_c_tensors(const std::vector<tensor> &ts) {
    std::vector<const_dnnl_graph_tensor_t> c;
    c.reserve(ts.size());
    for (const auto &t : ts)
        c.push_back(t.get());
    return c;
}
} // namespace detail

inline sycl::event execute(compiled_partition &c_partition, stream &astream,
        const std::vector<tensor> &inputs, std::vector<tensor> &outputs,
        const std::vector<sycl::event> &deps = {}) {
    auto ins = detail::sycl_c_tensors(inputs), outs = detail::sycl_c_tensors(outputs);
    sycl::event ev;
    error::wrap_c_api(dnnl_graph_sycl_interop_compiled_partition_execute(c_partition.get(),
                              astream.get(), ins.size(), ins.data(), outs.size(), outs.data(),
                              &deps, &ev),
            "could not execute the compiled partition on a SYCL stream");
    return ev;
}

inline sycl::event execute(compiled_partition &c_partition, stream &astream,
        const std::vector<tensor> &inputs, std::vector<tensor> &outputs, const tensor &scratchpad,
        const std::vector<sycl::event> &deps = {}) {
    auto ins = detail::sycl_c_tensors(inputs), outs = detail::sycl_c_tensors(outputs);
    sycl::event ev;
    error::wrap_c_api(dnnl_graph_sycl_interop_compiled_partition_execute_v2(c_partition.get(),
                              astream.get(), ins.size(), ins.data(), outs.size(), outs.data(),
                              scratchpad.get(), &deps, &ev),
            "could not execute the compiled partition on a SYCL stream");
    return ev;
}

} // namespace sycl_interop
} // namespace graph
} // namespace dnnl

#endif
