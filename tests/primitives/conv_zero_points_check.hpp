// int8 convolution and deconvolution forward with src and dst zero points per channel (mask
// 2: bit 1 of the activation dims N, C, spatial...), common, or both kinds mixed, on the
// caller's engine: checked against convolution_ref's relation, every value exact (integer
// data, no scales), saturated to the dst type. Shared by the CPU engine's tests and the GPU's.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "primitives/convolution_ref.hpp"

namespace conv_zero_points {

using dt = dnnl::memory::data_type;
using convolution_ref::problem_t;

struct case_t {
    problem_t p;
    bool deconv = false;
    dt sdt = dt::u8, ddt = dt::s8;
    bool channels_last = false;
    int src_mask = 2, dst_mask = 2; // -1: no zero point
};

// Dense strides of dims, channels last (N, spatial..., C) when asked.
inline dnnl::memory::dims strides_of(const dnnl::memory::dims &d, bool channels_last) {
    const int nd = static_cast<int>(d.size());
    std::vector<int> order(nd);
    for (int x = 0; x < nd; ++x)
        order[x] = x;
    if (channels_last && nd > 2) {
        order.erase(order.begin() + 1);
        order.push_back(1);
    }
    dnnl::memory::dims st(nd, 0);
    int64_t s = 1;
    for (int x = nd - 1; x >= 0; --x) {
        st[order[x]] = s;
        s *= d[order[x]];
    }
    return st;
}

// Physical offset of each dense (row-major) logical index.
inline std::vector<int64_t> offsets(const dnnl::memory::dims &d, const dnnl::memory::dims &st) {
    std::vector<int64_t> r(static_cast<size_t>(convolution_ref::volume(d)));
    for (size_t li = 0; li < r.size(); ++li) {
        int64_t rem = static_cast<int64_t>(li), off = 0;
        for (int x = static_cast<int>(d.size()) - 1; x >= 0; --x) {
            off += rem % d[x] * st[x];
            rem /= d[x];
        }
        r[li] = off;
    }
    return r;
}

inline void store_value(dt t, void *b, int64_t i, double v) {
    switch (t) {
        case dt::s8: static_cast<int8_t *>(b)[i] = static_cast<int8_t>(v); break;
        case dt::u8: static_cast<uint8_t *>(b)[i] = static_cast<uint8_t>(v); break;
        case dt::s32: static_cast<int32_t *>(b)[i] = static_cast<int32_t>(v); break;
        default: static_cast<float *>(b)[i] = static_cast<float>(v); break;
    }
}
inline double load_value(dt t, const void *b, int64_t i) {
    switch (t) {
        case dt::s8: return static_cast<const int8_t *>(b)[i];
        case dt::u8: return static_cast<const uint8_t *>(b)[i];
        case dt::s32: return static_cast<const int32_t *>(b)[i];
        default: return static_cast<const float *>(b)[i];
    }
}

// Memory of dims with dense values `v` written at their physical places.
inline dnnl::memory make_memory(const dnnl::engine &eng, const dnnl::memory::dims &d, dt t,
        bool channels_last, const std::vector<double> &v) {
    const dnnl::memory::dims st = strides_of(d, channels_last);
    dnnl::memory m(dnnl::memory::desc(d, t, st), eng);
    if (v.empty()) return m;
    void *p = m.map_data();
    const auto offs = offsets(d, st);
    for (size_t i = 0; i < v.size(); ++i)
        store_value(t, p, offs[i], v[i]);
    m.unmap_data(p);
    return m;
}

inline double saturate(dt t, double v) {
    if (t == dt::s8) return std::min(127.0, std::max(-128.0, v));
    if (t == dt::u8) return std::min(255.0, std::max(0.0, v));
    return v;
}

// Zero points of one argument: one value (mask 0) or one per channel.
inline std::vector<double> zero_points(int mask, int64_t channels, int salt) {
    if (mask < 0) return {};
    std::vector<double> z(mask ? static_cast<size_t>(channels) : 1);
    for (size_t c = 0; c < z.size(); ++c)
        z[c] = static_cast<double>((static_cast<int>(c) * 7 + salt) % 11 - 4);
    return z;
}

// Returns the number of output values checked (0 for an empty problem).
inline int64_t check(const dnnl::engine &eng, const case_t &c) {
    using namespace dnnl;
    const problem_t &p = c.p;
    SCOPED_TRACE(p.name + (c.deconv ? " deconv" : " conv") + " src " + std::to_string(int(c.sdt))
            + " dst " + std::to_string(int(c.ddt)) + (c.channels_last ? " nxc" : " ncx")
            + " masks " + std::to_string(c.src_mask) + "/" + std::to_string(c.dst_mask));
    stream strm(eng);
    const memory::dims sd = p.src_dims(c.deconv), dd = p.dst_dims(c.deconv),
                       wd = p.wei_dims();
    const int64_t sch = sd[1], dch = dd[1];
    const int64_t n_src = convolution_ref::volume(sd), n_dst = convolution_ref::volume(dd);

    std::vector<double> src(static_cast<size_t>(n_src)), wei(convolution_ref::volume(wd));
    for (size_t i = 0; i < src.size(); ++i)
        src[i] = c.sdt == dt::u8 ? double((i * 5 + 3) % 23) : double((i * 5 + 3) % 23) - 11;
    for (size_t i = 0; i < wei.size(); ++i)
        wei[i] = double((i * 3 + 1) % 7) - 3;
    const std::vector<double> zs = zero_points(c.src_mask, sch, 1),
                              zd = zero_points(c.dst_mask, dch, 5);

    std::vector<double> want(static_cast<size_t>(n_dst), 0.0);
    const int64_t sspat = n_src / std::max<int64_t>(1, p.mb * sch),
                  dspat = n_dst / std::max<int64_t>(1, p.mb * dch);
    relation(p, c.deconv, [&](int64_t s, int64_t w, int64_t t) {
        const double z = zs.empty() ? 0.0 : zs[zs.size() == 1 ? 0 : s / sspat % sch];
        want[t] += (src[s] - z) * wei[w];
    });
    for (size_t x = 0; x < want.size(); ++x) {
        const double z = zd.empty() ? 0.0 : zd[zd.size() == 1 ? 0 : x / dspat % dch];
        want[x] = saturate(c.ddt, want[x] + z);
    }

    primitive_attr attr;
    if (c.src_mask >= 0) attr.set_zero_points_mask(DNNL_ARG_SRC, c.src_mask);
    if (c.dst_mask >= 0) attr.set_zero_points_mask(DNNL_ARG_DST, c.dst_mask);
    const memory::dims wst = strides_of(wd, false);
    const memory::desc src_md(sd, c.sdt, strides_of(sd, c.channels_last)),
            dst_md(dd, c.ddt, strides_of(dd, c.channels_last)), wei_md(wd, dt::s8, wst);
    const memory::dims st = p.sp(p.s), dl = p.sp(p.d), pl = p.sp(p.pl), pr = p.sp(p.pr);
    primitive_desc pd = c.deconv
            ? primitive_desc(deconvolution_forward::primitive_desc(eng,
                    prop_kind::forward_inference, algorithm::deconvolution_direct, src_md,
                    wei_md, memory::desc(), dst_md, st, dl, pl, pr, attr))
            : primitive_desc(convolution_forward::primitive_desc(eng,
                    prop_kind::forward_inference, algorithm::convolution_direct, src_md, wei_md,
                    memory::desc(), dst_md, st, dl, pl, pr, attr));
    SCOPED_TRACE(pd.impl_info_str());
    memory src_m = make_memory(eng, sd, c.sdt, c.channels_last, src);
    memory wei_m = make_memory(eng, wd, dt::s8, false, wei);
    memory dst_m = make_memory(eng, dd, c.ddt, c.channels_last, {});
    std::unordered_map<int, memory> args = {
            {DNNL_ARG_SRC, src_m}, {DNNL_ARG_WEIGHTS, wei_m}, {DNNL_ARG_DST, dst_m}};
    if (!zs.empty())
        args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC] = make_memory(eng,
                {static_cast<int64_t>(zs.size())}, dt::s32, false, zs);
    if (!zd.empty())
        args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST] = make_memory(eng,
                {static_cast<int64_t>(zd.size())}, dt::s32, false, zd);
    primitive(pd).execute(strm, args);
    strm.wait();
    if (n_dst == 0) return 0;
    const auto offs = offsets(dd, strides_of(dd, c.channels_last));
    const void *out = dst_m.map_data();
    int bad = 0;
    for (size_t x = 0; x < want.size() && bad < 5; ++x) {
        const double got = load_value(c.ddt, out, offs[x]);
        if (got != want[x]) {
            ++bad;
            ADD_FAILURE() << "dst[" << x << "] = " << got << ", want " << want[x];
        }
    }
    dst_m.unmap_data(const_cast<void *>(out));
    return n_dst;
}

// Edge shapes: a single channel, odd sizes, strides and padding with tails, groups, 1D/2D/3D,
// and an empty batch.
inline std::vector<problem_t> shapes() {
    std::vector<problem_t> v;
    problem_t a;
    a.name = "2d_odd";
    a.mb = 2, a.ic = 3, a.oc = 5, a.i[0] = 5, a.i[1] = 7;
    v.push_back(a);
    problem_t b;
    b.name = "2d_groups_stride";
    b.mb = 1, b.g = 2, b.groups_dim = true, b.ic = 3, b.oc = 2, b.i[0] = 6, b.i[1] = 5;
    b.k[0] = 2, b.k[1] = 3, b.s[0] = 2, b.s[1] = 1, b.pl[0] = 0, b.pr[0] = 1;
    v.push_back(b);
    problem_t c;
    c.name = "1d_one_channel";
    c.ns = 1, c.mb = 1, c.ic = 1, c.oc = 1, c.i[0] = 9, c.k[0] = 3, c.s[0] = 2, c.d[0] = 1;
    c.pl[0] = 2, c.pr[0] = 2;
    v.push_back(c);
    problem_t d;
    d.name = "3d";
    d.ns = 3, d.mb = 1, d.ic = 2, d.oc = 3, d.i[0] = 3, d.i[1] = 4, d.i[2] = 5;
    d.k[0] = d.k[1] = d.k[2] = 2, d.pl[0] = d.pl[1] = d.pl[2] = 0;
    d.pr[0] = d.pr[1] = d.pr[2] = 0;
    v.push_back(d);
    return v;
}

// Every shape, conv and deconv, through the dst types, both source types, both layouts and
// per-channel / common / absent zero points on each side.
inline void check_all(const dnnl::engine &eng) {
    const dt dsts[] = {dt::s8, dt::u8, dt::f32, dt::s32};
    const int masks[][2] = {{2, 2}, {2, -1}, {-1, 2}, {0, 2}, {2, 0}};
    int k = 0;
    int64_t checked = 0;
    for (const problem_t &p : shapes())
        for (bool deconv : {false, true})
            for (const auto &m : masks) {
                case_t c;
                c.p = p;
                c.deconv = deconv;
                c.src_mask = m[0];
                c.dst_mask = m[1];
                c.sdt = k % 2 ? dt::s8 : dt::u8;
                c.ddt = dsts[k % 4];
                c.channels_last = k % 3 == 1;
                ++k;
                checked += check(eng, c);
            }
    EXPECT_GT(checked, 0);
    // An empty batch runs and writes nothing.
    case_t e;
    e.p = shapes()[0];
    e.p.mb = 0;
    for (bool deconv : {false, true}) {
        e.deconv = deconv;
        EXPECT_EQ(check(eng, e), 0);
    }
}

// The creation status of a conv (or deconv) of `sdt` data with zero points `arg`:`mask`.
inline dnnl_status_t create_status(
        const dnnl::engine &eng, bool deconv, dt sdt, int arg, int mask) {
    using namespace dnnl;
    problem_t p = shapes()[0];
    primitive_attr attr;
    attr.set_zero_points_mask(arg, mask);
    const dt wdt = sdt == dt::f32 ? dt::f32 : dt::s8;
    const memory::desc src_md(p.src_dims(deconv), sdt, memory::format_tag::nchw),
            dst_md(p.dst_dims(deconv), dt::f32, memory::format_tag::nchw),
            wei_md(p.wei_dims(), wdt, memory::format_tag::oihw);
    const memory::dims st = p.sp(p.s), dl = p.sp(p.d), pl = p.sp(p.pl), pr = p.sp(p.pr);
    try {
        if (deconv)
            deconvolution_forward::primitive_desc(eng, prop_kind::forward_inference,
                    algorithm::deconvolution_direct, src_md, wei_md, memory::desc(), dst_md, st,
                    dl, pl, pr, attr);
        else
            convolution_forward::primitive_desc(eng, prop_kind::forward_inference,
                    algorithm::convolution_direct, src_md, wei_md, memory::desc(), dst_md, st,
                    dl, pl, pr, attr);
    } catch (const dnnl::error &e) {
        return e.status;
    }
    return dnnl_success;
}

// Zero points per batch (mask 1), per spatial position (mask 4) or on weights, and on a
// floating-point convolution, are refused; per channel is taken.
inline void check_refusals(const dnnl::engine &eng) {
    for (bool deconv : {false, true}) {
        SCOPED_TRACE(deconv ? "deconv" : "conv");
        EXPECT_EQ(create_status(eng, deconv, dt::u8, DNNL_ARG_SRC, 2), dnnl_success);
        EXPECT_EQ(create_status(eng, deconv, dt::u8, DNNL_ARG_DST, 2), dnnl_success);
        EXPECT_EQ(create_status(eng, deconv, dt::u8, DNNL_ARG_SRC, 1), dnnl_unimplemented);
        EXPECT_EQ(create_status(eng, deconv, dt::u8, DNNL_ARG_DST, 4), dnnl_unimplemented);
        EXPECT_EQ(create_status(eng, deconv, dt::u8, DNNL_ARG_WEIGHTS, 0), dnnl_unimplemented);
        EXPECT_EQ(create_status(eng, deconv, dt::f32, DNNL_ARG_SRC, 2), dnnl_unimplemented);
    }
}

} // namespace conv_zero_points
