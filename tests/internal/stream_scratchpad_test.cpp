// The scratchpad a device stream keeps for its executions (stream_t::scratchpad): one buffer
// per in-order stream, reused without allocating, grown on demand; none on out-of-order or
// CPU streams (the caller allocates per execution). And the property it exists for: one
// primitive with a scratchpad executed on two streams from two threads at once computes
// both results right.
#include <cmath>
#include <cstring>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/memory.hpp"
#include "core/primitive_desc.hpp"
#include "core/stream.hpp"
#include "oneapi/dnnl/dnnl.h"

namespace {

struct engine_t {
    dnnl_engine_t engine = nullptr;
    explicit engine_t(dnnl_engine_kind_t kind) {
        if (dnnl_engine_get_count(kind) > 0) dnnl_engine_create(&engine, kind, 0);
    }
    ~engine_t() {
        if (engine) dnnl_engine_destroy(engine);
    }
};

TEST(StreamScratchpad, InOrderDeviceStreamKeepsOneBufferAndGrowsIt) {
    engine_t g(dnnl_gpu);
    if (!g.engine) GTEST_SKIP() << "no GPU engine";
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_stream_create(&s, g.engine, dnnl_stream_in_order), dnnl_success);
    EXPECT_EQ(s->kept_scratchpad(), nullptr);
    const anydnn::memory_storage_t *a = nullptr, *b = nullptr, *c = nullptr;
    ASSERT_EQ(s->scratchpad(4096, a), dnnl_success);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(s->kept_scratchpad(), a);
    ASSERT_EQ(s->scratchpad(64, b), dnnl_success);
    EXPECT_EQ(b, a); // smaller: the same buffer
    ASSERT_EQ(s->scratchpad(1 << 20, c), dnnl_success);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(s->kept_scratchpad(), c);
    // The grown buffer really holds 1 MiB: write its last byte and read it back.
    const unsigned char v = 0x5a;
    unsigned char back = 0;
    void *host = nullptr;
    ASSERT_EQ(const_cast<anydnn::memory_storage_t *>(c)->map(&host), dnnl_success);
    static_cast<unsigned char *>(host)[(1 << 20) - 1] = v;
    ASSERT_EQ(const_cast<anydnn::memory_storage_t *>(c)->unmap(host), dnnl_success);
    ASSERT_EQ(const_cast<anydnn::memory_storage_t *>(c)->map(&host), dnnl_success);
    back = static_cast<unsigned char *>(host)[(1 << 20) - 1];
    ASSERT_EQ(const_cast<anydnn::memory_storage_t *>(c)->unmap(host), dnnl_success);
    EXPECT_EQ(back, v);
    dnnl_stream_destroy(s);
}

TEST(StreamScratchpad, OutOfOrderAndCpuStreamsKeepNone) {
    engine_t g(dnnl_gpu), cpu(dnnl_cpu);
    const anydnn::memory_storage_t *st = nullptr;
    if (g.engine) {
        dnnl_stream_t s = nullptr;
        ASSERT_EQ(dnnl_stream_create(&s, g.engine, dnnl_stream_out_of_order), dnnl_success);
        ASSERT_EQ(s->scratchpad(4096, st), dnnl_success);
        EXPECT_EQ(st, nullptr);
        dnnl_stream_destroy(s);
    }
    ASSERT_NE(cpu.engine, nullptr);
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_stream_create(&s, cpu.engine, dnnl_stream_default_flags), dnnl_success);
    ASSERT_EQ(s->scratchpad(4096, st), dnnl_success);
    EXPECT_EQ(st, nullptr);
    dnnl_stream_destroy(s);
}

// dst = 2 * src0 + 3 * src1 through the generic GPU sum, which accumulates in an f32
// scratchpad (ocl:sum:dense, the first choice, has none: the test moves past it).
// Each thread has its own stream and memories with its own values, and runs the one shared
// primitive many times; a scratchpad shared between the streams would mix their sums.
TEST(StreamScratchpad, OnePrimitiveOnTwoStreamsAtOnceComputesBoth) {
    engine_t g(dnnl_gpu);
    if (!g.engine) GTEST_SKIP() << "no GPU engine";
    const int64_t n = 3 * 1000 + 7; // a tail for any work-group size
    dnnl_memory_desc_t md = nullptr;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md, 1, &n, dnnl_f32, dnnl_a), dnnl_success);
    const float scales[] = {2.f, 3.f};
    const_dnnl_memory_desc_t srcs[] = {md, md};
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_sum_primitive_desc_create(&pd, g.engine, md, 2, scales, srcs, nullptr),
            dnnl_success);
    // (Not dnnl_query_scratchpad_md: that query makes the scratchpad a required argument.)
    while (pd->impl->scratchpad_size == 0 && dnnl_primitive_desc_next_impl(pd) == dnnl_success) {
    }
    ASSERT_GT(pd->impl->scratchpad_size, 0u) << "the test needs a primitive with a scratchpad";
    dnnl_primitive_t prim = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);

    auto put = [](dnnl_memory_t m, const std::vector<float> &v) {
        void *p = nullptr;
        if (dnnl_memory_map_data(m, &p) != dnnl_success) return false;
        std::memcpy(p, v.data(), v.size() * sizeof(float));
        return dnnl_memory_unmap_data(m, p) == dnnl_success;
    };
    auto get = [](dnnl_memory_t m, std::vector<float> &v) {
        void *p = nullptr;
        if (dnnl_memory_map_data(m, &p) != dnnl_success) return false;
        std::memcpy(v.data(), p, v.size() * sizeof(float));
        return dnnl_memory_unmap_data(m, p) == dnnl_success;
    };
    const int reps = 25;
    int bad[2] = {0, 0}, failed_calls[2] = {0, 0};
    const anydnn::memory_storage_t *kept[2] = {nullptr, nullptr};
    auto worker = [&](int t) {
        dnnl_stream_t s = nullptr;
        if (dnnl_stream_create(&s, g.engine, dnnl_stream_in_order) != dnnl_success) {
            ++failed_calls[t];
            return;
        }
        dnnl_memory_t a = nullptr, b = nullptr, d = nullptr;
        dnnl_memory_create(&a, md, g.engine, DNNL_MEMORY_ALLOCATE);
        dnnl_memory_create(&b, md, g.engine, DNNL_MEMORY_ALLOCATE);
        dnnl_memory_create(&d, md, g.engine, DNNL_MEMORY_ALLOCATE);
        std::vector<float> av(n), bv(n), dv(n);
        for (int r = 0; r < reps; ++r) {
            // Values differ by thread and repetition: a sum from the other stream is wrong.
            for (int64_t i = 0; i < n; ++i) {
                av[i] = float((i % 97) + 1000 * t + r);
                bv[i] = float(-(i % 13) + 7 * r - 500 * t);
            }
            std::vector<float> poison(n, NAN);
            if (!put(a, av) || !put(b, bv) || !put(d, poison)) {
                ++failed_calls[t];
                break;
            }
            dnnl_exec_arg_t args[] = {{DNNL_ARG_MULTIPLE_SRC, a}, {DNNL_ARG_MULTIPLE_SRC + 1, b},
                    {DNNL_ARG_DST, d}};
            // Two executions back to back: the second one reuses the buffer of the first.
            if (dnnl_primitive_execute(prim, s, 3, args) != dnnl_success
                    || dnnl_primitive_execute(prim, s, 3, args) != dnnl_success
                    || dnnl_stream_wait(s) != dnnl_success || !get(d, dv)) {
                ++failed_calls[t];
                break;
            }
            if (r == 0) kept[t] = s->kept_scratchpad();
            if (s->kept_scratchpad() != kept[t]) ++failed_calls[t]; // allocated again
            for (int64_t i = 0; i < n; ++i)
                if (dv[i] != 2.f * av[i] + 3.f * bv[i]) ++bad[t];
        }
        for (dnnl_memory_t m : {a, b, d})
            dnnl_memory_destroy(m);
        dnnl_stream_destroy(s);
    };
    std::thread t0(worker, 0), t1(worker, 1);
    t0.join();
    t1.join();
    for (int t = 0; t < 2; ++t) {
        EXPECT_EQ(failed_calls[t], 0) << "thread " << t;
        EXPECT_EQ(bad[t], 0) << "thread " << t;
        EXPECT_NE(kept[t], nullptr) << "thread " << t;
    }
    EXPECT_NE(kept[0], kept[1]);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(md);
}

} // namespace
