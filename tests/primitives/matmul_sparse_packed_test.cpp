// Matmul with packed sparse weights on the CPU engine, the way oneDNN's weights-compression
// example runs it: a packed request descriptor (dims, type, nnz) makes the primitive
// descriptor, weights_desc() gives the packed layout, a reorder packs dense user weights into
// it, and the matmul runs with dense src. Checked against plain loops over the dense weights
// (as converted to the packed type): int8 results exact, floating-point ones up to dst's
// rounding (values are multiples of 1/4, so f32 sums are exact). Shapes of 1, odd sizes, a
// last chunk of one column, all-zero chunks and rows, nnz 0, fully dense; the reorder back to
// dense; metadata that would read out of bounds; what stays refused.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl.hpp"
#include "c_tensor.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

// Row-major K x N weights: each element non-zero with probability `density`, multiples of
// 1/4 in [-8, 8] for floats, integers in [-128, 127] for s8 (some of them past s8's range
// when `overflow`, which the reorder saturates). Chunks listed in `zero_cols` stay zero.
std::vector<float> random_weights(int64_t K, int64_t N, double density, bool integer,
        uint32_t seed, int64_t zero_col0 = 0, int64_t zero_col1 = 0) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> keep(0.0, 1.0);
    std::uniform_int_distribution<int> q(integer ? -140 : -32, integer ? 140 : 32);
    std::vector<float> w(K * N, 0.f);
    for (int64_t k = 0; k < K; ++k)
        for (int64_t n = 0; n < N; ++n) {
            if (n >= zero_col0 && n < zero_col1) continue;
            if (keep(gen) >= density) continue;
            int v = q(gen);
            if (v == 0) v = 1;
            w[k * N + n] = integer ? float(v) : 0.25f * float(v);
        }
    return w;
}

std::vector<float> random_src(int64_t n, dt t, uint32_t seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> u8(0, 255), s8(-128, 127), f(-8, 8);
    std::vector<float> v(n);
    for (auto &x : v)
        x = t == dt::u8 ? float(u8(gen)) : t == dt::s8 ? float(s8(gen)) : 0.25f * f(gen);
    return v;
}

// What a weights element becomes in the packed type.
float as_type(dt t, float v) {
    if (t == dt::s8) return std::max(-128.f, std::min(127.f, std::nearbyint(v)));
    return c_tensor::round_to(static_cast<dnnl_data_type_t>(t), v);
}

// dst = src x weights in double, weights converted to `wt` first.
std::vector<double> reference(const std::vector<float> &src, const std::vector<float> &wei,
        int64_t M, int64_t K, int64_t N, dt wt) {
    std::vector<double> out(M * N, 0.0);
    for (int64_t m = 0; m < M; ++m)
        for (int64_t k = 0; k < K; ++k)
            for (int64_t n = 0; n < N; ++n)
                out[m * N + n] += double(src[m * K + k]) * as_type(wt, wei[k * N + n]);
    return out;
}

// Writes row-major values into a dense memory of `t`, logical order (ab) or transposed (ba).
void write(memory &mem, const std::vector<float> &v, int64_t r, int64_t c, dt t, bool ba) {
    void *p = mem.get_data_handle();
    for (int64_t i = 0; i < r; ++i)
        for (int64_t j = 0; j < c; ++j) {
            const float x = v[i * c + j];
            const int64_t o = ba ? j * r + i : i * c + j;
            switch (t) {
                case dt::f32: static_cast<float *>(p)[o] = x; break;
                case dt::f16: static_cast<uint16_t *>(p)[o] = c_tensor::to_f16(x); break;
                case dt::bf16: static_cast<uint16_t *>(p)[o] = c_tensor::to_bf16(x); break;
                case dt::s8: static_cast<int8_t *>(p)[o] = static_cast<int8_t>(x); break;
                case dt::u8: static_cast<uint8_t *>(p)[o] = static_cast<uint8_t>(x); break;
                default: FAIL() << "type";
            }
        }
}

float read(const memory &mem, int64_t i, dt t) {
    const void *p = mem.get_data_handle();
    switch (t) {
        case dt::f32: return static_cast<const float *>(p)[i];
        case dt::f16: return c_tensor::from_f16(static_cast<const uint16_t *>(p)[i]);
        case dt::bf16: return c_tensor::from_bf16(static_cast<const uint16_t *>(p)[i]);
        case dt::s32: return float(static_cast<const int32_t *>(p)[i]);
        case dt::s8: return static_cast<const int8_t *>(p)[i];
        case dt::u8: return static_cast<const uint8_t *>(p)[i];
        default: return NAN;
    }
}

float expected_dst(dt t, double v) {
    switch (t) {
        case dt::s32: return float(v);
        case dt::s8: return std::max(-128.0, std::min(127.0, std::nearbyint(v)));
        case dt::u8: return std::max(0.0, std::min(255.0, std::nearbyint(v)));
        default: return c_tensor::round_to(static_cast<dnnl_data_type_t>(t), float(v));
    }
}

struct problem_t {
    int64_t M, K, N;
    dt s = dt::f32, w = dt::f32, d = dt::f32;
    double density = 0.3;
    bool user_ba = false; // the user's dense weights transposed in memory
    int64_t zero_col0 = 0, zero_col1 = 0; // a band of columns left all zero
};

std::string name(const problem_t &p) {
    return std::to_string(p.M) + "x" + std::to_string(p.K) + "x" + std::to_string(p.N) + " "
            + dnnl_dt2str(static_cast<dnnl_data_type_t>(p.s)) + ":"
            + dnnl_dt2str(static_cast<dnnl_data_type_t>(p.w)) + ":"
            + dnnl_dt2str(static_cast<dnnl_data_type_t>(p.d)) + " density "
            + std::to_string(p.density) + (p.user_ba ? " ba" : "");
}

void run(const engine &eng, const problem_t &p) {
    SCOPED_TRACE(name(p));
    stream s(eng);
    const bool integer = p.w == dt::s8;
    const auto wei = random_weights(p.K, p.N, p.density, integer, 5, p.zero_col0, p.zero_col1);
    const auto src = random_src(p.M * p.K, p.s, 9);
    const memory::dim nnz = std::count_if(wei.begin(), wei.end(), [&](float v) {
        return as_type(p.w, v) != 0.f;
    });

    // The user's weights are f32 (as in oneDNN's example); the packed ones of type p.w.
    memory user_wei({{p.K, p.N}, dt::f32, p.user_ba ? tag::ba : tag::ab}, eng);
    write(user_wei, wei, p.K, p.N, dt::f32, p.user_ba);
    auto request = memory::desc::packed({p.K, p.N}, p.w, nnz);
    matmul::primitive_desc pd(eng, memory::desc({p.M, p.K}, p.s, tag::any), request,
            memory::desc({p.M, p.N}, p.d, tag::any));
    EXPECT_STREQ(pd.impl_info_str(), "cpu:matmul:sparse_packed");
    ASSERT_EQ(pd.src_desc(), memory::desc({p.M, p.K}, p.s, tag::ab));
    ASSERT_EQ(pd.dst_desc(), memory::desc({p.M, p.N}, p.d, tag::ab));

    const memory::desc packed = pd.weights_desc();
    ASSERT_EQ(packed.get_format_kind(), memory::format_kind::sparse);
    ASSERT_EQ(packed.get_sparse_encoding(), memory::sparse_encoding::packed);
    ASSERT_EQ(packed.get_nnz(), nnz);
    ASSERT_EQ(packed.get_num_handles(), 3);
    const size_t chunks = size_t(p.K) * size_t((p.N + 63) / 64);
    EXPECT_EQ(packed.get_size(0), size_t(nnz) * memory::data_type_size(p.w));
    EXPECT_EQ(packed.get_size(1), chunks * 8);
    EXPECT_EQ(packed.get_size(2), chunks * 8);
    EXPECT_NE(packed, request);

    memory wmem(packed, eng); // library-allocated handles
    reorder(user_wei, wmem).execute(s, user_wei, wmem);
    memory smem(pd.src_desc(), eng), dmem(pd.dst_desc(), eng);
    write(smem, src, p.M, p.K, p.s, false);
    if (p.M * p.N != 0)
        std::memset(dmem.get_data_handle(), 0x5a, pd.dst_desc().get_size()); // stale
    matmul(pd).execute(s, {{DNNL_ARG_SRC, smem}, {DNNL_ARG_WEIGHTS, wmem}, {DNNL_ARG_DST, dmem}});
    s.wait();

    const auto ref = reference(src, wei, p.M, p.K, p.N, p.w);
    for (int64_t i = 0; i < p.M * p.N; ++i)
        ASSERT_EQ(read(dmem, i, p.d), expected_dst(p.d, ref[i])) << "element " << i;

    // Back to dense (f32 ab): the weights as converted to the packed type.
    memory back({{p.K, p.N}, dt::f32, tag::ab}, eng);
    if (p.K * p.N != 0) std::memset(back.get_data_handle(), 0x5a, p.K * p.N * 4);
    reorder(wmem, back).execute(s, wmem, back);
    s.wait();
    for (int64_t i = 0; i < p.K * p.N; ++i)
        ASSERT_EQ(read(back, i, dt::f32), as_type(p.w, wei[i])) << "weights element " << i;
}

TEST(matmul_sparse_packed, int8_as_in_onednns_example) {
    engine eng(engine::kind::cpu, 0);
    for (dt s : {dt::u8, dt::s8})
        for (dt d : {dt::f32, dt::s32, dt::s8, dt::u8})
            run(eng, {13, 70, 67, s, dt::s8, d, 0.2});
    run(eng, {64, 256, 192, dt::u8, dt::s8, dt::f32, 0.1}); // many chunks per row
}

TEST(matmul_sparse_packed, floating_point_values) {
    engine eng(engine::kind::cpu, 0);
    for (dt t : {dt::f32, dt::f16, dt::bf16}) {
        run(eng, {5, 9, 130, t, t, t, 0.4});
        run(eng, {5, 9, 130, t, t, dt::f32, 0.4});
    }
}

TEST(matmul_sparse_packed, edge_shapes) {
    engine eng(engine::kind::cpu, 0);
    const int64_t shapes[][3] = {{1, 1, 1}, {1, 1, 64}, {1, 1, 65}, {3, 1, 5}, {7, 13, 1},
            {2, 5, 63}, {4, 3, 128}, {3, 17, 129}, {1, 300, 7}};
    for (const auto &sh : shapes) {
        run(eng, {sh[0], sh[1], sh[2], dt::f32, dt::f32, dt::f32, 0.5});
        run(eng, {sh[0], sh[1], sh[2], dt::u8, dt::s8, dt::s32, 0.5});
    }
}

TEST(matmul_sparse_packed, zero_chunks_all_zero_and_fully_dense) {
    engine eng(engine::kind::cpu, 0);
    problem_t band {6, 11, 200, dt::f32, dt::f32, dt::f32, 0.6};
    band.zero_col0 = 64;
    band.zero_col1 = 128; // the second chunk of every row empty
    run(eng, band);
    band.zero_col0 = 0; // every chunk but the last (columns 192..199) empty
    band.zero_col1 = 192;
    run(eng, band);
    for (dt w : {dt::f32, dt::s8}) {
        const dt s = w == dt::s8 ? dt::u8 : dt::f32;
        run(eng, {4, 10, 70, s, w, dt::f32, 0.0}); // nnz 0
        run(eng, {4, 10, 70, s, w, dt::f32, 1.0}); // every element stored
    }
    problem_t ba {7, 33, 66, dt::f32, dt::f32, dt::f32, 0.5};
    ba.user_ba = true; // packed from a transposed user layout
    run(eng, ba);
}

// Packs random 4x70 f32 weights and returns the pieces; `nnz_of_desc` may be below the count.
struct packed_weights_t {
    engine eng {engine::kind::cpu, 0};
    memory::desc request, packed;
    matmul::primitive_desc pd;
    memory wmem, user;
    std::vector<float> wei;
    memory::dim nnz = 0;
    packed_weights_t() {
        wei = random_weights(4, 70, 0.5, false, 3);
        nnz = std::count_if(wei.begin(), wei.end(), [](float v) { return v != 0.f; });
        request = memory::desc::packed({4, 70}, dt::f32, nnz);
        pd = matmul::primitive_desc(eng, memory::desc({2, 4}, dt::f32, tag::ab), request,
                memory::desc({2, 70}, dt::f32, tag::ab));
        packed = pd.weights_desc();
        wmem = memory(packed, eng);
        user = memory({{4, 70}, dt::f32, tag::ab}, eng);
        write(user, wei, 4, 70, dt::f32, false);
        stream s(eng);
        reorder(user, wmem).execute(s, user, wmem);
        s.wait();
    }
};

dnnl_status_t run_matmul(packed_weights_t &w) {
    memory src({{2, 4}, dt::f32, tag::ab}, w.eng), dst({{2, 70}, dt::f32, tag::ab}, w.eng);
    std::vector<float> ones(8, 1.f);
    write(src, ones, 2, 4, dt::f32, false);
    stream s(w.eng);
    dnnl_exec_arg_t args[3] = {{DNNL_ARG_SRC, src.get()}, {DNNL_ARG_WEIGHTS, w.wmem.get()},
            {DNNL_ARG_DST, dst.get()}};
    matmul prim(w.pd);
    const dnnl_status_t st = dnnl_primitive_execute(prim.get(), s.get(), 3, args);
    s.wait();
    return st;
}

TEST(matmul_sparse_packed, bad_metadata_gives_invalid_arguments) {
    packed_weights_t w;
    ASSERT_EQ(run_matmul(w), dnnl_success);
    auto *offsets = static_cast<int64_t *>(w.wmem.get_data_handle(1));
    auto *masks = static_cast<uint64_t *>(w.wmem.get_data_handle(2));
    const int64_t saved = offsets[3];
    offsets[3] += 1; // a chunk that would start past its values
    EXPECT_EQ(run_matmul(w), dnnl_invalid_arguments);
    offsets[3] = saved;
    const uint64_t m1 = masks[1];
    masks[1] |= uint64_t(1) << 10; // the last chunk of row 0 (6 columns) marks column 74
    EXPECT_EQ(run_matmul(w), dnnl_invalid_arguments);
    masks[1] = m1;
    // Consistent metadata marking every element: more values than the descriptor's nnz.
    int64_t next = 0;
    for (int c = 0; c < 8; ++c) {
        offsets[c] = next;
        masks[c] = c % 2 ? ~uint64_t(0) >> 58 : ~uint64_t(0);
        next += c % 2 ? 6 : 64;
    }
    ASSERT_GT(next, w.nnz);
    EXPECT_EQ(run_matmul(w), dnnl_invalid_arguments);
}

TEST(matmul_sparse_packed, more_non_zeros_than_nnz_fail_the_reorder) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const auto wei = random_weights(5, 9, 0.7, false, 4);
    const memory::dim nnz = std::count_if(wei.begin(), wei.end(), [](float v) { return v != 0.f; });
    ASSERT_GT(nnz, 1);
    auto request = memory::desc::packed({5, 9}, dt::f32, nnz - 1);
    matmul::primitive_desc pd(eng, memory::desc({3, 5}, dt::f32, tag::ab), request,
            memory::desc({3, 9}, dt::f32, tag::ab));
    memory wmem(pd.weights_desc(), eng), user({{5, 9}, dt::f32, tag::ab}, eng);
    write(user, wei, 5, 9, dt::f32, false);
    reorder r(user, wmem);
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, user.get()}, {DNNL_ARG_TO, wmem.get()}};
    EXPECT_EQ(dnnl_primitive_execute(r.get(), s.get(), 2, args), dnnl_invalid_arguments);
}

dnnl_status_t create(const engine &eng, const memory::desc &s, const memory::desc &w,
        const memory::desc *b, const memory::desc &d, const_dnnl_primitive_attr_t attr = nullptr) {
    dnnl_primitive_desc_t pd = nullptr;
    const dnnl_status_t st = dnnl_matmul_primitive_desc_create(
            &pd, eng.get(), s.get(), w.get(), b ? b->get() : nullptr, d.get(), attr);
    if (pd) dnnl_primitive_desc_destroy(pd);
    return st;
}

TEST(matmul_sparse_packed, what_stays_refused) {
    engine eng(engine::kind::cpu, 0);
    auto req = memory::desc::packed({6, 5}, dt::s8, 4);
    memory::desc src({4, 6}, dt::u8, tag::ab), dst({4, 5}, dt::f32, tag::ab);
    EXPECT_EQ(create(eng, src, req, nullptr, dst), dnnl_success);
    // bias, attributes, a packed src, batched, unsupported types
    memory::desc bias({1, 5}, dt::f32, tag::ab);
    EXPECT_EQ(create(eng, src, req, &bias, dst), dnnl_unimplemented);
    primitive_attr attr;
    attr.set_scales_mask(DNNL_ARG_WEIGHTS, 0);
    EXPECT_EQ(create(eng, src, req, nullptr, dst, attr.get()), dnnl_unimplemented);
    auto psrc = memory::desc::packed({4, 6}, dt::f32, 4);
    memory::desc wd({6, 5}, dt::f32, tag::ab);
    EXPECT_EQ(create(eng, psrc, wd, nullptr, dst), dnnl_unimplemented);
    auto req3 = memory::desc::packed({1, 6, 5}, dt::s8, 4);
    EXPECT_EQ(create(eng, memory::desc({1, 4, 6}, dt::u8, tag::abc), req3, nullptr,
                      memory::desc({1, 4, 5}, dt::f32, tag::abc)),
            dnnl_unimplemented);
    auto req_u8 = memory::desc::packed({6, 5}, dt::u8, 4);
    EXPECT_EQ(create(eng, src, req_u8, nullptr, dst), dnnl_unimplemented);
    EXPECT_EQ(create(eng, memory::desc({4, 6}, dt::f32, tag::ab), req, nullptr, dst),
            dnnl_unimplemented); // f32 src with s8 weights
    memory::desc dst_bf16({4, 5}, dt::bf16, tag::ab);
    EXPECT_EQ(create(eng, src, req, nullptr, dst_bf16), dnnl_unimplemented);

    // A request is not a layout: no memory, no reorder into it, no data types of metadata.
    dnnl_memory_t mem = nullptr;
    EXPECT_EQ(dnnl_memory_create(&mem, req.get(), eng.get(), DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
    void *handles[3] = {nullptr, nullptr, nullptr};
    EXPECT_EQ(dnnl_memory_create_v2(&mem, req.get(), eng.get(), 3, handles),
            dnnl_invalid_arguments);
    EXPECT_EQ(req.get_size(0), 0u);
    dnnl_primitive_desc_t rpd = nullptr;
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(&rpd, memory::desc({6, 5}, dt::f32, tag::ab).get(),
                      eng.get(), req.get(), eng.get(), nullptr),
            dnnl_invalid_arguments);
    dnnl_data_type_t t = dnnl_data_type_undef;
    EXPECT_EQ(dnnl_memory_desc_query_v2(req.get(), dnnl_query_data_type, 1, &t),
            dnnl_invalid_arguments);

    // The resolved layout: metadata of s64; a reorder with scales into it is refused.
    matmul::primitive_desc pd(eng, src, req, dst);
    EXPECT_EQ(dnnl_memory_desc_query_v2(pd.weights_desc().get(), dnnl_query_data_type, 1, &t),
            dnnl_success);
    EXPECT_EQ(t, dnnl_s64);
    primitive_attr rattr;
    rattr.set_scales_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(&rpd, memory::desc({6, 5}, dt::f32, tag::ab).get(),
                      eng.get(), pd.weights_desc().get(), eng.get(), rattr.get()),
            dnnl_unimplemented);
    // The primitive also takes the resolved layout it gave.
    EXPECT_EQ(create(eng, src, pd.weights_desc(), nullptr, dst), dnnl_success);
}

} // namespace
