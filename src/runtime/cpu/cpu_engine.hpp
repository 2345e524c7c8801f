// The native CPU engine: host memory, synchronous streams, the CPU implementation lists.
#pragma once

#include "core/engine.hpp"
#include "core/memory.hpp"
#include "core/stream.hpp"
#include "core/threadpool.hpp"

namespace anydnn {
namespace cpu {

struct cpu_engine_t : public engine_t {
    cpu_engine_t() : engine_t(dnnl_cpu, runtime_kind_t::cpu, 0) {}
    status_t create_stream(dnnl_stream **stream, unsigned flags) override;
    status_t create_memory_storage(
            std::unique_ptr<memory_storage_t> &storage, size_t size, void *handle) override;
    const std::vector<impl_entry_t> &impl_list(dnnl_primitive_kind_t kind) const override;
};

// Host memory: owned (64-byte aligned) or the user's pointer.
struct host_memory_storage_t : public memory_storage_t {
    host_memory_storage_t(void *ptr, bool owned) : ptr_(ptr), owned_(owned) {}
    ~host_memory_storage_t() override;
    void *data_handle() const override { return ptr_; }
    status_t set_data_handle(void *handle) override;
    status_t map(void **host_ptr) override {
        *host_ptr = ptr_;
        return dnnl_success;
    }
    status_t unmap(void *) override { return dnnl_success; }
    void *host_ptr() const override { return ptr_; }

private:
    void *ptr_;
    bool owned_;
};

// Runs each primitive to completion on the calling thread: its parallel work on OpenMP, or on
// the application's threadpool when the stream has one (threadpool interop; not owned).
struct cpu_stream_t : public stream_t {
    cpu_stream_t(dnnl_engine *engine, unsigned flags, threadpool_t *threadpool = nullptr)
        : stream_t(engine, flags), threadpool_(threadpool) {}
    status_t wait() override { return dnnl_success; }
    status_t execute(const primitive_t &prim, const exec_ctx_t &ctx) override;
    threadpool_t *threadpool() const { return threadpool_; }

private:
    threadpool_t *threadpool_;
};


} // namespace cpu
} // namespace anydnn
