// GPU-vs-CPU checks: the same primitive descriptor runs on the CPU engine (checked against
// references by tests/primitives) and on every GPU implementation, on identical inputs.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "oneapi/dnnl/dnnl.h"

namespace gpu_test {

// Creates the primitive descriptor of the op on `engine` (null attr when attr is null).
using make_pd_t = std::function<dnnl_status_t(dnnl_primitive_desc_t *, dnnl_engine_t)>;

inline dnnl_memory_desc_t md(std::vector<int64_t> dims, dnnl_data_type_t dt,
        dnnl_format_tag_t tag) {
    dnnl_memory_desc_t m = nullptr;
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(
                      &m, static_cast<int>(dims.size()), dims.data(), dt, tag),
            dnnl_success);
    return m;
}

// Deterministic small values, exact in every type (quarters for floats, small ints);
// variances positive.
inline float value_at(int arg, size_t i) {
    if (arg & DNNL_ARG_ATTR_SCALES) return 0.5f + 0.25f * static_cast<float>(i % 3);
    if (arg & DNNL_ARG_ATTR_ZERO_POINTS) return 1.f + static_cast<float>(i % 2);
    if (arg == DNNL_ARG_VARIANCE) return 0.5f + 0.25f * static_cast<float>(i % 5);
    return static_cast<float>(static_cast<int>((i * 7 + static_cast<size_t>(arg) * 3) % 11) - 5)
            * 0.25f;
}

inline void put(void *p, dnnl_data_type_t dt, size_t i, float v) {
    switch (dt) {
        case dnnl_f32: static_cast<float *>(p)[i] = v; break;
        case dnnl_bf16: {
            uint32_t u;
            std::memcpy(&u, &v, 4);
            static_cast<uint16_t *>(p)[i] = static_cast<uint16_t>(u >> 16);
            break;
        }
        case dnnl_s8: static_cast<int8_t *>(p)[i] = static_cast<int8_t>(v * 4); break;
        case dnnl_u8: static_cast<uint8_t *>(p)[i] = static_cast<uint8_t>(v * 4 + 20); break;
        case dnnl_s32: static_cast<int32_t *>(p)[i] = static_cast<int32_t>(v); break;
        default: break;
    }
}

inline float get(const void *p, dnnl_data_type_t dt, size_t i) {
    switch (dt) {
        case dnnl_f32: return static_cast<const float *>(p)[i];
        case dnnl_bf16: {
            const uint32_t u = static_cast<uint32_t>(static_cast<const uint16_t *>(p)[i]) << 16;
            float v;
            std::memcpy(&v, &u, 4);
            return v;
        }
        case dnnl_s8: return static_cast<const int8_t *>(p)[i];
        case dnnl_u8: return static_cast<const uint8_t *>(p)[i];
        case dnnl_s32: return static_cast<float>(static_cast<const int32_t *>(p)[i]);
        default: return NAN;
    }
}

inline size_t dt_size(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_s32 ? 4 : dt == dnnl_bf16 ? 2 : 1;
}

// Runs the primitive of pd with every argument in `args` filled (outputs too: sums and
// accumulation must not read stale data) and returns argument `out` as floats.
inline std::vector<float> run(dnnl_engine_t eng, const_dnnl_primitive_desc_t pd,
        const std::vector<int> &args, int out) {
    dnnl_stream_t s = nullptr;
    EXPECT_EQ(dnnl_stream_create(&s, eng, dnnl_stream_default_flags), dnnl_success);
    std::vector<dnnl_exec_arg_t> exec;
    std::vector<float> result;
    for (int arg : args) {
        const_dnnl_memory_desc_t m = dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
        dnnl_memory_t mem = nullptr;
        EXPECT_EQ(dnnl_memory_create(&mem, m, eng, DNNL_MEMORY_ALLOCATE), dnnl_success);
        dnnl_data_type_t dt = dnnl_data_type_undef;
        dnnl_memory_desc_query(m, dnnl_query_data_type, &dt);
        const size_t n = dnnl_memory_desc_get_size(m) / dt_size(dt);
        void *p = nullptr;
        if (n) {
            EXPECT_EQ(dnnl_memory_map_data(mem, &p), dnnl_success);
            for (size_t i = 0; i < n; ++i)
                put(p, dt, i, value_at(arg, i));
            EXPECT_EQ(dnnl_memory_unmap_data(mem, p), dnnl_success);
        }
        exec.push_back({arg, mem});
    }
    dnnl_primitive_t prim = nullptr;
    EXPECT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
    EXPECT_EQ(dnnl_primitive_execute(prim, s, static_cast<int>(exec.size()), exec.data()),
            dnnl_success);
    EXPECT_EQ(dnnl_stream_wait(s), dnnl_success);
    for (const auto &a : exec) {
        if (a.arg == out) {
            const_dnnl_memory_desc_t m = nullptr;
            dnnl_memory_get_memory_desc(a.memory, &m);
            dnnl_data_type_t dt = dnnl_data_type_undef;
            dnnl_memory_desc_query(m, dnnl_query_data_type, &dt);
            const size_t n = dnnl_memory_desc_get_size(m) / dt_size(dt);
            void *p = nullptr;
            if (n) {
                EXPECT_EQ(dnnl_memory_map_data(a.memory, &p), dnnl_success);
                for (size_t i = 0; i < n; ++i)
                    result.push_back(get(p, dt, i));
                EXPECT_EQ(dnnl_memory_unmap_data(a.memory, p), dnnl_success);
            }
        }
        dnnl_memory_destroy(a.memory);
    }
    dnnl_primitive_destroy(prim);
    dnnl_stream_destroy(s);
    return result;
}

// Every GPU implementation of the op matches the CPU engine's result within tol (relative to
// max(1, |cpu|)). Returns how many GPU implementations ran.
inline int expect_gpu_matches_cpu(const make_pd_t &make, const std::vector<int> &args, int out,
        float tol = 1e-5f) {
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    EXPECT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    EXPECT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_primitive_desc_t cpu_pd = nullptr, gpu_pd = nullptr;
    EXPECT_EQ(make(&cpu_pd, cpu), dnnl_success);
    EXPECT_EQ(make(&gpu_pd, gpu), dnnl_success);
    int impls = 0;
    if (cpu_pd && gpu_pd) {
        const std::vector<float> want = run(cpu, cpu_pd, args, out);
        do {
            const char *name = nullptr;
            dnnl_primitive_desc_query(gpu_pd, dnnl_query_impl_info_str, 0, &name);
            SCOPED_TRACE(name);
            const std::vector<float> got = run(gpu, gpu_pd, args, out);
            EXPECT_EQ(got.size(), want.size());
            int bad = 0;
            for (size_t i = 0; i < want.size() && i < got.size() && bad < 5; ++i) {
                const float t = tol * std::max(1.f, std::fabs(want[i]));
                if (!(std::fabs(got[i] - want[i]) <= t)) {
                    ADD_FAILURE() << "element " << i << ": gpu " << got[i] << " cpu " << want[i];
                    ++bad;
                }
            }
            ++impls;
        } while (dnnl_primitive_desc_next_impl(gpu_pd) == dnnl_success);
    }
    dnnl_primitive_desc_destroy(cpu_pd);
    dnnl_primitive_desc_destroy(gpu_pd);
    dnnl_engine_destroy(cpu);
    dnnl_engine_destroy(gpu);
    return impls;
}

#define SKIP_WITHOUT_GPU()                                                                     \
    if (dnnl_engine_get_count(dnnl_gpu) == 0) GTEST_SKIP() << "no OpenCL device"

} // namespace gpu_test
