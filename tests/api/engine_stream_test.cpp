// Contracts of engines and streams through the C API.
#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"

TEST(engine, cpu_count_is_one_and_gpu_none_without_runtime) {
    EXPECT_EQ(dnnl_engine_get_count(dnnl_cpu), 1u);
    EXPECT_EQ(dnnl_engine_get_count(dnnl_any_engine), 0u);
}

TEST(engine, create_query_destroy) {
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_engine_create(&e, dnnl_cpu, 0), dnnl_success);
    dnnl_engine_kind_t kind = dnnl_any_engine;
    EXPECT_EQ(dnnl_engine_get_kind(e, &kind), dnnl_success);
    EXPECT_EQ(kind, dnnl_cpu);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
}

TEST(engine, bad_input_returns_status) {
    dnnl_engine_t e = nullptr;
    EXPECT_EQ(dnnl_engine_create(nullptr, dnnl_cpu, 0), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_engine_create(&e, dnnl_cpu, 1), dnnl_invalid_arguments);
    // GPU engines are OpenCL devices: one past the last is refused (0 where there is none).
    EXPECT_EQ(dnnl_engine_create(&e, dnnl_gpu, dnnl_engine_get_count(dnnl_gpu)),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_engine_create(&e, static_cast<dnnl_engine_kind_t>(42), 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_engine_get_kind(nullptr, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_engine_destroy(nullptr), dnnl_success);
}

TEST(engine, destroyed_handle_is_rejected) {
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_engine_create(&e, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_destroy(e), dnnl_success);
    dnnl_engine_kind_t kind;
    EXPECT_EQ(dnnl_engine_get_kind(e, &kind), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_invalid_arguments);
}

TEST(stream, flags_engine_and_wait) {
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_engine_create(&e, dnnl_cpu, 0), dnnl_success);
    for (unsigned flags : {0u, unsigned(dnnl_stream_in_order),
                 unsigned(dnnl_stream_out_of_order), unsigned(dnnl_stream_default_flags)}) {
        dnnl_stream_t s = nullptr;
        ASSERT_EQ(dnnl_stream_create(&s, e, flags), dnnl_success) << flags;
        dnnl_engine_t got = nullptr;
        EXPECT_EQ(dnnl_stream_get_engine(s, &got), dnnl_success);
        EXPECT_EQ(got, e);
        EXPECT_EQ(dnnl_stream_wait(s), dnnl_success);
        EXPECT_EQ(dnnl_stream_destroy(s), dnnl_success);
    }
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
}

TEST(stream, bad_input_returns_status) {
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_engine_create(&e, dnnl_cpu, 0), dnnl_success);
    dnnl_stream_t s = nullptr;
    EXPECT_EQ(dnnl_stream_create(nullptr, e, 0), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_stream_create(&s, nullptr, 0), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_stream_create(&s, e, 0x80), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_stream_create(&s, e, dnnl_stream_in_order | dnnl_stream_out_of_order),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_stream_wait(nullptr), dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_stream_create(&s, e, 0), dnnl_success);
    ASSERT_EQ(dnnl_stream_destroy(s), dnnl_success);
    EXPECT_EQ(dnnl_stream_wait(s), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
}

// The user may destroy the engine first: the stream keeps what it needs alive.
TEST(stream, outlives_destroyed_engine_handle) {
    dnnl_engine_t e = nullptr;
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_engine_create(&e, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_stream_create(&s, e, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_destroy(e), dnnl_success);
    EXPECT_EQ(dnnl_stream_wait(s), dnnl_success);
    EXPECT_EQ(dnnl_stream_destroy(s), dnnl_success);
}

TEST(service, version_and_runtimes) {
    const dnnl_version_t *v = dnnl_version();
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->major, 3);
    EXPECT_EQ(v->minor, 13);
    EXPECT_EQ(v->cpu_runtime, static_cast<unsigned>(DNNL_RUNTIME_OMP));
    EXPECT_EQ(v->gpu_runtime, static_cast<unsigned>(DNNL_RUNTIME_OCL));
}

TEST(service, default_fpmath_mode_round_trip) {
    dnnl_fpmath_mode_t m;
    ASSERT_EQ(dnnl_get_default_fpmath_mode(&m), dnnl_success);
    EXPECT_EQ(m, dnnl_fpmath_mode_strict);
    EXPECT_EQ(dnnl_set_default_fpmath_mode(dnnl_fpmath_mode_bf16), dnnl_success);
    ASSERT_EQ(dnnl_get_default_fpmath_mode(&m), dnnl_success);
    EXPECT_EQ(m, dnnl_fpmath_mode_bf16);
    EXPECT_EQ(dnnl_set_default_fpmath_mode(static_cast<dnnl_fpmath_mode_t>(99)),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_set_default_fpmath_mode(dnnl_fpmath_mode_strict), dnnl_success);
    EXPECT_EQ(dnnl_get_default_fpmath_mode(nullptr), dnnl_invalid_arguments);
}

TEST(service, verbose_levels) {
    EXPECT_EQ(dnnl_set_verbose(0), dnnl_success);
    EXPECT_EQ(dnnl_set_verbose(3), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_set_verbose(-1), dnnl_invalid_arguments);
}

TEST(service, cpu_isa_is_detected_and_hints_valid) {
    dnnl_cpu_isa_t isa = dnnl_get_effective_cpu_isa();
#if defined(__x86_64__)
    EXPECT_NE(isa, dnnl_cpu_isa_default);
#endif
    // Once primitives may have used the ISA, the cap cannot change.
    EXPECT_EQ(dnnl_set_max_cpu_isa(dnnl_cpu_isa_avx2), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_set_max_cpu_isa(static_cast<dnnl_cpu_isa_t>(0x12345)),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_set_cpu_isa_hints(static_cast<dnnl_cpu_isa_hints_t>(7)),
            dnnl_invalid_arguments);
}

TEST(service, primitive_cache_capacity) {
    int cap = -1;
    ASSERT_EQ(dnnl_get_primitive_cache_capacity(&cap), dnnl_success);
    EXPECT_GE(cap, 0);
    EXPECT_EQ(dnnl_set_primitive_cache_capacity(7), dnnl_success);
    int got = -1;
    ASSERT_EQ(dnnl_get_primitive_cache_capacity(&got), dnnl_success);
    EXPECT_EQ(got, 7);
    EXPECT_EQ(dnnl_set_primitive_cache_capacity(-1), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_set_primitive_cache_capacity(cap), dnnl_success);
    EXPECT_EQ(dnnl_get_primitive_cache_capacity(nullptr), dnnl_invalid_arguments);
}
