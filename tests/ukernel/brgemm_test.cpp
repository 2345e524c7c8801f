// brgemm ukernel results against a plain reference written here: every type pair, odd and
// tail shapes, batch sizes, add_C on and off, B packed by transform or read plain (whichever
// the brgemm asks for on this CPU; the ISA-capped ctest run covers the other), offsets in any
// order, and many threads executing one generated brgemm.
#include <algorithm>
#include <cmath>
#include <string>
#include <thread>

#include "ukernel/brgemm_problem.hpp"

using namespace ukernel_test;

namespace {

const types_t all_types[] = {{dnnl_f32, dnnl_f32, dnnl_f32}, {dnnl_bf16, dnnl_bf16, dnnl_f32},
        {dnnl_f16, dnnl_f16, dnnl_f32}, {dnnl_u8, dnnl_s8, dnnl_s32},
        {dnnl_s8, dnnl_u8, dnnl_s32}, {dnnl_s8, dnnl_s8, dnnl_s32}, {dnnl_u8, dnnl_u8, dnnl_s32},
        // f16 with f32 either side, and the 8-bit floats with each other (computed as f32).
        {dnnl_f16, dnnl_f32, dnnl_f32}, {dnnl_f32, dnnl_f16, dnnl_f32},
        {dnnl_f8_e5m2, dnnl_f8_e5m2, dnnl_f32}, {dnnl_f8_e4m3, dnnl_f8_e5m2, dnnl_f32},
        {dnnl_f8_e5m2, dnnl_f8_e4m3, dnnl_f32}, {dnnl_f8_e4m3, dnnl_f8_e4m3, dnnl_f32}};

const shape_t shapes[] = {
        {1, 1, 1, 1, 0, 0, 0}, // smallest
        {7, 13, 5, 3, 1, 2, 3}, // odd everything, padded leading dimensions
        {15, 33, 8, 1, 0, 0, 0}, // f32 tile tails (14 rows, 32 columns)
        {17, 70, 34, 2, 3, 0, 5}, // lowp tails (6 rows, 64 columns), B ends at N
        {64, 64, 64, 4, 0, 0, 0}, {29, 130, 96, 16, 0, 6, 1}, {3, 48, 128, 5, 0, 0, 0},
        {33, 96, 2, 2, 0, 0, 0}};

// Creates, finalizes and generates a brgemm for p; returns null on failure (after reporting).
dnnl_brgemm_t make_brgemm(problem_t &p, bool add_C) {
    dnnl_brgemm_t br = nullptr;
    EXPECT_EQ(dnnl_brgemm_create(&br, p.s.M, p.s.N, p.s.K, p.s.bs, p.lda, p.ldb, p.ldc, p.t.a,
                      p.t.b, p.t.c),
            dnnl_success);
    if (!br) return nullptr;
    EXPECT_EQ(dnnl_brgemm_set_add_C(br, add_C), dnnl_success);
    EXPECT_EQ(dnnl_brgemm_finalize(br), dnnl_success);
    dnnl_pack_type_t pack = dnnl_pack_type_undef;
    EXPECT_EQ(dnnl_brgemm_get_B_pack_type(&pack, p.t.a, p.t.b), dnnl_success);
    EXPECT_TRUE(pack == dnnl_pack_type_no_trans || pack == dnnl_pack_type_pack32);
    int valid = -1;
    EXPECT_EQ(dnnl_brgemm_is_execute_postops_valid(br, &valid), dnnl_success);
    EXPECT_EQ(valid, 0);
    EXPECT_EQ(dnnl_brgemm_generate(br), dnnl_success);
    p.prepare_b(pack);
    return br;
}

void check_case(const types_t &t, const shape_t &s, bool add_C, unsigned seed) {
    SCOPED_TRACE(name_of(t) + " M" + std::to_string(s.M) + " N" + std::to_string(s.N) + " K"
            + std::to_string(s.K) + " bs" + std::to_string(s.bs) + (add_C ? " add_C" : ""));
    std::mt19937 gen(seed);
    problem_t p(t, s, gen);
    dnnl_brgemm_t br = make_brgemm(p, add_C);
    ASSERT_NE(br, nullptr);
    buffer_t C(t.c, size_t(s.M * p.ldc));
    C.fill(gen);
    // Without add_C, C is only written: NaN there shows a kernel that reads it.
    if (!add_C && t.c == dnnl_f32)
        for (dnnl_dim_t m = 0; m < s.M; ++m)
            for (dnnl_dim_t n = 0; n < s.N; ++n)
                C.put(size_t(m * p.ldc + n), NAN);
    const buffer_t C0 = C;
    size_t scratch_size = 1;
    ASSERT_EQ(dnnl_brgemm_get_scratchpad_size(br, &scratch_size), dnnl_success);
    std::vector<uint8_t> scratch(scratch_size + 1);
    ASSERT_EQ(dnnl_brgemm_set_hw_context(br), dnnl_success);
    ASSERT_EQ(dnnl_brgemm_execute(br, p.A.ptr(), p.B_used.data(), p.offsets.data(), C.ptr(),
                      scratch.data()),
            dnnl_success);
    ASSERT_EQ(dnnl_brgemm_release_hw_context(), dnnl_success);
    for (dnnl_dim_t m = 0; m < s.M; ++m)
        for (dnnl_dim_t n = 0; n < p.ldc; ++n) {
            const size_t i = size_t(m * p.ldc + n);
            // Columns past N are not C's: they must keep what they held.
            const double want = n >= s.N ? C0.at(i) : (add_C ? C0.at(i) : 0) + p.product(m, n);
            ASSERT_EQ(C.at(i), want) << "at m " << m << " n " << n;
        }
    EXPECT_EQ(dnnl_brgemm_destroy(br), dnnl_success);
}

} // namespace

TEST(ukernel_brgemm, every_type_shape_and_batch_matches_reference) {
    unsigned seed = 1;
    for (const types_t &t : all_types)
        for (const shape_t &s : shapes)
            for (bool add_C : {false, true})
                check_case(t, s, add_C, seed++);
}

// A chain over K as a framework writes it: the first call writes C, the next ones add to it.
TEST(ukernel_brgemm, accumulation_chain_over_k_blocks) {
    for (const types_t &t : all_types) {
        SCOPED_TRACE(name_of(t));
        std::mt19937 gen(7);
        const shape_t s {9, 40, 16, 2, 0, 0, 0};
        problem_t p1(t, s, gen), p2(t, s, gen);
        dnnl_brgemm_t first = make_brgemm(p1, false), rest = make_brgemm(p2, true);
        ASSERT_TRUE(first && rest);
        buffer_t C(t.c, size_t(s.M * p1.ldc));
        ASSERT_EQ(dnnl_brgemm_execute(first, p1.A.ptr(), p1.B_used.data(), p1.offsets.data(),
                          C.ptr(), nullptr),
                dnnl_success);
        ASSERT_EQ(dnnl_brgemm_execute(rest, p2.A.ptr(), p2.B_used.data(), p2.offsets.data(),
                          C.ptr(), nullptr),
                dnnl_success);
        for (dnnl_dim_t m = 0; m < s.M; ++m)
            for (dnnl_dim_t n = 0; n < s.N; ++n)
                ASSERT_EQ(C.at(size_t(m * p1.ldc + n)), p1.product(m, n) + p2.product(m, n));
        dnnl_brgemm_destroy(first);
        dnnl_brgemm_destroy(rest);
    }
}

// One generated brgemm, executed at once from several threads, each with its own C.
TEST(ukernel_brgemm, concurrent_execution_from_many_threads) {
    for (const types_t &t : {all_types[0], all_types[1], all_types[3]}) {
        SCOPED_TRACE(name_of(t));
        std::mt19937 gen(11);
        const shape_t s {20, 100, 64, 4, 0, 0, 0};
        problem_t p(t, s, gen);
        dnnl_brgemm_t br = make_brgemm(p, false);
        ASSERT_NE(br, nullptr);
        constexpr int nthr = 4, reps = 20;
        std::vector<buffer_t> C(nthr, buffer_t(t.c, size_t(s.M * p.ldc)));
        std::vector<dnnl_status_t> st(nthr, dnnl_success);
        std::vector<std::thread> threads;
        for (int i = 0; i < nthr; ++i)
            threads.emplace_back([&, i] {
                for (int r = 0; r < reps && st[i] == dnnl_success; ++r)
                    st[i] = dnnl_brgemm_execute(br, p.A.ptr(), p.B_used.data(),
                            p.offsets.data(), C[i].ptr(), nullptr);
            });
        for (auto &th : threads)
            th.join();
        for (int i = 0; i < nthr; ++i) {
            ASSERT_EQ(st[i], dnnl_success);
            for (dnnl_dim_t m = 0; m < s.M; ++m)
                for (dnnl_dim_t n = 0; n < s.N; ++n)
                    ASSERT_EQ(C[i].at(size_t(m * p.ldc + n)), p.product(m, n));
        }
        dnnl_brgemm_destroy(br);
    }
}
