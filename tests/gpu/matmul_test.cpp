// GPU matmul (tiled and generic GEMM kernels) against the references of tests/primitives
// (matmul_ref.hpp, output_stage_ref.hpp): tile tails, transposed operands, batch broadcast,
// bias, bf16, int8 with scales and zero points, bad input. Tolerances: one rounding of dst's
// type plus the f32 accumulation's bound (K roundings of the terms' magnitudes).
#include <algorithm>

#include "gpu/device_copy.hpp"
#include "primitives/matmul_ref.hpp"
#include "primitives/output_stage_ref.hpp"

namespace {

using namespace gpu_test;
using c_tensor::tensor_t;

struct mm_case_t {
    std::vector<int64_t> a, b, c;
    dnnl_data_type_t at = dnnl_f32, bt = dnnl_f32, ct = dnnl_f32;
    bool bias = false, transposed_b = false, quant = false;
    dnnl_data_type_t bias_t = dnnl_f32;
};

dnnl_format_tag_t plain(size_t nd) {
    return nd == 2 ? dnnl_ab : nd == 3 ? dnnl_abc : dnnl_abcd;
}

void check(const mm_case_t &t) {
    SCOPED_TRACE(::testing::Message()
            << "M " << t.c[t.c.size() - 2] << " N " << t.c.back() << " K " << t.a.back() << " "
            << dnnl_dt2str(t.at) << "x" << dnnl_dt2str(t.bt) << "->" << dnnl_dt2str(t.ct)
            << (t.bias ? " bias" : "") << (t.transposed_b ? " b^T" : "")
            << (t.quant ? " scales+zero points" : ""));
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    const size_t nd = t.c.size();
    dnnl_memory_desc_t a = md(t.a, t.at, plain(nd));
    dnnl_memory_desc_t b = md(t.b, t.bt,
            t.transposed_b ? (nd == 2 ? dnnl_ba : nd == 3 ? dnnl_acb : dnnl_abdc) : plain(nd));
    dnnl_memory_desc_t c = md(t.c, t.ct, plain(nd));
    std::vector<int64_t> bdims(nd, 1);
    bdims[nd - 1] = t.c[nd - 1];
    dnnl_memory_desc_t bias = t.bias ? md(bdims, t.bias_t, plain(nd)) : nullptr;
    dnnl_primitive_attr_t attr = nullptr;
    std::vector<int> ins = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS};
    if (t.bias) ins.push_back(DNNL_ARG_BIAS);
    if (t.quant) {
        ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
        ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 0), dnnl_success);
        ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_WEIGHTS, 1 << (nd - 1)),
                dnnl_success);
        ASSERT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_SRC, 0), dnnl_success);
        ASSERT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_WEIGHTS, 0),
                dnnl_success);
        ASSERT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_DST, 0), dnnl_success);
        for (int arg : {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS})
            ins.push_back(DNNL_ARG_ATTR_SCALES | arg);
        for (int arg : {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST})
            ins.push_back(DNNL_ARG_ATTR_ZERO_POINTS | arg);
    }
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, gpu, a, b, bias, c, attr), dnnl_success);
    const int64_t K = t.a.back(), zero = 0;
    const bool integer = t.at == dnnl_u8 || t.at == dnnl_s8;
    if (pd) {
        EXPECT_GE(run_each_impl(cpu, gpu, pd, ins, {DNNL_ARG_DST},
                          [&](const std::vector<tensor_t *> &x) {
                              const lookup_t in {ins, x};
                              auto scalar = [&](int arg) {
                                  return in(arg) ? double(in(arg)->get(&zero)) : 0.0;
                              };
                              const tensor_t &dst = *x.back();
                              output_stage_ref::params_t os;
                              if (t.quant) {
                                  os.src_scale = scalar(DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC);
                                  os.dst_zp = scalar(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST);
                              }
                              const double szp = scalar(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC),
                                           wzp = scalar(
                                                   DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS);
                              std::vector<float> want;
                              std::vector<double> slack;
                              int64_t pos[DNNL_MAX_NDIMS] = {}, p[DNNL_MAX_NDIMS];
                              if (dst.lay.nelems() > 0) do {
                                      double mag = 0;
                                      const double acc = matmul_ref::dot(
                                              matmul_ref::broadcasting(*in(DNNL_ARG_SRC)),
                                              matmul_ref::broadcasting(*in(DNNL_ARG_WEIGHTS)),
                                              int(nd), pos, K, szp, wzp, &mag);
                                      if (t.quant) {
                                          const int64_t n = pos[nd - 1];
                                          os.wei_scale = in(DNNL_ARG_ATTR_SCALES
                                                                | DNNL_ARG_WEIGHTS)
                                                                 ->get(&n);
                                      }
                                      if (t.bias) {
                                          c_tensor::bcast_pos(in(DNNL_ARG_BIAS)->lay, pos, p);
                                          os.bias = in(DNNL_ARG_BIAS)->get(p);
                                      }
                                      // Integer sources accumulate exactly (s32).
                                      double err = integer ? 0.0
                                                           : double(K) * post_ops_ref::f32_eps * mag;
                                      want.push_back(c_tensor::round_to(dst.lay.dt,
                                              float(output_stage_ref::apply(os, acc, 0, pos,
                                                      &err))));
                                      slack.push_back(err);
                                  } while (c_tensor::next_pos(pos, dst.lay.dims, int(nd)));
                              c_tensor::expect_values(want, dst, slack);
                          }),
                1); // tiled (where the device can run it) and generic
    dnnl_primitive_desc_destroy(pd);
    }
    dnnl_primitive_attr_destroy(attr);
    for (dnnl_memory_desc_t m : {a, b, c, bias})
        if (m) dnnl_memory_desc_destroy(m);
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

TEST(GpuMatmul, F32OneElementOddTailsBiasTransposedBAndLarge) {
    SKIP_WITHOUT_GPU();
    check({{1, 1}, {1, 1}, {1, 1}});
    check({{7, 30}, {30, 20}, {7, 20}});
    check({{65, 300}, {300, 257}, {65, 257}, dnnl_f32, dnnl_f32, dnnl_f32, true});
    check({{19, 23}, {23, 37}, {19, 37}, dnnl_f32, dnnl_f32, dnnl_f32, false, true});
    // Large enough for the CPU-device form's large blocks, with tails in both directions.
    check({{600, 50}, {50, 1000}, {600, 1000}, dnnl_f32, dnnl_f32, dnnl_f32, true});
}

TEST(GpuMatmul, F32BatchBroadcastBiasAndTransposedB) {
    SKIP_WITHOUT_GPU();
    check({{2, 1, 5, 7}, {1, 3, 7, 4}, {2, 3, 5, 4}, dnnl_f32, dnnl_f32, dnnl_f32, true});
    check({{6, 9, 13}, {6, 13, 11}, {6, 9, 11}, dnnl_f32, dnnl_f32, dnnl_f32, false, true});
}

TEST(GpuMatmul, Bf16SourcesWithF32AndBf16Dst) {
    SKIP_WITHOUT_GPU();
    check({{13, 67}, {67, 130}, {13, 130}, dnnl_bf16, dnnl_bf16, dnnl_f32, true});
    check({{13, 67}, {67, 30}, {13, 30}, dnnl_bf16, dnnl_bf16, dnnl_bf16});
}

TEST(GpuMatmul, Int8ScalesZeroPoints) {
    SKIP_WITHOUT_GPU();
    check({{9, 70}, {70, 65}, {9, 65}, dnnl_u8, dnnl_s8, dnnl_s32});
    check({{9, 70}, {70, 65}, {9, 65}, dnnl_u8, dnnl_s8, dnnl_f32, true, false, true});
    check({{5, 64}, {64, 33}, {5, 33}, dnnl_s8, dnnl_s8, dnnl_s8, false, true, true});
}

TEST(GpuMatmul, S8AndU8Bias) {
    SKIP_WITHOUT_GPU();
    for (auto bt : {dnnl_s8, dnnl_u8}) {
        mm_case_t c {{9, 70}, {70, 65}, {9, 65}, dnnl_u8, dnnl_s8, dnnl_f32, true};
        c.bias_t = bt;
        check(c);
        mm_case_t f {{7, 30}, {30, 20}, {7, 20}, dnnl_f32, dnnl_f32, dnnl_f32, true};
        f.bias_t = bt;
        check(f);
    }
}

// Runtime M, N, K (and strides): one primitive runs every shape passed at execution, with a
// post-op chain; f32 and int8.
TEST(GpuMatmul, RuntimeDimensionsWithPostOps) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_stream_t stream = nullptr;
    ASSERT_EQ(dnnl_stream_create(&stream, gpu, dnnl_stream_default_flags), dnnl_success);
    const dnnl_data_type_t types[][3] = {{dnnl_f32, dnnl_f32, dnnl_f32}, {dnnl_u8, dnnl_s8, dnnl_f32}};
    for (const auto &t : types) {
        SCOPED_TRACE(dnnl_dt2str(t[0]));
        auto rt = [](dnnl_data_type_t dt) {
            dnnl_memory_desc_t m = nullptr;
            const dnnl_dims_t d = {DNNL_RUNTIME_DIM_VAL, DNNL_RUNTIME_DIM_VAL};
            EXPECT_EQ(dnnl_memory_desc_create_with_strides(&m, 2, d, dt, d), dnnl_success);
            return m;
        };
        dnnl_memory_desc_t a = rt(t[0]), b = rt(t[1]), c = rt(t[2]);
        dnnl_post_ops_t po = nullptr;
        ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
        ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.25f, 0.f), dnnl_success);
        dnnl_primitive_attr_t attr = nullptr;
        ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
        ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(dnnl_matmul_primitive_desc_create(&pd, gpu, a, b, nullptr, c, attr),
                dnnl_success);
        dnnl_primitive_t prim = nullptr;
        ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
        for (auto mnk : std::vector<std::vector<int64_t>> {{1, 1, 1}, {7, 20, 30}, {33, 17, 65}}) {
            const int64_t M = mnk[0], N = mnk[1], K = mnk[2];
            SCOPED_TRACE(::testing::Message() << M << "x" << N << "x" << K);
            dnnl_memory_desc_t am = md({M, K}, t[0], dnnl_ab), bm = md({K, N}, t[1], dnnl_ab),
                               cm = md({M, N}, t[2], dnnl_ab);
            tensor_t ha(cpu, am), hb(cpu, bm), hc(cpu, cm);
            ha.fill_random(1);
            hb.fill_random(2);
            device_memory_t da(gpu, am), db(gpu, bm), dc(gpu, cm);
            da.upload(ha);
            db.upload(hb);
            dc.fill(0x33);
            const dnnl_exec_arg_t args[] = {
                    {DNNL_ARG_SRC, da.mem}, {DNNL_ARG_WEIGHTS, db.mem}, {DNNL_ARG_DST, dc.mem}};
            ASSERT_EQ(dnnl_primitive_execute(prim, stream, 3, args), dnnl_success);
            ASSERT_EQ(dnnl_stream_wait(stream), dnnl_success);
            dc.download(hc);
            std::vector<float> want;
            std::vector<double> slack;
            int64_t pos[2] = {};
            do {
                double mag = 0;
                const double acc = matmul_ref::dot(matmul_ref::broadcasting(ha),
                        matmul_ref::broadcasting(hb), 2, pos, K, 0, 0, &mag);
                want.push_back(float(acc < 0 ? 0.25 * acc : acc));
                slack.push_back(double(K) * post_ops_ref::f32_eps * mag);
            } while (c_tensor::next_pos(pos, hc.lay.dims, 2));
            c_tensor::expect_values(want, hc, slack);
            for (dnnl_memory_desc_t m : {am, bm, cm})
                dnnl_memory_desc_destroy(m);
        }
        dnnl_primitive_destroy(prim);
        dnnl_primitive_desc_destroy(pd);
        dnnl_primitive_attr_destroy(attr);
        dnnl_post_ops_destroy(po);
        for (dnnl_memory_desc_t m : {a, b, c})
            dnnl_memory_desc_destroy(m);
    }
    dnnl_stream_destroy(stream);
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

// Scales of src, weights and dst as host scalars (f32, bf16, f16): passed to the kernels by
// value, on every implementation; f32 and int8.
TEST(GpuMatmul, HostScalarScales) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_stream_t stream = nullptr;
    ASSERT_EQ(dnnl_stream_create(&stream, gpu, dnnl_stream_default_flags), dnnl_success);
    const int scale_args[] = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST};
    const dnnl_data_type_t scale_types[] = {dnnl_f32, dnnl_bf16, dnnl_f16};
    const float scale_values[] = {0.5f, 3.f, 4.f}; // exact in every scale type
    const dnnl_data_type_t types[][3] = {{dnnl_f32, dnnl_f32, dnnl_f32}, {dnnl_u8, dnnl_s8, dnnl_s8}};
    for (const auto &t : types) {
        SCOPED_TRACE(dnnl_dt2str(t[0]));
        const int64_t M = 19, N = 37, K = 45;
        dnnl_memory_desc_t am = md({M, K}, t[0], dnnl_ab), bm = md({K, N}, t[1], dnnl_ab),
                           cm = md({M, N}, t[2], dnnl_ab);
        dnnl_primitive_attr_t attr = nullptr;
        ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
        for (int i = 0; i < 3; ++i)
            ASSERT_EQ(dnnl_primitive_attr_set_scales_v2(
                              attr, scale_args[i], 0, 0, nullptr, scale_types[i], 1),
                    dnnl_success);
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(dnnl_matmul_primitive_desc_create(&pd, gpu, am, bm, nullptr, cm, attr),
                dnnl_success);
        tensor_t ha(cpu, am), hb(cpu, bm), hc(cpu, cm);
        ha.fill_random(1);
        hb.fill_random(2);
        std::vector<float> want;
        std::vector<double> slack;
        int64_t pos[2] = {};
        do {
            double mag = 0;
            const double acc = matmul_ref::dot(matmul_ref::broadcasting(ha),
                    matmul_ref::broadcasting(hb), 2, pos, K, 0, 0, &mag);
            want.push_back(c_tensor::round_to(
                    t[2], float(acc * scale_values[0] * scale_values[1] / scale_values[2])));
            slack.push_back(double(K) * post_ops_ref::f32_eps * mag);
        } while (c_tensor::next_pos(pos, hc.lay.dims, 2));
        dnnl_memory_t scales[3] = {};
        for (int i = 0; i < 3; ++i) {
            dnnl_memory_desc_t smd = nullptr;
            ASSERT_EQ(dnnl_memory_desc_create_host_scalar(&smd, scale_types[i]), dnnl_success);
            uint16_t half = scale_types[i] == dnnl_bf16 ? c_tensor::to_bf16(scale_values[i])
                                                        : c_tensor::to_f16(scale_values[i]);
            float full = scale_values[i];
            ASSERT_EQ(dnnl_memory_create_host_scalar(&scales[i], smd,
                              scale_types[i] == dnnl_f32 ? static_cast<void *>(&full) : &half),
                    dnnl_success);
            dnnl_memory_desc_destroy(smd);
        }
        int impls = 0;
        do {
            ++impls;
            device_memory_t da(gpu, am), db(gpu, bm), dc(gpu, cm);
            da.upload(ha);
            db.upload(hb);
            dc.fill(0x33);
            std::vector<dnnl_exec_arg_t> args = {
                    {DNNL_ARG_SRC, da.mem}, {DNNL_ARG_WEIGHTS, db.mem}, {DNNL_ARG_DST, dc.mem}};
            for (int i = 0; i < 3; ++i)
                args.push_back({DNNL_ARG_ATTR_SCALES | scale_args[i], scales[i]});
            dnnl_primitive_t prim = nullptr;
            ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
            ASSERT_EQ(dnnl_primitive_execute(prim, stream, int(args.size()), args.data()),
                    dnnl_success);
            ASSERT_EQ(dnnl_stream_wait(stream), dnnl_success);
            dnnl_primitive_destroy(prim);
            dc.download(hc);
            c_tensor::expect_values(want, hc, slack);
        } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
        EXPECT_GE(impls, 1);
        for (dnnl_memory_t m : scales)
            dnnl_memory_destroy(m);
        dnnl_primitive_desc_destroy(pd);
        dnnl_primitive_attr_destroy(attr);
        for (dnnl_memory_desc_t m : {am, bm, cm})
            dnnl_memory_desc_destroy(m);
    }
    dnnl_stream_destroy(stream);
    dnnl_engine_destroy(gpu);
    dnnl_engine_destroy(cpu);
}

// Post-ops are covered by quant_post_ops_test.cpp; chains longer than the kernels' six slots
// are not.
TEST(GpuMatmul, LongPostOpChainsAndBlockedLayoutsAreUnimplemented) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_memory_desc_t a = md({4, 5}, dnnl_f32, dnnl_ab), b = md({5, 6}, dnnl_f32, dnnl_ab),
                       c = md({4, 6}, dnnl_f32, dnnl_ab);
    dnnl_post_ops_t po = nullptr;
    ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    for (int i = 0; i < 7; ++i)
        ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f), dnnl_success);
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, gpu, a, b, nullptr, c, attr),
            dnnl_unimplemented);
    // Blocked layouts the GEMM cannot stride through.
    dnnl_memory_desc_t blocked = md({4, 32}, dnnl_f32, dnnl_AB16b16a),
                       b2 = md({32, 6}, dnnl_f32, dnnl_ab);
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, gpu, blocked, b2, nullptr, c, nullptr),
            dnnl_unimplemented);
    dnnl_primitive_attr_destroy(attr);
    dnnl_post_ops_destroy(po);
    for (dnnl_memory_desc_t m : {a, b, c, blocked, b2})
        dnnl_memory_desc_destroy(m);
    dnnl_engine_destroy(gpu);
}

} // namespace
