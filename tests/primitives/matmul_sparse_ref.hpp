// Sparse operands for matmul tests: a random matrix with a given share of zeros (values are
// multiples of 0.25 in [-2, 2], exact in f16 and bf16, so f32 accumulation is exact), its CSR
// and COO encodings, and the dense double-precision product the results are checked against.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace sparse_ref {

struct matrix_t {
    int64_t rows = 0, cols = 0;
    std::vector<float> dense; // row-major
};

// Every element non-zero with probability `density`; rows listed in `empty_rows` stay empty.
inline matrix_t random_matrix(int64_t rows, int64_t cols, double density, uint32_t seed,
        const std::vector<int64_t> &empty_rows = {}) {
    matrix_t m {rows, cols, std::vector<float>(rows * cols, 0.f)};
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> keep(0.0, 1.0);
    std::uniform_int_distribution<int> q(1, 8);
    for (int64_t r = 0; r < rows; ++r) {
        if (std::find(empty_rows.begin(), empty_rows.end(), r) != empty_rows.end()) continue;
        for (int64_t c = 0; c < cols; ++c)
            if (keep(gen) < density) m.dense[r * cols + c] = (gen() & 1 ? 0.25f : -0.25f) * q(gen);
    }
    return m;
}

// Dense values in [-2, 2] (multiples of 0.25, zeros included).
inline std::vector<float> random_dense(int64_t n, uint32_t seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> q(-8, 8);
    std::vector<float> v(n);
    for (auto &x : v)
        x = 0.25f * q(gen);
    return v;
}

struct csr_t {
    std::vector<float> values;
    std::vector<int32_t> indices, pointers;
};

inline csr_t to_csr(const matrix_t &m) {
    csr_t c;
    c.pointers.push_back(0);
    for (int64_t r = 0; r < m.rows; ++r) {
        for (int64_t k = 0; k < m.cols; ++k) {
            const float v = m.dense[r * m.cols + k];
            if (v == 0.f) continue;
            c.values.push_back(v);
            c.indices.push_back(static_cast<int32_t>(k));
        }
        c.pointers.push_back(static_cast<int32_t>(c.values.size()));
    }
    return c;
}

struct coo_t {
    std::vector<float> values;
    std::vector<int32_t> rows, cols;
};

// Row-major order, or shuffled with `shuffle_seed` != 0.
inline coo_t to_coo(const matrix_t &m, uint32_t shuffle_seed = 0) {
    std::vector<int64_t> order;
    for (int64_t i = 0; i < m.rows * m.cols; ++i)
        if (m.dense[i] != 0.f) order.push_back(i);
    if (shuffle_seed) std::shuffle(order.begin(), order.end(), std::mt19937(shuffle_seed));
    coo_t c;
    for (int64_t i : order) {
        c.values.push_back(m.dense[i]);
        c.rows.push_back(static_cast<int32_t>(i / m.cols));
        c.cols.push_back(static_cast<int32_t>(i % m.cols));
    }
    return c;
}

// dst(M x N) = a(M x K) x b(K x N), both row-major, in double.
inline std::vector<double> product(const std::vector<float> &a, const std::vector<float> &b,
        int64_t M, int64_t K, int64_t N) {
    std::vector<double> d(M * N, 0.0);
    for (int64_t m = 0; m < M; ++m)
        for (int64_t k = 0; k < K; ++k) {
            const double x = a[m * K + k];
            if (x == 0.0) continue;
            for (int64_t n = 0; n < N; ++n)
                d[m * N + n] += x * b[k * N + n];
        }
    return d;
}

} // namespace sparse_ref
