// Sparse matmul on the GPU engine (ocl:matmul:sparse): CSR or row-sorted COO src times dense
// weights, and dense src times CSR or COO weights (any order), f32/f16/bf16 values, dst of the
// value type or f32, against the double product of tests/primitives/matmul_sparse_ref.hpp
// (values multiples of 1/4: f32 sums are exact, only dst's rounding remains). Shapes of 1,
// odd sizes, empty rows, nnz 0, transposed dense weights; memories of several handles the
// library allocates, filled through map_data per handle. Packed weights stay refused.
// Skipped without an OpenCL device.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpu/device_copy.hpp"
#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_debug.h"
#include "primitives/matmul_sparse_ref.hpp"

namespace {

using sparse_ref::matrix_t;

std::vector<uint8_t> to_bytes(const std::vector<float> &v, dnnl_data_type_t dt) {
    std::vector<uint8_t> b(v.size() * c_tensor::dt_size(dt));
    for (size_t i = 0; i < v.size(); ++i) {
        if (dt == dnnl_f32) {
            std::memcpy(&b[4 * i], &v[i], 4);
        } else {
            const uint16_t h = dt == dnnl_f16 ? c_tensor::to_f16(v[i]) : c_tensor::to_bf16(v[i]);
            std::memcpy(&b[2 * i], &h, 2);
        }
    }
    return b;
}

// Copies bytes into handle `index` of a device memory.
void upload(dnnl_memory_t mem, int index, const void *data, size_t bytes) {
    if (bytes == 0) return;
    void *p = nullptr;
    ASSERT_EQ(dnnl_memory_map_data_v2(mem, &p, index), dnnl_success);
    std::memcpy(p, data, bytes);
    ASSERT_EQ(dnnl_memory_unmap_data_v2(mem, p, index), dnnl_success);
}

struct problem_t {
    problem_t(int64_t m, int64_t k, int64_t n, bool sparse_src, dnnl_sparse_encoding_t e,
            dnnl_data_type_t t = dnnl_f32, dnnl_data_type_t d = dnnl_f32)
        : M(m), K(k), N(n), src_sparse(sparse_src), enc(e), dt(t), dst_dt(d) {}
    int64_t M, K, N;
    bool src_sparse;
    dnnl_sparse_encoding_t enc;
    dnnl_data_type_t dt, dst_dt;
    bool wei_ba = false; // dense weights transposed in memory
    double density = 0.3;
    std::vector<int64_t> empty_rows;
    uint32_t shuffle = 0; // COO order of sparse weights
    std::string name() const {
        return std::string(src_sparse ? "src " : "weights ") + dnnl_sparse_encoding2str(enc)
                + " " + std::to_string(M) + "x" + std::to_string(K) + "x" + std::to_string(N)
                + " " + dnnl_dt2str(dt) + ":" + dnnl_dt2str(dst_dt) + (wei_ba ? " ba" : "");
    }
};

void run(dnnl_engine_t gpu, const problem_t &p) {
    SCOPED_TRACE(p.name());
    const int64_t sr = p.src_sparse ? p.M : p.K, sc = p.src_sparse ? p.K : p.N;
    const matrix_t sp = sparse_ref::random_matrix(sr, sc, p.density, 7, p.empty_rows);
    const int64_t dr = p.src_sparse ? p.K : p.M, dc = p.src_sparse ? p.N : p.K;
    const std::vector<float> dn = sparse_ref::random_dense(dr * dc, 11);

    // The sparse operand's buffers: values, then CSR indices/pointers or COO rows/columns.
    std::vector<float> values;
    std::vector<int32_t> meta[2];
    if (p.enc == dnnl_csr) {
        auto c = sparse_ref::to_csr(sp);
        values = c.values, meta[0] = c.indices, meta[1] = c.pointers;
    } else {
        auto c = sparse_ref::to_coo(sp, p.src_sparse ? 0 : p.shuffle);
        values = c.values, meta[0] = c.rows, meta[1] = c.cols;
    }
    const int64_t nnz = int64_t(values.size());
    dnnl_memory_desc_t smd = nullptr;
    const dnnl_dims_t sdims = {sr, sc};
    if (p.enc == dnnl_csr)
        ASSERT_EQ(dnnl_memory_desc_create_with_csr_encoding(
                          &smd, 2, sdims, p.dt, nnz, dnnl_s32, dnnl_s32),
                dnnl_success);
    else
        ASSERT_EQ(dnnl_memory_desc_create_with_coo_encoding(&smd, 2, sdims, p.dt, nnz, dnnl_s32),
                dnnl_success);
    const bool ba = p.src_sparse && p.wei_ba;
    dnnl_memory_desc_t dmd = gpu_test::md({dr, dc}, p.dt, ba ? dnnl_ba : dnnl_ab);
    dnnl_memory_desc_t omd = gpu_test::md({p.M, p.N}, p.dst_dt, dnnl_ab);

    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_matmul_primitive_desc_create(&pd, gpu, p.src_sparse ? smd : dmd,
                      p.src_sparse ? dmd : smd, nullptr, omd, nullptr),
            dnnl_success);
    const char *impl = nullptr;
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
    EXPECT_STREQ(impl, "ocl:matmul:sparse");

    void *alloc[3] = {DNNL_MEMORY_ALLOCATE, DNNL_MEMORY_ALLOCATE, DNNL_MEMORY_ALLOCATE};
    dnnl_memory_t smem = nullptr, dmem = nullptr, omem = nullptr;
    ASSERT_EQ(dnnl_memory_create_v2(&smem, smd, gpu, 3, alloc), dnnl_success);
    ASSERT_EQ(dnnl_memory_create(&dmem, dmd, gpu, DNNL_MEMORY_ALLOCATE), dnnl_success);
    ASSERT_EQ(dnnl_memory_create(&omem, omd, gpu, DNNL_MEMORY_ALLOCATE), dnnl_success);
    const auto vb = to_bytes(values, p.dt);
    upload(smem, 0, vb.data(), vb.size());
    upload(smem, 1, meta[0].data(), meta[0].size() * 4);
    upload(smem, 2, meta[1].data(), meta[1].size() * 4);
    std::vector<float> phys(dn.size());
    for (int64_t i = 0; i < dr; ++i)
        for (int64_t j = 0; j < dc; ++j)
            phys[ba ? j * dr + i : i * dc + j] = dn[i * dc + j];
    const auto db = to_bytes(phys, p.dt);
    upload(dmem, 0, db.data(), db.size());
    const size_t obytes = size_t(p.M * p.N) * c_tensor::dt_size(p.dst_dt);
    std::vector<uint8_t> stale(obytes, 0x7f);
    upload(omem, 0, stale.data(), obytes);

    gpu_test::execute(gpu, pd,
            {{DNNL_ARG_SRC, p.src_sparse ? smem : dmem},
                    {DNNL_ARG_WEIGHTS, p.src_sparse ? dmem : smem}, {DNNL_ARG_DST, omem}});
    std::vector<uint8_t> out(obytes);
    if (obytes) {
        void *q = nullptr;
        ASSERT_EQ(dnnl_memory_map_data(omem, &q), dnnl_success);
        std::memcpy(out.data(), q, obytes);
        ASSERT_EQ(dnnl_memory_unmap_data(omem, q), dnnl_success);
    }
    const auto ref = p.src_sparse ? sparse_ref::product(sp.dense, dn, p.M, p.K, p.N)
                                  : sparse_ref::product(dn, sp.dense, p.M, p.K, p.N);
    for (int64_t i = 0; i < p.M * p.N; ++i) {
        float got;
        if (p.dst_dt == dnnl_f32) {
            std::memcpy(&got, &out[4 * i], 4);
        } else {
            uint16_t h;
            std::memcpy(&h, &out[2 * i], 2);
            got = p.dst_dt == dnnl_f16 ? c_tensor::from_f16(h) : c_tensor::from_bf16(h);
        }
        ASSERT_EQ(got, c_tensor::round_to(p.dst_dt, float(ref[i]))) << "element " << i;
    }
    dnnl_primitive_desc_destroy(pd);
    for (dnnl_memory_t m : {smem, dmem, omem})
        dnnl_memory_destroy(m);
    for (dnnl_memory_desc_t m : {smd, dmd, omd})
        dnnl_memory_desc_destroy(m);
}

struct gpu_engine_t {
    dnnl_engine_t e = nullptr;
    gpu_engine_t() { EXPECT_EQ(dnnl_engine_create(&e, dnnl_gpu, 0), dnnl_success); }
    ~gpu_engine_t() { dnnl_engine_destroy(e); }
};

TEST(matmul_sparse_gpu, src_and_weights_over_shapes_and_types) {
    SKIP_WITHOUT_GPU();
    gpu_engine_t g;
    const int64_t shapes[][3] = {{1, 1, 1}, {5, 7, 3}, {13, 64, 9}, {4, 300, 17}, {2, 1, 5}};
    // Type pairs (each builds a program): f32, f16 kept in f16, bf16 summed into f32.
    const dnnl_data_type_t types[][2]
            = {{dnnl_f32, dnnl_f32}, {dnnl_f16, dnnl_f16}, {dnnl_bf16, dnnl_f32}};
    for (auto enc : {dnnl_csr, dnnl_coo})
        for (bool src_sparse : {true, false})
            for (const auto &t : types)
                for (const auto &s : shapes) {
                    problem_t p {s[0], s[1], s[2], src_sparse, enc, t[0], t[1]};
                    p.density = s[0] * s[1] == 1 ? 1.0 : 0.3;
                    p.shuffle = 3;
                    run(g.e, p);
                }
}

TEST(matmul_sparse_gpu, empty_rows_nnz_zero_and_transposed_weights) {
    SKIP_WITHOUT_GPU();
    gpu_engine_t g;
    for (auto enc : {dnnl_csr, dnnl_coo})
        for (bool src_sparse : {true, false}) {
            problem_t p {11, 10, 6, src_sparse, enc};
            p.empty_rows = {0, 4, 5, src_sparse ? 10 : 9};
            p.shuffle = 5;
            run(g.e, p);
            problem_t z {3, 8, 5, src_sparse, enc};
            z.density = 0.0;
            run(g.e, z);
        }
    problem_t t {6, 20, 11, true, dnnl_csr};
    t.wei_ba = true;
    run(g.e, t);
    t.enc = dnnl_coo;
    run(g.e, t);
}

TEST(matmul_sparse_gpu, packed_weights_refused) {
    SKIP_WITHOUT_GPU();
    gpu_engine_t g;
    const dnnl_dims_t wd = {6, 5};
    dnnl_memory_desc_t packed = nullptr;
    ASSERT_EQ(dnnl_memory_desc_create_with_packed_encoding(&packed, 2, wd, dnnl_s8, 4),
            dnnl_success);
    dnnl_memory_desc_t src = gpu_test::md({4, 6}, dnnl_u8, dnnl_ab);
    dnnl_memory_desc_t dst = gpu_test::md({4, 5}, dnnl_f32, dnnl_ab);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, g.e, src, packed, nullptr, dst, nullptr),
            dnnl_unimplemented);
    dnnl_memory_desc_destroy(packed);
    dnnl_memory_desc_destroy(src);
    dnnl_memory_desc_destroy(dst);
}

} // namespace
