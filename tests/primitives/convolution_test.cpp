// Convolution and deconvolution (forward, backward data, backward weights) through dnnl.hpp,
// against the double-precision loop nest of convolution_ref.hpp: for every (n, g, oc, ic, small
// position, kernel position) the big-side position is small * stride - pad_l + k * (dil + 1);
// conv has src on the big side, deconv dst. Every implementation is walked with next_impl.
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "primitives/convolution_ref.hpp"

namespace {

using namespace dnnl;
using dims = memory::dims;
using tag = memory::format_tag;
using dt = memory::data_type;

using convolution_ref::problem_t;
using convolution_ref::relation;
using convolution_ref::volume;

// An 8-bit float's value: e5m2 (bias 15, infinities) or e4m3 (bias 7, no infinity).
float f8_value(uint8_t u, bool e5m2) {
    const int mb = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7, emask = (1 << (7 - mb)) - 1;
    const int e = (u >> mb) & emask, m = u & ((1 << mb) - 1);
    const float sign = (u & 0x80) ? -1.f : 1.f;
    if (e5m2 && e == emask) return m ? NAN : sign * INFINITY;
    if (!e5m2 && (u & 0x7f) == 0x7f) return NAN;
    if (e == 0) return sign * std::ldexp(float(m), 1 - bias - mb);
    return sign * std::ldexp(float((1 << mb) | m), e - bias - mb);
}
// The code of a value the format holds exactly (the test's inputs are small integers).
uint8_t f8_code(float v, bool e5m2) {
    for (int u = 0; u < 256; ++u)
        if (f8_value(uint8_t(u), e5m2) == v) return uint8_t(u);
    ADD_FAILURE() << v << " is not exact in f8";
    return 0;
}

float load(dt t, const void *b, int64_t i) {
    switch (t) {
        case dt::f32: return static_cast<const float *>(b)[i];
        case dt::s32: return static_cast<float>(static_cast<const int32_t *>(b)[i]);
        case dt::s8: return static_cast<const int8_t *>(b)[i];
        case dt::u8: return static_cast<const uint8_t *>(b)[i];
        case dt::f8_e5m2:
        case dt::f8_e4m3:
            return f8_value(static_cast<const uint8_t *>(b)[i], t == dt::f8_e5m2);
        case dt::bf16: {
            uint32_t v = static_cast<uint32_t>(static_cast<const uint16_t *>(b)[i]) << 16;
            float f;
            std::memcpy(&f, &v, 4);
            return f;
        }
        case dt::f16: {
            _Float16 h;
            std::memcpy(&h, static_cast<const uint16_t *>(b) + i, 2);
            return static_cast<float>(h);
        }
        default: return 0.f;
    }
}
void store(dt t, void *b, int64_t i, float v) {
    switch (t) {
        case dt::f32: static_cast<float *>(b)[i] = v; break;
        case dt::s32: static_cast<int32_t *>(b)[i] = static_cast<int32_t>(v); break;
        case dt::s8: static_cast<int8_t *>(b)[i] = static_cast<int8_t>(v); break;
        case dt::u8: static_cast<uint8_t *>(b)[i] = static_cast<uint8_t>(v); break;
        case dt::f8_e5m2:
        case dt::f8_e4m3: static_cast<uint8_t *>(b)[i] = f8_code(v, t == dt::f8_e5m2); break;
        case dt::bf16: { // test values are exact in bf16
            uint32_t u;
            std::memcpy(&u, &v, 4);
            static_cast<uint16_t *>(b)[i] = static_cast<uint16_t>(u >> 16);
            break;
        }
        case dt::f16: {
            _Float16 h = static_cast<_Float16>(v);
            std::memcpy(static_cast<uint16_t *>(b) + i, &h, 2);
            break;
        }
        default: break;
    }
}

// Physical offsets of every dense logical index: inner blocks peel the within-block index
// off their dimension (innermost block last), the rest of each index walks the outer strides.
std::vector<int64_t> phys_offsets(const memory::desc &md) {
    const dims d = md.get_dims(), st = md.get_strides();
    const dims blks = md.get_inner_blks(), idxs = md.get_inner_idxs();
    const int nblks = md.get_inner_nblks();
    std::vector<int64_t> offs(volume(d));
    dims pos(d.size());
    for (size_t li = 0; li < offs.size(); ++li) {
        int64_t rem = static_cast<int64_t>(li);
        for (int x = static_cast<int>(d.size()) - 1; x >= 0; --x) {
            pos[x] = rem % d[x];
            rem /= d[x];
        }
        int64_t off = 0, inner = 1;
        for (int b = nblks - 1; b >= 0; --b) {
            off += pos[idxs[b]] % blks[b] * inner;
            pos[idxs[b]] /= blks[b];
            inner *= blks[b];
        }
        for (size_t x = 0; x < d.size(); ++x)
            off += pos[x] * st[x];
        offs[li] = off;
    }
    return offs;
}

// A memory filled with small integers (exact in every type), and the same values as doubles.
struct tensor_t {
    memory mem;
    std::vector<double> v;
    std::vector<int64_t> offs;
    dt type;
    tensor_t(const memory::desc &md, const engine &eng, int lo, int hi, unsigned seed,
            double step = 1.0) {
        mem = memory(md, eng);
        offs = phys_offsets(md);
        type = md.get_data_type();
        v.resize(offs.size());
        std::mt19937 gen(seed);
        std::uniform_int_distribution<int> dist(lo, hi);
        void *b = mem.get_data_handle();
        std::memset(b, 0, md.get_size());
        for (size_t x = 0; x < v.size(); ++x) {
            v[x] = dist(gen) * step;
            store(type, b, offs[x], static_cast<float>(v[x]));
        }
    }
    double at(int64_t li) const { return load(type, mem.get_data_handle(), offs[li]); }
};

void expect_near_all(const tensor_t &t, const std::vector<double> &want, double rtol,
        const std::string &what) {
    int bad = 0;
    for (size_t x = 0; x < want.size() && bad < 5; ++x) {
        const double got = t.at(x);
        if (std::fabs(got - want[x]) > rtol * (1.0 + std::fabs(want[x]))) {
            ++bad;
            ADD_FAILURE() << what << ": element " << x << " got " << got << " want " << want[x];
        }
    }
}

// Activation layouts the cases run on: plain, channels-last, channels blocked by 16.
enum layout_t { ncx = 0, nxc = 1, blk16 = 2 };

tag plain(int nd, int lay) {
    switch (nd) {
        case 3: return lay == blk16 ? tag::nCw16c : lay == nxc ? tag::nwc : tag::ncw;
        case 4: return lay == blk16 ? tag::nChw16c : lay == nxc ? tag::nhwc : tag::nchw;
        default: return lay == blk16 ? tag::nCdhw16c : lay == nxc ? tag::ndhwc : tag::ncdhw;
    }
}

const char *layout_name(int lay) {
    return lay == blk16 ? "blk16" : lay == nxc ? "nhwc" : "nchw";
}

struct runner_t {
    engine eng {engine::kind::cpu, 0};
    stream strm {eng};
};

// Runs one direction of conv or deconv for problem p with activation layout cl (layout_t)
// and data type t, checks every implementation against the test relation.
void check(const problem_t &p, bool deconv, prop_kind dir, int cl, dt t = dt::f32,
        double rtol = 1e-5) {
    SCOPED_TRACE(p.name + (deconv ? " deconv " : " conv ") + layout_name(cl)
            + " dir=" + std::to_string(static_cast<int>(dir)));
    runner_t r;
    const int nd = p.ns + 2;
    const memory::desc src_md(p.src_dims(deconv), t, plain(nd, cl));
    const memory::desc dst_md(p.dst_dims(deconv), t, plain(nd, cl));
    const memory::desc wei_md(p.wei_dims(), t, tag::any);
    const memory::desc bia_md({p.g * p.oc}, t, tag::a);
    const dims st = p.sp(p.s), dl = p.sp(p.d), pl = p.sp(p.pl), pr = p.sp(p.pr);
    const algorithm alg = deconv ? algorithm::deconvolution_direct : algorithm::convolution_direct;
    convolution_forward::primitive_desc cfwd;
    deconvolution_forward::primitive_desc dfwd;
    if (deconv)
        dfwd = deconvolution_forward::primitive_desc(r.eng, prop_kind::forward_training, alg,
                src_md, wei_md, bia_md, dst_md, st, dl, pl, pr);
    else
        cfwd = convolution_forward::primitive_desc(r.eng, prop_kind::forward_training, alg,
                src_md, wei_md, bia_md, dst_md, st, dl, pl, pr);
    primitive_desc pd;
    if (dir == prop_kind::forward_training)
        pd = deconv ? primitive_desc(dfwd) : primitive_desc(cfwd);
    else if (dir == prop_kind::backward_data)
        pd = deconv ? primitive_desc(deconvolution_backward_data::primitive_desc(r.eng, alg,
                             src_md, wei_md, dst_md, st, dl, pl, pr, dfwd))
                    : primitive_desc(convolution_backward_data::primitive_desc(r.eng, alg,
                            src_md, wei_md, dst_md, st, dl, pl, pr, cfwd));
    else
        pd = deconv ? primitive_desc(deconvolution_backward_weights::primitive_desc(r.eng, alg,
                             src_md, wei_md, bia_md, dst_md, st, dl, pl, pr, dfwd))
                    : primitive_desc(convolution_backward_weights::primitive_desc(r.eng, alg,
                            src_md, wei_md, bia_md, dst_md, st, dl, pl, pr, cfwd));
    int impls = 0;
    do {
        ++impls;
        SCOPED_TRACE(pd.impl_info_str());
        const memory::desc wmd = dir == prop_kind::backward_weights ? pd.diff_weights_desc()
                                                                    : pd.weights_desc();
        // Every tensor was read and written through its physical offsets, padding included.
        ASSERT_EQ(wmd.get_dims(), p.wei_dims());
        EXPECT_EQ(wmd.get_format_kind(), memory::format_kind::blocked);
        tensor_t src(src_md, r.eng, -3, 3, 1), wei(wmd, r.eng, -2, 2, 2),
                dst(dst_md, r.eng, -3, 3, 3), bia(bia_md, r.eng, -4, 4, 4);
        std::vector<double> want;
        if (dir == prop_kind::forward_training) {
            want.assign(dst.v.size(), 0.0);
            relation(p, deconv, [&](int64_t s, int64_t w, int64_t d) { want[d] += src.v[s] * wei.v[w]; });
            const int64_t spat = volume(p.dst_dims(deconv)) / (p.mb * p.g * p.oc);
            for (size_t x = 0; x < want.size(); ++x)
                want[x] += bia.v[x / spat % (p.g * p.oc)];
            primitive(pd).execute(r.strm, {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_WEIGHTS, wei.mem},
                    {DNNL_ARG_BIAS, bia.mem}, {DNNL_ARG_DST, dst.mem}});
            r.strm.wait();
            expect_near_all(dst, want, rtol, "dst");
        } else if (dir == prop_kind::backward_data) {
            want.assign(src.v.size(), 0.0);
            relation(p, deconv, [&](int64_t s, int64_t w, int64_t d) { want[s] += dst.v[d] * wei.v[w]; });
            primitive(pd).execute(r.strm, {{DNNL_ARG_DIFF_SRC, src.mem},
                    {DNNL_ARG_WEIGHTS, wei.mem}, {DNNL_ARG_DIFF_DST, dst.mem}});
            r.strm.wait();
            expect_near_all(src, want, rtol, "diff_src");
        } else {
            want.assign(wei.v.size(), 0.0);
            relation(p, deconv, [&](int64_t s, int64_t w, int64_t d) { want[w] += src.v[s] * dst.v[d]; });
            std::vector<double> want_b(bia.v.size(), 0.0);
            const int64_t spat = volume(p.dst_dims(deconv)) / (p.mb * p.g * p.oc);
            for (size_t x = 0; x < dst.v.size(); ++x)
                want_b[x / spat % (p.g * p.oc)] += dst.v[x];
            primitive(pd).execute(r.strm, {{DNNL_ARG_SRC, src.mem},
                    {DNNL_ARG_DIFF_WEIGHTS, wei.mem}, {DNNL_ARG_DIFF_BIAS, bia.mem},
                    {DNNL_ARG_DIFF_DST, dst.mem}});
            r.strm.wait();
            expect_near_all(wei, want, rtol, "diff_weights");
            expect_near_all(bia, want_b, rtol, "diff_bias");
        }
    } while (pd.next_impl());
    EXPECT_GE(impls, 1);
}

std::vector<problem_t> shapes() {
    std::vector<problem_t> v;
    problem_t p;
    p.name = "2d_3x3_pad1";
    v.push_back(p);
    p = problem_t();
    p.name = "1d_stride2_asym";
    p.ns = 1;
    p.i[0] = 9;
    p.k[0] = 4;
    p.s[0] = 2;
    p.pl[0] = 2;
    p.pr[0] = 0;
    v.push_back(p);
    p = problem_t();
    p.name = "3d_dilated";
    p.ns = 3;
    p.mb = 1;
    p.i[0] = 4;
    p.i[1] = 5;
    p.i[2] = 6;
    p.k[0] = 2;
    p.d[1] = 1;
    p.d[2] = 2;
    p.pl[0] = 0;
    p.pr[0] = 1;
    v.push_back(p);
    p = problem_t();
    p.name = "groups_stride_dil_asym";
    p.g = 3;
    p.ic = 2;
    p.oc = 3;
    p.groups_dim = true;
    p.i[0] = 8;
    p.i[1] = 7;
    p.s[0] = 2;
    p.s[1] = 3;
    p.d[0] = 1;
    p.pl[0] = 2;
    p.pr[0] = 0;
    p.pl[1] = 0;
    p.pr[1] = 2;
    v.push_back(p);
    p = problem_t();
    p.name = "depthwise";
    p.g = 5;
    p.ic = 1;
    p.oc = 1;
    p.groups_dim = true;
    p.i[0] = 6;
    p.i[1] = 5;
    v.push_back(p);
    p = problem_t();
    p.name = "1x1_odd";
    p.mb = 3;
    p.ic = 5;
    p.oc = 7;
    p.k[0] = p.k[1] = 1;
    p.pl[0] = p.pl[1] = p.pr[0] = p.pr[1] = 0;
    p.i[0] = 3;
    p.i[1] = 1;
    v.push_back(p);
    return v;
}

// Shapes whose output channels come in 16s (the direct kernel's), with tails of its
// pixel tiles, edge pixels, strides, dilation, groups, 1D and 3D.
std::vector<problem_t> shapes16() {
    std::vector<problem_t> v;
    problem_t p;
    p.name = "c16_to_32_pad1";
    p.ic = 16;
    p.oc = 32;
    p.i[0] = 7;
    p.i[1] = 9;
    v.push_back(p);
    p = problem_t();
    p.name = "c32_stride2_dil_asym";
    p.mb = 1;
    p.ic = 32;
    p.oc = 16;
    p.i[0] = 9;
    p.i[1] = 13;
    p.s[1] = 2;
    p.d[0] = 1;
    p.pl[0] = 2;
    p.pr[0] = 0;
    p.pl[1] = 0;
    p.pr[1] = 2;
    v.push_back(p);
    p = problem_t();
    p.name = "1x1_c48_to_80_wide";
    p.mb = 2;
    p.ic = 48;
    p.oc = 80;
    p.k[0] = p.k[1] = 1;
    p.pl[0] = p.pl[1] = p.pr[0] = p.pr[1] = 0;
    p.i[0] = 2;
    p.i[1] = 31;
    v.push_back(p);
    p = problem_t();
    // Deeper than one depth block of the plain 1x1 GEMM (256), a tail panel of 1 position.
    p.name = "1x1_c272_deep";
    p.ic = 272;
    p.oc = 32;
    p.k[0] = p.k[1] = 1;
    p.pl[0] = p.pl[1] = p.pr[0] = p.pr[1] = 0;
    p.i[0] = 3;
    p.i[1] = 11;
    v.push_back(p);
    p = problem_t();
    p.name = "ic3_7x7_stride2_like_conv1";
    p.mb = 1;
    p.ic = 3;
    p.oc = 32;
    p.k[0] = p.k[1] = 7;
    p.s[0] = p.s[1] = 2;
    p.pl[0] = p.pl[1] = p.pr[0] = p.pr[1] = 3;
    p.i[0] = 11;
    p.i[1] = 30;
    v.push_back(p);
    p = problem_t();
    p.name = "g2_c16_3d";
    p.ns = 3;
    p.mb = 1;
    p.g = 2;
    p.groups_dim = true;
    p.ic = 16;
    p.oc = 16;
    p.i[0] = 3;
    p.i[1] = 4;
    p.i[2] = 5;
    v.push_back(p);
    p = problem_t();
    p.name = "1d_c16_stride3";
    p.ns = 1;
    p.ic = 16;
    p.oc = 48;
    p.i[0] = 20;
    p.k[0] = 5;
    p.s[0] = 3;
    p.pl[0] = 2;
    p.pr[0] = 1;
    v.push_back(p);
    return v;
}

struct conv_case {
    problem_t p;
    bool deconv;
    int cl;
    prop_kind dir;
};

class conv_shapes : public ::testing::TestWithParam<conv_case> {};

TEST_P(conv_shapes, matches_relation_on_every_impl) {
    const auto &c = GetParam();
    check(c.p, c.deconv, c.dir, c.cl);
}

std::vector<conv_case> all_cases() {
    std::vector<conv_case> v;
    for (const auto &p : shapes())
        for (bool deconv : {false, true})
            for (int cl : {ncx, nxc, blk16})
                for (prop_kind dir : {prop_kind::forward_training, prop_kind::backward_data,
                             prop_kind::backward_weights})
                    v.push_back({p, deconv, cl, dir});
    for (const auto &p : shapes16())
        for (bool deconv : {false, true})
            for (int cl : {ncx, nxc, blk16})
                for (prop_kind dir : {prop_kind::forward_training, prop_kind::backward_data,
                             prop_kind::backward_weights})
                    v.push_back({p, deconv, cl, dir});
    return v;
}

std::string case_name(const ::testing::TestParamInfo<conv_case> &i) {
    const auto &c = i.param;
    const char *d = c.dir == prop_kind::forward_training ? "fwd"
            : c.dir == prop_kind::backward_data         ? "bwd_d"
                                                        : "bwd_w";
    return c.p.name + (c.deconv ? "_deconv_" : "_conv_") + layout_name(c.cl) + "_" + d;
}

// The whole case in a failure message or a test listing (gtest prints raw bytes otherwise).
void PrintTo(const conv_case &c, std::ostream *os) {
    const problem_t &p = c.p;
    const auto spatial = [&](const int64_t *v) {
        std::string r;
        for (int x = 0; x < p.ns; ++x)
            r += (x ? "x" : "") + std::to_string(v[x]);
        return r;
    };
    *os << case_name({c, 0}) << " (mb " << p.mb << ", g " << p.g << ", ic " << p.ic << ", oc "
        << p.oc << ", i " << spatial(p.i) << ", k " << spatial(p.k) << ", s " << spatial(p.s)
        << ", d " << spatial(p.d) << ", pads " << spatial(p.pl) << " / " << spatial(p.pr)
        << (p.groups_dim ? ", grouped weights" : "") << ")";
}

INSTANTIATE_TEST_SUITE_P(convolution, conv_shapes, ::testing::ValuesIn(all_cases()), case_name);

TEST(convolution, bf16_and_f16_compute_in_f32) {
    problem_t p = shapes()[3];
    for (dt t : {dt::bf16, dt::f16})
        for (bool deconv : {false, true})
            for (prop_kind dir : {prop_kind::forward_training, prop_kind::backward_data,
                         prop_kind::backward_weights})
                check(p, deconv, dir, true, t, 1e-2);
}

// 8-bit float data (oneDNN's f8 convolution), computed in f32: each output is the exact sum
// rounded once to the format (half a step: 2^-3 relative for e5m2, 2^-4 for e4m3).
TEST(convolution, f8_computes_in_f32_and_rounds_once) {
    for (int k = 0; k < 2; ++k) {
        const problem_t p = shapes()[k == 0 ? 3 : 0];
        for (dt t : {dt::f8_e5m2, dt::f8_e4m3})
            for (bool deconv : {false, true})
                for (prop_kind dir : {prop_kind::forward_training, prop_kind::backward_data,
                             prop_kind::backward_weights})
                    check(p, deconv, dir, k == 0 ? nxc : ncx, t,
                            t == dt::f8_e5m2 ? 0.126 : 0.063);
    }
}

// A sum post-op on an f8 dst reads the old dst in its own format.
TEST(convolution, f8_sum_post_op_reads_dst_in_its_format) {
    runner_t r;
    const problem_t p = shapes()[0];
    for (dt t : {dt::f8_e5m2, dt::f8_e4m3}) {
        SCOPED_TRACE(static_cast<int>(t));
        const memory::desc src_md(p.src_dims(false), t, plain(p.ns + 2, ncx));
        const memory::desc dst_md(p.dst_dims(false), t, plain(p.ns + 2, ncx));
        const memory::desc wei_md(p.wei_dims(), t, tag::any);
        post_ops po;
        po.append_sum(0.5f);
        primitive_attr attr;
        attr.set_post_ops(po);
        const dims st = p.sp(p.s), dl = p.sp(p.d), pl = p.sp(p.pl), pr = p.sp(p.pr);
        convolution_forward::primitive_desc pd(r.eng, prop_kind::forward_inference,
                algorithm::convolution_direct, src_md, wei_md, memory::desc(), dst_md, st, dl,
                pl, pr, attr);
        tensor_t src(src_md, r.eng, -3, 3, 1), wei(pd.weights_desc(), r.eng, -2, 2, 2),
                dst(dst_md, r.eng, -4, 4, 3);
        std::vector<double> want(dst.v.size(), 0.0);
        relation(p, false, [&](int64_t s, int64_t w, int64_t d) { want[d] += src.v[s] * wei.v[w]; });
        for (size_t x = 0; x < want.size(); ++x)
            want[x] += 0.5 * dst.v[x];
        primitive(pd).execute(r.strm,
                {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_WEIGHTS, wei.mem}, {DNNL_ARG_DST, dst.mem}});
        r.strm.wait();
        expect_near_all(dst, want, t == dt::f8_e5m2 ? 0.126 : 0.063, "dst");
    }
}

// u8 src with a zero point, s8 weights with per-channel scales, dst with scale and zero point.
void check_int8(bool deconv, dt ddt) {
    SCOPED_TRACE(std::string(deconv ? "deconv" : "conv") + " dst "
            + std::to_string(static_cast<int>(ddt)));
    runner_t r;
    problem_t p = shapes()[3];
    const memory::desc src_md(p.src_dims(deconv), dt::u8, tag::nhwc);
    const memory::desc dst_md(p.dst_dims(deconv), ddt, tag::nhwc);
    const memory::desc wei_md(p.wei_dims(), dt::s8, tag::any);
    const memory::desc bia_md({p.g * p.oc}, dt::f32, tag::a);
    primitive_attr attr;
    attr.set_scales_mask(DNNL_ARG_SRC, 0);
    attr.set_scales_mask(DNNL_ARG_WEIGHTS, 3); // per (g, oc)
    attr.set_scales_mask(DNNL_ARG_DST, 0);
    attr.set_zero_points_mask(DNNL_ARG_SRC, 0);
    attr.set_zero_points_mask(DNNL_ARG_DST, 0);
    const dims st = p.sp(p.s), dl = p.sp(p.d), pl = p.sp(p.pl), pr = p.sp(p.pr);
    primitive_desc pd = deconv
            ? primitive_desc(deconvolution_forward::primitive_desc(r.eng,
                    prop_kind::forward_inference, algorithm::deconvolution_direct, src_md, wei_md,
                    bia_md, dst_md, st, dl, pl, pr, attr))
            : primitive_desc(convolution_forward::primitive_desc(r.eng,
                    prop_kind::forward_inference, algorithm::convolution_direct, src_md, wei_md,
                    bia_md, dst_md, st, dl, pl, pr, attr));
    tensor_t src(src_md, r.eng, 0, 9, 5), wei(pd.weights_desc(), r.eng, -3, 3, 6),
            dst(dst_md, r.eng, 0, 0, 7), bia(bia_md, r.eng, -4, 4, 8, 0.5);
    const int64_t nch = p.g * p.oc;
    memory::desc s1({1}, dt::f32, tag::a), sc({nch}, dt::f32, tag::a), z1({1}, dt::s32, tag::a);
    memory src_s(s1, r.eng), dst_s(s1, r.eng), wei_s(sc, r.eng), src_z(z1, r.eng),
            dst_z(z1, r.eng);
    static_cast<float *>(src_s.get_data_handle())[0] = 0.5f;
    static_cast<float *>(dst_s.get_data_handle())[0] = 2.f;
    for (int64_t c = 0; c < nch; ++c)
        static_cast<float *>(wei_s.get_data_handle())[c] = 0.25f * (1 + c % 3);
    static_cast<int32_t *>(src_z.get_data_handle())[0] = 4;
    static_cast<int32_t *>(dst_z.get_data_handle())[0] = ddt == dt::f32 ? 0 : 3;
    std::vector<double> acc(dst.v.size(), 0.0);
    relation(p, deconv, [&](int64_t s, int64_t w, int64_t d) { acc[d] += (src.v[s] - 4) * wei.v[w]; });
    const int64_t spat = volume(p.dst_dims(deconv)) / (p.mb * nch);
    std::vector<double> want(acc.size());
    for (size_t x = 0; x < acc.size(); ++x) {
        const int64_t c = x / spat % nch;
        double v = acc[x] * 0.5 * 0.25 * (1 + c % 3) + bia.v[c];
        v = v / 2.0 + (ddt == dt::f32 ? 0 : 3);
        if (ddt != dt::f32) v = std::nearbyint(v);
        if (ddt == dt::u8) v = std::min(255.0, std::max(0.0, v));
        if (ddt == dt::s8) v = std::min(127.0, std::max(-128.0, v));
        want[x] = v;
    }
    primitive(pd).execute(r.strm,
            {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_WEIGHTS, wei.mem}, {DNNL_ARG_BIAS, bia.mem},
                    {DNNL_ARG_DST, dst.mem}, {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, src_s},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, wei_s},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, dst_s},
                    {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, src_z},
                    {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST, dst_z}});
    r.strm.wait();
    // Halves round to even in the library and away from zero here: allow one step.
    expect_near_all(dst, want, ddt == dt::f32 ? 1e-5 : 0.34, "dst");
}

TEST(convolution, int8_scales_zero_points_every_dst_type) {
    for (bool deconv : {false, true})
        for (dt ddt : {dt::f32, dt::s32, dt::s8, dt::u8})
            check_int8(deconv, ddt);
}

// [sum +] eltwise + per-channel binary on every implementation, plain and blocked dst.
void check_post_ops(const problem_t &p, tag act_tag, bool with_sum = true) {
    SCOPED_TRACE(p.name + " tag " + std::to_string(static_cast<int>(act_tag)));
    runner_t r;
    const memory::desc src_md(p.src_dims(false), dt::f32, act_tag);
    const memory::desc dst_md(p.dst_dims(false), dt::f32, act_tag);
    const memory::desc wei_md(p.wei_dims(), dt::f32, tag::oihw);
    const memory::desc ch_md({1, p.oc, 1, 1}, dt::f32, tag::nchw);
    post_ops po;
    if (with_sum) po.append_sum(0.5f);
    po.append_eltwise(algorithm::eltwise_relu, 0.1f, 0.f);
    po.append_binary(algorithm::binary_add, ch_md);
    primitive_attr attr;
    attr.set_post_ops(po);
    const dims st = p.sp(p.s), dl = p.sp(p.d), pl = p.sp(p.pl), pr = p.sp(p.pr);
    convolution_forward::primitive_desc pd(r.eng, prop_kind::forward_inference,
            algorithm::convolution_direct, src_md, wei_md, memory::desc(), dst_md, st, dl, pl,
            pr, attr);
    int impls = 0;
    do {
        ++impls;
        SCOPED_TRACE(pd.impl_info_str());
        tensor_t src(src_md, r.eng, -3, 3, 11), wei(wei_md, r.eng, -2, 2, 12),
                dst(dst_md, r.eng, -5, 5, 13), ch(ch_md, r.eng, -3, 3, 14);
        std::vector<double> want(dst.v.size(), 0.0);
        relation(p, false, [&](int64_t s, int64_t w, int64_t d) { want[d] += src.v[s] * wei.v[w]; });
        const int64_t spat = volume(p.dst_dims(false)) / (p.mb * p.oc);
        for (size_t x = 0; x < want.size(); ++x) {
            double v = want[x] + (with_sum ? 0.5 * dst.v[x] : 0.0);
            v = v > 0 ? v : 0.1 * v;
            want[x] = v + ch.v[x / spat % p.oc];
        }
        primitive(pd).execute(r.strm, {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_WEIGHTS, wei.mem},
                {DNNL_ARG_DST, dst.mem},
                {DNNL_ARG_ATTR_MULTIPLE_POST_OP(with_sum ? 2 : 1) | DNNL_ARG_SRC_1, ch.mem}});
        r.strm.wait();
        expect_near_all(dst, want, 1e-5, "dst");
    } while (pd.next_impl());
    EXPECT_GE(impls, 1);
}

TEST(convolution, post_ops_sum_eltwise_binary) {
    check_post_ops(shapes()[0], tag::nchw);
    for (tag t : {tag::nchw, tag::nhwc, tag::nChw16c})
        check_post_ops(shapes16()[0], t);
    // 1x1 on plain channels-first: the GEMM path runs eltwise and binary on its blocks.
    for (bool with_sum : {false, true})
        check_post_ops(shapes16()[2], tag::nchw, with_sum);
}

TEST(convolution, any_layouts_resolve_to_plain_or_src_layout) {
    runner_t r;
    problem_t p = shapes()[0];
    const dims st = p.sp(p.s), dl = p.sp(p.d), pl = p.sp(p.pl), pr = p.sp(p.pr);
    convolution_forward::primitive_desc all_any(r.eng, prop_kind::forward_inference,
            algorithm::convolution_direct, memory::desc(p.src_dims(false), dt::f32, tag::any),
            memory::desc(p.wei_dims(), dt::f32, tag::any),
            memory::desc({p.oc}, dt::f32, tag::any),
            memory::desc(p.dst_dims(false), dt::f32, tag::any), st, dl, pl, pr);
    EXPECT_EQ(all_any.src_desc(), memory::desc(p.src_dims(false), dt::f32, tag::nchw));
    EXPECT_EQ(all_any.dst_desc(), memory::desc(p.dst_dims(false), dt::f32, tag::nchw));
    EXPECT_EQ(all_any.weights_desc(), memory::desc(p.wei_dims(), dt::f32, tag::oihw));
    convolution_forward::primitive_desc cl(r.eng, prop_kind::forward_inference,
            algorithm::convolution_direct, memory::desc(p.src_dims(false), dt::f32, tag::nhwc),
            memory::desc(p.wei_dims(), dt::f32, tag::any), memory::desc(),
            memory::desc(p.dst_dims(false), dt::f32, tag::any), st, dl, pl, pr);
    EXPECT_EQ(cl.dst_desc(), memory::desc(p.dst_dims(false), dt::f32, tag::nhwc));
    EXPECT_NE(std::string(cl.impl_info_str()).find("convolution"), std::string::npos);
}

// Output channels in 16s: `any` takes the direct kernel's blocked layouts (plain src when the
// input channels are few), and an explicit plain src keeps that kernel.
TEST(convolution, any_layouts_resolve_to_blocked_for_the_direct_kernel) {
    runner_t r;
    problem_t p = shapes16()[0];
    const dims st = p.sp(p.s), dl = p.sp(p.d), pl = p.sp(p.pl), pr = p.sp(p.pr);
    auto make = [&](const problem_t &q, tag src_tag) {
        return convolution_forward::primitive_desc(r.eng, prop_kind::forward_inference,
                algorithm::convolution_direct, memory::desc(q.src_dims(false), dt::f32, src_tag),
                memory::desc(q.wei_dims(), dt::f32, tag::any), memory::desc(),
                memory::desc(q.dst_dims(false), dt::f32, tag::any), st, dl, pl, pr);
    };
    auto all_any = make(p, tag::any);
    EXPECT_EQ(all_any.src_desc(), memory::desc(p.src_dims(false), dt::f32, tag::nChw16c));
    EXPECT_EQ(all_any.dst_desc(), memory::desc(p.dst_dims(false), dt::f32, tag::nChw16c));
    EXPECT_EQ(all_any.weights_desc(), memory::desc(p.wei_dims(), dt::f32, tag::OIhw16i16o));
    EXPECT_NE(std::string(all_any.impl_info_str()).find("direct"), std::string::npos);
    problem_t few = p;
    few.ic = 3;
    auto small_ic = make(few, tag::any);
    EXPECT_EQ(small_ic.src_desc(), memory::desc(few.src_dims(false), dt::f32, tag::nchw));
    EXPECT_EQ(small_ic.weights_desc(), memory::desc(few.wei_dims(), dt::f32, tag::Oihw16o));
    auto plain_src = make(p, tag::nchw);
    EXPECT_NE(std::string(plain_src.impl_info_str()).find("direct"), std::string::npos);
}

TEST(convolution, zero_minibatch_is_a_no_op) {
    runner_t r;
    problem_t p = shapes()[0];
    p.mb = 0;
    const dims st = p.sp(p.s), dl = p.sp(p.d), pl = p.sp(p.pl), pr = p.sp(p.pr);
    const memory::desc src_md(p.src_dims(false), dt::f32, tag::nchw),
            dst_md(p.dst_dims(false), dt::f32, tag::nchw),
            wei_md(p.wei_dims(), dt::f32, tag::oihw);
    convolution_forward::primitive_desc pd(r.eng, prop_kind::forward_inference,
            algorithm::convolution_direct, src_md, wei_md, memory::desc(), dst_md, st, dl, pl, pr);
    memory src(src_md, r.eng), wei(wei_md, r.eng), dst(dst_md, r.eng);
    primitive(pd).execute(r.strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst}});
    r.strm.wait();
}

TEST(convolution, bad_arguments_are_rejected_with_a_status) {
    dnnl_engine_t eng;
    ASSERT_EQ(dnnl_engine_create(&eng, dnnl_cpu, 0), dnnl_success);
    auto md = [](dnnl_dims_t d, int nd, dnnl_format_tag_t t) {
        dnnl_memory_desc_t m;
        EXPECT_EQ(dnnl_memory_desc_create_with_tag(&m, nd, d, dnnl_f32, t), dnnl_success);
        return m;
    };
    dnnl_dims_t sd = {2, 4, 8, 8}, wd = {6, 4, 3, 3}, dd = {2, 6, 8, 8}, bad_dd = {2, 6, 7, 8},
                wrong_ic = {6, 3, 3, 3};
    dnnl_memory_desc_t src = md(sd, 4, dnnl_nchw), wei = md(wd, 4, dnnl_oihw),
                       dst = md(dd, 4, dnnl_nchw), bad_dst = md(bad_dd, 4, dnnl_nchw),
                       bad_wei = md(wrong_ic, 4, dnnl_oihw),
                       blocked = md(sd, 4, dnnl_nChw16c);
    dnnl_dims_t one = {1, 1}, zero = {0, 0}, pad = {1, 1};
    dnnl_primitive_desc_t pd = nullptr;
    // The stub answered dnnl_unimplemented; a valid problem is created now.
    EXPECT_EQ(dnnl_convolution_forward_primitive_desc_create(&pd, eng, dnnl_forward_inference,
                      dnnl_convolution_direct, src, wei, nullptr, dst, one, zero, pad, pad,
                      nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    EXPECT_EQ(dnnl_convolution_forward_primitive_desc_create(&pd, eng, dnnl_forward_inference,
                      dnnl_convolution_direct, src, wei, nullptr, bad_dst, one, zero, pad, pad,
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_convolution_forward_primitive_desc_create(&pd, eng, dnnl_forward_inference,
                      dnnl_convolution_direct, src, bad_wei, nullptr, dst, one, zero, pad, pad,
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_convolution_forward_primitive_desc_create(&pd, eng, dnnl_backward_data,
                      dnnl_convolution_direct, src, wei, nullptr, dst, one, zero, pad, pad,
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_convolution_forward_primitive_desc_create(&pd, eng, dnnl_forward_inference,
                      dnnl_deconvolution_direct, src, wei, nullptr, dst, one, zero, pad, pad,
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_convolution_forward_primitive_desc_create(&pd, eng, dnnl_forward_inference,
                      dnnl_convolution_direct, src, wei, nullptr, dst, one, zero, nullptr, pad,
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_convolution_forward_primitive_desc_create(nullptr, eng,
                      dnnl_forward_inference, dnnl_convolution_direct, src, wei, nullptr, dst,
                      one, zero, pad, pad, nullptr),
            dnnl_invalid_arguments);
    // Blocked layouts are taken; f32 data with s8 weights is not.
    EXPECT_EQ(dnnl_convolution_forward_primitive_desc_create(&pd, eng, dnnl_forward_inference,
                      dnnl_convolution_direct, blocked, wei, nullptr, dst, one, zero, pad, pad,
                      nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_t s8_wei;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&s8_wei, 4, wd, dnnl_s8, dnnl_oihw),
            dnnl_success);
    EXPECT_EQ(dnnl_convolution_forward_primitive_desc_create(&pd, eng, dnnl_forward_inference,
                      dnnl_convolution_direct, src, s8_wei, nullptr, dst, one, zero, pad, pad,
                      nullptr),
            dnnl_unimplemented);
    dnnl_memory_desc_destroy(s8_wei);
    // Deconvolution: src 8x8 stride 1 pad 1 gives dst 8x8; 7x8 is inconsistent.
    EXPECT_EQ(dnnl_deconvolution_backward_data_primitive_desc_create(&pd, eng,
                      dnnl_deconvolution_direct, src, wei, bad_dst, one, zero, pad, pad,
                      nullptr, nullptr),
            dnnl_invalid_arguments);
    // Right padding below zero by less than a stride is a valid geometry (src 8 -> dst 4 with
    // a 1x1 kernel, stride 2: right padding -1); by a whole stride it is not (stride 1).
    dnnl_dims_t w1x1 = {6, 4, 1, 1}, d4 = {2, 6, 4, 4}, d7 = {2, 6, 7, 7}, two = {2, 2},
                minus1 = {-1, -1};
    dnnl_memory_desc_t wei1 = md(w1x1, 4, dnnl_oihw), dst4 = md(d4, 4, dnnl_nchw),
                       dst7 = md(d7, 4, dnnl_nchw);
    EXPECT_EQ(dnnl_convolution_forward_primitive_desc_create(&pd, eng, dnnl_forward_inference,
                      dnnl_convolution_direct, src, wei1, nullptr, dst4, two, zero, zero,
                      minus1, nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    EXPECT_EQ(dnnl_convolution_forward_primitive_desc_create(&pd, eng, dnnl_forward_inference,
                      dnnl_convolution_direct, src, wei1, nullptr, dst7, one, zero, zero,
                      minus1, nullptr),
            dnnl_invalid_arguments);
    for (auto m : {wei1, dst4, dst7})
        dnnl_memory_desc_destroy(m);
    for (auto m : {src, wei, dst, bad_dst, bad_wei, blocked})
        dnnl_memory_desc_destroy(m);
    dnnl_engine_destroy(eng);
}

} // namespace
