// ocl:bnorm:flat on channel-blocked layouts (nChw16c, nChw8c, nCw16c, nCdhw16c): forward
// training and inference, backward with and without diff scale/shift, global statistics,
// scale, shift, fused relu (with its workspace) and add+relu, f32 and bf16, against a double
// reference written here. Channel tails (C not a multiple of the block) must leave the padding
// channels zero; size 1 and zero batches run. ctest runs it with the GPU row of the tuning
// table (vectors of four, work-groups) and, in a second run, with the device's own row.
#include <cmath>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "dnnl.hpp"
#include "host_values.hpp"

namespace {

using namespace dnnl;
using namespace host_values;
using tag = memory::format_tag;
using dt = memory::data_type;
using nf = normalization_flags;

// A blocked tensor N x C x S (S the spatial product) with channels in blocks of B.
struct blk_t {
    int64_t N, C, S, B;
    int64_t cpad() const {
        return (C + B - 1) / B * B;
    }
    size_t size() const {
        return size_t(N * cpad() * S);
    }
    size_t at(int64_t n, int64_t c, int64_t s) const {
        return size_t(((n * (cpad() / B) + c / B) * S + s) * B + c % B);
    }
};

// Values in physical order: deterministic for real channels, zero in the padding.
std::vector<float> blocked_values(const blk_t &t, float seed, float lo, float span, bool bf16) {
    std::vector<float> v(t.size(), 0.f);
    for (int64_t n = 0; n < t.N; ++n)
        for (int64_t c = 0; c < t.C; ++c)
            for (int64_t s = 0; s < t.S; ++s) {
                const size_t i = t.at(n, c, s);
                float x = lo + span * (0.5f + 0.5f * std::sin(0.731f * float(i) + seed));
                v[i] = bf16 ? bf16_round(x) : x;
            }
    return v;
}

std::vector<float> plain_values(int64_t n, float seed, float lo, float span) {
    std::vector<float> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
        v[size_t(i)] = lo + span * (0.5f + 0.5f * std::sin(1.37f * float(i) + seed));
    return v;
}

// Writes `v` (physical order) into m as its data type (f32, bf16 truncated, u8).
struct case_t {
    memory::dims d;
    tag t;
    int64_t block;
};

int64_t spatial(const memory::dims &d) {
    int64_t s = 1;
    for (size_t k = 2; k < d.size(); ++k)
        s *= d[k];
    return s;
}

const case_t cases[] = {{{2, 16, 5, 5}, tag::nChw16c, 16}, {{3, 17, 7, 3}, tag::nChw16c, 16},
        {{2, 35, 3, 2}, tag::nChw8c, 8}, {{1, 1, 1, 1}, tag::nChw16c, 16},
        {{4, 40, 1, 1}, tag::nChw16c, 16}, {{5, 24, 9, 9}, tag::nChw8c, 8},
        {{2, 19, 11}, tag::nCw16c, 16}, {{2, 18, 3, 2, 3}, tag::nCdhw16c, 16},
        {{9, 5, 2, 2}, tag::nChw8c, 8}};

// The statistics, normalized values and outputs of the reference, per (n, c, s) in the
// blocked physical order.
struct ref_fwd_t {
    std::vector<double> mean, var, y, pre; // pre: before the relu
    std::vector<bool> on;                  // relu mask
};

ref_fwd_t reference_fwd(const blk_t &t, const std::vector<float> &x, const std::vector<float> *src1,
        const std::vector<float> &m_in, const std::vector<float> &v_in,
        const std::vector<float> &sc, const std::vector<float> &sh, bool global, bool scale,
        bool shift, bool relu, double eps) {
    ref_fwd_t r;
    r.mean.assign(size_t(t.C), 0.0);
    r.var.assign(size_t(t.C), 0.0);
    r.y.assign(t.size(), 0.0); // the padding stays zero
    r.on.assign(t.size(), false);
    r.pre.assign(t.size(), 0.0);
    const double cnt = double(t.N * t.S);
    for (int64_t c = 0; c < t.C; ++c) {
        double m = 0, v = 0;
        if (global) {
            m = m_in[size_t(c)];
            v = v_in[size_t(c)];
        } else if (cnt > 0) {
            for (int64_t n = 0; n < t.N; ++n)
                for (int64_t s = 0; s < t.S; ++s)
                    m += x[t.at(n, c, s)];
            m /= cnt;
            for (int64_t n = 0; n < t.N; ++n)
                for (int64_t s = 0; s < t.S; ++s)
                    v += (x[t.at(n, c, s)] - m) * (x[t.at(n, c, s)] - m);
            v /= cnt;
        }
        r.mean[size_t(c)] = m;
        r.var[size_t(c)] = v;
        for (int64_t n = 0; n < t.N; ++n)
            for (int64_t s = 0; s < t.S; ++s) {
                const size_t i = t.at(n, c, s);
                double y = (x[i] - m) / std::sqrt(v + eps) * (scale ? sc[size_t(c)] : 1.0)
                           + (shift ? sh[size_t(c)] : 0.0);
                if (src1) y += (*src1)[i];
                r.on[i] = y > 0;
                r.pre[i] = y;
                r.y[i] = relu && y <= 0 ? 0.0 : y;
            }
    }
    return r;
}

// The bf16 inputs are bf16 values: the device sees them as they are, so the reference must
// too (g++ once dropped the truncation of the values below, at -O1 and -O2).
TEST(BnormBlocked, Bf16InputsAreExact) {
    const blk_t t{3, 17, 21, 16};
    const std::vector<float> x = blocked_values(t, 0.3f, 3.f, 4.f, true);
    for (size_t i = 0; i < x.size(); ++i)
        ASSERT_EQ(x[i], bf16_round(x[i])) << "at " << i;
}

// Forward training (statistics out) and inference (global statistics), every combination of
// scale, shift and relu (fused, with and without the workspace; add+relu), f32 and bf16.
TEST(BnormBlocked, ForwardEveryFlag) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (const auto &k : cases)
        for (dt type : {dt::f32, dt::bf16})
            for (int variant = 0; variant < 8; ++variant) {
                const bool global = variant & 1, scale = variant & 2, shift = variant & 4;
                for (int relu = 0; relu < 3; ++relu) { // 0 none, 1 fuse_norm_relu, 2 add+relu
                    const bool bf16 = type == dt::bf16;
                    if (relu == 2 && (global || bf16)) continue;
                    const blk_t t{k.d[0], k.d[1], spatial(k.d), k.block};
                    SCOPED_TRACE(std::to_string(t.N) + "x" + std::to_string(t.C) + "x"
                                 + std::to_string(t.S) + " block " + std::to_string(t.B)
                                 + (bf16 ? " bf16" : " f32") + " variant " + std::to_string(variant)
                                 + " relu " + std::to_string(relu));
                    const memory::desc md(k.d, type, k.t), cmd({t.C}, dt::f32, tag::a);
                    auto flags = nf::none;
                    if (global) flags |= nf::use_global_stats;
                    if (scale) flags |= nf::use_scale;
                    if (shift) flags |= nf::use_shift;
                    if (relu == 1) flags |= nf::fuse_norm_relu;
                    if (relu == 2) flags |= nf::fuse_norm_add_relu;
                    const auto prop =
                            global ? prop_kind::forward_inference : prop_kind::forward_training;
                    batch_normalization_forward::primitive_desc pd(e, prop, md, md, 1e-3f, flags);
                    expect_impl(pd, "ocl:bnorm:flat");
                    // An offset from zero makes the statistics' rounding visible.
                    const std::vector<float> x = blocked_values(t, 0.3f, 3.f, 4.f, bf16);
                    const std::vector<float> x1 = blocked_values(t, 0.8f, -1.f, 2.f, false);
                    const std::vector<float> sc = plain_values(t.C, 1.1f, -1.f, 2.f),
                                             sh = plain_values(t.C, 2.2f, -1.f, 2.f),
                                             mi = plain_values(t.C, 0.6f, 3.f, 4.f),
                                             vi = plain_values(t.C, 0.9f, 0.5f, 2.f);
                    memory src = make(e, md, x),
                           dst = make(e, md, std::vector<float>(t.size(), 7.f));
                    memory mean = make(e, cmd, mi), var = make(e, cmd, vi);
                    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst},
                            {DNNL_ARG_MEAN, mean}, {DNNL_ARG_VARIANCE, var},
                            {DNNL_ARG_SCALE, make(e, cmd, sc)}, {DNNL_ARG_SHIFT, make(e, cmd, sh)}};
                    if (relu == 2) args[DNNL_ARG_SRC_1] = make(e, md, x1);
                    memory ws;
                    if (pd.workspace_desc().get_size()) {
                        ws = memory(pd.workspace_desc(), e);
                        args[DNNL_ARG_WORKSPACE] = ws;
                    }
                    batch_normalization_forward(pd).execute(s, args);
                    s.wait();
                    const ref_fwd_t r = reference_fwd(t, x, relu == 2 ? &x1 : nullptr, mi, vi, sc,
                            sh, global, scale, shift, relu != 0, 1e-3);
                    if (!global) {
                        expect_near(read(mean), r.mean, 1e-5, "mean");
                        expect_near(read(var), r.var, 1e-4, "variance");
                    }
                    expect_near(read(dst), r.y, bf16 ? 1e-2 : 1e-4, "dst (padding zero)");
                    if (ws && !global) {
                        // The workspace holds the relu mask in src's layout, u8.
                        const std::vector<float> w = read(ws);
                        ASSERT_EQ(w.size(), t.size());
                        for (int64_t n = 0; n < t.N; ++n)
                            for (int64_t c = 0; c < t.C; ++c)
                                for (int64_t q = 0; q < t.S; ++q) {
                                    const size_t i = t.at(n, c, q);
                                    if (std::fabs(r.pre[i]) > 1e-3) { // a clear sign
                                        ASSERT_EQ(w[i] != 0.f, r.on[i]) << "workspace at " << i;
                                    }
                                }
                    }
                }
            }
}

// Backward (diff scale and shift) and backward data, with computed or global statistics,
// with and without scale and the fused relu (mask from the forward's workspace).
TEST(BnormBlocked, BackwardEveryFlag) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    for (const auto &k : cases)
        for (dt type : {dt::f32, dt::bf16})
            for (int variant = 0; variant < 16; ++variant) {
                const bool global = variant & 1, scale = variant & 2, relu = variant & 4,
                           data_only = variant & 8;
                const bool bf16 = type == dt::bf16;
                const blk_t t{k.d[0], k.d[1], spatial(k.d), k.block};
                SCOPED_TRACE(std::to_string(t.N) + "x" + std::to_string(t.C) + "x"
                             + std::to_string(t.S) + " block " + std::to_string(t.B)
                             + (bf16 ? " bf16" : " f32") + " variant " + std::to_string(variant));
                const memory::desc md(k.d, type, k.t), cmd({t.C}, dt::f32, tag::a);
                auto flags = nf::use_shift;
                if (global) flags |= nf::use_global_stats;
                if (scale) flags |= nf::use_scale;
                if (relu) flags |= nf::fuse_norm_relu;
                const double eps = 1e-2;
                batch_normalization_forward::primitive_desc fpd(
                        e, prop_kind::forward_training, md, md, float(eps), flags);
                batch_normalization_backward::primitive_desc pd(e,
                        data_only ? prop_kind::backward_data : prop_kind::backward, md, md, md,
                        float(eps), flags, fpd);
                expect_impl(pd, "ocl:bnorm:flat");
                const std::vector<float> x = blocked_values(t, 0.2f, -2.f, 4.f, bf16);
                const std::vector<float> g = blocked_values(t, 1.3f, -2.f, 4.f, bf16);
                const std::vector<float> sc = plain_values(t.C, 1.9f, -1.f, 2.f),
                                         sh = plain_values(t.C, 0.4f, -1.f, 2.f);
                const std::vector<float> mi = plain_values(t.C, 0.6f, -0.5f, 1.f),
                                         vi = plain_values(t.C, 0.8f, 0.5f, 2.f);
                memory src = make(e, md, x), mean = make(e, cmd, mi), var = make(e, cmd, vi);
                memory scm = make(e, cmd, sc), shm = make(e, cmd, sh);
                // The relu mask: the forward with these statistics as global ones is not
                // what training runs, so the mask comes from a training forward whose
                // statistics then feed the backward.
                memory ws;
                std::vector<bool> on(t.size(), true);
                std::vector<float> m = mi, v = vi;
                if (relu) {
                    memory dst(md, e);
                    ws = memory(fpd.workspace_desc(), e);
                    batch_normalization_forward(fpd).execute(
                            s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}, {DNNL_ARG_MEAN, mean},
                                       {DNNL_ARG_VARIANCE, var}, {DNNL_ARG_SCALE, scm},
                                       {DNNL_ARG_SHIFT, shm}, {DNNL_ARG_WORKSPACE, ws}});
                    s.wait();
                    m = read(mean);
                    v = read(var);
                    const std::vector<float> w = read(ws);
                    for (size_t i = 0; i < on.size(); ++i)
                        on[i] = w[i] != 0.f;
                }
                memory ds = make(e, md, std::vector<float>(t.size(), 7.f)), dsc(cmd, e),
                       dsh(cmd, e);
                std::unordered_map<int, memory> args{{DNNL_ARG_SRC, src},
                        {DNNL_ARG_DIFF_DST, make(e, md, g)}, {DNNL_ARG_MEAN, mean},
                        {DNNL_ARG_VARIANCE, var}, {DNNL_ARG_SCALE, scm}, {DNNL_ARG_DIFF_SRC, ds}};
                if (!data_only) {
                    args[DNNL_ARG_DIFF_SCALE] = dsc;
                    args[DNNL_ARG_DIFF_SHIFT] = dsh;
                }
                if (relu) args[DNNL_ARG_WORKSPACE] = ws;
                batch_normalization_backward(pd).execute(s, args);
                s.wait();
                std::vector<double> want(t.size(), 0.0), wsc(size_t(t.C)), wsh(size_t(t.C));
                const double cnt = double(t.N * t.S);
                for (int64_t c = 0; c < t.C; ++c) {
                    const double inv = 1.0 / std::sqrt(double(v[size_t(c)]) + eps);
                    double sg = 0, sgx = 0;
                    for (int64_t n = 0; n < t.N; ++n)
                        for (int64_t q = 0; q < t.S; ++q) {
                            const size_t i = t.at(n, c, q);
                            const double gi = on[i] ? g[i] : 0.0;
                            sg += gi;
                            sgx += gi * (x[i] - m[size_t(c)]) * inv;
                        }
                    wsc[size_t(c)] = sgx;
                    wsh[size_t(c)] = sg;
                    const double a = (scale ? sc[size_t(c)] : 1.0) * inv;
                    for (int64_t n = 0; n < t.N; ++n)
                        for (int64_t q = 0; q < t.S; ++q) {
                            const size_t i = t.at(n, c, q);
                            const double gi = on[i] ? g[i] : 0.0;
                            const double xh = (x[i] - m[size_t(c)]) * inv;
                            want[i] = global ? a * gi : a * (gi - sg / cnt - xh * sgx / cnt);
                        }
                }
                expect_near(read(ds), want, bf16 ? 1e-2 : 1e-4, "diff_src (padding zero)");
                if (!data_only) { // diff scale where scale takes part; shift always does
                    if (scale) expect_near(read(dsc), wsc, 1e-4, "diff_scale");
                    expect_near(read(dsh), wsh, 1e-4, "diff_shift");
                }
            }
}

// A zero batch: statistics of nothing are zero, nothing else is written.
TEST(BnormBlocked, ZeroBatch) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    stream s(e);
    const memory::desc md({0, 20, 3, 3}, dt::f32, tag::nChw16c), cmd({20}, dt::f32, tag::a);
    batch_normalization_forward::primitive_desc pd(
            e, prop_kind::forward_training, md, md, 1e-3f, nf::use_scale);
    expect_impl(pd, "ocl:bnorm:flat");
    memory src(md, e), dst(md, e), mean = make(e, cmd, std::vector<float>(20, 5.f)),
                                   var = make(e, cmd, std::vector<float>(20, 5.f));
    batch_normalization_forward(pd).execute(
            s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}, {DNNL_ARG_MEAN, mean},
                       {DNNL_ARG_VARIANCE, var},
                       {DNNL_ARG_SCALE, make(e, cmd, std::vector<float>(20, 1.f))}});
    s.wait();
    expect_near(read(mean), std::vector<double>(20, 0.0), 0, "mean");
    expect_near(read(var), std::vector<double>(20, 0.0), 0, "variance");
}

// Blocks the flat kernel does not view (channels blocked by 4, or another dim blocked) go to
// the per-channel kernel, which still answers correctly.
TEST(BnormBlocked, OtherBlocksGoToChannelKernel) {
    SKIP_WITHOUT_GPU();
    engine e(engine::kind::gpu, 0);
    const memory::desc md({2, 8, 3, 3}, dt::f32, tag::nChw4c);
    batch_normalization_forward::primitive_desc pd(
            e, prop_kind::forward_training, md, md, 1e-3f, nf::use_scale);
    expect_impl(pd, "ocl:bnorm:channels");
}

} // namespace
