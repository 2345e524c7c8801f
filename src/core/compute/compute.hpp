// The compute interface GPU implementations see: kernels built from our OpenCL C sources,
// argument lists and launches on a stream; and what the graph API needs of a device (USM,
// runtime events as opaque handles). GPU runtimes (OpenCL, Level Zero) implement
// compute_engine_t, so one kernel source and one graph layer serve every GPU runtime; it
// lives in core so that runtimes, implementations and the graph see it and none sees another.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/engine.hpp"
#include "core/memory.hpp"
#include "core/stream.hpp"

namespace anydnn {
namespace gpu {

// What a device offers, as implementations need it to pick kernels and sizes.
struct device_caps_t {
    std::string name;
    // Vendor as the device names it, and its architecture where the device says ("sm_90" from
    // NVIDIA's compute capability; empty elsewhere): keys of the tuning table (gpu/tuning).
    std::string vendor, arch;
    uint32_t compute_units = 1;
    size_t max_work_group_size = 1;
    uint64_t local_mem_size = 0;
    uint64_t global_mem_cache_size = 0; // bytes; 0 where the device does not say
    bool fp16 = false, fp64 = false, subgroups = false, intel_subgroups = false;
    bool nvidia_ptx = false;
    // A kernel with inline PTX mma.sync (bf16, m16n8k16), ldmatrix and cp.async built on this
    // device (probed once per engine by building it).
    bool inline_mma_sync = false;
    // The highest PTX target the runtime loads as a program binary (90: sm_90a, 80: sm_80),
    // 0 where it loads none; probed by loading a tiny PTX program.
    int ptx_binary_sm = 0;
    bool is_cpu = false; // a CPU device (PoCL, Intel CPU runtime): favours fewer, larger groups
};

// Arguments of one kernel launch, in parameter order.
class kernel_args_t {
public:
    struct arg_t {
        const memory_storage_t *storage = nullptr; // a `global T *` parameter
        std::vector<unsigned char> bytes; // a by-value parameter
        size_t local_bytes = 0; // a `local T *` parameter of this size
    };
    // Memory of a memory object (null storage: a zero-size tensor, passed as null).
    void add(const memory_storage_t *storage) { args_.push_back({storage, {}, 0}); }
    template <typename T>
    void add_value(const T &v) {
        arg_t a;
        a.bytes.resize(sizeof(T));
        std::memcpy(a.bytes.data(), &v, sizeof(T));
        args_.push_back(std::move(a));
    }
    void add_local(size_t bytes) { args_.push_back({nullptr, {}, bytes}); }
    const std::vector<arg_t> &args() const { return args_; }

private:
    std::vector<arg_t> args_;
};

struct nd_range_t {
    int ndims = 1;
    size_t global[3] = {1, 1, 1};
    size_t local[3] = {0, 0, 0}; // all zero: the runtime chooses
    bool has_local() const { return local[0] != 0; }
};

// One built kernel of one engine; launches are safe from several threads.
struct kernel_t {
    virtual ~kernel_t() = default;
    virtual status_t launch(stream_t *stream, const kernel_args_t &args,
            const nd_range_t &range) const = 0;
    // The largest work-group this kernel can run with on its device.
    virtual size_t max_work_group_size() const = 0;
};

// What a GPU runtime's engine implements (engine_t::compute()); implementations call the
// functions below, which dispatch to it.
struct compute_engine_t {
    virtual status_t create_kernel(const char *source_name, const std::string &options,
            const char *name, std::shared_ptr<kernel_t> &kernel)
            = 0;
    // Kernel `name` of our embedded PTX, loaded as a program binary (runtimes that load none
    // say unimplemented).
    virtual status_t create_ptx_kernel(const char *name, std::shared_ptr<kernel_t> &kernel);
    virtual device_caps_t device_caps() = 0;
    virtual status_t copy_to_device(stream_t *stream, const memory_storage_t *storage,
            size_t offset, const void *host, size_t bytes)
            = 0;
    virtual status_t copy_from_device(stream_t *stream, void *host,
            const memory_storage_t *storage, size_t offset, size_t bytes)
            = 0;

    // The runtime's device and context handles (cl_device_id and cl_context, Level Zero's
    // device and context), opaque: engines with the same pair share memory and streams.
    virtual std::pair<const void *, const void *> device_and_context() const = 0;
    // A reference to the context the engine created for itself, given back when the last copy
    // goes; empty where the application gave the context (it keeps it) or contexts are not
    // reference counted. Memory an application allocates in the engine's context through the
    // graph allocator's call-backs may outlive the engine.
    virtual std::shared_ptr<const void> own_context_reference() = 0;

    // Unified shared memory of the engine's context, handed around as a raw pointer (the
    // graph API's tensors and temporaries): allocated, freed (no command may still use it),
    // and seen as a storage of `size` bytes that does not own it.
    virtual status_t allocate_usm(size_t size, void **ptr) = 0;
    virtual void free_usm(void *ptr) = 0;
    virtual status_t create_usm_storage(
            std::unique_ptr<memory_storage_t> &storage, size_t size, void *ptr)
            = 0;

    // Events of the runtime's streams (cl_event, ze_event_handle_t), opaque here: how a
    // sequence of executions follows an application's events (dnnl_graph_ocl.h) and how
    // memory is freed after them.
    // Runs `commands` (a primitive's execute, or kernels launched on `stream`) as one
    // execution of `stream`: after `deps` when `with_deps`, else ordered as the stream orders
    // executions. `done`, when not null, gets a new event of their completion.
    virtual status_t enqueue(stream_t *stream, const std::function<status_t()> &commands,
            bool with_deps, void *const *deps, int ndeps, void **done)
            = 0;
    // A new event completing once `deps` have; with none, once everything enqueued on
    // `stream` so far has.
    virtual status_t join_events(stream_t *stream, void *const *deps, int ndeps, void **done) = 0;
    // Blocks until `event` has completed.
    virtual status_t wait_event(void *event) = 0;
    // Gives back an event `enqueue` or `join_events` returned.
    virtual void release_event(void *event) = 0;

protected:
    ~compute_engine_t() = default; // the engine owns its lifetime
};

// Builds (or finds in the program caches) kernel `name` of our source file `source_name`
// (a path under src/gpu, e.g. "eltwise/eltwise.cl") with build `options`.
status_t create_kernel(engine_t *engine, const char *source_name, const std::string &options,
        const char *name, std::shared_ptr<kernel_t> &kernel);

// Kernel `name` of our embedded PTX (ptx_module), loaded as a program binary;
// dnnl_unimplemented where the engine's device does not load PTX or the build has no such kernel.
status_t create_ptx_kernel(engine_t *engine, const char *name, std::shared_ptr<kernel_t> &kernel);

const device_caps_t &engine_caps(engine_t *engine);

// Whether kernels of engine `b` may use memory of engine `a`: the same engine, or the same
// runtime and (GPU runtimes) the same context; host memory of any CPU engine serves every CPU
// engine.
bool shares_memory(engine_t &a, engine_t &b);

// Copies `bytes` between host memory and device memory `storage` (from byte `offset`), in
// `stream`'s order; they return once the host side has been read or written.
status_t copy_to_device(stream_t *stream, const memory_storage_t *storage, size_t offset,
        const void *host, size_t bytes);
status_t copy_from_device(stream_t *stream, void *host, const memory_storage_t *storage,
        size_t offset, size_t bytes);

// The embedded text of one of our OpenCL C files, with its own #includes inlined; null when
// there is no such file (generated from src/gpu at build time, scripts/embed_cl.py).
const char *kernel_source(const char *source_name);

// The embedded PTX module (made by nvcc at build time) holding kernel entry `name`; null when
// there is none (the build found no nvcc).
const char *ptx_module(const char *name);

} // namespace gpu
} // namespace anydnn
