// Sparse matmul on the CPU engine (CSR or COO src or weights, dense other operand) against
// the double-precision product of matmul_sparse_ref.hpp: 1x1, odd shapes, empty rows, nnz 0,
// unsorted COO, f32/f16/bf16, weights ab and ba; bad metadata gives a status; combinations
// outside what is implemented give dnnl_unimplemented; memories of several handles through
// the C and the C++ API.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl.hpp"
#include "c_tensor.hpp"
#include "matmul_sparse_ref.hpp"

namespace {

using sparse_ref::matrix_t;

struct engine_t {
    dnnl_engine_t e = nullptr;
    dnnl_stream_t s = nullptr;
    engine_t() {
        EXPECT_EQ(dnnl_engine_create(&e, dnnl_cpu, 0), dnnl_success);
        EXPECT_EQ(dnnl_stream_create(&s, e, dnnl_stream_default_flags), dnnl_success);
    }
    ~engine_t() {
        dnnl_stream_destroy(s);
        dnnl_engine_destroy(e);
    }
};

// Host buffers of one sparse operand in the data type of its values.
struct sparse_bufs_t {
    std::vector<uint8_t> values;
    std::vector<int32_t> meta[2];
    int64_t nnz = 0;
};

std::vector<uint8_t> pack(const std::vector<float> &v, dnnl_data_type_t dt) {
    std::vector<uint8_t> b(v.size() * c_tensor::dt_size(dt));
    for (size_t i = 0; i < v.size(); ++i) {
        if (dt == dnnl_f32) std::memcpy(&b[4 * i], &v[i], 4);
        else {
            const uint16_t h = dt == dnnl_f16 ? c_tensor::to_f16(v[i]) : c_tensor::to_bf16(v[i]);
            std::memcpy(&b[2 * i], &h, 2);
        }
    }
    return b;
}

sparse_bufs_t encode(const matrix_t &m, dnnl_sparse_encoding_t enc, dnnl_data_type_t dt,
        uint32_t shuffle = 0) {
    sparse_bufs_t b;
    if (enc == dnnl_csr) {
        auto c = sparse_ref::to_csr(m);
        b.values = pack(c.values, dt);
        b.meta[0] = c.indices;
        b.meta[1] = c.pointers;
        b.nnz = static_cast<int64_t>(c.values.size());
    } else {
        auto c = sparse_ref::to_coo(m, shuffle);
        b.values = pack(c.values, dt);
        b.meta[0] = c.rows;
        b.meta[1] = c.cols;
        b.nnz = static_cast<int64_t>(c.values.size());
    }
    return b;
}

dnnl_memory_desc_t sparse_md(const matrix_t &m, dnnl_sparse_encoding_t enc,
        dnnl_data_type_t dt, int64_t nnz, dnnl_data_type_t meta_dt = dnnl_s32) {
    dnnl_memory_desc_t md = nullptr;
    const dnnl_dims_t dims = {m.rows, m.cols};
    if (enc == dnnl_csr)
        EXPECT_EQ(dnnl_memory_desc_create_with_csr_encoding(&md, 2, dims, dt, nnz, meta_dt,
                          meta_dt),
                dnnl_success);
    else
        EXPECT_EQ(dnnl_memory_desc_create_with_coo_encoding(&md, 2, dims, dt, nnz, meta_dt),
                dnnl_success);
    return md;
}

dnnl_memory_desc_t dense_md(int64_t r, int64_t c, dnnl_data_type_t dt, dnnl_format_tag_t tag) {
    dnnl_memory_desc_t md = nullptr;
    const dnnl_dims_t dims = {r, c};
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(&md, 2, dims, dt, tag), dnnl_success);
    return md;
}

// Writes a row-major matrix into a dense memory of layout ab or ba.
void fill_dense(dnnl_memory_t mem, const std::vector<float> &v, int64_t r, int64_t c,
        dnnl_data_type_t dt, bool transposed) {
    void *p = nullptr;
    ASSERT_EQ(dnnl_memory_get_data_handle(mem, &p), dnnl_success);
    std::vector<float> phys(v.size());
    for (int64_t i = 0; i < r; ++i)
        for (int64_t j = 0; j < c; ++j)
            phys[transposed ? j * r + i : i * c + j] = v[i * c + j];
    const auto b = pack(phys, dt);
    if (!b.empty()) std::memcpy(p, b.data(), b.size());
}

struct problem_t {
    int64_t M, K, N;
    bool src_sparse;
    dnnl_sparse_encoding_t enc;
    dnnl_data_type_t dt = dnnl_f32, dst_dt = dnnl_f32;
    bool wei_ba = false;
    double density = 0.3;
    std::vector<int64_t> empty_rows;
    uint32_t shuffle = 0; // COO order
};

std::string name(const problem_t &p) {
    return std::string(p.src_sparse ? "src " : "weights ") + dnnl_sparse_encoding2str(p.enc)
            + " " + std::to_string(p.M) + "x" + std::to_string(p.K) + "x"
            + std::to_string(p.N) + " " + dnnl_dt2str(p.dt) + ":" + dnnl_dt2str(p.dst_dt);
}

// Runs the problem on `eng` and checks dst against the double product.
void run(const engine_t &eng, const problem_t &p) {
    SCOPED_TRACE(name(p));
    const int64_t sr = p.src_sparse ? p.M : p.K, sc = p.src_sparse ? p.K : p.N;
    const matrix_t sp = sparse_ref::random_matrix(sr, sc, p.density, 7, p.empty_rows);
    const std::vector<float> dn = sparse_ref::random_dense((p.src_sparse ? p.K * p.N : p.M * p.K), 11);
    sparse_bufs_t b = encode(sp, p.enc, p.dt, p.shuffle);

    dnnl_memory_desc_t smd = sparse_md(sp, p.enc, p.dt, b.nnz);
    dnnl_memory_desc_t dmd = p.src_sparse
            ? dense_md(p.K, p.N, p.dt, p.wei_ba ? dnnl_ba : dnnl_ab)
            : dense_md(p.M, p.K, p.dt, dnnl_ab);
    dnnl_memory_desc_t omd = dense_md(p.M, p.N, p.dst_dt, dnnl_ab);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_matmul_primitive_desc_create(&pd, eng.e, p.src_sparse ? smd : dmd,
                      p.src_sparse ? dmd : smd, nullptr, omd, nullptr),
            dnnl_success);
    const char *impl = nullptr;
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
    EXPECT_STREQ(impl, "cpu:matmul:sparse");
    dnnl_primitive_t prim = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);

    // nnz 0: no buffers at all for values and indices.
    void *handles[3] = {b.nnz ? b.values.data() : nullptr,
            b.nnz ? b.meta[0].data() : nullptr, b.meta[1].empty() ? nullptr : b.meta[1].data()};
    dnnl_memory_t smem = nullptr, dmem = nullptr, omem = nullptr;
    ASSERT_EQ(dnnl_memory_create_v2(&smem, smd, eng.e, 3, handles), dnnl_success);
    ASSERT_EQ(dnnl_memory_create(&dmem, dmd, eng.e, DNNL_MEMORY_ALLOCATE), dnnl_success);
    ASSERT_EQ(dnnl_memory_create(&omem, omd, eng.e, DNNL_MEMORY_ALLOCATE), dnnl_success);
    if (p.src_sparse) fill_dense(dmem, dn, p.K, p.N, p.dt, p.wei_ba);
    else fill_dense(dmem, dn, p.M, p.K, p.dt, false);
    void *op = nullptr;
    dnnl_memory_get_data_handle(omem, &op);
    if (p.M * p.N) std::memset(op, 0x7f, p.M * p.N * c_tensor::dt_size(p.dst_dt)); // stale

    dnnl_exec_arg_t args[3] = {{DNNL_ARG_SRC, p.src_sparse ? smem : dmem},
            {DNNL_ARG_WEIGHTS, p.src_sparse ? dmem : smem}, {DNNL_ARG_DST, omem}};
    ASSERT_EQ(dnnl_primitive_execute(prim, eng.s, 3, args), dnnl_success);
    ASSERT_EQ(dnnl_stream_wait(eng.s), dnnl_success);

    const auto ref = p.src_sparse ? sparse_ref::product(sp.dense, dn, p.M, p.K, p.N)
                                  : sparse_ref::product(dn, sp.dense, p.M, p.K, p.N);
    for (int64_t i = 0; i < p.M * p.N; ++i) {
        float got;
        if (p.dst_dt == dnnl_f32) got = static_cast<float *>(op)[i];
        else {
            const uint16_t h = static_cast<uint16_t *>(op)[i];
            got = p.dst_dt == dnnl_f16 ? c_tensor::from_f16(h) : c_tensor::from_bf16(h);
        }
        // Sums of multiples of 1/16 are exact in f32: only dst's rounding remains.
        const float expect = c_tensor::round_to(p.dst_dt, static_cast<float>(ref[i]));
        ASSERT_EQ(got, expect) << "element " << i;
    }
    dnnl_memory_destroy(smem);
    dnnl_memory_destroy(dmem);
    dnnl_memory_destroy(omem);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(smd);
    dnnl_memory_desc_destroy(dmd);
    dnnl_memory_desc_destroy(omd);
}

TEST(matmul_sparse, csr_and_coo_src_and_weights_over_shapes_and_types) {
    engine_t eng;
    const int64_t shapes[][3] = {{1, 1, 1}, {5, 7, 3}, {13, 64, 9}, {4, 300, 17}, {2, 1, 5}};
    for (auto enc : {dnnl_csr, dnnl_coo})
        for (bool src_sparse : {true, false})
            for (auto dt : {dnnl_f32, dnnl_f16, dnnl_bf16})
                for (const auto &s : shapes) {
                    problem_t p {s[0], s[1], s[2], src_sparse, enc, dt, dt};
                    p.density = s[0] * s[1] == 1 ? 1.0 : 0.3;
                    run(eng, p);
                    if (dt != dnnl_f32) {
                        p.dst_dt = dnnl_f32;
                        run(eng, p);
                    }
                }
}

TEST(matmul_sparse, empty_rows_first_last_and_middle) {
    engine_t eng;
    for (auto enc : {dnnl_csr, dnnl_coo})
        for (bool src_sparse : {true, false}) {
            problem_t p {11, 10, 6, src_sparse, enc};
            p.empty_rows = {0, 4, 5, src_sparse ? 10 : 9};
            run(eng, p);
        }
}

TEST(matmul_sparse, no_non_zeros_gives_zeros) {
    engine_t eng;
    for (auto enc : {dnnl_csr, dnnl_coo})
        for (bool src_sparse : {true, false}) {
            problem_t p {3, 8, 5, src_sparse, enc};
            p.density = 0.0;
            run(eng, p);
        }
}

TEST(matmul_sparse, unsorted_coo_and_weights_ba) {
    engine_t eng;
    for (bool src_sparse : {true, false}) {
        problem_t p {9, 31, 7, src_sparse, dnnl_coo};
        p.shuffle = 5;
        p.density = 0.5;
        run(eng, p);
    }
    problem_t t {6, 20, 11, true, dnnl_csr};
    t.wei_ba = true;
    run(eng, t);
    t.enc = dnnl_coo;
    run(eng, t);
}

// A 3x4 CSR src against 4x2 weights, built by hand; `tamper` breaks its metadata.
dnnl_status_t run_tampered(const engine_t &eng, dnnl_sparse_encoding_t enc,
        void (*tamper)(std::vector<int32_t> &, std::vector<int32_t> &)) {
    matrix_t a = sparse_ref::random_matrix(3, 4, 0.6, 3);
    a.dense[0] = 1.f; // at least one entry
    sparse_bufs_t b = encode(a, enc, dnnl_f32);
    tamper(b.meta[0], b.meta[1]);
    dnnl_memory_desc_t smd = sparse_md(a, enc, dnnl_f32, b.nnz);
    dnnl_memory_desc_t wmd = dense_md(4, 2, dnnl_f32, dnnl_ab);
    dnnl_memory_desc_t omd = dense_md(3, 2, dnnl_f32, dnnl_ab);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, eng.e, smd, wmd, nullptr, omd, nullptr),
            dnnl_success);
    dnnl_primitive_t prim = nullptr;
    EXPECT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
    void *handles[3] = {b.values.data(), b.meta[0].data(), b.meta[1].data()};
    dnnl_memory_t smem = nullptr, wmem = nullptr, omem = nullptr;
    EXPECT_EQ(dnnl_memory_create_v2(&smem, smd, eng.e, 3, handles), dnnl_success);
    EXPECT_EQ(dnnl_memory_create(&wmem, wmd, eng.e, DNNL_MEMORY_ALLOCATE), dnnl_success);
    EXPECT_EQ(dnnl_memory_create(&omem, omd, eng.e, DNNL_MEMORY_ALLOCATE), dnnl_success);
    dnnl_exec_arg_t args[3] = {
            {DNNL_ARG_SRC, smem}, {DNNL_ARG_WEIGHTS, wmem}, {DNNL_ARG_DST, omem}};
    const dnnl_status_t st = dnnl_primitive_execute(prim, eng.s, 3, args);
    dnnl_memory_destroy(smem);
    dnnl_memory_destroy(wmem);
    dnnl_memory_destroy(omem);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(smd);
    dnnl_memory_desc_destroy(wmd);
    dnnl_memory_desc_destroy(omd);
    return st;
}

TEST(matmul_sparse, bad_metadata_gives_invalid_arguments) {
    engine_t eng;
    using v = std::vector<int32_t>;
    EXPECT_EQ(run_tampered(eng, dnnl_csr, [](v &i, v &) { i.back() = 4; }),
            dnnl_invalid_arguments);
    EXPECT_EQ(run_tampered(eng, dnnl_csr, [](v &i, v &) { i.front() = -1; }),
            dnnl_invalid_arguments);
    EXPECT_EQ(run_tampered(eng, dnnl_csr, [](v &, v &p) { p.back() -= 1; }),
            dnnl_invalid_arguments);
    EXPECT_EQ(run_tampered(eng, dnnl_csr, [](v &, v &p) { p[0] = 1; }),
            dnnl_invalid_arguments);
    EXPECT_EQ(run_tampered(eng, dnnl_csr, [](v &, v &p) { std::swap(p[1], p[2]); p[2] = 0; }),
            dnnl_invalid_arguments);
    EXPECT_EQ(run_tampered(eng, dnnl_coo, [](v &r, v &) { r.back() = 3; }),
            dnnl_invalid_arguments);
    EXPECT_EQ(run_tampered(eng, dnnl_coo, [](v &, v &c) { c.front() = -7; }),
            dnnl_invalid_arguments);
    EXPECT_EQ(run_tampered(eng, dnnl_coo, [](v &, v &) {}), dnnl_success);
}

dnnl_status_t create(const engine_t &eng, const_dnnl_memory_desc_t s,
        const_dnnl_memory_desc_t w, const_dnnl_memory_desc_t b, const_dnnl_memory_desc_t d,
        const_dnnl_primitive_attr_t attr = nullptr) {
    dnnl_primitive_desc_t pd = nullptr;
    const dnnl_status_t st = dnnl_matmul_primitive_desc_create(&pd, eng.e, s, w, b, d, attr);
    if (pd) dnnl_primitive_desc_destroy(pd);
    return st;
}

TEST(matmul_sparse, other_combinations_are_unimplemented) {
    engine_t eng;
    matrix_t a {4, 6, {}}, w {6, 5, {}};
    dnnl_memory_desc_t csr_a = sparse_md(a, dnnl_csr, dnnl_f32, 3);
    dnnl_memory_desc_t coo_w = sparse_md(w, dnnl_coo, dnnl_f32, 3);
    dnnl_memory_desc_t dense_a = dense_md(4, 6, dnnl_f32, dnnl_ab);
    dnnl_memory_desc_t dense_w = dense_md(6, 5, dnnl_f32, dnnl_ab);
    dnnl_memory_desc_t dst = dense_md(4, 5, dnnl_f32, dnnl_ab);
    dnnl_memory_desc_t bias = dense_md(1, 5, dnnl_f32, dnnl_ab);
    dnnl_memory_desc_t csr_s64 = sparse_md(a, dnnl_csr, dnnl_f32, 3, dnnl_s64);
    dnnl_memory_desc_t csr_s8 = sparse_md(a, dnnl_csr, dnnl_s8, 3);
    dnnl_memory_desc_t dst_ba = dense_md(4, 5, dnnl_f32, dnnl_ba);
    // Batched (3D): a COO src of rank 3 exists, a sparse matmul of rank 3 does not.
    const dnnl_dims_t d3 = {1, 4, 6}, w3 = {1, 6, 5}, o3 = {1, 4, 5};
    dnnl_memory_desc_t coo3 = nullptr, wei3 = nullptr, dst3 = nullptr;
    ASSERT_EQ(dnnl_memory_desc_create_with_coo_encoding(&coo3, 3, d3, dnnl_f32, 3, dnnl_s32),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&wei3, 3, w3, dnnl_f32, dnnl_abc), dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&dst3, 3, o3, dnnl_f32, dnnl_abc), dnnl_success);
    EXPECT_EQ(create(eng, coo3, wei3, nullptr, dst3), dnnl_unimplemented);

    EXPECT_EQ(create(eng, csr_a, dense_w, nullptr, dst), dnnl_success);
    EXPECT_EQ(create(eng, dense_a, coo_w, nullptr, dst), dnnl_success);
    EXPECT_EQ(create(eng, csr_a, coo_w, nullptr, dst), dnnl_unimplemented);
    EXPECT_EQ(create(eng, csr_a, dense_w, bias, dst), dnnl_unimplemented);
    EXPECT_EQ(create(eng, csr_s64, dense_w, nullptr, dst), dnnl_unimplemented);
    EXPECT_EQ(create(eng, csr_s8, dense_w, nullptr, dst), dnnl_unimplemented);
    EXPECT_EQ(create(eng, csr_a, dense_w, nullptr, dst_ba), dnnl_unimplemented);
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 0), dnnl_success);
    EXPECT_EQ(create(eng, csr_a, dense_w, nullptr, dst, attr), dnnl_unimplemented);
    dnnl_primitive_attr_destroy(attr);
    for (auto md : {csr_a, coo_w, dense_a, dense_w, dst, bias, csr_s64, csr_s8, dst_ba, coo3,
                 wei3, dst3})
        dnnl_memory_desc_destroy(md);
}

// The C++ API: a memory made of three user buffers, its handles read back by index and the
// values buffer swapped for another one between two executions.
TEST(matmul_sparse, cpp_api_handles_by_index) {
    using namespace dnnl;
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const memory::dim M = 4, K = 6, N = 3;
    std::vector<float> values = {2.5f, 1.5f, 1.5f, 2.5f, 2.0f};
    std::vector<int32_t> indices = {0, 2, 0, 5, 1}, pointers = {0, 1, 2, 4, 5};
    auto csr_md = memory::desc::csr({M, K}, memory::data_type::f32, 5, memory::data_type::s32,
            memory::data_type::s32);
    memory csr(csr_md, eng, {values.data(), indices.data(), pointers.data()});
    ASSERT_EQ(csr.get_desc().get_num_handles(), 3);
    EXPECT_EQ(csr.get_data_handle(0), values.data());
    EXPECT_EQ(csr.get_data_handle(1), indices.data());
    EXPECT_EQ(csr.get_data_handle(2), pointers.data());
    EXPECT_EQ(csr_md.get_size(0), 5 * sizeof(float));
    EXPECT_EQ(csr_md.get_size(2), (M + 1) * sizeof(int32_t));

    memory::desc w_md({K, N}, memory::data_type::f32, memory::format_tag::ab);
    memory::desc d_md({M, N}, memory::data_type::f32, memory::format_tag::ab);
    std::vector<float> w = sparse_ref::random_dense(K * N, 3), d(M * N);
    memory wm(w_md, eng, w.data()), dm(d_md, eng, d.data());
    matmul mm(matmul::primitive_desc(eng, csr_md, w_md, d_md));

    std::vector<float> dense(M * K, 0.f);
    for (int m = 0; m < M; ++m)
        for (int p = pointers[m]; p < pointers[m + 1]; ++p)
            dense[m * K + indices[p]] = values[p];
    mm.execute(s, {{DNNL_ARG_SRC, csr}, {DNNL_ARG_WEIGHTS, wm}, {DNNL_ARG_DST, dm}});
    s.wait();
    auto ref = sparse_ref::product(dense, w, M, K, N);
    for (int i = 0; i < M * N; ++i)
        ASSERT_EQ(d[i], static_cast<float>(ref[i])) << i;

    std::vector<float> other = {-1.f, 0.5f, 4.f, -2.f, 0.25f};
    csr.set_data_handle(other.data(), 0);
    EXPECT_EQ(csr.get_data_handle(0), other.data());
    EXPECT_EQ(csr.get_data_handle(1), indices.data());
    mm.execute(s, {{DNNL_ARG_SRC, csr}, {DNNL_ARG_WEIGHTS, wm}, {DNNL_ARG_DST, dm}});
    s.wait();
    for (int m = 0; m < M; ++m)
        for (int p = pointers[m]; p < pointers[m + 1]; ++p)
            dense[m * K + indices[p]] = other[p];
    ref = sparse_ref::product(dense, w, M, K, N);
    for (int i = 0; i < M * N; ++i)
        ASSERT_EQ(d[i], static_cast<float>(ref[i])) << i;
    EXPECT_THROW(csr.get_data_handle(3), error);
}

} // namespace
