// Which device memory a primitive takes at execution: memory of any engine over the same
// OpenCL context runs (an equal engine, as graph and interop paths make one per application
// context), memory of an engine with another context is refused with dnnl_invalid_arguments
// before anything is enqueued (a cl_mem of another context is undefined to the driver).
#include <cmath>
#include <vector>

#include "interop/ocl_fixture.hpp"

namespace {

using interop_test::ocl_app_t;

class ocl_execute_engine : public ocl_app_t {
protected:
    // Runs leaky relu (slope 0.5) of engine `prim_engine` on a stream of it over memory of
    // `mem_engine`; checks the values when it succeeds.
    dnnl_status_t run(dnnl_engine_t prim_engine, dnnl_engine_t mem_engine) {
        const int64_t n = 37;
        dnnl_memory_desc_t md = interop_test::vector_md(n);
        dnnl_primitive_t prim = interop_test::make_leaky_relu(prim_engine, md, 0.5f);
        dnnl_stream_t s = nullptr;
        EXPECT_EQ(dnnl_stream_create(&s, prim_engine, dnnl_stream_in_order), dnnl_success);
        dnnl_memory_t src = nullptr, dst = nullptr;
        EXPECT_EQ(dnnl_memory_create(&src, md, mem_engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
        EXPECT_EQ(dnnl_memory_create(&dst, md, mem_engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
        float *p = nullptr;
        EXPECT_EQ(dnnl_memory_map_data(src, reinterpret_cast<void **>(&p)), dnnl_success);
        for (int64_t i = 0; i < n; ++i)
            p[i] = float(i) - 18.f;
        EXPECT_EQ(dnnl_memory_unmap_data(src, p), dnnl_success);
        const dnnl_exec_arg_t args[2] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
        const dnnl_status_t st = dnnl_primitive_execute(prim, s, 2, args);
        if (st == dnnl_success) {
            EXPECT_EQ(dnnl_stream_wait(s), dnnl_success);
            EXPECT_EQ(dnnl_memory_map_data(dst, reinterpret_cast<void **>(&p)), dnnl_success);
            for (int64_t i = 0; i < n; ++i) {
                const float x = float(i) - 18.f;
                EXPECT_EQ(p[i], x > 0 ? x : 0.5f * x) << i;
            }
            EXPECT_EQ(dnnl_memory_unmap_data(dst, p), dnnl_success);
        }
        dnnl_memory_destroy(src);
        dnnl_memory_destroy(dst);
        dnnl_stream_destroy(s);
        dnnl_primitive_destroy(prim);
        dnnl_memory_desc_destroy(md);
        return st;
    }
};

TEST_F(ocl_execute_engine, memory_of_an_engine_over_the_same_context_runs) {
    dnnl_engine_t a = nullptr, b = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_engine_create(&a, device, context), dnnl_success);
    ASSERT_EQ(dnnl_ocl_interop_engine_create(&b, device, context), dnnl_success);
    ASSERT_NE(a, b);
    EXPECT_EQ(run(a, a), dnnl_success);
    EXPECT_EQ(run(a, b), dnnl_success);
    dnnl_engine_destroy(b);
    dnnl_engine_destroy(a);
}

TEST_F(ocl_execute_engine, memory_of_an_engine_with_another_context_is_invalid_arguments) {
    dnnl_engine_t a = nullptr, own = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_engine_create(&a, device, context), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&own, dnnl_gpu, 0), dnnl_success); // a context of its own
    cl_context own_ctx = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_engine_get_context(own, &own_ctx), dnnl_success);
    ASSERT_NE(own_ctx, context);
    EXPECT_EQ(run(a, own), dnnl_invalid_arguments);
    EXPECT_EQ(run(own, a), dnnl_invalid_arguments);
    EXPECT_EQ(run(own, own), dnnl_success);
    dnnl_engine_destroy(own);
    dnnl_engine_destroy(a);
}

} // namespace
