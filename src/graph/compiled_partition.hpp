// A compiled partition: the partition's ops lowered onto a short sequence of primitives on
// one engine, the buffers they exchange, and how to execute them on a stream.
// Buffers are views over storages: the user's input and output tensors, constants owned by
// the compiled partition (quantization scales), and one temporary area (intermediate values
// plus the primitives' scratchpads) that comes from the engine's allocator or from the
// user's scratchpad tensor.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "core/engine.hpp"
#include "core/memory_desc.hpp"
#include "graph/object.hpp"
#include "graph/partition.hpp"

namespace anydnn {
namespace graph {

struct engine_allocation_t;
struct memories_t;

// Event chaining of one interop execution (dnnl_graph_ocl.h; SYCL's host task too), in the
// engine's runtime's events (cl_event there), opaque here: null for the plain calls.
struct interop_events_t {
    void *const *deps = nullptr;
    int ndeps = 0;
    void **done = nullptr; // receives an event for the whole execution (may be null)
};

// cached: the compiled partition's area in the constant tensor cache (lower_constant.hpp).
enum class storage_kind { input, output, temp, constant, cached };

struct storage_t {
    storage_kind kind;
    size_t index; // port index (input / output), byte offset (temp), constants index
};

// One memory argument of a step: a storage seen through a descriptor.
struct view_t {
    size_t storage;
    memory_desc_t md;
};

struct exec_step_t {
    // A primitive, or (CPU engines) a host kernel given the buffers of `args` in order and
    // the scratchpad part of the temporary area, or (GPU engines) a device kernel that
    // enqueues on the stream given the memories of `args` in order.
    std::shared_ptr<dnnl_primitive> prim;
    std::function<void(const std::vector<void *> &buffers, void *scratch)> host_kernel;
    std::function<status_t(dnnl_stream *stream, const std::vector<dnnl_memory *> &memories)>
            device_kernel;
    std::vector<std::pair<int, size_t>> args; // DNNL_ARG_* -> view
    memory_desc_t scratchpad_md; // zero md when the primitive needs none
    bool constant = false; // reads constant inputs only: skipped while its output is cached
};

struct compiled_impl_t {
    engine_ref_t engine;
    std::vector<lt_t> inputs, outputs; // resolved ports
    std::vector<storage_t> storages;
    std::vector<view_t> views;
    std::vector<std::vector<uint8_t>> constants; // host data (CPU engines)
    std::vector<exec_step_t> steps;
    size_t values_size = 0; // temporary values; the scratchpad part follows
    size_t scratchpad_size = 0;
    size_t cached_size = 0; // outputs of the constant steps (CPU engines)
    uint64_t cache_id = 0; // names this compiled partition in constant cache keys
    std::vector<dnnl_graph_inplace_pair_t> inplace;
    std::string info; // steps in words, for verbose

    size_t temp_size() const { return values_size + scratchpad_size; }
    status_t execute(dnnl_stream *stream, size_t nin, const const_dnnl_graph_tensor_t *in,
            size_t nout, const const_dnnl_graph_tensor_t *out,
            const_dnnl_graph_tensor_t scratchpad, const interop_events_t *events = nullptr) const;

private:
    // The steps on a GPU engine's stream (through the compute interface), chained by events
    // for interop calls; frees `temp` after the last one.
    status_t execute_device(dnnl_stream *stream, const std::vector<dnnl_memory_t> &view_mem,
            char *temp_ptr, engine_allocation_t &temp, memories_t &mems,
            const interop_events_t *events) const;
};

// The execute entry points after checking their arguments (handles, tensors, stream).
status_t checked_execute(const_dnnl_graph_compiled_partition_t cp, dnnl_stream_t stream,
        size_t num_inputs, const const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const const_dnnl_graph_tensor_t *outputs, const_dnnl_graph_tensor_t scratchpad,
        const interop_events_t *events);

// Shape inference, layout resolution and lowering of `part` for the given port
// descriptions; unimplemented (with a reason) when some op cannot run on the engine.
status_t compile_partition(const partition_impl_t &part, const std::vector<lt_t> &inputs,
        const std::vector<lt_t> &outputs, engine_t *engine,
        std::shared_ptr<const compiled_impl_t> &result);

} // namespace graph
} // namespace anydnn

struct dnnl_graph_compiled_partition : public anydnn::graph::graph_object_t {
    explicit dnnl_graph_compiled_partition(
            std::shared_ptr<const anydnn::graph::partition_impl_t> part)
        : graph_object_t(anydnn::graph::handle_kind::compiled_partition), part(std::move(part)) {}
    std::shared_ptr<const anydnn::graph::partition_impl_t> part;
    std::shared_ptr<const anydnn::graph::compiled_impl_t> impl; // null until compiled
};
