// dnnl_sgemm and the integer GEMMs against a double-precision reference written here: every
// transposition, padded leading dimensions, alpha/beta, offsets F/C/R, and bad arguments.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"

namespace {

// Element (r, c) of a row-major matrix stored transposed or not.
template <typename T>
double at(const std::vector<T> &m, bool trans, int64_t ld, int64_t r, int64_t c) {
    return trans ? m[c * ld + r] : m[r * ld + c];
}

// dnnl_sgemm on small random integers against the reference, leading dimensions padded by
// 3 (A), 1 (B) and 2 (C); beta == 0 starts C as NaN, which must never be read.
void check_sgemm(std::mt19937 &gen, char ta, char tb, int64_t M, int64_t N, int64_t K,
        float alpha, float beta) {
    const bool tA = ta == 'T' || ta == 't', tB = tb == 'T' || tb == 't';
    const int64_t lda = (tA ? M : K) + 3, ldb = (tB ? K : N) + 1, ldc = N + 2;
    std::vector<float> A((tA ? K : M) * lda), B((tB ? N : K) * ldb), C(M * ldc);
    for (auto &x : A)
        x = static_cast<float>(int(gen() % 9) - 4) * 0.5f;
    for (auto &x : B)
        x = static_cast<float>(int(gen() % 7) - 3);
    for (auto &x : C)
        x = beta == 0.f ? NAN : static_cast<float>(int(gen() % 5) - 2);
    const std::vector<float> C0 = C;
    ASSERT_EQ(dnnl_sgemm(ta, tb, M, N, K, alpha, A.data(), lda, B.data(), ldb, beta, C.data(),
                      ldc),
            dnnl_success);
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
            double s = 0;
            for (int64_t k = 0; k < K; ++k)
                s += at(A, tA, lda, i, k) * at(B, tB, ldb, k, j);
            const double want = alpha * s + (beta == 0.f ? 0. : beta * C0[i * ldc + j]);
            ASSERT_NEAR(C[i * ldc + j], want, 1e-4 * std::max(1.0, std::fabs(want)))
                    << ta << tb << " " << M << "x" << N << "x" << K << " at " << i << "," << j;
        }
    // Padding between rows of C is left alone.
    if (M > 1) {
        EXPECT_TRUE(std::isnan(C0[N]) ? std::isnan(C[N]) : C[N] == C0[N]);
    }
}

TEST(gemm_api, sgemm_every_transposition_alpha_beta) {
    std::mt19937 gen(7);
    for (char ta : {'N', 'T'})
        for (char tb : {'n', 't'})
            for (auto mnk : std::vector<std::vector<int64_t>> {{1, 1, 1}, {37, 45, 300}, {5, 70, 3}})
                check_sgemm(gen, ta, tb, mnk[0], mnk[1], mnk[2], 1.5f, 0.5f);
}

// Paths of the shared GEMM by shape: small M (rows of A against streamed B, depth split over
// threads from 512 on), several row, depth and column blocks; beta 0 and not.
TEST(gemm_api, sgemm_small_m_and_shapes_across_blocks) {
    std::mt19937 gen(11);
    const std::vector<std::vector<int64_t>> shapes {{1, 1, 700}, {1, 33, 600}, {2, 130, 17},
            {3, 47, 1030}, {4, 16, 513}, {5, 9, 64}, {130, 530, 1030}};
    for (const auto &mnk : shapes)
        for (char ta : {'N', 'T'})
            for (char tb : {'N', 'T'})
                for (float beta : {0.f, -1.f}) {
                    // The large shape once without and once with transposes: keeps it quick.
                    const bool large = mnk[0] * mnk[1] * mnk[2] > 1000000;
                    if (large && (ta != tb || (ta == 'T') != (beta != 0.f))) continue;
                    check_sgemm(gen, ta, tb, mnk[0], mnk[1], mnk[2], 0.5f, beta);
                }
}

template <typename TA>
void check_int_gemm(char offsetc) {
    std::mt19937 gen(3);
    const int64_t M = 13, N = 29, K = 75;
    for (char ta : {'N', 'T'})
        for (char tb : {'N', 'T'}) {
            const bool tA = ta == 'T', tB = tb == 'T';
            const int64_t lda = tA ? M : K, ldb = tB ? K : N, ldc = N;
            std::vector<TA> A(M * K);
            std::vector<int8_t> B(K * N);
            std::vector<int32_t> C(M * N), co(std::max(M, N));
            for (auto &x : A) x = static_cast<TA>(gen() % 7);
            for (auto &x : B) x = static_cast<int8_t>(int(gen() % 9) - 4);
            for (auto &x : C) x = int(gen() % 11) - 5;
            for (auto &x : co) x = int(gen() % 5) - 2;
            const std::vector<int32_t> C0 = C;
            const TA ao = 2;
            const int8_t bo = -1;
            const float alpha = 2.f, beta = 1.f;
            dnnl_status_t st;
            if (std::is_same<TA, uint8_t>::value)
                st = dnnl_gemm_u8s8s32(ta, tb, offsetc, M, N, K, alpha,
                        reinterpret_cast<const uint8_t *>(A.data()), lda, ao, B.data(), ldb, bo,
                        beta, C.data(), ldc, co.data());
            else
                st = dnnl_gemm_s8s8s32(ta, tb, offsetc, M, N, K, alpha,
                        reinterpret_cast<const int8_t *>(A.data()), lda, ao, B.data(), ldb, bo,
                        beta, C.data(), ldc, co.data());
            ASSERT_EQ(st, dnnl_success);
            for (int64_t i = 0; i < M; ++i)
                for (int64_t j = 0; j < N; ++j) {
                    double s = 0;
                    for (int64_t k = 0; k < K; ++k)
                        s += (at(A, tA, lda, i, k) - ao) * (at(B, tB, ldb, k, j) - bo);
                    const int32_t off = co[offsetc == 'F' ? 0 : offsetc == 'C' ? i : j];
                    const double want = alpha * s + beta * C0[i * ldc + j] + off;
                    ASSERT_EQ(C[i * ldc + j], static_cast<int32_t>(want)) << ta << tb << offsetc;
                }
        }
}

TEST(gemm_api, u8s8s32_offsets_fixed_column_row) {
    for (char oc : {'F', 'C', 'R'})
        check_int_gemm<uint8_t>(oc);
}

TEST(gemm_api, s8s8s32_offsets_fixed_column_row) {
    for (char oc : {'F', 'C', 'R'})
        check_int_gemm<int8_t>(oc);
}

TEST(gemm_api, bad_arguments_are_reported) {
    float a[4] = {}, b[4] = {}, c[4] = {};
    EXPECT_EQ(dnnl_sgemm('X', 'N', 2, 2, 2, 1.f, a, 2, b, 2, 0.f, c, 2), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sgemm('N', 'N', 2, 2, 2, 1.f, a, 1, b, 2, 0.f, c, 2), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sgemm('N', 'N', -1, 2, 2, 1.f, a, 2, b, 2, 0.f, c, 2),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sgemm('N', 'N', 2, 2, 2, 1.f, nullptr, 2, b, 2, 0.f, c, 2),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_sgemm('N', 'N', 0, 2, 2, 1.f, nullptr, 2, nullptr, 2, 0.f, nullptr, 2),
            dnnl_success);
    uint8_t ua[4] = {};
    int8_t sb[4] = {};
    int32_t ic[4] = {}, co[2] = {};
    EXPECT_EQ(dnnl_gemm_u8s8s32('N', 'N', 'X', 2, 2, 2, 1.f, ua, 2, 0, sb, 2, 0, 0.f, ic, 2, co),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_gemm_u8s8s32('N', 'N', 'F', 2, 2, 2, 1.f, ua, 2, 0, sb, 2, 0, 0.f, ic, 2,
                      nullptr),
            dnnl_invalid_arguments);
}

} // namespace
