// Binary's reference, shared by the CPU engine's tests (tests/primitives) and the GPU
// engine's (tests/gpu): every algorithm (select reads a condition), sources broadcast over the
// dims where they are 1 and scaled, then the post-op chain (post_ops_ref.hpp).
#pragma once

#include <vector>

#include <gtest/gtest.h>

#include "c_tensor.hpp"
#include "post_ops_ref.hpp"

namespace binary_ref {

using post_ops_ref::binary;

// What one binary primitive reads: its sources (src2 only for select), their scales (1
// without a scale attribute), the chain of post-ops and its operands, dst before the run.
struct inputs_t {
    dnnl_alg_kind_t alg = dnnl_binary_add;
    const c_tensor::tensor_t *src0 = nullptr, *src1 = nullptr, *src2 = nullptr;
    float scale0 = 1.f, scale1 = 1.f;
    const_dnnl_post_ops_t po = nullptr;
    post_ops_ref::operands_t po_ops;
    std::vector<double> old_dst; // row-major; empty: zeros
};

// dst's expected values in row-major order of its dims, rounded to its type.
inline std::vector<float> expected(const inputs_t &in, const c_tensor::layout_t &dst) {
    std::vector<float> want;
    int64_t pos[DNNL_MAX_NDIMS] = {}, p[DNNL_MAX_NDIMS];
    size_t k = 0;
    if (dst.nelems() > 0) do {
            c_tensor::bcast_pos(in.src0->lay, pos, p);
            const double a = static_cast<double>(in.src0->get(p)) * in.scale0;
            c_tensor::bcast_pos(in.src1->lay, pos, p);
            const double b = static_cast<double>(in.src1->get(p)) * in.scale1;
            double cond = 0;
            if (in.src2) {
                c_tensor::bcast_pos(in.src2->lay, pos, p);
                cond = in.src2->get(p);
            }
            double r = binary(in.alg, a, b, cond);
            const double old = k < in.old_dst.size() ? in.old_dst[k] : 0.0;
            r = post_ops_ref::apply(in.po, r, old, pos, in.po_ops);
            want.push_back(c_tensor::round_to(dst.dt, static_cast<float>(r)));
            ++k;
        } while (c_tensor::next_pos(pos, dst.dims, dst.ndims));
    return want;
}

} // namespace binary_ref
