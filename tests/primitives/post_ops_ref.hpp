// A post-op chain's reference in double precision, read from the chain itself (the
// dnnl_post_ops_get_* queries): sum (with its zero point), eltwise (eltwise_ref.hpp), binary
// (the algorithms of binary, here for both) and prelu, each operand broadcast over the dims where it is 1. Shared by
// the CPU engine's tests (tests/primitives) and the GPU engine's (tests/gpu).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "c_tensor.hpp"
#include "eltwise_ref.hpp"

namespace post_ops_ref {

// One binary algorithm on one pair of values (c: select's condition); binary's own
// reference (binary_ref.hpp) uses it too.
inline double binary(dnnl_alg_kind_t alg, double a, double b, double c) {
    switch (alg) {
        case dnnl_binary_add: return a + b;
        case dnnl_binary_mul: return a * b;
        case dnnl_binary_max: return std::max(a, b);
        case dnnl_binary_min: return std::min(a, b);
        case dnnl_binary_div: return a / b;
        case dnnl_binary_sub: return a - b;
        case dnnl_binary_ge: return a >= b;
        case dnnl_binary_gt: return a > b;
        case dnnl_binary_le: return a <= b;
        case dnnl_binary_lt: return a < b;
        case dnnl_binary_eq: return a == b;
        case dnnl_binary_ne: return a != b;
        case dnnl_binary_select: return c != 0 ? a : b;
        default: ADD_FAILURE() << "binary alg " << alg; return 0;
    }
}

// The tensors a chain reads, by entry index (null where an entry reads none): a binary
// entry's src1 or a prelu entry's weights, and select's condition.
struct operands_t {
    std::vector<const c_tensor::tensor_t *> src1, src2;
};

// The post-ops of pd's attribute (owned by pd).
inline const_dnnl_post_ops_t of(const_dnnl_primitive_desc_t pd) {
    const_dnnl_primitive_attr_t attr = nullptr;
    const_dnnl_post_ops_t po = nullptr;
    EXPECT_EQ(dnnl_primitive_desc_get_attr(pd, &attr), dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_get_post_ops(attr, &po), dnnl_success);
    return po;
}

// The operands of po's entries among a run's arguments and their host tensors.
inline operands_t operands_of(const_dnnl_post_ops_t po, const std::vector<int> &args,
        const std::vector<c_tensor::tensor_t *> &t) {
    const int n = dnnl_post_ops_len(po);
    operands_t ops;
    ops.src1.assign(static_cast<size_t>(n), nullptr);
    ops.src2.assign(static_cast<size_t>(n), nullptr);
    for (size_t a = 0; a < args.size() && a < t.size(); ++a)
        for (int i = 0; i < n; ++i) {
            const int base = DNNL_ARG_ATTR_MULTIPLE_POST_OP(i);
            if (args[a] == (base | DNNL_ARG_SRC_1) || args[a] == (base | DNNL_ARG_WEIGHTS))
                ops.src1[static_cast<size_t>(i)] = t[a];
            if (args[a] == (base | DNNL_ARG_SRC_2)) ops.src2[static_cast<size_t>(i)] = t[a];
        }
    return ops;
}

// One rounding of f32, the type kernels compute the chain in.
constexpr double f32_eps = 1.0 / (1 << 24);

// acc after every entry of po, at dst position pos; old is dst's value before the run.
// err, when given, is a bound on the error of acc computed in f32 (in: acc's own), carried
// through each entry (cancellation in a sum leaves the error of its larger terms).
inline double apply(const_dnnl_post_ops_t po, double acc, double old, const int64_t *pos,
        const operands_t &ops, double *err = nullptr) {
    int64_t p[DNNL_MAX_NDIMS];
    double e = err ? *err : 0;
    const int n = po ? dnnl_post_ops_len(po) : 0;
    for (int i = 0; i < n; ++i) {
        const size_t k = static_cast<size_t>(i);
        switch (dnnl_post_ops_get_kind(po, i)) {
            case dnnl_sum: {
                float scale = 0.f;
                int32_t zp = 0;
                dnnl_data_type_t dt = dnnl_data_type_undef;
                EXPECT_EQ(dnnl_post_ops_get_params_sum(po, i, &scale, &zp, &dt), dnnl_success);
                const double term = scale * (old - zp);
                e += f32_eps * (std::fabs(acc) + std::fabs(term));
                acc += term;
                break;
            }
            case dnnl_eltwise: {
                dnnl_alg_kind_t alg = dnnl_alg_kind_undef;
                float alpha = 0.f, beta = 0.f;
                EXPECT_EQ(dnnl_post_ops_get_params_eltwise(po, i, &alg, &alpha, &beta),
                        dnnl_success);
                acc = eltwise_ref::forward(alg, acc, alpha, beta);
                // Slopes of the chain's usual algorithms are at most max(1, |alpha|).
                e = e * std::max(1.0, std::fabs(double(alpha))) + f32_eps * std::fabs(acc);
                break;
            }
            case dnnl_binary: {
                dnnl_alg_kind_t alg = dnnl_alg_kind_undef;
                const_dnnl_memory_desc_t src1 = nullptr, src2 = nullptr;
                EXPECT_EQ(dnnl_post_ops_get_params_binary_v2(po, i, &alg, &src1, &src2),
                        dnnl_success);
                EXPECT_TRUE(ops.src1[k]) << "post-op " << i << " has no operand";
                if (!ops.src1[k]) break;
                double cond = 0;
                if (ops.src2[k]) {
                    c_tensor::bcast_pos(ops.src2[k]->lay, pos, p);
                    cond = ops.src2[k]->get(p);
                }
                c_tensor::bcast_pos(ops.src1[k]->lay, pos, p);
                const double b = ops.src1[k]->get(p), r = binary(alg, acc, b, cond);
                if (alg == dnnl_binary_add || alg == dnnl_binary_sub)
                    e += f32_eps * (std::fabs(acc) + std::fabs(b));
                else if (alg == dnnl_binary_mul)
                    e = e * std::fabs(b) + f32_eps * std::fabs(r);
                else if (alg == dnnl_binary_div)
                    e = e / std::fabs(b) + f32_eps * std::fabs(r);
                acc = r;
                break;
            }
            case dnnl_prelu: {
                EXPECT_TRUE(ops.src1[k]) << "post-op " << i << " has no weights";
                if (!ops.src1[k]) break;
                c_tensor::bcast_pos(ops.src1[k]->lay, pos, p);
                const double w = ops.src1[k]->get(p);
                acc = acc > 0 ? acc : acc * w;
                e = e * std::max(1.0, std::fabs(w)) + f32_eps * std::fabs(acc);
                break;
            }
            default: ADD_FAILURE() << "post-op kind of entry " << i;
        }
    }
    if (err) *err = e;
    return acc;
}

} // namespace post_ops_ref
