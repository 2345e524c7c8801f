// Host-scalar memory mapped as oneDNN programs do it: map_data gives the value in place (a write
// through it is the new value, the one a primitive then reads), unmap takes that pointer back;
// handles other than 0 and the data-handle calls are refused, as in oneDNN.
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

TEST(host_scalar_map, map_reads_and_writes_the_value_in_place) {
    memory scalar(memory::desc::host_scalar(dt::f32), 42.f);
    float *p = scalar.map_data<float>();
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(*p, 42.f);
    *p = 0.25f;
    scalar.unmap_data(p);
    EXPECT_EQ(scalar.get_host_scalar_value<float>(), 0.25f);
    scalar.set_host_scalar_value(-3.f);
    float *q = static_cast<float *>(scalar.map_data(0));
    EXPECT_EQ(*q, -3.f);
    scalar.unmap_data(q, 0);

    // Refused: another handle index, a pointer that was not mapped from it, data handles.
    void *other = nullptr;
    EXPECT_EQ(dnnl_memory_map_data_v2(scalar.get(), &other, 1), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_map_data_v2(scalar.get(), nullptr, 0), dnnl_invalid_arguments);
    float elsewhere = 0;
    EXPECT_EQ(dnnl_memory_unmap_data_v2(scalar.get(), &elsewhere, 0), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_unmap_data_v2(scalar.get(), q, 1), dnnl_invalid_arguments);
    EXPECT_THROW(scalar.get_data_handle(), error);
    EXPECT_THROW(scalar.set_data_handle(&elsewhere), error);
}

// The value written through the mapping is the one the primitive uses: a host scale on matmul's
// src, against a plain loop.
TEST(host_scalar_map, primitive_reads_the_value_written_through_the_mapping) {
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    const memory::dim M = 3, K = 5, N = 4;
    std::vector<float> a(M * K), b(K * N), c(M * N, 0.f);
    for (size_t i = 0; i < a.size(); ++i)
        a[i] = static_cast<float>(int(i % 7) - 3);
    for (size_t i = 0; i < b.size(); ++i)
        b[i] = static_cast<float>(int(i % 5) - 2) * 0.5f;
    memory::desc amd({M, K}, dt::f32, tag::ab), bmd({K, N}, dt::f32, tag::ab),
            cmd({M, N}, dt::f32, tag::ab);
    primitive_attr attr;
    attr.set_host_scale(DNNL_ARG_SRC, dt::f32);
    matmul::primitive_desc pd(eng, amd, bmd, cmd, attr);
    memory scale(memory::desc::host_scalar(dt::f32), 1.f);
    float *p = scale.map_data<float>();
    *p = 4.f;
    scale.unmap_data(p);
    matmul(pd).execute(strm,
            {{DNNL_ARG_SRC, memory(amd, eng, a.data())},
                    {DNNL_ARG_WEIGHTS, memory(bmd, eng, b.data())},
                    {DNNL_ARG_DST, memory(cmd, eng, c.data())},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, scale}});
    strm.wait();
    for (memory::dim m = 0; m < M; ++m)
        for (memory::dim n = 0; n < N; ++n) {
            double want = 0;
            for (memory::dim k = 0; k < K; ++k)
                want += 4.0 * a[m * K + k] * b[k * N + n];
            EXPECT_NEAR(c[m * N + n], want, 1e-5) << m << "," << n;
        }
}

} // namespace
