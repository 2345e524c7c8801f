// Which memory a primitive takes at execution, by engine: a primitive of one CPU engine runs
// on host memory made by another CPU engine (oneDNN checks only the stream's engine, and host
// memory serves every CPU engine), while a stream of another engine object is refused with
// dnnl_invalid_arguments, as in oneDNN. Device memory of another context: tests/gpu.
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"

namespace {

struct two_cpu_engines : public ::testing::Test {
    void SetUp() override {
        ASSERT_EQ(dnnl_engine_create(&a, dnnl_cpu, 0), dnnl_success);
        ASSERT_EQ(dnnl_engine_create(&b, dnnl_cpu, 0), dnnl_success);
        ASSERT_NE(a, b);
        const int64_t dims[2] = {3, 7};
        ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md, 2, dims, dnnl_f32, dnnl_ab), dnnl_success);
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, a, dnnl_forward_inference,
                          dnnl_eltwise_linear, md, md, 2.f, -1.f, nullptr),
                dnnl_success);
        ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
        dnnl_primitive_desc_destroy(pd);
    }
    void TearDown() override {
        dnnl_primitive_destroy(prim);
        dnnl_memory_desc_destroy(md);
        dnnl_engine_destroy(b);
        dnnl_engine_destroy(a);
    }
    // Runs the primitive on a stream of `stream_engine` over memory of `mem_engine`; checks
    // dst = 2 src - 1 when it succeeds.
    dnnl_status_t run(dnnl_engine_t stream_engine, dnnl_engine_t mem_engine) {
        dnnl_stream_t s = nullptr;
        EXPECT_EQ(dnnl_stream_create(&s, stream_engine, dnnl_stream_default_flags), dnnl_success);
        std::vector<float> x(21), y(21, -100.f);
        for (size_t i = 0; i < x.size(); ++i)
            x[i] = 0.5f * float(i) - 4.f;
        dnnl_memory_t src = nullptr, dst = nullptr;
        EXPECT_EQ(dnnl_memory_create(&src, md, mem_engine, x.data()), dnnl_success);
        EXPECT_EQ(dnnl_memory_create(&dst, md, mem_engine, y.data()), dnnl_success);
        const dnnl_exec_arg_t args[2] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
        const dnnl_status_t st = dnnl_primitive_execute(prim, s, 2, args);
        if (st == dnnl_success) {
            EXPECT_EQ(dnnl_stream_wait(s), dnnl_success);
            for (size_t i = 0; i < x.size(); ++i)
                EXPECT_EQ(y[i], 2.f * x[i] - 1.f) << i;
        } else {
            for (float v : y)
                EXPECT_EQ(v, -100.f); // nothing written
        }
        dnnl_memory_destroy(src);
        dnnl_memory_destroy(dst);
        dnnl_stream_destroy(s);
        return st;
    }
    dnnl_engine_t a = nullptr, b = nullptr;
    dnnl_memory_desc_t md = nullptr;
    dnnl_primitive_t prim = nullptr;
};

TEST_F(two_cpu_engines, memory_of_the_other_cpu_engine_is_host_memory_and_runs) {
    EXPECT_EQ(run(a, a), dnnl_success);
    EXPECT_EQ(run(a, b), dnnl_success);
}

TEST_F(two_cpu_engines, stream_of_the_other_engine_is_invalid_arguments) {
    EXPECT_EQ(run(b, a), dnnl_invalid_arguments);
    EXPECT_EQ(run(b, b), dnnl_invalid_arguments);
}

TEST_F(two_cpu_engines, memory_of_a_gpu_engine_is_invalid_arguments) {
    if (dnnl_engine_get_count(dnnl_gpu) == 0) GTEST_SKIP() << "no OpenCL device";
    dnnl_engine_t g = nullptr;
    ASSERT_EQ(dnnl_engine_create(&g, dnnl_gpu, 0), dnnl_success);
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_stream_create(&s, a, dnnl_stream_default_flags), dnnl_success);
    dnnl_memory_t src = nullptr, dst = nullptr;
    ASSERT_EQ(dnnl_memory_create(&src, md, g, DNNL_MEMORY_ALLOCATE), dnnl_success);
    ASSERT_EQ(dnnl_memory_create(&dst, md, a, DNNL_MEMORY_ALLOCATE), dnnl_success);
    const dnnl_exec_arg_t args[2] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
    EXPECT_EQ(dnnl_primitive_execute(prim, s, 2, args), dnnl_invalid_arguments);
    dnnl_memory_destroy(src);
    dnnl_memory_destroy(dst);
    dnnl_stream_destroy(s);
    dnnl_engine_destroy(g);
}

} // namespace
