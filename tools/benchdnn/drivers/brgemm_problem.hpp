// One --brgemm problem: its knobs, the values it runs on, and the double-precision reference.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "attr.hpp"

namespace benchdnn {

struct brgemm_cfg_t {
    int64_t M = 0, N = 0, K = 0, bs = 1;
    std::array<dnnl_data_type_t, 3> dt {}; // A, B, D
    dnnl_data_type_t bdt = dnnl_data_type_undef; // bias; undef: none
    std::string stag, wtag, dtag;
    std::array<int64_t, 3> ld {}, runtime_ld {}; // LDA, LDB, LDD; 0: the default
    double alpha = 1, beta = 0;
    attr_desc_t attr;

    // The accumulator (C) type: s32 for integer B, else f32.
    dnnl_data_type_t acc_dt() const;
    // Leading dimensions as oneDNN's benchdnn defines them: A holds the bs blocks of a row
    // side by side (bs * K), B's blocks are 16-column aligned, D is dense.
    int64_t lda() const;
    int64_t ldb() const;
    int64_t ldd() const;
    // D is the accumulator itself (execute without post-ops): no bias, D of C's type, no
    // attributes and alpha 1, as oneDNN's benchdnn decides.
    bool dst_is_acc() const;
};

// Logical values of one problem, as the library reads them.
struct brgemm_values_t {
    std::vector<double> a; // M x (bs * K): a[m * bs * K + i * K + k] is A_i(m, k)
    std::vector<double> b; // (bs * K) x N: b[(i * K + k) * N + n] is B_i(k, n)
    std::vector<double> c; // M x N: C before the call (read when beta != 0)
    std::vector<double> d; // M x N: D before the call (read by a sum post-op)
    std::vector<double> bias; // N
    double a_scale = 1, d_scale = 1, a_zp = 0, d_zp = 0;
    std::vector<double> b_scales; // 1 or N
    std::vector<dims_t> operand_dims; // per post-op: {1 or M, 1 or N} (binary only)
    std::vector<std::vector<double>> operands;
};

// D as the problem defines it; mag[i] bounds the size of the terms behind element i.
std::vector<double> brgemm_reference(
        const brgemm_cfg_t &c, const brgemm_values_t &v, std::vector<double> &mag);

// Runs one problem through the ukernel API and prints its result line.
void run_brgemm_problem(const brgemm_cfg_t &c, const std::string &repro);

} // namespace benchdnn
