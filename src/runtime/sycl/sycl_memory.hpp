// Buffer memory of a SYCL engine: a sycl::buffer<uint8_t, 1>. Kernels see the buffer's
// cl_mem only while a host task holds an accessor to it (bind/unbind); the rest of the time
// SYCL owns where the data is. USM memory is the OpenCL layer's usm_storage_t.
#pragma once

#include <memory>

#include <sycl/sycl.hpp>

#include "runtime/ocl/ocl_memory.hpp"

namespace anydnn {
namespace sycl_rt {

using byte_buffer_t = ::sycl::buffer<uint8_t, 1>;

struct sycl_buffer_storage_t : public ocl::buffer_storage_t {
    // `size`: the bytes the memory descriptor needs; a smaller buffer is refused.
    sycl_buffer_storage_t(ocl::ocl_engine_t *engine, size_t size)
        : buffer_storage_t(engine, nullptr, size), size_(size) {}
    ~sycl_buffer_storage_t() override;

    // A pointer to our sycl::buffer<uint8_t, 1> (what oneDNN's get_buffer reads), or null.
    void *data_handle() const override { return buffer_.get(); }
    // `handle`: a sycl::buffer<uint8_t, 1> *, copied (SYCL buffers share their data).
    status_t set_data_handle(void *handle) override;
    // A host accessor for the duration of the map (waits for the buffer's pending commands).
    status_t map(void **host_ptr) override;
    status_t unmap(void *host_ptr) override;

    byte_buffer_t *buffer() const { return buffer_.get(); }
    // While a host task runs: the buffer's cl_mem in the queue's context, for kernels.
    status_t bind(cl_mem mem) { return buffer_storage_t::set_data_handle(mem); }
    void unbind() { buffer_storage_t::set_data_handle(nullptr); }

private:
    size_t size_;
    std::unique_ptr<byte_buffer_t> buffer_;
    std::unique_ptr<::sycl::host_accessor<uint8_t, 1>> mapped_;
};

} // namespace sycl_rt
} // namespace anydnn
