// GPU matmul on operands dequantized element by element, against tests/primitives'
// matmul_dq_ref.hpp on every implementation that takes it (the generic kernel): int8 src with
// scales along K (per row and group) and weights scales and zero points grouped along K;
// 4-bit float src, weights and dst. Odd K and N splitting 4-bit bytes, M of 1, zero-size,
// batches, and what is refused (a strided 4-bit float dst, src zero points along K, src
// scales grouped along M).
#include <cmath>
#include <random>

#include "gpu/device_copy.hpp"
#include "primitives/matmul_dq_ref.hpp"

namespace {

using namespace gpu_test;
using c_tensor::tensor_t;
using matmul_dq_ref::wei_param_t;

struct param_spec_t {
    int mask = -1; // -1: none
    std::vector<int64_t> groups; // {} or two
    dnnl_data_type_t dt = dnnl_f32;
};

struct dq_case_t {
    std::vector<int64_t> src, wei, dst;
    dnnl_data_type_t sdt = dnnl_s8, wdt = dnnl_s8, ddt = dnnl_f32;
    bool transposed = false, bias = false, src_zp = false;
    param_spec_t src_scale, wei_scale, wei_zp;
};

dnnl_format_tag_t plain(size_t nd) {
    return nd == 2 ? dnnl_ab : dnnl_abc;
}

dq_case_t make_case(std::vector<int64_t> src, std::vector<int64_t> wei, std::vector<int64_t> dst,
        dnnl_data_type_t sdt, dnnl_data_type_t wdt, dnnl_data_type_t ddt = dnnl_f32) {
    dq_case_t c;
    c.src = std::move(src), c.wei = std::move(wei), c.dst = std::move(dst);
    c.sdt = sdt, c.wdt = wdt, c.ddt = ddt;
    return c;
}

param_spec_t src_groups(int nd, int64_t gk, bool per_row) {
    return {(1 << (nd - 1)) | (per_row ? 1 << (nd - 2) : 0), {1, gk}, dnnl_f32};
}
param_spec_t wei_groups(int nd, int64_t gk, dnnl_data_type_t dt) {
    return {(1 << (nd - 2)) | (1 << (nd - 1)), {gk, 1}, dt};
}

dnnl_primitive_attr_t make_attr(const dq_case_t &c) {
    dnnl_primitive_attr_t attr = nullptr;
    EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    auto set = [&](const param_spec_t &p, int arg, bool zp) {
        if (p.mask < 0) return;
        dnnl_dims_t g = {};
        for (size_t i = 0; i < p.groups.size(); ++i)
            g[i] = p.groups[i];
        const int n = static_cast<int>(p.groups.size());
        EXPECT_EQ(zp ? dnnl_primitive_attr_set_zero_points(attr, arg, p.mask, n, g, p.dt)
                     : dnnl_primitive_attr_set_scales(attr, arg, p.mask, n, g, p.dt),
                dnnl_success);
    };
    set(c.src_scale, DNNL_ARG_SRC, false);
    set(c.wei_scale, DNNL_ARG_WEIGHTS, false);
    set(c.wei_zp, DNNL_ARG_WEIGHTS, true);
    if (c.src_zp) dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_SRC, 0);
    return attr;
}

// A parameter's values as the reference reads them (its memory is 1D, in order).
wei_param_t param_ref(const param_spec_t &s, const tensor_t *t) {
    wei_param_t r;
    if (s.mask < 0 || !t) return r;
    r.present = true;
    r.mask = s.mask;
    if (!s.groups.empty()) r.gk = s.groups[0], r.gn = s.groups[1];
    for (int64_t i = 0; i < t->lay.nelems(); ++i)
        r.values.push_back(t->get(&i));
    return r;
}

// 4-bit floats get every code at random; everything else default_fill's values.
void fill(int arg, tensor_t &t, uint32_t seed) {
    if (!reorder_f4_ref::is_f4(t.lay.dt)) return default_fill(arg, t, seed);
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> dist(0, 15);
    int64_t pos[DNNL_MAX_NDIMS] = {};
    if (t.lay.nelems() > 0) do
            reorder_f4_ref::set_nibble(t, pos, unsigned(dist(gen)));
        while (c_tensor::next_pos(pos, t.lay.dims, t.lay.ndims));
}

// Creates the case on the GPU engine: its status, and pd on success.
dnnl_status_t create(dnnl_engine_t gpu, const dq_case_t &c, dnnl_primitive_desc_t *pd) {
    const size_t nd = c.dst.size();
    dnnl_memory_desc_t a = md(c.src, c.sdt, plain(nd));
    dnnl_memory_desc_t b
            = md(c.wei, c.wdt, c.transposed ? (nd == 2 ? dnnl_ba : dnnl_acb) : plain(nd));
    dnnl_memory_desc_t d = md(c.dst, c.ddt, plain(nd));
    std::vector<int64_t> bdims(nd, 1);
    bdims[nd - 1] = c.dst[nd - 1];
    dnnl_memory_desc_t bias = c.bias ? md(bdims, dnnl_f32, plain(nd)) : nullptr;
    dnnl_primitive_attr_t attr = make_attr(c);
    const dnnl_status_t st = dnnl_matmul_primitive_desc_create(pd, gpu, a, b, bias, d, attr);
    dnnl_primitive_attr_destroy(attr);
    for (dnnl_memory_desc_t m : {a, b, d, bias})
        if (m) dnnl_memory_desc_destroy(m);
    return st;
}

void check(const dq_case_t &c) {
    SCOPED_TRACE(::testing::Message() << dnnl_dt2str(c.sdt) << " x " << dnnl_dt2str(c.wdt)
                                      << " -> " << dnnl_dt2str(c.ddt) << " K " << c.src.back()
                                      << " N " << c.dst.back());
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    std::vector<int> ins = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS};
    if (c.bias) ins.push_back(DNNL_ARG_BIAS);
    if (c.src_scale.mask >= 0) ins.push_back(DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC);
    if (c.wei_scale.mask >= 0) ins.push_back(DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS);
    if (c.wei_zp.mask >= 0) ins.push_back(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS);
    if (c.src_zp) ins.push_back(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(create(gpu, c, &pd), dnnl_success);
    if (pd) {
        EXPECT_EQ(run_each_impl(cpu, gpu, pd, ins, {DNNL_ARG_DST},
                          [&](const std::vector<tensor_t *> &x) {
                              const lookup_t in {ins, x};
                              const tensor_t &s = *in(DNNL_ARG_SRC), &w = *in(DNNL_ARG_WEIGHTS);
                              const tensor_t &dst = *x.back();
                              matmul_dq_ref::quant_t q;
                              q.src_scale = param_ref(
                                      c.src_scale, in(DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC));
                              q.wei_scale = param_ref(
                                      c.wei_scale, in(DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS));
                              q.wei_zp = param_ref(c.wei_zp,
                                      in(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS));
                              q.src_zp = in.common(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, 0);
                              int64_t pos[DNNL_MAX_NDIMS] = {};
                              int bad = 0;
                              if (dst.lay.nelems() > 0) do {
                                      double acc, mag;
                                      matmul_dq_ref::dot(s, w, q, pos, acc, mag);
                                      if (c.bias) {
                                          int64_t bp[DNNL_MAX_NDIMS];
                                          c_tensor::bcast_pos(in(DNNL_ARG_BIAS)->lay, pos, bp);
                                          acc += in(DNNL_ARG_BIAS)->get(bp);
                                      }
                                      const float got = float(matmul_dq_ref::read(dst, pos));
                                      if (!matmul_dq_ref::close(c.ddt, acc, got, mag, 2e-6)
                                              && bad++ < 5)
                                          ADD_FAILURE() << "dst " << pos[0] << "," << pos[1]
                                                        << ": got " << got << " want " << acc;
                                  } while (c_tensor::next_pos(pos, dst.lay.dims, dst.lay.ndims));
                              EXPECT_EQ(bad, 0);
                          },
                          fill),
                1); // the generic kernel
        dnnl_primitive_desc_destroy(pd);
    }
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

TEST(GpuMatmulDq, Int8WithSrcScalesAlongKAndGroupedWeights) {
    SKIP_WITHOUT_GPU();
    for (auto wdt : {dnnl_s8, dnnl_u8, dnnl_s4, dnnl_u4})
        for (bool per_row : {false, true}) {
            dq_case_t c = make_case({6, 64}, {64, 37}, {6, 37}, dnnl_u8, wdt, dnnl_f16);
            c.src_scale = src_groups(2, 16, per_row);
            c.wei_scale = wei_groups(2, 32, dnnl_f32);
            c.wei_zp = wei_groups(2, 32, wdt == dnnl_u4 ? dnnl_u4 : dnnl_s8);
            check(c);
        }
}

TEST(GpuMatmulDq, Int8InterleavedRunsOddKBatchesAndEdges) {
    SKIP_WITHOUT_GPU();
    dq_case_t r = make_case({5, 96}, {96, 9}, {5, 9}, dnnl_s8, dnnl_s8); // runs 32,16,16,32
    r.src_scale = src_groups(2, 32, true);
    r.wei_scale = wei_groups(2, 48, dnnl_f16);
    r.src_zp = true;
    check(r);
    for (auto mkn : std::vector<std::vector<int64_t>> {{1, 15, 7}, {3, 1, 4}}) {
        dq_case_t c = make_case({mkn[0], mkn[1]}, {mkn[1], mkn[2]}, {mkn[0], mkn[2]}, dnnl_s8,
                dnnl_s4);
        c.transposed = true; // odd K: columns start mid-byte
        c.src_scale = src_groups(2, mkn[1] % 5 == 0 ? 5 : 1, true);
        c.wei_zp = wei_groups(2, mkn[1] % 3 == 0 ? 3 : 1, dnnl_s4);
        check(c);
    }
    dq_case_t b = make_case({3, 4, 48}, {1, 48, 10}, {3, 4, 10}, dnnl_s8, dnnl_u4, dnnl_bf16);
    b.src_scale = src_groups(3, 16, true);
    b.wei_scale = wei_groups(3, 24, dnnl_f32);
    b.bias = true;
    check(b);
    dq_case_t z = make_case({0, 32}, {32, 8}, {0, 8}, dnnl_s8, dnnl_s8);
    z.src_scale = src_groups(2, 16, true);
    check(z);
}

TEST(GpuMatmulDq, F4SrcAndWeights) {
    SKIP_WITHOUT_GPU();
    for (auto wdt : {dnnl_f4_e2m1, dnnl_f4_e3m0})
        for (auto ddt : {dnnl_f32, dnnl_bf16}) {
            dq_case_t c = make_case({25, 32}, {32, 16}, {25, 16}, dnnl_f4_e2m1, wdt, ddt);
            c.bias = true;
            check(c);
        }
    for (auto ddt : {dnnl_f4_e2m1, dnnl_f4_e3m0}) { // a 4-bit dst: rows start mid-byte
        dq_case_t f = make_case({7, 9}, {9, 5}, {7, 5}, dnnl_f4_e2m1, dnnl_f4_e3m0, ddt);
        f.transposed = f.bias = true;
        check(f);
        check(make_case({2, 3, 4}, {1, 4, 3}, {2, 3, 3}, dnnl_f4_e2m1, dnnl_f4_e2m1, ddt));
    }
    dq_case_t odd = make_case({7, 9}, {9, 5}, {7, 5}, dnnl_f4_e2m1, dnnl_f4_e2m1);
    odd.transposed = true;
    check(odd);
    dq_case_t one = make_case({1, 1}, {1, 1}, {1, 1}, dnnl_f4_e3m0, dnnl_f4_e2m1);
    check(one);
    dq_case_t w = make_case({2, 5, 11}, {1, 11, 6}, {2, 5, 6}, dnnl_bf16, dnnl_f4_e2m1);
    w.wei_scale = {1 << 2, {}, dnnl_f32}; // per N
    check(w);
    dq_case_t s = make_case({4, 13}, {13, 3}, {4, 3}, dnnl_f4_e2m1, dnnl_f32);
    check(s);
    check(make_case({0, 8}, {8, 6}, {0, 6}, dnnl_f4_e2m1, dnnl_f4_e2m1));
    check(make_case({1, 1}, {1, 1}, {1, 1}, dnnl_f4_e2m1, dnnl_f4_e2m1, dnnl_f4_e2m1));
}

TEST(GpuMatmulDq, Refused) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    // A 4-bit float dst is written a byte at a time: dense and row-major only.
    {
        dnnl_memory_desc_t a = md({4, 8}, dnnl_f4_e2m1, dnnl_ab),
                           b = md({8, 6}, dnnl_f4_e2m1, dnnl_ab),
                           d = md({4, 6}, dnnl_f4_e2m1, dnnl_ba);
        EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, gpu, a, b, nullptr, d, nullptr),
                dnnl_unimplemented);
        for (dnnl_memory_desc_t m : {a, b, d})
            dnnl_memory_desc_destroy(m);
    }
    // src zero points along K with src scales along K.
    dq_case_t z = make_case({4, 64}, {64, 6}, {4, 6}, dnnl_u8, dnnl_s8);
    z.src_scale = src_groups(2, 32, true);
    dnnl_primitive_attr_t attr = make_attr(z);
    ASSERT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_SRC, 1 << 1), dnnl_success);
    dnnl_memory_desc_t a = md(z.src, z.sdt, dnnl_ab), b = md(z.wei, z.wdt, dnnl_ab),
                       d = md(z.dst, z.ddt, dnnl_ab);
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, gpu, a, b, nullptr, d, attr),
            dnnl_unimplemented);
    dnnl_primitive_attr_destroy(attr);
    // src scales grouped along M.
    z.src_scale = {3, {2, 32}, dnnl_f32};
    EXPECT_EQ(create(gpu, z, &pd), dnnl_unimplemented);
    EXPECT_EQ(pd, nullptr);
    for (dnnl_memory_desc_t m : {a, b, d})
        dnnl_memory_desc_destroy(m);
    dnnl_engine_destroy(gpu);
}

} // namespace
