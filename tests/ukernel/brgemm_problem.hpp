// One brgemm problem for the tests: batch blocks of A and B filled with small integers, B laid
// out the way the brgemm asks (transform for pack32), byte offsets, and the exact product.
#pragma once

#include <string>

#include "ukernel/ukernel_test_util.hpp"

namespace ukernel_test {

struct types_t {
    dnnl_data_type_t a, b, c;
};

struct shape_t {
    dnnl_dim_t M, N, K, bs;
    dnnl_dim_t lda_pad, ldb_pad, ldc_pad;
};

// Inputs of one brgemm call: bs blocks of A (M x lda) and of plain B (K x ldb), and B in
// the layout the brgemm reads, with byte offsets to each block (in reverse block order, so
// a kernel that ignores the offsets fails).
struct problem_t {
    types_t t;
    shape_t s;
    dnnl_dim_t lda, ldb, ldc;
    buffer_t A, B;
    std::vector<uint8_t> B_used;
    std::vector<dnnl_dim_t> offsets;
    dnnl_pack_type_t pack = dnnl_pack_type_undef;

    problem_t(types_t t, shape_t s, std::mt19937 &gen)
        : t(t), s(s), lda(s.K + s.lda_pad), ldb(s.N + s.ldb_pad), ldc(s.N + s.ldc_pad),
          A(t.a, size_t(s.bs * s.M * lda)), B(t.b, size_t(s.bs * s.K * ldb)) {
        A.fill(gen);
        B.fill(gen);
    }

    double a(dnnl_dim_t i, dnnl_dim_t m, dnnl_dim_t k) const {
        return A.at(size_t((i * s.M + m) * lda + k));
    }
    double b(dnnl_dim_t i, dnnl_dim_t k, dnnl_dim_t n) const {
        return B.at(size_t((i * s.K + k) * ldb + n));
    }

    // Lays out B as `pack` says (transform for pack32) and fills the offsets.
    void prepare_b(dnnl_pack_type_t p) {
        pack = p;
        const size_t es = dt_size(t.b);
        const dnnl_dim_t g = p == dnnl_pack_type_pack32 ? 4 / dnnl_dim_t(es) : 1;
        const dnnl_dim_t kp = (s.K + g - 1) / g * g;
        const size_t block = size_t(p == dnnl_pack_type_pack32 ? kp * ldb : s.K * ldb) * es;
        B_used.assign(block * size_t(s.bs) + 1, 0xff);
        if (p == dnnl_pack_type_pack32) {
            dnnl_transform_t tr = nullptr;
            ASSERT_EQ(dnnl_transform_create(&tr, s.K, s.N, dnnl_pack_type_no_trans, ldb, ldb,
                              t.b, t.b),
                    dnnl_success);
            ASSERT_EQ(dnnl_transform_generate(tr), dnnl_success);
            for (dnnl_dim_t i = 0; i < s.bs; ++i)
                ASSERT_EQ(dnnl_transform_execute(tr,
                                  static_cast<const uint8_t *>(B.ptr()) + i * s.K * ldb * es,
                                  B_used.data() + i * block),
                        dnnl_success);
            dnnl_transform_destroy(tr);
        } else {
            ASSERT_EQ(p, dnnl_pack_type_no_trans);
            std::memcpy(B_used.data(), B.ptr(), block * size_t(s.bs));
        }
        offsets.resize(size_t(2 * s.bs));
        for (dnnl_dim_t i = 0; i < s.bs; ++i) {
            const dnnl_dim_t blk = s.bs - 1 - i; // batch element i uses block blk
            offsets[2 * i] = blk * s.M * lda * dnnl_dim_t(dt_size(t.a));
            offsets[2 * i + 1] = blk * dnnl_dim_t(block);
        }
    }

    // sum over the batch of A_i x B_i at (m, n), blocks taken as the offsets say.
    double product(dnnl_dim_t m, dnnl_dim_t n) const {
        double v = 0;
        for (dnnl_dim_t i = 0; i < s.bs; ++i) {
            const dnnl_dim_t blk = s.bs - 1 - i;
            for (dnnl_dim_t k = 0; k < s.K; ++k)
                v += a(blk, m, k) * b(blk, k, n);
        }
        return v;
    }
};

inline std::string name_of(const types_t &t) {
    return std::string(dnnl_dt2str(t.a)) + "x" + dnnl_dt2str(t.b);
}

} // namespace ukernel_test
