// GPU matmul with weights decompression (f32/bf16/f16 src, s8/u8/s4/u4 weights, fpmath
// apply_to_int; scales and zero points grouped along K and N) against the reference of
// tests/primitives/matmul_woq_ref.hpp, on every implementation that takes it (the generic
// kernel), and what it refuses.
#include <cmath>

#include "gpu/device_copy.hpp"
#include "primitives/matmul_woq_ref.hpp"

namespace {

using namespace gpu_test;
using c_tensor::tensor_t;
using matmul_ref::wei_param_t;

struct param_spec_t {
    int mask = -1; // -1: none
    std::vector<int64_t> groups; // {} or {Gk, Gn}
    dnnl_data_type_t dt = dnnl_f32;
};

struct woq_case_t {
    std::vector<int64_t> src, wei, dst;
    dnnl_data_type_t sdt = dnnl_f32, wdt = dnnl_s4, ddt = dnnl_f32;
    bool transposed = false, bias = false;
    param_spec_t scale, zp;
};

dnnl_format_tag_t plain(size_t nd) {
    return nd == 2 ? dnnl_ab : dnnl_abc;
}

woq_case_t make_case(std::vector<int64_t> src, std::vector<int64_t> wei,
        std::vector<int64_t> dst, dnnl_data_type_t sdt, dnnl_data_type_t wdt,
        dnnl_data_type_t ddt = dnnl_f32) {
    woq_case_t c;
    c.src = std::move(src), c.wei = std::move(wei), c.dst = std::move(dst);
    c.sdt = sdt, c.wdt = wdt, c.ddt = ddt;
    return c;
}

param_spec_t grouped(int nd, int64_t gk, dnnl_data_type_t dt, int64_t gn = 1) {
    return {(1 << (nd - 2)) | (1 << (nd - 1)), {gk, gn}, dt};
}

dnnl_primitive_attr_t make_attr(const woq_case_t &c, int apply_to_int = 1) {
    dnnl_primitive_attr_t attr = nullptr;
    EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_set_fpmath_mode_v2(attr, dnnl_fpmath_mode_strict, apply_to_int),
            dnnl_success);
    auto set = [&](const param_spec_t &p, bool zp) {
        if (p.mask < 0) return;
        dnnl_dims_t g = {};
        for (size_t i = 0; i < p.groups.size(); ++i)
            g[i] = p.groups[i];
        const int n = static_cast<int>(p.groups.size());
        EXPECT_EQ(zp ? dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_WEIGHTS, p.mask, n, g, p.dt)
                     : dnnl_primitive_attr_set_scales(attr, DNNL_ARG_WEIGHTS, p.mask, n, g, p.dt),
                dnnl_success);
    };
    set(c.scale, false);
    set(c.zp, true);
    return attr;
}

// The parameter's values as the reference reads them (its memory is 1D, in order).
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

void check(const woq_case_t &c) {
    SCOPED_TRACE(::testing::Message() << dnnl_dt2str(c.sdt) << " x " << dnnl_dt2str(c.wdt)
                                      << " -> " << dnnl_dt2str(c.ddt) << " K " << c.src.back()
                                      << " N " << c.dst.back());
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    const size_t nd = c.dst.size();
    dnnl_memory_desc_t a = md(c.src, c.sdt, plain(nd));
    dnnl_memory_desc_t b = md(c.wei, c.wdt, c.transposed ? (nd == 2 ? dnnl_ba : dnnl_acb) : plain(nd));
    dnnl_memory_desc_t d = md(c.dst, c.ddt, plain(nd));
    std::vector<int64_t> bdims(nd, 1);
    bdims[nd - 1] = c.dst[nd - 1];
    dnnl_memory_desc_t bias = c.bias ? md(bdims, dnnl_f32, plain(nd)) : nullptr;
    dnnl_primitive_attr_t attr = make_attr(c);
    std::vector<int> ins = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS};
    if (c.bias) ins.push_back(DNNL_ARG_BIAS);
    if (c.scale.mask >= 0) ins.push_back(DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS);
    if (c.zp.mask >= 0) ins.push_back(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, gpu, a, b, bias, d, attr), dnnl_success);
    const int64_t K = c.src.back();
    if (pd) {
        EXPECT_EQ(run_each_impl(cpu, gpu, pd, ins, {DNNL_ARG_DST},
                          [&](const std::vector<tensor_t *> &x) {
                              const lookup_t in {ins, x};
                              const tensor_t &s = *in(DNNL_ARG_SRC), &w = *in(DNNL_ARG_WEIGHTS);
                              const tensor_t &dst = *x.back();
                              const wei_param_t sc = param_ref(
                                      c.scale, in(DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS));
                              const wei_param_t zp = param_ref(
                                      c.zp, in(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS));
                              std::vector<float> want;
                              std::vector<double> slack;
                              int64_t pos[DNNL_MAX_NDIMS] = {};
                              if (dst.lay.nelems() > 0) do {
                                      int64_t sp[DNNL_MAX_NDIMS], wp[DNNL_MAX_NDIMS];
                                      c_tensor::bcast_pos(s.lay, pos, sp);
                                      c_tensor::bcast_pos(w.lay, pos, wp);
                                      double acc = 0, mag = 0;
                                      for (int64_t k = 0; k < K; ++k) {
                                          sp[nd - 1] = k;
                                          wp[nd - 2] = k;
                                          const double t = s.get(sp)
                                                  * matmul_ref::dequant(w.get(wp), sc, zp, wp,
                                                          c.wei.data(), int(nd));
                                          acc += t;
                                          mag += std::fabs(t);
                                      }
                                      if (c.bias) {
                                          int64_t bp[DNNL_MAX_NDIMS];
                                          c_tensor::bcast_pos(in(DNNL_ARG_BIAS)->lay, pos, bp);
                                          acc += in(DNNL_ARG_BIAS)->get(bp);
                                      }
                                      want.push_back(c_tensor::round_to(dst.lay.dt, float(acc)));
                                      slack.push_back(double(K) * 1.2e-7 * mag);
                                  } while (c_tensor::next_pos(pos, dst.lay.dims, int(nd)));
                              c_tensor::expect_values(want, dst, slack);
                          }),
                1); // the generic kernel
        dnnl_primitive_desc_destroy(pd);
    }
    dnnl_primitive_attr_destroy(attr);
    for (dnnl_memory_desc_t m : {a, b, d, bias})
        if (m) dnnl_memory_desc_destroy(m);
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

TEST(GpuMatmulWoq, EveryWeightTypeWithKGroupedScalesAndZeroPoints) {
    SKIP_WITHOUT_GPU();
    for (auto wdt : {dnnl_s4, dnnl_u4, dnnl_s8, dnnl_u8}) {
        woq_case_t c = make_case({3, 64}, {64, 37}, {3, 37}, dnnl_f32, wdt);
        c.scale = grouped(2, 16, dnnl_f32);
        c.zp = grouped(2, 16, wdt == dnnl_u4 ? dnnl_u4 : dnnl_s8);
        check(c);
    }
}

TEST(GpuMatmulWoq, ZeroPointTypesTransposedBatchedAndLowPrecision) {
    SKIP_WITHOUT_GPU();
    for (auto zdt : {dnnl_s32, dnnl_u8, dnnl_s4}) {
        woq_case_t c = make_case({1, 33}, {33, 9}, {1, 9}, dnnl_f32, dnnl_u4);
        c.transposed = true;
        c.scale = grouped(2, 11, dnnl_f16);
        // Zero points grouped along K or along N (oneDNN takes one non-unit group).
        c.zp = zdt == dnnl_u8 ? grouped(2, 1, zdt, 3) : grouped(2, 3, zdt);
        check(c);
    }
    woq_case_t b = make_case({2, 5, 32}, {2, 32, 12}, {2, 5, 12}, dnnl_bf16, dnnl_s4, dnnl_bf16);
    b.bias = true;
    b.scale = {7, {8, 1}, dnnl_bf16}; // varying along the batch too
    b.zp = {0, {}, dnnl_s32};
    check(b);
    woq_case_t h = make_case({3, 4, 16}, {1, 16, 8}, {3, 4, 8}, dnnl_f16, dnnl_u8);
    h.scale = {1 << 2, {}, dnnl_f32}; // per N, weights broadcast over the batch
    check(h);
}

TEST(GpuMatmulWoq, RefusedWithoutApplyToIntOrOnHostOrOnTheTiledKernel) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_memory_desc_t a = md({4, 64}, dnnl_f32, dnnl_ab), b = md({64, 6}, dnnl_s4, dnnl_ab),
                       c = md({4, 6}, dnnl_f32, dnnl_ab);
    woq_case_t w;
    w.src = {4, 64}, w.wei = {64, 6}, w.dst = {4, 6};
    w.scale = grouped(2, 32, dnnl_f32);
    dnnl_primitive_attr_t attr = make_attr(w, 0);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, gpu, a, b, nullptr, c, attr),
            dnnl_unimplemented);
    dnnl_primitive_attr_destroy(attr);
    attr = make_attr(w);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_v2(attr, DNNL_ARG_WEIGHTS, 0, 0, nullptr, dnnl_f32, 1),
            dnnl_success);
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, gpu, a, b, nullptr, c, attr),
            dnnl_unimplemented);
    dnnl_primitive_attr_destroy(attr);
    attr = make_attr(w);
    ASSERT_EQ(dnnl_matmul_primitive_desc_create(&pd, gpu, a, b, nullptr, c, attr), dnnl_success);
    const char *name = nullptr;
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
    EXPECT_STREQ(name, "ocl:matmul:generic");
    EXPECT_NE(dnnl_primitive_desc_next_impl(pd), dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_attr_destroy(attr);
    // int8 src with 4-bit weights (integer products, not decompression): no GPU kernel.
    dnnl_memory_desc_t u8 = md({4, 64}, dnnl_u8, dnnl_ab);
    pd = nullptr;
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, gpu, u8, b, nullptr, c, nullptr),
            dnnl_unimplemented);
    dnnl_memory_desc_destroy(u8);
    for (dnnl_memory_desc_t m : {a, b, c})
        dnnl_memory_desc_destroy(m);
    dnnl_engine_destroy(gpu);
}

} // namespace
