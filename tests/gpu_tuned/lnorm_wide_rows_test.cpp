// ocl:lnorm:rows on bf16 rows of 32768 and 32767 (wider than the rows kept in registers):
// statistics to 1e-5 of the double reference, as benchdnn checks them. On CPU devices one
// work-item walks each row: a single f32 sum of 32768 squares lost up to 2.5e-5 of the
// variance; the kernel's sums in chunks of 64 keep it near 1e-7. ctest runs it with the GPU
// row of the tuning table (work-groups per row) and with the device's own row (one work-item).
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

TEST(LayerNormWideRows, Bf16StatisticsTo1em5) {
    if (engine::get_count(engine::kind::gpu) == 0) GTEST_SKIP() << "no OpenCL device";
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (int64_t C : {32768, 32767})
        for (bool rms : {false, true}) {
            const int64_t rows = 3;
            SCOPED_TRACE(std::to_string(C) + (rms ? " rms" : ""));
            const memory::desc md({rows, C}, dt::bf16, tag::ab), smd({rows}, dt::f32, tag::a);
            const auto flags = rms ? normalization_flags::rms_norm : normalization_flags::none;
            layer_normalization_forward::primitive_desc pd(
                    e, prop_kind::forward_training, md, md, smd, 1e-5f, flags);
            EXPECT_NE(std::string(pd.impl_info_str()).find("ocl:lnorm:rows"), std::string::npos)
                    << pd.impl_info_str();
            // bf16 values in [-4, 4) with a row-dependent offset (mean away from zero).
            std::vector<uint16_t> bits(size_t(rows * C));
            std::vector<double> x(bits.size());
            for (size_t i = 0; i < bits.size(); ++i) {
                const float f = 0.5f * float(i / size_t(C))
                                + 4.f * std::sin(0.7310f * float(i) + 0.25f * float(i % 7));
                uint32_t u;
                std::memcpy(&u, &f, 4);
                bits[i] = uint16_t(u >> 16);
                const uint32_t back = uint32_t(bits[i]) << 16;
                float g;
                std::memcpy(&g, &back, 4);
                x[i] = g;
            }
            memory src(md, e), dst(md, e), mean(smd, e), var(smd, e);
            void *p = src.map_data();
            std::memcpy(p, bits.data(), bits.size() * 2);
            src.unmap_data(p);
            layer_normalization_forward(pd).execute(
                    s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}, {DNNL_ARG_MEAN, mean},
                               {DNNL_ARG_VARIANCE, var}});
            s.wait();
            const float *gm = static_cast<const float *>(mean.map_data());
            const float *gv = static_cast<const float *>(var.map_data());
            for (int64_t r = 0; r < rows; ++r) {
                double m = 0, v = 0;
                for (int64_t c = 0; c < C && !rms; ++c)
                    m += x[size_t(r * C + c)];
                m /= double(C);
                for (int64_t c = 0; c < C; ++c)
                    v += (x[size_t(r * C + c)] - m) * (x[size_t(r * C + c)] - m);
                v /= double(C);
                if (!rms) {
                    EXPECT_NEAR(gm[r], m, 1e-5 * std::max(1.0, std::fabs(m))) << "row " << r;
                }
                EXPECT_NEAR(gv[r], v, 1e-5 * std::max(1.0, std::fabs(v))) << "row " << r;
            }
            mean.unmap_data(const_cast<float *>(gm));
            var.unmap_data(const_cast<float *>(gv));
        }
}

} // namespace
