// Buffers of benchdnn --graph: one per value of the case, on the tested engine, handed to the
// graph API as tensor handles (host memory on CPU, USM on OpenCL) and read and written as
// logical values through the logical tensor's strides.
#pragma once

#include <vector>

#include "oneapi/dnnl/dnnl_graph.h"

#include "dnnl_api.hpp"

namespace benchdnn {

class graph_buffer_t {
public:
    // Throws dnnl_error when the engine cannot give such memory.
    graph_buffer_t(dnnl_engine_t engine, const dnnl_graph_logical_tensor_t &lt);
    void *handle() const {
        return handle_;
    }
    const dnnl_graph_logical_tensor_t &lt() const {
        return lt_;
    }
    size_t bytes() const {
        return bytes_;
    }
    void write(const std::vector<double> &values);
    std::vector<double> read() const;

private:
    dnnl_graph_logical_tensor_t lt_;
    size_t bytes_ = 0;
    memory_h mem_;
    void *handle_ = nullptr;
};

} // namespace benchdnn
