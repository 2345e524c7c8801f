// The output stage matmul, inner product, convolution and their relatives share, in oneDNN's
// order: the accumulator times the src and weights scales, plus bias, the post-op chain
// (post_ops_ref.hpp; sum reads dst before the run), divided by the dst scale, plus the dst zero
// point. Shared by the CPU engine's tests (tests/primitives) and the GPU engine's (tests/gpu).
#pragma once

#include <cmath>

#include "post_ops_ref.hpp"

namespace output_stage_ref {

struct params_t {
    double src_scale = 1, wei_scale = 1, dst_scale = 1, dst_zp = 0, bias = 0;
    const_dnnl_post_ops_t po = nullptr;
    post_ops_ref::operands_t po_ops;
};

// The value dst receives (before its rounding) for accumulator acc at dst position pos; old is
// dst's value before the run. err: in, acc's error bound; out, the result's (post_ops_ref).
inline double apply(const params_t &p, double acc, double old, const int64_t *pos,
        double *err = nullptr) {
    double e = err ? *err : 0;
    acc *= p.src_scale * p.wei_scale;
    e *= std::fabs(p.src_scale * p.wei_scale);
    acc += p.bias;
    e += post_ops_ref::f32_eps * (std::fabs(acc) + std::fabs(p.bias));
    acc = post_ops_ref::apply(p.po, acc, old, pos, p.po_ops, &e);
    acc = acc / p.dst_scale + p.dst_zp;
    e = e / std::fabs(p.dst_scale) + post_ops_ref::f32_eps * std::fabs(acc);
    if (err) *err = e;
    return acc;
}

} // namespace output_stage_ref
