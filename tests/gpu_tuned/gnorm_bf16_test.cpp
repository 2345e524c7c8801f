// ocl:gnorm:flat on bf16 tensors: groups of eight elements per access where the tuning row's
// access_bytes is 16 and the spatial size allows, of four or one otherwise, against a double
// reference written here. ctest runs it with access_bytes 8 and 16 (the .access16 run).
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "dnnl.hpp"

namespace {

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

float bf16_round(float f) { // truncation: the inputs need only be bf16 values
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u &= 0xffff0000u;
    std::memcpy(&f, &u, 4);
    return f;
}

memory make(const engine &e, const memory::desc &d, const std::vector<float> &v) {
    memory m(d, e);
    if (!d.get_size()) return m;
    void *p = m.map_data();
    for (size_t i = 0; i < v.size(); ++i) {
        if (d.get_data_type() == dt::f32) static_cast<float *>(p)[i] = v[i];
        if (d.get_data_type() == dt::bf16) {
            uint32_t u;
            std::memcpy(&u, &v[i], 4);
            static_cast<uint16_t *>(p)[i] = uint16_t(u >> 16);
        }
    }
    m.unmap_data(p);
    return m;
}

std::vector<float> read(const memory &m) {
    const memory::desc d = m.get_desc();
    const size_t n = d.get_size() / memory::data_type_size(d.get_data_type());
    std::vector<float> v(n);
    if (!n) return v;
    const void *p = m.map_data();
    for (size_t i = 0; i < n; ++i) {
        if (d.get_data_type() == dt::f32) v[i] = static_cast<const float *>(p)[i];
        if (d.get_data_type() == dt::bf16) {
            const uint32_t u = uint32_t(static_cast<const uint16_t *>(p)[i]) << 16;
            std::memcpy(&v[i], &u, 4);
        }
    }
    m.unmap_data(const_cast<void *>(p));
    return v;
}

void expect_near(const std::vector<float> &got, const std::vector<double> &want, double tol,
        const char *what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[i], tol * std::max(1.0, std::fabs(want[i])))
                << what << " at " << i << " of " << got.size();
}

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
