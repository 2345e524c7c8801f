// ocl:resampling:dense: nearest and linear, forward and backward, channels first and channels
// last, 1D/2D/3D, f32 and bf16, up- and downsampling, odd sizes, size 1, zero batch, against
// a double reference written here from the definition (dst position o of a dim reads src
// coordinate (o + 0.5) * in / out - 0.5, computed in f32; nearest rounds it half away from
// zero, linear weighs its neighbours, both clamped). Other layouts and post-ops go to the
// generic kernel. ctest runs it with the GPU row of the tuning table (four elements per
// work-item) and with the device's own row.
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

std::vector<float> values(size_t n, float seed, bool bf16) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) {
        const float x = -2.f + 4.f * (0.5f + 0.5f * std::sin(0.731f * float(i) + seed));
        v[i] = bf16 ? bf16_round(x) : x;
    }
    return v;
}

// The src positions and weights dst position o of a dim reads.
struct taps_t {
    int64_t i[2];
    double w[2];
    int n;
};
taps_t taps(bool linear, int64_t o, int64_t in, int64_t out) {
    const float s = (float(o) + 0.5f) * float(in) / float(out) - 0.5f;
    auto clamp = [in](int64_t v) { return std::min(std::max<int64_t>(v, 0), in - 1); };
    if (!linear) return {{clamp(int64_t(std::round(s))), 0}, {1.0, 0.0}, 1};
    const float f = std::floor(s);
    return {{clamp(int64_t(f)), clamp(int64_t(f) + 1)}, {1.0 - (s - f), s - f}, 2};
}

// Tensors N x C x D x H x W (D, H absent for 1D/2D: extent 1), channels first or last.
struct shape_t {
    int64_t N, C, sp[3];
    size_t size() const {
        return size_t(N * C * sp[0] * sp[1] * sp[2]);
    }
    size_t at(bool cl, int64_t n, int64_t c, int64_t d, int64_t h, int64_t w) const {
        const int64_t s = (d * sp[1] + h) * sp[2] + w;
        return size_t(cl ? (n * sp[0] * sp[1] * sp[2] + s) * C + c
                         : (n * C + c) * sp[0] * sp[1] * sp[2] + s);
    }
};

// dst = resample(src) (forward) and diff_src = its transpose applied to diff_dst (backward).
void reference(bool linear, bool cl, const shape_t &in, const shape_t &out,
        const std::vector<float> &src, const std::vector<float> &ddst, std::vector<double> &dst,
        std::vector<double> &dsrc) {
    dst.assign(out.size(), 0.0);
    dsrc.assign(in.size(), 0.0);
    for (int64_t n = 0; n < out.N; ++n)
        for (int64_t c = 0; c < out.C; ++c)
            for (int64_t od = 0; od < out.sp[0]; ++od)
                for (int64_t oh = 0; oh < out.sp[1]; ++oh)
                    for (int64_t ow = 0; ow < out.sp[2]; ++ow) {
                        const taps_t td = taps(linear, od, in.sp[0], out.sp[0]),
                                     th = taps(linear, oh, in.sp[1], out.sp[1]),
                                     tw = taps(linear, ow, in.sp[2], out.sp[2]);
                        const size_t o = out.at(cl, n, c, od, oh, ow);
                        double acc = 0;
                        for (int a = 0; a < td.n; ++a)
                            for (int b = 0; b < th.n; ++b)
                                for (int e = 0; e < tw.n; ++e) {
                                    const double w = td.w[a] * th.w[b] * tw.w[e];
                                    const size_t i = in.at(cl, n, c, td.i[a], th.i[b], tw.i[e]);
                                    acc += w * src[i];
                                    dsrc[i] += w * ddst[o];
                                }
                        dst[o] = acc;
                    }
}

struct rs_case_t {
    memory::dims src, dst;
    bool bf16_too; // every case compiles its own kernels: bf16 on a few
};

// 2x with odd sizes (one element per work-item; nearest forward: groups running across rows)
// and with groups of four, size 1 upsampled, downsampling, 1D, 3D, a zero batch, and a factor
// of 2.2 whose dst (231 elements) ends in a short group of 3 (4 wide) or 7 (8 wide).
const rs_case_t rs_cases[] = {{{2, 3, 5, 7}, {2, 3, 10, 14}, true},
        {{1, 3, 5, 5}, {1, 3, 7, 11}, true}, {{2, 8, 4, 4}, {2, 8, 8, 8}, true},
        {{1, 1, 1, 1}, {1, 1, 3, 2}, false}, {{2, 4, 6, 8}, {2, 4, 3, 4}, false},
        {{2, 8, 7}, {2, 8, 15}, false}, {{1, 4, 3, 4, 5}, {1, 4, 6, 5, 9}, false},
        {{2, 16, 2, 3, 1}, {2, 16, 4, 6, 2}, false}, {{0, 4, 3, 3}, {0, 4, 6, 6}, false}};

tag plain_tag(size_t nd, bool cl) {
    if (nd == 3) return cl ? tag::nwc : tag::ncw;
    if (nd == 4) return cl ? tag::nhwc : tag::nchw;
    return cl ? tag::ndhwc : tag::ncdhw;
}

shape_t shape_of(const memory::dims &d) {
    shape_t s{d[0], d[1], {1, 1, 1}};
    const size_t nsp = d.size() - 2;
    for (size_t k = 0; k < nsp; ++k)
        s.sp[3 - nsp + k] = d[2 + k];
    return s;
}

TEST(ResamplingDense, ForwardAndBackward) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (const auto &rc : rs_cases)
        for (bool cl : {false, true})
            for (bool linear : {false, true})
                for (dt type : {dt::f32, dt::bf16}) {
                    const bool bf16 = type == dt::bf16;
                    if (bf16 && !rc.bf16_too) continue;
                    const shape_t in = shape_of(rc.src), out = shape_of(rc.dst);
                    SCOPED_TRACE(std::to_string(rc.src.size()) + "D N" + std::to_string(in.N) + " C"
                                 + std::to_string(in.C) + " in " + std::to_string(in.sp[0]) + "x"
                                 + std::to_string(in.sp[1]) + "x" + std::to_string(in.sp[2])
                                 + " out " + std::to_string(out.sp[0]) + "x"
                                 + std::to_string(out.sp[1]) + "x" + std::to_string(out.sp[2])
                                 + (cl ? " channels last" : " channels first")
                                 + (linear ? " linear" : " nearest") + (bf16 ? " bf16" : " f32"));
                    const tag t = plain_tag(rc.src.size(), cl);
                    const memory::desc smd(rc.src, type, t), dmd(rc.dst, type, t);
                    const auto alg =
                            linear ? algorithm::resampling_linear : algorithm::resampling_nearest;
                    resampling_forward::primitive_desc fpd(
                            e, prop_kind::forward_training, alg, smd, dmd);
                    resampling_backward::primitive_desc bpd(e, alg, smd, dmd, fpd);
                    expect_impl(fpd, "ocl:resampling:dense");
                    expect_impl(bpd, "ocl:resampling:dense");
                    const std::vector<float> x = values(in.size(), 0.3f, bf16),
                                             g = values(out.size(), 1.7f, bf16);
                    memory src = make(e, smd, x),
                           dst = make(e, dmd, std::vector<float>(out.size(), 9.f));
                    memory dsrc = make(e, smd, std::vector<float>(in.size(), 9.f));
                    resampling_forward(fpd).execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
                    resampling_backward(bpd).execute(
                            s, {{DNNL_ARG_DIFF_DST, make(e, dmd, g)}, {DNNL_ARG_DIFF_SRC, dsrc}});
                    s.wait();
                    std::vector<double> want_dst, want_dsrc;
                    reference(linear, cl, in, out, x, g, want_dst, want_dsrc);
                    // f32: a few roundings of weights in [0, 1]; bf16: the output's 8 bits.
                    const double tol = bf16 ? 1e-2 : 1e-5;
                    expect_near(read(dst), want_dst, tol, "dst");
                    // Backward sums up to (2 out / in + 2)^3 terms of |g| <= 2.
                    expect_near(read(dsrc), want_dsrc, bf16 ? 1e-2 : 1e-5, "diff_src");
                }
}

// Blocked layouts and post-ops are not this kernel's: the generic one runs them.
TEST(ResamplingDense, OtherCasesGoToGeneric) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    const memory::desc smd({2, 16, 3, 3}, dt::f32, tag::nChw16c),
            dmd({2, 16, 6, 6}, dt::f32, tag::nChw16c);
    resampling_forward::primitive_desc blocked(
            e, prop_kind::forward_training, algorithm::resampling_nearest, smd, dmd);
    expect_impl(blocked, "ocl:resampling:generic");
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    primitive_attr attr;
    attr.set_post_ops(po);
    const memory::desc pmd({2, 16, 3, 3}, dt::f32, tag::nchw),
            qmd({2, 16, 6, 6}, dt::f32, tag::nchw);
    resampling_forward::primitive_desc with_po(
            e, prop_kind::forward_training, algorithm::resampling_nearest, pmd, qmd, attr);
    expect_impl(with_po, "ocl:resampling:generic");
}

} // namespace
