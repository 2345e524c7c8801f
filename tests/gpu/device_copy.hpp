// Moves tests/primitives' host tensors (c_tensor, on the CPU engine) to and from GPU memory of
// the same descriptor, byte for byte, so GPU results are checked by the same references.
#pragma once

#include <cstring>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "primitives/c_tensor.hpp"

namespace gpu_test {

// GPU memory of one descriptor, freed with its owner.
struct device_memory_t {
    device_memory_t(dnnl_engine_t gpu, const_dnnl_memory_desc_t md) {
        EXPECT_EQ(dnnl_memory_create(&mem, md, gpu, DNNL_MEMORY_ALLOCATE), dnnl_success);
        size = dnnl_memory_desc_get_size(md);
    }
    device_memory_t(const device_memory_t &) = delete;
    device_memory_t &operator=(const device_memory_t &) = delete;
    ~device_memory_t() {
        dnnl_memory_destroy(mem);
    }

    // Every byte set to `byte` (padding included, so untouched padding shows).
    void fill(unsigned char byte) {
        if (!size) return;
        void *p = nullptr;
        ASSERT_EQ(dnnl_memory_map_data(mem, &p), dnnl_success);
        std::memset(p, byte, size);
        ASSERT_EQ(dnnl_memory_unmap_data(mem, p), dnnl_success);
    }
    // The host tensor's bytes (same descriptor) copied in.
    void upload(const c_tensor::tensor_t &host) {
        ASSERT_EQ(dnnl_memory_desc_get_size(host.md), size);
        if (!size) return;
        void *p = nullptr;
        ASSERT_EQ(dnnl_memory_map_data(mem, &p), dnnl_success);
        std::memcpy(p, host.data(), size);
        ASSERT_EQ(dnnl_memory_unmap_data(mem, p), dnnl_success);
    }
    // These bytes copied into the host tensor (same descriptor).
    void download(c_tensor::tensor_t &host) const {
        ASSERT_EQ(dnnl_memory_desc_get_size(host.md), size);
        if (!size) return;
        void *p = nullptr;
        ASSERT_EQ(dnnl_memory_map_data(mem, &p), dnnl_success);
        std::memcpy(host.data(), p, size);
        ASSERT_EQ(dnnl_memory_unmap_data(mem, p), dnnl_success);
    }

    dnnl_memory_t mem = nullptr;
    size_t size = 0;
};

} // namespace gpu_test
