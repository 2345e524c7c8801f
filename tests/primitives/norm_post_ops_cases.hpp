// Attributes of the normalizations as oneDNN documents them, one body for every engine (the
// CPU tests pass the CPU engine twice, tests/gpu an OpenCL engine): layer normalization's
// src/dst scales and eltwise/binary post-ops (forward), batch normalization's relu post-op
// (any slope in inference, slope 0 in training), group normalization's src/dst scales, s8/u8
// dst in training (layer and group normalization, softmax); and what each refuses
// (dnnl_unimplemented). Every implementation that
// accepts a case runs it (run_each_impl) against group_normalization_ref and post_ops_ref.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpu/device_copy.hpp"
#include "primitives/group_normalization_ref.hpp"
#include "primitives/post_ops_ref.hpp"
#include "primitives/softmax_ref.hpp"

namespace norm_post_ops_cases {

using c_tensor::tensor_t;
using gpu_test::lookup_t;
namespace gn = group_normalization_ref;

inline dnnl_primitive_attr_t make_attr(const std::vector<int> &scaled, dnnl_post_ops_t po) {
    dnnl_primitive_attr_t attr = nullptr;
    EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    for (int arg : scaled)
        EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(attr, arg, 0), dnnl_success);
    if (po) EXPECT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
    return attr;
}

// The arguments of a chain's operands, appended to `ins`.
inline void add_operand_args(const_dnnl_post_ops_t po, std::vector<int> &ins) {
    for (int i = 0; po && i < dnnl_post_ops_len(po); ++i)
        if (dnnl_post_ops_get_kind(po, i) == dnnl_binary)
            ins.push_back(DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1);
}

// One output's expected values (row-major) through: the normalization `y`, the src scale,
// the chain, the dst scale; `err` f32 roundings per element, carried through the chain.
inline void expect_output(const tensor_t &out, const std::vector<double> &y,
        const_dnnl_post_ops_t po, const post_ops_ref::operands_t &ops, double src_scale,
        double dst_scale, double roundings) {
    std::vector<float> want;
    std::vector<double> slack;
    int64_t pos[DNNL_MAX_NDIMS] = {};
    size_t k = 0;
    if (out.lay.nelems() > 0) do {
            double err = roundings * post_ops_ref::f32_eps * (std::fabs(y[k]) + 1);
            double v = y[k] * src_scale;
            v = post_ops_ref::apply(po, v, 0, pos, ops, &err) / dst_scale;
            err = err / dst_scale + 2 * post_ops_ref::f32_eps * std::fabs(v);
            want.push_back(c_tensor::round_to(out.lay.dt, float(v)));
            slack.push_back(err);
            ++k;
        } while (c_tensor::next_pos(pos, out.lay.dims, out.lay.ndims));
    c_tensor::expect_values(want, out, slack);
}

// The arguments a forward normalization reads (appended to ins) and writes (to outs), by its
// flags and propagation kind.
inline void norm_args(unsigned flags, dnnl_prop_kind_t prop, std::vector<int> &ins,
        std::vector<int> &outs) {
    const bool global = flags & dnnl_use_global_stats;
    if (flags & dnnl_use_scale) ins.push_back(DNNL_ARG_SCALE);
    if (flags & dnnl_use_shift) ins.push_back(DNNL_ARG_SHIFT);
    if (global) ins.insert(ins.end(), {DNNL_ARG_MEAN, DNNL_ARG_VARIANCE});
    if (prop == dnnl_forward_training && !global)
        outs.insert(outs.end(), {DNNL_ARG_MEAN, DNNL_ARG_VARIANCE});
}

// Mean and variance of a run: the inputs with global statistics, else the reference's of x.
inline void statistics_of(const lookup_t &at, bool global, const std::vector<double> &x,
        const gn::shape_t &sh, std::vector<double> &mu, std::vector<double> &va) {
    if (!global) return gn::statistics(x, sh, mu, va);
    mu = c_tensor::values(*at(DNNL_ARG_MEAN));
    va = c_tensor::values(*at(DNNL_ARG_VARIANCE));
}

struct lnorm_case_t {
    std::vector<int64_t> dims;
    dnnl_format_tag_t tag;
    dnnl_prop_kind_t prop;
    unsigned flags;
    dnnl_data_type_t ddt;
    bool scales;
};

// Layer normalization forward with `po` (may be null); returns how many implementations ran.
inline int lnorm_forward(dnnl_engine_t cpu, dnnl_engine_t eng, const lnorm_case_t &c,
        dnnl_post_ops_t po) {
    const dnnl_memory_desc_t src = gpu_test::md(c.dims, dnnl_f32, c.tag);
    const dnnl_memory_desc_t dst = gpu_test::md(c.dims, c.ddt, c.tag);
    const std::vector<int64_t> sd(c.dims.begin(), c.dims.end() - 1);
    const dnnl_memory_desc_t st = gpu_test::md(sd, dnnl_f32, dnnl_format_tag_undef);
    dnnl_primitive_attr_t attr = make_attr(
            c.scales ? std::vector<int> {DNNL_ARG_SRC, DNNL_ARG_DST} : std::vector<int> {}, po);
    dnnl_primitive_desc_t pd = nullptr;
    const double eps = 1e-3;
    EXPECT_EQ(dnnl_layer_normalization_forward_primitive_desc_create(
                      &pd, eng, c.prop, src, dst, st, float(eps), c.flags, attr),
            dnnl_success);
    int ran = 0;
    if (pd) {
        const bool global = c.flags & dnnl_use_global_stats;
        const bool stats_out = c.prop == dnnl_forward_training && !global;
        std::vector<int> ins = {DNNL_ARG_SRC}, outs = {DNNL_ARG_DST};
        norm_args(c.flags, c.prop, ins, outs);
        if (c.scales)
            ins.insert(ins.end(),
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST});
        const const_dnnl_post_ops_t chain = post_ops_ref::of(pd);
        add_operand_args(chain, ins);
        const int64_t C = c.dims.back();
        int64_t rows = 1;
        for (int64_t d : sd)
            rows *= d;
        const gn::shape_t sh({rows, C, 1}, 1);
        ran = gpu_test::run_each_impl(cpu, eng, pd, ins, outs, [&](const std::vector<tensor_t *> &t) {
            const std::vector<tensor_t *> res_t(t.begin() + long(ins.size()), t.end());
            const lookup_t at {ins, t}, res {outs, res_t};
            const auto x = c_tensor::values(*t[0]);
            std::vector<double> mu, va;
            statistics_of(at, global, x, sh, mu, va);
            std::vector<double> y(x.size());
            for (size_t e = 0; e < x.size(); ++e) {
                const int64_t k = int64_t(e) % C;
                const size_t r = e / size_t(C);
                y[e] = gn::forward(x[e], mu[r], va[r], eps,
                        at(DNNL_ARG_SCALE) ? at(DNNL_ARG_SCALE)->get(&k) : 1.0,
                        at(DNNL_ARG_SHIFT) ? at(DNNL_ARG_SHIFT)->get(&k) : 0.0);
            }
            expect_output(*res(DNNL_ARG_DST), y, chain, post_ops_ref::operands_of(chain, ins, t),
                    at.common(DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, 1),
                    at.common(DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, 1), 8 * double(C));
            if (stats_out) {
                gpu_test::expect_near(*res(DNNL_ARG_MEAN), mu, 2 * double(C));
                gpu_test::expect_near(*res(DNNL_ARG_VARIANCE), va, 8 * double(C));
            }
        });
        dnnl_primitive_desc_destroy(pd);
    }
    dnnl_primitive_attr_destroy(attr);
    for (auto m : {src, dst, st})
        dnnl_memory_desc_destroy(m);
    return ran;
}

// eltwise(alg, alpha, beta), then binary(alg, src1 of dims/type), ... in one chain.
struct chain_t {
    dnnl_post_ops_t po = nullptr;
    chain_t() { dnnl_post_ops_create(&po); }
    chain_t(const chain_t &) = delete;
    ~chain_t() { dnnl_post_ops_destroy(po); }
    chain_t &eltwise(dnnl_alg_kind_t alg, float alpha, float beta) {
        EXPECT_EQ(dnnl_post_ops_append_eltwise(po, alg, alpha, beta), dnnl_success);
        return *this;
    }
    chain_t &binary(dnnl_alg_kind_t alg, const std::vector<int64_t> &dims, dnnl_data_type_t dt) {
        const dnnl_memory_desc_t m = gpu_test::md(dims, dt, dnnl_format_tag_undef);
        EXPECT_EQ(dnnl_post_ops_append_binary(po, alg, m), dnnl_success);
        dnnl_memory_desc_destroy(m);
        return *this;
    }
};

inline void lnorm_post_ops(dnnl_engine_t cpu, dnnl_engine_t eng) {
    const unsigned ss = dnnl_use_scale | dnnl_use_shift;
    struct shape_t {
        std::vector<int64_t> dims;
        dnnl_format_tag_t tag;
    };
    const shape_t shapes[] = {{{3, 5, 37}, dnnl_abc}, {{2, 3, 16}, dnnl_bac}, {{1, 1, 1}, dnnl_abc}};
    for (const auto &s : shapes) {
        SCOPED_TRACE("dims " + std::to_string(s.dims[0]) + "x" + std::to_string(s.dims[1]) + "x"
                + std::to_string(s.dims[2]) + " tag " + std::to_string(int(s.tag)));
        const int64_t C = s.dims.back();
        chain_t chain;
        chain.eltwise(dnnl_eltwise_linear, 1.5f, -0.25f)
                .binary(dnnl_binary_mul, {1, 1, C}, dnnl_f32) // per channel
                .binary(dnnl_binary_add, s.dims, dnnl_bf16) // a residual
                .eltwise(dnnl_eltwise_relu, 0.125f, 0.f);
        for (auto prop : {dnnl_forward_training, dnnl_forward_inference}) {
            SCOPED_TRACE(dnnl_prop_kind2str(prop));
            EXPECT_GE(lnorm_forward(cpu, eng, {s.dims, s.tag, prop, ss, dnnl_f32, false}, chain.po), 1);
            EXPECT_GE(lnorm_forward(cpu, eng, {s.dims, s.tag, prop, dnnl_use_global_stats | ss,
                                      dnnl_f32, true}, chain.po), 1);
            // int8 dst (training included), scales around the chain.
            EXPECT_GE(lnorm_forward(cpu, eng, {s.dims, s.tag, prop, ss, dnnl_s8, true}, chain.po), 1);
            EXPECT_GE(lnorm_forward(cpu, eng, {s.dims, s.tag, prop, 0u, dnnl_u8, true}, nullptr), 1);
        }
    }
}

// dnnl_unimplemented for layer normalization post-ops oneDNN does not take (sum, prelu) and
// for backward with any.
inline void lnorm_refusals(dnnl_engine_t eng) {
    const dnnl_memory_desc_t m = gpu_test::md({4, 8}, dnnl_f32, dnnl_ab);
    auto fwd_status = [&](dnnl_post_ops_t po) {
        dnnl_primitive_attr_t attr = make_attr({}, po);
        dnnl_primitive_desc_t pd = nullptr;
        const dnnl_status_t st = dnnl_layer_normalization_forward_primitive_desc_create(
                &pd, eng, dnnl_forward_inference, m, m, nullptr, 1e-3f, 0u, attr);
        if (pd) dnnl_primitive_desc_destroy(pd);
        dnnl_primitive_attr_destroy(attr);
        return st;
    };
    chain_t sum, prelu;
    EXPECT_EQ(dnnl_post_ops_append_sum(sum.po, 1.f, 0, dnnl_data_type_undef), dnnl_success);
    EXPECT_EQ(fwd_status(sum.po), dnnl_unimplemented);
    EXPECT_EQ(dnnl_post_ops_append_prelu(prelu.po, 0), dnnl_success);
    EXPECT_EQ(fwd_status(prelu.po), dnnl_unimplemented);
    chain_t relu;
    relu.eltwise(dnnl_eltwise_relu, 0.f, 0.f);
    EXPECT_EQ(fwd_status(relu.po), dnnl_success);
    dnnl_primitive_desc_t hint = nullptr, pd = nullptr;
    ASSERT_EQ(dnnl_layer_normalization_forward_primitive_desc_create(
                      &hint, eng, dnnl_forward_training, m, m, nullptr, 1e-3f, 0u, nullptr),
            dnnl_success);
    dnnl_primitive_attr_t attr = make_attr({}, relu.po);
    EXPECT_EQ(dnnl_layer_normalization_backward_primitive_desc_create(&pd, eng, dnnl_backward_data,
                      m, m, m, nullptr, 1e-3f, 0u, hint, attr),
            dnnl_unimplemented);
    if (pd) dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_attr_destroy(attr);
    dnnl_primitive_desc_destroy(hint);
    dnnl_memory_desc_destroy(m);
}

// Batch normalization forward with a relu post-op of slope alpha; returns the creation
// status (and checks every implementation's values when it succeeds).
inline dnnl_status_t bnorm_relu(dnnl_engine_t cpu, dnnl_engine_t eng,
        const std::vector<int64_t> &dims, dnnl_format_tag_t tag, dnnl_prop_kind_t prop,
        unsigned flags, float alpha, dnnl_post_ops_t extra = nullptr) {
    const dnnl_memory_desc_t m = gpu_test::md(dims, dnnl_f32, tag);
    chain_t relu;
    relu.eltwise(dnnl_eltwise_relu, alpha, 0.f);
    dnnl_primitive_attr_t attr = make_attr({}, extra ? extra : relu.po);
    dnnl_primitive_desc_t pd = nullptr;
    const double eps = 1e-3;
    const dnnl_status_t st = dnnl_batch_normalization_forward_primitive_desc_create(
            &pd, eng, prop, m, m, float(eps), flags, attr);
    if (pd) {
        const bool global = flags & dnnl_use_global_stats;
        const bool stats_out = prop == dnnl_forward_training && !global;
        std::vector<int> ins = {DNNL_ARG_SRC}, outs = {DNNL_ARG_DST};
        norm_args(flags, prop, ins, outs);
        const const_dnnl_post_ops_t chain = post_ops_ref::of(pd);
        const int64_t N = dims[0], C = dims[1];
        int64_t SP = 1;
        for (size_t k = 2; k < dims.size(); ++k)
            SP *= dims[k];
        // Batch normalization is group normalization over {1, C, N x SP}, a group per channel.
        const gn::shape_t sh({1, C, N * SP}, C);
        EXPECT_GE(gpu_test::run_each_impl(cpu, eng, pd, ins, outs, [&](const std::vector<tensor_t *> &t) {
            const std::vector<tensor_t *> res_t(t.begin() + long(ins.size()), t.end());
            const lookup_t at {ins, t}, res {outs, res_t};
            const auto xs = c_tensor::values(*t[0]);
            std::vector<double> x(xs.size());
            for (int64_t n = 0; n < N; ++n)
                for (int64_t c = 0; c < C; ++c)
                    for (int64_t i = 0; i < SP; ++i)
                        x[size_t((c * N + n) * SP + i)] = xs[size_t((n * C + c) * SP + i)];
            std::vector<double> mu, va;
            statistics_of(at, global, x, sh, mu, va);
            std::vector<double> y(xs.size());
            for (int64_t n = 0; n < N; ++n)
                for (int64_t c = 0; c < C; ++c)
                    for (int64_t i = 0; i < SP; ++i)
                        y[size_t((n * C + c) * SP + i)] = gn::forward(
                                x[size_t((c * N + n) * SP + i)], mu[size_t(c)], va[size_t(c)], eps,
                                at(DNNL_ARG_SCALE) ? at(DNNL_ARG_SCALE)->get(&c) : 1.0,
                                at(DNNL_ARG_SHIFT) ? at(DNNL_ARG_SHIFT)->get(&c) : 0.0);
            expect_output(*res(DNNL_ARG_DST), y, chain, {}, 1, 1, 8 * double(N * SP));
            if (stats_out) {
                gpu_test::expect_near(*res(DNNL_ARG_MEAN), mu, 2 * double(N * SP));
                gpu_test::expect_near(*res(DNNL_ARG_VARIANCE), va, 8 * double(N * SP));
            }
        }), 1);
        dnnl_primitive_desc_destroy(pd);
    }
    dnnl_primitive_attr_destroy(attr);
    dnnl_memory_desc_destroy(m);
    return st;
}

inline void bnorm_post_ops(dnnl_engine_t cpu, dnnl_engine_t eng) {
    const unsigned ss = dnnl_use_scale | dnnl_use_shift;
    struct shape_t {
        std::vector<int64_t> dims;
        dnnl_format_tag_t tag;
    };
    const shape_t shapes[] = {{{2, 19, 3, 5}, dnnl_abcd}, {{3, 35, 2, 2}, dnnl_acdb},
            {{2, 32, 3, 3}, dnnl_aBcd16b}, {{1, 1, 1, 1}, dnnl_abcd}};
    for (const auto &s : shapes) {
        SCOPED_TRACE("C " + std::to_string(s.dims[1]) + " tag " + std::to_string(int(s.tag)));
        EXPECT_EQ(bnorm_relu(cpu, eng, s.dims, s.tag, dnnl_forward_training, ss, 0.f),
                dnnl_success);
        EXPECT_EQ(bnorm_relu(cpu, eng, s.dims, s.tag, dnnl_forward_inference, 0u, 0.f),
                dnnl_success);
        EXPECT_EQ(bnorm_relu(cpu, eng, s.dims, s.tag, dnnl_forward_inference,
                          ss | dnnl_use_global_stats, 0.25f),
                dnnl_success);
        EXPECT_EQ(bnorm_relu(cpu, eng, s.dims, s.tag, dnnl_forward_inference, ss, -0.5f),
                dnnl_success);
        // Training takes slope 0 only (oneDNN: fuse_norm_relu gives backward its workspace).
        EXPECT_EQ(bnorm_relu(cpu, eng, s.dims, s.tag, dnnl_forward_training, ss, 0.25f),
                dnnl_unimplemented);
    }
    // One relu is all: other kinds, or two entries, are refused.
    const std::vector<int64_t> d = {2, 8, 3};
    chain_t two, binary, other;
    two.eltwise(dnnl_eltwise_relu, 0.f, 0.f).eltwise(dnnl_eltwise_relu, 0.f, 0.f);
    binary.binary(dnnl_binary_add, {1, 8, 1}, dnnl_f32);
    other.eltwise(dnnl_eltwise_tanh, 0.f, 0.f);
    for (auto *c : {&two, &binary, &other})
        EXPECT_EQ(bnorm_relu(cpu, eng, d, dnnl_abc, dnnl_forward_inference, 0u, 0.f, c->po),
                dnnl_unimplemented);
}

// Group normalization forward with src/dst scales and `po`, G groups; returns how many
// implementations ran.
inline int gnorm_forward(dnnl_engine_t cpu, dnnl_engine_t eng, const std::vector<int64_t> &dims,
        int64_t G, dnnl_format_tag_t tag, dnnl_prop_kind_t prop, unsigned flags,
        dnnl_data_type_t ddt, dnnl_post_ops_t po) {
    const dnnl_memory_desc_t src = gpu_test::md(dims, dnnl_f32, tag);
    const dnnl_memory_desc_t dst = gpu_test::md(dims, ddt, tag);
    dnnl_primitive_attr_t attr = make_attr({DNNL_ARG_SRC, DNNL_ARG_DST}, po);
    dnnl_primitive_desc_t pd = nullptr;
    const double eps = 1e-3;
    EXPECT_EQ(dnnl_group_normalization_forward_primitive_desc_create(
                      &pd, eng, prop, src, dst, G, float(eps), flags, attr),
            dnnl_success);
    int ran = 0;
    if (pd) {
        const bool global = flags & dnnl_use_global_stats;
        const bool stats_out = prop == dnnl_forward_training && !global;
        std::vector<int> ins = {DNNL_ARG_SRC, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC,
                DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST};
        std::vector<int> outs = {DNNL_ARG_DST};
        norm_args(flags, prop, ins, outs);
        const const_dnnl_post_ops_t chain = post_ops_ref::of(pd);
        add_operand_args(chain, ins);
        const gn::shape_t sh(dims, G);
        ran = gpu_test::run_each_impl(cpu, eng, pd, ins, outs, [&](const std::vector<tensor_t *> &t) {
            const std::vector<tensor_t *> res_t(t.begin() + long(ins.size()), t.end());
            const lookup_t at {ins, t}, res {outs, res_t};
            const auto x = c_tensor::values(*t[0]);
            std::vector<double> mu, va;
            statistics_of(at, global, x, sh, mu, va);
            std::vector<double> y(x.size());
            for (int64_t n = 0; n < sh.N; ++n)
                for (int64_t c = 0; c < sh.C; ++c)
                    for (int64_t i = 0; i < sh.SP; ++i) {
                        const size_t e = size_t(sh.index(n, c, i)), w = size_t(sh.stat(n, c));
                        y[e] = gn::forward(x[e], mu[w], va[w], eps,
                                at(DNNL_ARG_SCALE) ? at(DNNL_ARG_SCALE)->get(&c) : 1.0,
                                at(DNNL_ARG_SHIFT) ? at(DNNL_ARG_SHIFT)->get(&c) : 0.0);
                    }
            const double L = double(sh.group_size());
            expect_output(*res(DNNL_ARG_DST), y, chain, post_ops_ref::operands_of(chain, ins, t),
                    at.common(DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, 1),
                    at.common(DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, 1), 8 * L);
            if (stats_out) {
                gpu_test::expect_near(*res(DNNL_ARG_MEAN), mu, 2 * L);
                gpu_test::expect_near(*res(DNNL_ARG_VARIANCE), va, 8 * L);
            }
        });
        dnnl_primitive_desc_destroy(pd);
    }
    dnnl_primitive_attr_destroy(attr);
    dnnl_memory_desc_destroy(src);
    dnnl_memory_desc_destroy(dst);
    return ran;
}

inline void gnorm_scales(dnnl_engine_t cpu, dnnl_engine_t eng) {
    const unsigned ss = dnnl_use_scale | dnnl_use_shift;
    chain_t chain;
    chain.binary(dnnl_binary_mul, {1, 8, 1, 1}, dnnl_f32).eltwise(dnnl_eltwise_relu, 0.f, 0.f);
    for (auto prop : {dnnl_forward_training, dnnl_forward_inference}) {
        SCOPED_TRACE(dnnl_prop_kind2str(prop));
        for (auto tag : {dnnl_nchw, dnnl_nhwc, dnnl_nChw16c}) {
            SCOPED_TRACE(tag);
            EXPECT_GE(gnorm_forward(cpu, eng, {2, 8, 3, 5}, 4, tag, prop, ss, dnnl_s8, nullptr), 1);
            EXPECT_GE(gnorm_forward(cpu, eng, {2, 8, 3, 5}, 2, tag, prop, ss, dnnl_u8, chain.po), 1);
            EXPECT_GE(gnorm_forward(cpu, eng, {2, 8, 3, 5}, 8, tag, prop, 0u, dnnl_f32, chain.po), 1);
        }
        EXPECT_GE(gnorm_forward(cpu, eng, {3, 6, 7}, 3, dnnl_ncw, prop,
                          ss | dnnl_use_global_stats, dnnl_s8, nullptr),
                1);
        EXPECT_GE(gnorm_forward(cpu, eng, {1, 1, 1}, 1, dnnl_ncw, prop, ss, dnnl_s8, nullptr), 1);
    }
}

// Softmax forward with s8/u8 dst and src/dst scales, in training as in inference.
inline void softmax_int8_dst(dnnl_engine_t cpu, dnnl_engine_t eng) {
    struct case_t {
        std::vector<int64_t> dims;
        dnnl_format_tag_t tag;
        int axis;
    };
    const case_t cases[] = {{{6, 40}, dnnl_ab, 1}, {{3, 5, 19}, dnnl_abc, 1},
            {{2, 19, 3, 3}, dnnl_acdb, 1}, {{1, 1}, dnnl_ab, 1}};
    for (const auto &c : cases)
        for (auto prop : {dnnl_forward_training, dnnl_forward_inference})
            for (auto alg : {dnnl_softmax_accurate, dnnl_softmax_log})
                for (auto ddt : {dnnl_u8, dnnl_s8}) {
                    SCOPED_TRACE(std::string(dnnl_prop_kind2str(prop)) + " "
                            + dnnl_alg_kind2str(alg) + " " + dnnl_dt2str(ddt) + " ndims "
                            + std::to_string(c.dims.size()));
                    const dnnl_memory_desc_t src = gpu_test::md(c.dims, dnnl_f32, c.tag);
                    const dnnl_memory_desc_t dst = gpu_test::md(c.dims, ddt, c.tag);
                    dnnl_primitive_attr_t attr
                            = make_attr({DNNL_ARG_SRC, DNNL_ARG_DST}, nullptr);
                    dnnl_primitive_desc_t pd = nullptr;
                    EXPECT_EQ(dnnl_softmax_forward_primitive_desc_create(
                                      &pd, eng, prop, alg, src, dst, c.axis, attr),
                            dnnl_success);
                    const std::vector<int> ins = {DNNL_ARG_SRC,
                            DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC,
                            DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST};
                    // Probabilities scaled up to the integer range, log-probabilities down.
                    auto fill = [&](int arg, tensor_t &t, uint32_t seed) {
                        t.fill_random(seed);
                        if (!(arg & DNNL_ARG_ATTR_SCALES)) return;
                        const int64_t z = 0;
                        const bool log = alg == dnnl_softmax_log;
                        t.set(&z, arg == (DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC)
                                        ? (log ? 3.f : 1.5f)
                                        : (log ? 0.25f : 1.f / 64));
                    };
                    if (pd)
                        EXPECT_GE(gpu_test::run_each_impl(cpu, eng, pd, ins, {DNNL_ARG_DST},
                                          [&](const std::vector<tensor_t *> &t) {
                                              const lookup_t at {ins, t};
                                              const double s_src = at.common(ins[1], 1),
                                                           s_dst = at.common(ins[2], 1);
                                              const tensor_t &x = *t[0];
                                              std::vector<double> y(size_t(x.lay.nelems()));
                                              int64_t pos[DNNL_MAX_NDIMS] = {};
                                              int64_t inner = 1;
                                              for (size_t d = size_t(c.axis) + 1; d < c.dims.size(); ++d)
                                                  inner *= c.dims[d];
                                              size_t e = 0;
                                              if (x.lay.nelems() > 0) do {
                                                      if (pos[c.axis] == 0) {
                                                          std::vector<double> v;
                                                          int64_t p[DNNL_MAX_NDIMS];
                                                          std::copy(pos, pos + x.lay.ndims, p);
                                                          for (p[c.axis] = 0; p[c.axis] < c.dims[size_t(c.axis)]; ++p[c.axis])
                                                              v.push_back(x.get(p));
                                                          const auto r = softmax_ref::slice(alg, v);
                                                          for (size_t k = 0; k < r.size(); ++k)
                                                              y[e + k * size_t(inner)] = r[k];
                                                      }
                                                      ++e;
                                                  } while (c_tensor::next_pos(pos, x.lay.dims, x.lay.ndims));
                                              expect_output(*t[3], y, nullptr, {}, s_src, s_dst,
                                                      8 * double(c.dims[size_t(c.axis)]));
                                          },
                                          fill),
                                1);
                    if (pd) dnnl_primitive_desc_destroy(pd);
                    dnnl_primitive_attr_destroy(attr);
                    dnnl_memory_desc_destroy(src);
                    dnnl_memory_desc_destroy(dst);
                }
}

} // namespace norm_post_ops_cases
