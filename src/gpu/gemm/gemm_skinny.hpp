// The host side of the skinny GEMM (gemm/gemm_skinny.cl): C with few rows (GEMV) or few
// columns, K split over work-groups whose f32 partial sums a second kernel adds in order.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/compute/compute.hpp"
#include "gpu/tuning/gemm_tuning.hpp"

namespace anydnn {
namespace gpu {

struct gemm_params_t;
struct gemm_operands_t;

// Mirrors skinny_params_t of gemm/gemm_skinny.cl.
struct skinny_params_t {
    int64_t rows = 0, cols = 0, K = 0;
    int64_t x_sr = 0, x_sk = 0, w_sk = 0, w_sc = 0;
    int64_t k_split = 0, splits = 1;
    int64_t part_off = 0;
    int32_t vec = 0, xvec = 0;
};

// How one product runs: the small side as rows (trans: C's columns), which kernel (nc: W's
// columns dense, else its K), the K slices and the work-groups.
struct skinny_plan_t {
    bool trans = false, nc = true;
    skinny_params_t s;
    int64_t col_groups = 0;
};

// Whether the kernel built for at most `mmax` rows computes C^T (N small, M not): A and B of
// one type only.
bool skinny_trans(int64_t m, int64_t n, int mmax, bool same_types);

// Whether W (K x cols; sk: K's stride, sc: the columns') is read along K (the K-dense
// kernel): K's stride 1, unless the columns' is 1 too and there are several of them.
// gemm_problem_t::k_dense_b of a B known at creation.
bool skinny_k_dense(int64_t sk, int64_t sc, int64_t cols);

// The rows a build takes: the next power of two of the small side, at most t.tm.
int skinny_rows_built(const gemm_tuning_t &t, int64_t rows);

// The plan of `p` on a device of `compute_units` for the tuning row `t` (its work-group shape
// after the build). Splits K only where `may_split`.
skinny_plan_t skinny_plan(const gemm_tuning_t &t, int compute_units, bool trans,
        const gemm_params_t &p, bool may_split);

// Scratchpad bytes that any plan of an m x n x k product of `batch` matrices needs for its
// partial sums, whichever W's layout (0: K not split).
size_t skinny_scratchpad_bytes(const gemm_tuning_t &t, int compute_units, bool trans, int64_t m,
        int64_t n, int64_t k, int64_t batch);

class skinny_kernels_t {
public:
    // Builds the three kernels with `options` (types, post-ops) for the products of `m` x `n`
    // (one of them at most t.tm). Where the kernels' own work-group limit (registers) is below
    // the row's work-group, the K lanes are halved until it fits; `t` gets the shape built and
    // `note` what was changed.
    status_t build(engine_t *engine, const std::string &options, gemm_tuning_t &t, int64_t m,
            int64_t n, bool same_types, std::string &note);
    status_t launch(stream_t *stream, const gemm_operands_t &ops, const gemm_params_t &p) const;
    bool trans() const { return trans_; }

private:
    std::shared_ptr<kernel_t> nc_, kc_, sum_;
    gemm_tuning_t t_;
    bool trans_ = false;
    int mmax_ = 1, compute_units_ = 1;
};

} // namespace gpu
} // namespace anydnn
