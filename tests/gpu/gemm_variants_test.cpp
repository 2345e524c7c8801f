// Every GEMM variant the tuning table can choose on this device, forced through
// ANYDNN_GPU_TUNING, on matmuls checked against the references of tests/primitives
// (matmul_ref.hpp, output_stage_ref.hpp): M, N and K tails, batch broadcast, strided and
// transposed operands, bias, a post-op chain (sum, eltwise, binary), bf16 operands and results,
// few rows (skinny), and a bad override that leaves only the generic kernel.
#include <algorithm>
#include <cstdlib>
#include <string>

#include "gpu/device_copy.hpp"
#include "primitives/matmul_ref.hpp"
#include "primitives/output_stage_ref.hpp"

namespace {

using namespace gpu_test;
using c_tensor::tensor_t;

struct mm_t {
    std::vector<int64_t> a, b, c; // logical dims (batch..., rows, cols)
    std::vector<int64_t> a_strides, b_strides; // empty: dense row-major
    dnnl_data_type_t in = dnnl_f32, out = dnnl_f32;
    bool bias = false, post_ops = false;
};

std::vector<int64_t> dense(const std::vector<int64_t> &dims) {
    std::vector<int64_t> s(dims.size(), 1);
    for (int d = static_cast<int>(dims.size()) - 2; d >= 0; --d)
        s[d] = s[d + 1] * dims[d + 1];
    return s;
}

dnnl_memory_desc_t strided(const std::vector<int64_t> &dims, dnnl_data_type_t dt,
        const std::vector<int64_t> &strides) {
    dnnl_memory_desc_t m = nullptr;
    const std::vector<int64_t> s = strides.empty() ? dense(dims) : strides;
    EXPECT_EQ(dnnl_memory_desc_create_with_strides(
                      &m, static_cast<int>(dims.size()), dims.data(), dt, s.data()),
            dnnl_success);
    return m;
}

// Runs the forced variant alone (every implementation for the table's own row, `tuning`
// empty: the others do not depend on the override) with ANYDNN_GPU_TUNING=`tuning` and
// checks dst against matmul_ref and output_stage_ref: one rounding of dst's type plus the f32
// accumulation's bound.
void check(const mm_t &t, const char *tuning) {
    SCOPED_TRACE(std::string("ANYDNN_GPU_TUNING=") + tuning);
    setenv("ANYDNN_GPU_TUNING", tuning, 1);
    const size_t nd = t.c.size();
    dnnl_memory_desc_t a = strided(t.a, t.in, t.a_strides);
    dnnl_memory_desc_t b = strided(t.b, t.in, t.b_strides);
    dnnl_memory_desc_t c = strided(t.c, t.out, {});
    std::vector<int64_t> row(nd, 1);
    row[nd - 1] = t.c[nd - 1];
    dnnl_memory_desc_t bias = t.bias ? strided(row, dnnl_f32, {}) : nullptr;
    std::vector<int> ins = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS};
    if (t.bias) ins.push_back(DNNL_ARG_BIAS);
    dnnl_primitive_attr_t attr = nullptr;
    dnnl_post_ops_t po = nullptr;
    dnnl_memory_desc_t src1 = nullptr;
    if (t.post_ops) {
        ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
        ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
        ASSERT_EQ(dnnl_post_ops_append_sum(po, 0.5f, 0, dnnl_data_type_undef), dnnl_success);
        ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f), dnnl_success);
        src1 = strided(row, dnnl_f32, {});
        ASSERT_EQ(dnnl_post_ops_append_binary(po, dnnl_binary_mul, src1), dnnl_success);
        ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
        ins.push_back(DNNL_ARG_ATTR_MULTIPLE_POST_OP(2) | DNNL_ARG_SRC_1);
        ins.push_back(DNNL_ARG_DST); // read by the sum
    }
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_matmul_primitive_desc_create(&pd, gpu, a, b, bias, c, attr), dnnl_success);
    const char *name = nullptr;
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
    // A forced variant runs; the table's own choice may be no tiled row on a device with
    // little local memory (Intel's CPU runtime), which leaves the generic kernel.
    // The f32 PTX kernels name themselves unless the chain (with a binary post-op) keeps
    // every launch on fma_8x8.
    if (*tuning) {
        EXPECT_STREQ(name,
                std::string(tuning).find("sgemm_ptx") != std::string::npos && !t.post_ops
                        ? "ocl:matmul:sgemm_ptx"
                        : "ocl:matmul:tiled");
    }
    const int64_t K = t.a[nd - 1];
    EXPECT_GE(run_each_impl(cpu, gpu, pd, ins, {DNNL_ARG_DST},
                      [&](const std::vector<tensor_t *> &x) {
                          const lookup_t in {ins, x};
                          const tensor_t &dst = *x.back();
                          output_stage_ref::params_t os;
                          os.po = post_ops_ref::of(pd);
                          os.po_ops = post_ops_ref::operands_of(os.po, ins, x);
                          const std::vector<double> old = in(DNNL_ARG_DST)
                                  ? c_tensor::values(*in(DNNL_ARG_DST))
                                  : std::vector<double>();
                          std::vector<float> want;
                          std::vector<double> slack;
                          int64_t pos[DNNL_MAX_NDIMS] = {}, p[DNNL_MAX_NDIMS];
                          size_t k = 0;
                          do {
                              double mag = 0;
                              const double acc = matmul_ref::dot(
                                      matmul_ref::broadcasting(*in(DNNL_ARG_SRC)),
                                      matmul_ref::broadcasting(*in(DNNL_ARG_WEIGHTS)), int(nd),
                                      pos, K, 0, 0, &mag);
                              if (t.bias) {
                                  c_tensor::bcast_pos(in(DNNL_ARG_BIAS)->lay, pos, p);
                                  os.bias = in(DNNL_ARG_BIAS)->get(p);
                              }
                              double err = double(K) * post_ops_ref::f32_eps * mag;
                              want.push_back(c_tensor::round_to(t.out,
                                      float(output_stage_ref::apply(
                                              os, acc, old.empty() ? 0.0 : old[k], pos, &err))));
                              slack.push_back(err);
                              ++k;
                          } while (c_tensor::next_pos(pos, dst.lay.dims, int(nd)));
                          c_tensor::expect_values(want, dst, slack);
                      },
                      default_fill, *tuning ? 1 : INT_MAX),
            1);
    dnnl_primitive_desc_destroy(pd);
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
    dnnl_primitive_attr_destroy(attr);
    dnnl_post_ops_destroy(po);
    for (dnnl_memory_desc_t m : {a, b, c, bias, src1})
        if (m) dnnl_memory_desc_destroy(m);
    unsetenv("ANYDNN_GPU_TUNING");
}

// Each variant must run with its own kernel: no primitive from the cache built for another.
struct no_primitive_cache_t {
    no_primitive_cache_t() {
        dnnl_get_primitive_cache_capacity(&saved);
        dnnl_set_primitive_cache_capacity(0);
    }
    ~no_primitive_cache_t() { dnnl_set_primitive_cache_capacity(saved); }
    int saved = 0;
};

const char *const variants[] = {
        "", // the table's own row for this device
        "variant=tiled_wg",
        "variant=tiled_wg,tm=8,tn=8,vw=4", // the larger register tile
        "variant=tiled_cpu,tm=4,tn=16,bm=32,bn=64,kt=8,vw=16",
        "variant=fma_8x8",
        "variant=generic",
};

} // namespace

TEST(GpuGemmVariants, TailsAndPostOps) {
    SKIP_WITHOUT_GPU();
    no_primitive_cache_t no_cache;
    for (const char *v : variants) {
        check({{1, 1}, {1, 1}, {1, 1}}, v);
        check({{37, 29}, {29, 53}, {37, 53}, {}, {}, dnnl_f32, dnnl_f32, true, true}, v);
        check({{130, 300}, {300, 70}, {130, 70}, {}, {}, dnnl_f32, dnnl_f32, true}, v);
    }
}

TEST(GpuGemmVariants, BatchBroadcastAndStrides) {
    SKIP_WITHOUT_GPU();
    no_primitive_cache_t no_cache;
    for (const char *v : variants) {
        check({{2, 1, 9, 17}, {1, 3, 17, 21}, {2, 3, 9, 21}, {}, {}, dnnl_f32, dnnl_f32, false,
                      true},
                v);
        // A transposed (m contiguous) with a padded leading dimension; B transposed.
        check({{19, 33}, {33, 41}, {19, 41}, {1, 24}, {1, 40}}, v);
        // Row strides larger than the rows, batch stride larger than the matrix.
        check({{3, 10, 35}, {1, 35, 12}, {3, 10, 12}, {500, 40, 1}, {600, 16, 1}}, v);
    }
}

TEST(GpuGemmVariants, Bf16SourcesWithF32AndBf16DstOnEveryVariant) {
    SKIP_WITHOUT_GPU();
    no_primitive_cache_t no_cache;
    for (const char *v : variants) {
        check({{45, 70}, {70, 33}, {45, 33}, {}, {}, dnnl_bf16, dnnl_f32, true}, v);
        check({{45, 70}, {70, 33}, {45, 33}, {1, 48}, {}, dnnl_bf16, dnnl_bf16, false, true}, v);
    }
}

// The skinny kernel (gemm_skinny.cl) built for up to 8 rows (the table's rows take 4 or 8; a
// PoCL build of 16 rows, each with its own barriers, takes many seconds): K in one slice,
// split into many (tn: work-groups per compute unit, kt: the shallowest slice), and 12 rows
// with fewer work-items than a group's columns with one load in flight.
const char *const skinny_variants[] = {
        "variant=skinny,tm=8",
        "variant=skinny,tm=8,tn=64,kt=8",
        "variant=skinny,wg_m=2,wg_n=16,tm=12,stages=1,tn=16,kt=4",
};

// Each build of the skinny kernels is specific to its rows (a PoCL build takes seconds), so
// each case runs under the variant whose path it is about; the K-split variant takes most.
TEST(GpuGemmVariants, SkinnyRows) {
    SKIP_WITHOUT_GPU();
    no_primitive_cache_t no_cache;
    const char *one_slice = skinny_variants[0], *split = skinny_variants[1],
               *few_items = skinny_variants[2];
    check({{1, 1}, {1, 1}, {1, 1}}, one_slice);
    check({{1, 1}, {1, 1}, {1, 1}}, split);
    check({{1, 300}, {300, 70}, {1, 70}, {}, {}, dnnl_f32, dnnl_f32, true, true}, one_slice);
    check({{1, 300}, {300, 70}, {1, 70}, {}, {}, dnnl_f32, dnnl_f32, true, true}, split);
    check({{7, 29}, {29, 53}, {7, 53}, {1, 16}, {1, 32}, dnnl_f32, dnnl_f32, true}, split);
    check({{12, 29}, {29, 53}, {12, 53}, {1, 16}, {1, 32}, dnnl_f32, dnnl_f32, true}, few_items);
    check({{2, 1, 7, 17}, {1, 3, 17, 21}, {2, 3, 7, 21}, {}, {}, dnnl_f32, dnnl_f32, false, true},
            split);
    check({{5, 70}, {70, 33}, {5, 33}, {}, {}, dnnl_bf16, dnnl_bf16, false, true}, one_slice);
    // B's columns dense and 4-aligned (vector loads), K with a tail of every step.
    check({{1, 301}, {301, 72}, {1, 72}, {}, {}, dnnl_f32, dnnl_f32, true, true}, split);
    check({{1, 301}, {301, 72}, {1, 72}, {}, {}, dnnl_f32, dnnl_f32, true, true}, few_items);
}

TEST(GpuGemmVariants, SkinnyRowsWithKDenseWeights) {
    SKIP_WITHOUT_GPU();
    no_primitive_cache_t no_cache;
    // B transposed (its K dense, rows 4-aligned: vector loads), A's K dense too.
    check({{3, 257}, {257, 45}, {3, 45}, {260, 1}, {1, 260}, dnnl_f32, dnnl_f32, true, true},
            skinny_variants[1]);
    // Unaligned rows of B (scalar loads), one row.
    check({{1, 131}, {131, 19}, {1, 19}, {}, {1, 131}, dnnl_f32, dnnl_f32, true},
            skinny_variants[0]);
    check({{6, 200}, {200, 37}, {6, 37}, {}, {1, 200}, dnnl_f16, dnnl_f16, false, true},
            skinny_variants[1]);
    check({{2, 3, 64}, {1, 64, 30}, {2, 3, 30}, {}, {30 * 64, 1, 64}, dnnl_bf16, dnnl_f32},
            skinny_variants[0]);
}

// GEMV shapes, one and four rows with odd K and N, with B's N dense (ab) and its K dense (ba,
// which the matmul tells the core at creation: gemm_problem_t::k_dense_b), on the table's own
// row and on the K-split skinny kernel.
TEST(GpuGemmVariants, GemvOfBothWeightLayouts) {
    SKIP_WITHOUT_GPU();
    no_primitive_cache_t no_cache;
    for (int64_t m : {1, 4}) {
        const int64_t k = m == 1 ? 301 : 257, n = m == 1 ? 130 : 67;
        for (bool ba : {false, true}) {
            SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n)
                    + (ba ? " ba" : " ab"));
            const mm_t t {{m, k}, {k, n}, {m, n}, {}, ba ? std::vector<int64_t> {1, k}
                                                          : std::vector<int64_t>(),
                    dnnl_f32, dnnl_f32, true};
            check(t, skinny_variants[1]);
            if (m == 1) check(t, "");
        }
    }
}

TEST(GpuGemmVariants, SkinnyColumns) {
    SKIP_WITHOUT_GPU();
    no_primitive_cache_t no_cache;
    // N small, M not: C^T = B^T A^T, A's K dense (the K-dense kernel) or its M dense.
    check({{130, 64}, {64, 5}, {130, 5}, {}, {}, dnnl_f32, dnnl_f32, true, true},
            skinny_variants[1]);
    check({{77, 90}, {90, 1}, {77, 1}, {1, 80}, {}, dnnl_f32, dnnl_f32, true}, skinny_variants[0]);
    check({{2, 41, 33}, {2, 33, 7}, {2, 41, 7}, {}, {}, dnnl_bf16, dnnl_bf16, false, true},
            skinny_variants[1]);
}

// The strict f32 PTX kernels where the device loads sm_80 PTX (NVIDIA); elsewhere forcing them
// leaves the generic kernel (the tiled implementation refuses the override).
TEST(GpuGemmVariants, SgemmPtxWhereTheDeviceLoadsIt) {
    SKIP_WITHOUT_GPU();
    no_primitive_cache_t no_cache;
    const char *v = "variant=sgemm_ptx";
    setenv("ANYDNN_GPU_TUNING", v, 1);
    dnnl_engine_t gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_memory_desc_t a = md({4, 5}, dnnl_f32, dnnl_ab), b = md({5, 6}, dnnl_f32, dnnl_ab),
                       c = md({4, 6}, dnnl_f32, dnnl_ab);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_matmul_primitive_desc_create(&pd, gpu, a, b, nullptr, c, nullptr),
            dnnl_success);
    const char *name = nullptr;
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
    const std::string chosen = name;
    unsetenv("ANYDNN_GPU_TUNING");
    dnnl_primitive_desc_destroy(pd);
    for (dnnl_memory_desc_t m : {a, b, c})
        dnnl_memory_desc_destroy(m);
    dnnl_engine_destroy(gpu);
    if (chosen != "ocl:matmul:sgemm_ptx") {
        EXPECT_EQ(chosen, "ocl:matmul:generic");
        return;
    }
    // Tails in M, N, K; both layouts of A and B; batch broadcast; bias; post-ops (the chain
    // with a binary runs on fma_8x8, sum + relu on the PTX kernels).
    check({{1, 1}, {1, 1}, {1, 1}}, v);
    check({{37, 29}, {29, 53}, {37, 53}, {}, {}, dnnl_f32, dnnl_f32, true, true}, v);
    check({{130, 300}, {300, 70}, {130, 70}, {}, {}, dnnl_f32, dnnl_f32, true}, v);
    check({{257, 129}, {129, 131}, {257, 131}}, v);
    check({{2, 1, 9, 17}, {1, 3, 17, 21}, {2, 3, 9, 21}, {}, {}, dnnl_f32, dnnl_f32, false, true},
            v);
    check({{19, 33}, {33, 41}, {19, 41}, {1, 24}, {1, 40}}, v);
    check({{3, 10, 35}, {1, 35, 12}, {3, 10, 12}, {500, 40, 1}, {600, 16, 1}}, v);
    // The pipelined configurations, forced (the sm_90a module's fall back to the size's pick
    // where the device loads no sm_90a PTX): K through several slices and every stage, tails,
    // both layouts.
    for (const char *config : {"128x256k16_sm90", "128x256k16s4_sm90", "256x128k16_sm90",
                 "128x128k16_sm90", "128x256p"}) {
        const std::string forced = std::string("gemm:variant=sgemm_ptx;sgemm:config=") + config;
        SCOPED_TRACE(forced);
        check({{130, 300}, {300, 70}, {130, 70}, {}, {}, dnnl_f32, dnnl_f32, true}, forced.c_str());
        check({{257, 129}, {129, 300}, {257, 300}, {}, {}, dnnl_f32, dnnl_f32, true, true},
                forced.c_str());
        check({{2, 1, 9, 170}, {1, 3, 170, 21}, {2, 3, 9, 21}}, forced.c_str());
    }
}

TEST(GpuGemmVariants, BadOverrideLeavesTheGenericKernel) {
    SKIP_WITHOUT_GPU();
    no_primitive_cache_t no_cache;
    setenv("ANYDNN_GPU_TUNING", "variant=tiled_wg,tm=0", 1);
    dnnl_engine_t gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_memory_desc_t a = md({4, 5}, dnnl_f32, dnnl_ab), b = md({5, 6}, dnnl_f32, dnnl_ab),
                       c = md({4, 6}, dnnl_f32, dnnl_ab);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_matmul_primitive_desc_create(&pd, gpu, a, b, nullptr, c, nullptr),
            dnnl_success);
    const char *name = nullptr;
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
    EXPECT_STREQ(name, "ocl:matmul:generic");
    unsetenv("ANYDNN_GPU_TUNING");
    dnnl_primitive_desc_destroy(pd);
    for (dnnl_memory_desc_t m : {a, b, c})
        dnnl_memory_desc_destroy(m);
    dnnl_engine_destroy(gpu);
}
