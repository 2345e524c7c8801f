// Pooling padding as oneDNN programs use it: a right padding below zero by less than a stride
// (the last source elements no window reaches are skipped, as in convolution), and dilated
// windows that lie entirely in padding (max gives the source type's lowest value, averages 0).
// Every algorithm, plain / channels-last / nChw16c, forward inference and training, against a
// plain loop written here, on the CPU engine and the first GPU engine when one is present.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl.hpp"

#include "api/engine_list.hpp"

namespace {

using namespace dnnl;
using namespace engine_list;
using dt = memory::data_type;
using tag = memory::format_tag;

struct geom_t {
    memory::dims src, k, s, dl, pl, pr; // src is N, C, H, W
    memory::dim out(int i) const {
        const memory::dim ext = (k[i] - 1) * (dl[i] + 1) + 1;
        return (src[2 + i] + pl[i] + pr[i] - ext) / s[i] + 1;
    }
};

// Lowest finite value of the source type, as the reference expects it.
float lowest(dt t) {
    switch (t) {
        case dt::bf16: return -0x1.fep127f;
        case dt::s8: return -128.f;
        default: return std::numeric_limits<float>::lowest();
    }
}

// The plain reference, on logical NCHW positions.
std::vector<float> reference(const geom_t &g, algorithm alg, const std::vector<float> &src, dt t) {
    const memory::dim N = g.src[0], C = g.src[1], H = g.src[2], W = g.src[3];
    const memory::dim OH = g.out(0), OW = g.out(1);
    std::vector<float> dst(N * C * OH * OW);
    for (memory::dim n = 0; n < N; ++n)
        for (memory::dim c = 0; c < C; ++c)
            for (memory::dim oh = 0; oh < OH; ++oh)
                for (memory::dim ow = 0; ow < OW; ++ow) {
                    double mx = -INFINITY, sum = 0;
                    int count = 0;
                    for (memory::dim kh = 0; kh < g.k[0]; ++kh)
                        for (memory::dim kw = 0; kw < g.k[1]; ++kw) {
                            const memory::dim ih = oh * g.s[0] - g.pl[0] + kh * (g.dl[0] + 1);
                            const memory::dim iw = ow * g.s[1] - g.pl[1] + kw * (g.dl[1] + 1);
                            if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                            const double v = src[((n * C + c) * H + ih) * W + iw];
                            mx = std::max(mx, v);
                            sum += v;
                            ++count;
                        }
                    double r;
                    if (alg == algorithm::pooling_max)
                        r = count ? mx : lowest(t);
                    else if (alg == algorithm::pooling_avg_include_padding)
                        r = sum / double(g.k[0] * g.k[1]);
                    else
                        r = count ? sum / count : 0.0;
                    dst[((n * C + c) * OH + oh) * OW + ow] = static_cast<float>(r);
                }
    return dst;
}

// Element conversions of the test's data (values exact in every type used).
void put(dt t, void *p, size_t i, float v) {
    if (t == dt::f32) static_cast<float *>(p)[i] = v;
    if (t == dt::s8) static_cast<int8_t *>(p)[i] = static_cast<int8_t>(v);
    if (t == dt::bf16) {
        uint32_t b;
        std::memcpy(&b, &v, 4);
        static_cast<uint16_t *>(p)[i] = static_cast<uint16_t>(b >> 16);
    }
}
float get(dt t, const void *p, size_t i) {
    if (t == dt::s8) return static_cast<const int8_t *>(p)[i];
    if (t == dt::bf16) {
        const uint32_t b = uint32_t(static_cast<const uint16_t *>(p)[i]) << 16;
        float v;
        std::memcpy(&v, &b, 4);
        return v;
    }
    return static_cast<const float *>(p)[i];
}

// Runs one problem and compares every output with the reference.
void check(const engine &eng, const geom_t &g, dt t, tag layout, algorithm alg, prop_kind prop) {
    SCOPED_TRACE(::testing::Message()
            << where(eng) << " dt "
            << static_cast<int>(t) << " tag " << static_cast<int>(layout) << " alg "
            << static_cast<int>(alg) << " prop " << static_cast<int>(prop));
    const memory::dims dd = {g.src[0], g.src[1], g.out(0), g.out(1)};
    memory::desc smd(g.src, t, layout), dmd(dd, t, layout);
    // Plain copies of the same descriptors give the logical order for the test's own data.
    memory::desc splain(g.src, t, tag::nchw), dplain(dd, t, tag::nchw);
    std::vector<float> src(g.src[0] * g.src[1] * g.src[2] * g.src[3]);
    for (size_t i = 0; i < src.size(); ++i)
        src[i] = static_cast<float>(int(i * 37 % 29) - 14); // negative values matter for max
    pooling_forward::primitive_desc pd(eng, prop, alg, smd, dmd, g.s, g.k, g.dl, g.pl, g.pr);
    stream strm(eng);
    memory msrc(smd, eng), mdst(dmd, eng), psrc(splain, eng), pdst(dplain, eng);
    {
        void *p = psrc.map_data();
        for (size_t i = 0; i < src.size(); ++i)
            put(t, p, i, src[i]);
        psrc.unmap_data(p);
    }
    reorder(psrc, msrc).execute(strm, psrc, msrc);
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, msrc}, {DNNL_ARG_DST, mdst}};
    if (pd.workspace_desc().get_size() > 0)
        args.emplace(DNNL_ARG_WORKSPACE, memory(pd.workspace_desc(), eng));
    pooling_forward(pd).execute(strm, args);
    reorder(mdst, pdst).execute(strm, mdst, pdst);
    strm.wait();
    const std::vector<float> want = reference(g, alg, src, t);
    const void *p = pdst.map_data();
    for (size_t i = 0; i < want.size(); ++i) {
        float w = want[i];
        if (t == dt::s8) w = std::max(-128.f, std::min(127.f, std::nearbyint(w)));
        const float tol = t == dt::bf16 ? 1e-2f * std::fabs(w) : t == dt::s8 ? 0.f : 1e-6f;
        EXPECT_NEAR(get(t, p, i), w, tol) << "dst element " << i;
    }
    pdst.unmap_data(const_cast<void *>(p));
}

const algorithm algs[] = {algorithm::pooling_max, algorithm::pooling_avg_include_padding,
        algorithm::pooling_avg_exclude_padding};
const tag layouts[] = {tag::nchw, tag::nhwc, tag::nChw16c};

TEST(pooling_padding, right_padding_below_zero_by_less_than_a_stride) {
    // H: 8 rows, k3 s2, pads 1/-1 -> 3 rows, row 7 never read; W: 6, k2 s3, pads 0/-1 -> 2
    // columns, column 5 never read.
    const geom_t g = {{2, 19, 8, 6}, {3, 2}, {2, 3}, {0, 0}, {1, 0}, {-1, -1}};
    ASSERT_EQ(g.out(0), 3);
    ASSERT_EQ(g.out(1), 2);
    for (const engine &eng : engines())
        for (tag l : layouts)
            for (algorithm alg : algs)
                for (prop_kind prop : {prop_kind::forward_inference, prop_kind::forward_training})
                    check(eng, g, dt::f32, l, alg, prop);
}

TEST(pooling_padding, padding_as_large_as_the_kernel) {
    // H: 5 rows, k3 s1, pads 3/0 -> 6 rows, row 0's window is rows -3..-1 (padding only);
    // W: 4, k2 s2, pads 0/2 -> 3 columns, column 2's window is 4..5 (padding only).
    const geom_t g = {{2, 19, 5, 4}, {3, 2}, {1, 2}, {0, 0}, {3, 0}, {0, 2}};
    ASSERT_EQ(g.out(0), 6);
    ASSERT_EQ(g.out(1), 3);
    for (const engine &eng : engines()) {
        for (tag l : layouts)
            for (algorithm alg : algs)
                for (prop_kind prop : {prop_kind::forward_inference, prop_kind::forward_training})
                    check(eng, g, dt::f32, l, alg, prop);
        // s8's lowest value for max, and integer averages.
        for (algorithm alg : algs)
            check(eng, g, dt::s8, tag::nhwc, alg, prop_kind::forward_inference);
    }
}

TEST(pooling_padding, right_padding_of_a_stride_below_zero_is_refused) {
    for (const engine &eng : engines()) {
        memory::desc src({1, 3, 8, 8}, dt::f32, tag::nchw), dst({1, 3, 3, 4}, dt::f32, tag::nchw);
        dnnl_dims_t k = {2, 2}, s = {2, 2}, dl = {0, 0}, pl = {0, 0}, pr = {-2, 0};
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_pooling_forward_primitive_desc_create(&pd, eng.get(),
                          dnnl_forward_inference, dnnl_pooling_max, src.get(), dst.get(), s, k,
                          dl, pl, pr, nullptr),
                dnnl_invalid_arguments);
        dnnl_primitive_desc_destroy(pd);
    }
}

TEST(pooling_padding, dilated_window_entirely_in_padding) {
    // H: 2 rows, k2 dilation 2 (extent 4), pads 2/2: output row 1 reads rows -1 and 2, both
    // padding; rows 0 and 2 each see one src row. W: 3, k2 dilation 3, pads 2/2 -> 3 columns,
    // column 1 reads -1 and 3, both padding.
    const geom_t g = {{1, 17, 2, 3}, {2, 2}, {1, 1}, {2, 3}, {2, 2}, {2, 2}};
    ASSERT_EQ(g.out(0), 3);
    ASSERT_EQ(g.out(1), 3);
    for (const engine &eng : engines())
        for (dt t : {dt::f32, dt::bf16, dt::s8})
            for (tag l : layouts)
                for (algorithm alg : algs)
                    for (prop_kind prop :
                            {prop_kind::forward_inference, prop_kind::forward_training}) {
                        if (t == dt::s8 && prop == prop_kind::forward_training) continue;
                        check(eng, g, t, l, alg, prop);
                    }
}

} // namespace
