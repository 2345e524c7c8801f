// ocl:gnorm:flat on bf16 tensors: groups of eight elements per access where the tuning row's
// access_bytes is 16 and the spatial size allows, of four or one otherwise, against a double
// reference written here. ctest runs it with access_bytes 8 and 16 (the .access16 run).
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "dnnl.hpp"
#include "host_values.hpp"

namespace {

using namespace dnnl;
using namespace host_values;
using tag = memory::format_tag;
using dt = memory::data_type;

TEST(GpuBandwidth, GroupNormFlatBf16Groups) {
    if (engine::get_count(engine::kind::gpu) == 0) GTEST_SKIP() << "no OpenCL device";
    engine e(engine::kind::gpu, 0);
    stream s(e);
    struct case_t {
        memory::dims d;
        int64_t groups;
    };
    // Spatial sizes 24 and 64 (groups of eight), 4 (four), 15 and 1 (one).
    for (const case_t &c : {case_t{{2, 8, 4, 6}, 4}, case_t{{3, 6, 8, 8}, 3},
                 case_t{{3, 6, 2, 2}, 3}, case_t{{2, 16, 5, 3}, 8}, case_t{{1, 4, 1, 1}, 2}}) {
        const int64_t N = c.d[0], C = c.d[1], SP = c.d[2] * c.d[3], G = c.groups, Cg = C / G;
        SCOPED_TRACE("N " + std::to_string(N) + " C " + std::to_string(C) + " SP "
                     + std::to_string(SP) + " groups " + std::to_string(G));
        const memory::desc md(c.d, dt::bf16, tag::abcd), stat({N, G}, dt::f32, tag::ab),
                ch({C}, dt::f32, tag::a);
        group_normalization_forward::primitive_desc pd(e, prop_kind::forward_training, md, md, G,
                1e-5f, normalization_flags::use_scale | normalization_flags::use_shift);
        EXPECT_NE(std::string(pd.impl_info_str()).find("ocl:gnorm:flat"), std::string::npos)
                << pd.impl_info_str();
        std::vector<float> x(static_cast<size_t>(N * C * SP)), gamma(static_cast<size_t>(C)),
                beta(static_cast<size_t>(C));
        for (size_t i = 0; i < x.size(); ++i)
            x[i] = bf16_round(3.f + 2.f * std::sin(0.731f * float(i) + 0.3f));
        for (size_t i = 0; i < gamma.size(); ++i) {
            gamma[i] = 0.5f + 0.25f * float(i % 5);
            beta[i] = -1.f + 0.3f * float(i % 7);
        }
        memory dst(md, e), mean(stat, e), var(stat, e);
        group_normalization_forward(pd).execute(
                s, {{DNNL_ARG_SRC, make(e, md, x)}, {DNNL_ARG_DST, dst}, {DNNL_ARG_MEAN, mean},
                           {DNNL_ARG_VARIANCE, var}, {DNNL_ARG_SCALE, make(e, ch, gamma)},
                           {DNNL_ARG_SHIFT, make(e, ch, beta)}});
        s.wait();
        std::vector<double> want(x.size()), mu(size_t(N * G)), va(size_t(N * G));
        for (int64_t n = 0; n < N; ++n)
            for (int64_t g = 0; g < G; ++g) {
                const size_t first = size_t((n * C + g * Cg) * SP), M = size_t(Cg * SP);
                double m = 0, v = 0;
                for (size_t i = 0; i < M; ++i)
                    m += x[first + i];
                m /= double(M);
                for (size_t i = 0; i < M; ++i)
                    v += (x[first + i] - m) * (x[first + i] - m);
                v /= double(M);
                mu[size_t(n * G + g)] = m, va[size_t(n * G + g)] = v;
                for (size_t i = 0; i < M; ++i) {
                    const size_t ci = size_t(g * Cg) + i / size_t(SP);
                    want[first + i] =
                            gamma[ci] * (x[first + i] - m) / std::sqrt(v + 1e-5) + beta[ci];
                }
            }
        expect_near(read(mean), mu, 1e-5, "mean");
        expect_near(read(var), va, 1e-4, "variance");
        expect_near(read(dst), want, 1e-2, "dst"); // bf16: 8-bit mantissa
    }
}

} // namespace
