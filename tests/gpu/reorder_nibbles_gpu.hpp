// What the GPU tests of the 4-bit reorders (reorder_int4_test.cpp, reorder_f4_test.cpp)
// share: the CPU and GPU engines, and the refusals of a 4-bit dst with gaps or on another
// engine.
#pragma once

#include <gtest/gtest.h>

#include "gpu/device_copy.hpp"
#include "oneapi/dnnl/dnnl.h"

namespace reorder_nibbles_gpu {

struct engines_t {
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    engines_t() {
        EXPECT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
        EXPECT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    }
    ~engines_t() {
        dnnl_engine_destroy(gpu);
        dnnl_engine_destroy(cpu);
    }
};

// f32 4 x 6 into `gapped` (a strided view: rows of 8) on the GPU, and into plain `plain` from
// the CPU engine to the GPU one: both dnnl_unimplemented; the plain one GPU to GPU is created.
inline void expect_gapped_and_cross_engine_refused(
        const engines_t &e, dnnl_data_type_t gapped, dnnl_data_type_t plain) {
    const int64_t dims[2] = {4, 6}, strides[2] = {8, 1};
    dnnl_memory_desc_t src = gpu_test::md({4, 6}, dnnl_f32, dnnl_ab);
    dnnl_memory_desc_t dense = gpu_test::md({4, 6}, plain, dnnl_ab);
    dnnl_memory_desc_t gaps = nullptr;
    ASSERT_EQ(dnnl_memory_desc_create_with_strides(&gaps, 2, dims, gapped, strides),
            dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(&pd, src, e.gpu, gaps, e.gpu, nullptr),
            dnnl_unimplemented);
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(&pd, src, e.cpu, dense, e.gpu, nullptr),
            dnnl_unimplemented);
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(&pd, src, e.gpu, dense, e.gpu, nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(src);
    dnnl_memory_desc_destroy(dense);
    dnnl_memory_desc_destroy(gaps);
}

} // namespace reorder_nibbles_gpu
