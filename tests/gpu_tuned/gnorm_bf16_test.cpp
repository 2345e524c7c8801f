// ocl:gnorm:flat on bf16 tensors: groups of eight elements per access where the tuning row's
// access_bytes is 16 and the spatial size allows, of four or one otherwise, against a double
// reference written here. ctest runs it with access_bytes 8 and 16 (the .access16 run).
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "dnnl.hpp"
#include "gnorm_reference.hpp"
#include "host_values.hpp"

namespace {

using namespace dnnl;
using namespace host_values;
using tag = memory::format_tag;
using dt = memory::data_type;

TEST(GpuBandwidth, GroupNormFlatBf16Groups) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    struct case_t {
        memory::dims d;
        int64_t groups;
    };
    // Spatial sizes 24 and 64 (groups of eight), 4 (four), 15 and 1 (one).
    for (const case_t &c : {case_t{{2, 8, 4, 6}, 4}, case_t{{3, 6, 8, 8}, 3},
                 case_t{{3, 6, 2, 2}, 3}, case_t{{2, 16, 5, 3}, 8}, case_t{{1, 4, 1, 1}, 2}}) {
        const int64_t N = c.d[0], C = c.d[1], SP = c.d[2] * c.d[3], G = c.groups;
        SCOPED_TRACE("N " + std::to_string(N) + " C " + std::to_string(C) + " SP "
                     + std::to_string(SP) + " groups " + std::to_string(G));
        const memory::desc md(c.d, dt::bf16, tag::abcd), stat({N, G}, dt::f32, tag::ab),
                ch({C}, dt::f32, tag::a);
        group_normalization_forward::primitive_desc pd(e, prop_kind::forward_training, md, md, G,
                1e-5f, normalization_flags::use_scale | normalization_flags::use_shift);
        expect_impl(pd, "ocl:gnorm:flat");
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
        const gnorm_want_t w = gnorm_reference(x, N, C, SP, G, gamma, beta, 1e-5);
        expect_near(read(mean), w.mean, 1e-5, "mean");
        expect_near(read(var), w.variance, 1e-4, "variance");
        expect_near(read(dst), w.dst, 1e-2, "dst"); // bf16: 8-bit mantissa
    }
}

} // namespace
