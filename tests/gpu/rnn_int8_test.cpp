// The GPU engine's int8 RNN inference (u8 or s8 data with a scale and shift, s8 weights with
// one scale or one per gate column, s8 LSTM projection weights with one scale or one per
// output channel, int8 or f32 outputs) against the reference of tests/primitives (rnn_ref.hpp)
// run on the dequantized inputs: int8 outputs within one quantization step, f32 ones within
// 1e-4. Problems the CPU engine refuses get the same status on the GPU (a rule
// both engines share, checked as a rule, not as a result). Skipped without an OpenCL device.
#include <cmath>
#include <cstdint>
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_debug.h"
#include "gpu/device_copy.hpp"
#include "primitives/rnn_ref.hpp"

namespace {

// benchdnn's int8 RNN quantization (tools/benchdnn/drivers/rnn.cpp).
constexpr float data_scale = 64.f, data_shift = 128.f;

struct problem_t {
    const char *name;
    dnnl_alg_kind_t cell;
    dnnl_rnn_direction_t dir;
    int64_t L, T, N, SLC, DHC;
    bool per_column_scales = true; // weights mask 24, else one scale (mask 0)
    dnnl_data_type_t dst_dt = dnnl_u8; // dst_layer
    dnnl_data_type_t iter_dt = dnnl_u8; // src_iter and dst_iter
    bool with_iter = true; // src_iter, dst_iter (and the LSTM's c states)
    // Bad-input variants: still the CPU engine decides what is accepted.
    dnnl_data_type_t src_dt = dnnl_u8;
    dnnl_prop_kind_t prop = dnnl_forward_inference;
    bool projection = false; // LSTM: s8 projection weights to dic channels
    int64_t dic = 0; // with projection: the state's channels
    int proj_mask = 8; // projection scales: 8 one per output channel, 0 one for all
    float shift = data_shift; // the data shift (s8 data: 0 or small)

    int64_t state() const { return projection ? dic : DHC; }
};

int64_t gates_of(dnnl_alg_kind_t cell) {
    return cell == dnnl_vanilla_lstm ? 4 : cell == dnnl_vanilla_rnn ? 1 : 3;
}

int64_t directions(const problem_t &p) {
    return p.dir == dnnl_bidirectional_concat || p.dir == dnnl_bidirectional_sum ? 2 : 1;
}

// The descriptors of one problem (null where a tensor is absent).
struct mds_t {
    dnnl_memory_desc_t src_layer = nullptr, src_iter = nullptr, src_iter_c = nullptr,
                       wl = nullptr, wi = nullptr, wproj = nullptr, bias = nullptr,
                       dst_layer = nullptr, dst_iter = nullptr, dst_iter_c = nullptr;

    explicit mds_t(const problem_t &p) {
        const int64_t D = directions(p), G = gates_of(p.cell), H = p.DHC, S = p.state();
        const int64_t DLC = p.dir == dnnl_bidirectional_concat ? 2 * S : S;
        const bool lstm = p.cell == dnnl_vanilla_lstm;
        make(src_layer, {p.T, p.N, p.SLC}, p.src_dt, dnnl_tnc);
        make(wl, {p.L, D, p.SLC, G, H}, dnnl_s8, dnnl_ldigo);
        make(wi, {p.L, D, S, G, H}, dnnl_s8, dnnl_ldigo);
        if (p.projection) make(wproj, {p.L, D, H, S}, dnnl_s8, dnnl_ldio);
        make(bias, {p.L, D, G + (p.cell == dnnl_lbr_gru ? 1 : 0), H}, dnnl_f32, dnnl_ldgo);
        make(dst_layer, {p.T, p.N, DLC}, p.dst_dt, dnnl_tnc);
        if (p.with_iter) {
            make(src_iter, {p.L, D, p.N, S}, p.iter_dt, dnnl_ldnc);
            make(dst_iter, {p.L, D, p.N, S}, p.iter_dt, dnnl_ldnc);
            if (lstm) {
                make(src_iter_c, {p.L, D, p.N, H}, dnnl_f32, dnnl_ldnc);
                make(dst_iter_c, {p.L, D, p.N, H}, dnnl_f32, dnnl_ldnc);
            }
        }
    }
    ~mds_t() {
        for (dnnl_memory_desc_t m : {src_layer, src_iter, src_iter_c, wl, wi, wproj, bias,
                     dst_layer, dst_iter, dst_iter_c})
            dnnl_memory_desc_destroy(m);
    }
    mds_t(const mds_t &) = delete;
    mds_t &operator=(const mds_t &) = delete;

private:
    static void make(dnnl_memory_desc_t &m, std::vector<int64_t> dims, dnnl_data_type_t dt,
            dnnl_format_tag_t tag) {
        ASSERT_EQ(dnnl_memory_desc_create_with_tag(&m, int(dims.size()), dims.data(), dt, tag),
                dnnl_success);
    }
};

// The projection weights' scale of output channel j (mask 8), or the one for all (mask 0).
double projection_scale(const problem_t &p, int64_t j) {
    return p.proj_mask == 0 ? 97.0 : 100.0 + double(j % 5);
}

// The quantization attributes: data scale/shift, the weights scales (30 + j % 7 per gate
// column as benchdnn, or one 31 for all) and the projection's.
dnnl_primitive_attr_t make_attr(const problem_t &p, float scale = data_scale) {
    dnnl_primitive_attr_t attr = nullptr;
    EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_set_rnn_data_qparams(attr, scale, p.shift), dnnl_success);
    if (p.projection) {
        std::vector<float> ps(size_t(p.state()));
        for (size_t j = 0; j < ps.size(); ++j) ps[j] = float(projection_scale(p, int64_t(j)));
        EXPECT_EQ(dnnl_primitive_attr_set_rnn_weights_projection_qparams(attr,
                          p.proj_mask == 0 ? 1 : int64_t(ps.size()), p.proj_mask, ps.data()),
                dnnl_success);
    }
    std::vector<float> scales(size_t(gates_of(p.cell) * p.DHC));
    for (size_t j = 0; j < scales.size(); ++j) scales[j] = 30.f + float(j % 7);
    if (p.per_column_scales)
        EXPECT_EQ(dnnl_primitive_attr_set_rnn_weights_qparams(
                          attr, int64_t(scales.size()), 24, scales.data()),
                dnnl_success);
    else {
        const float one = 31.f;
        EXPECT_EQ(dnnl_primitive_attr_set_rnn_weights_qparams(attr, 1, 0, &one), dnnl_success);
    }
    return attr;
}

dnnl_status_t make_pd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng, const problem_t &p,
        const mds_t &m, const_dnnl_primitive_attr_t attr) {
    switch (p.cell) {
        case dnnl_vanilla_rnn:
            return dnnl_vanilla_rnn_forward_primitive_desc_create(pd, eng, p.prop,
                    dnnl_eltwise_tanh, p.dir, m.src_layer, m.src_iter, m.wl, m.wi, m.bias,
                    m.dst_layer, m.dst_iter, 0, 0.f, 0.f, attr);
        case dnnl_vanilla_lstm:
            return dnnl_lstm_forward_primitive_desc_create(pd, eng, p.prop, p.dir, m.src_layer,
                    m.src_iter, m.src_iter_c, m.wl, m.wi, nullptr, m.wproj, m.bias,
                    m.dst_layer, m.dst_iter, m.dst_iter_c, 0, attr);
        case dnnl_vanilla_gru:
            return dnnl_gru_forward_primitive_desc_create(pd, eng, p.prop, p.dir, m.src_layer,
                    m.src_iter, m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter, 0, attr);
        default:
            return dnnl_lbr_gru_forward_primitive_desc_create(pd, eng, p.prop, p.dir,
                    m.src_layer, m.src_iter, m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter, 0,
                    attr);
    }
}

// The reference's description of p (u8 or s8 data, s8 weights).
rnn_ref::prob_t ref_problem(const problem_t &p) {
    rnn_ref::prob_t r;
    r.cell = p.cell;
    r.dir = p.dir;
    r.L = p.L;
    r.T = p.T;
    r.N = p.N;
    r.SLC = p.SLC;
    r.DHC = p.DHC;
    r.dt = p.src_dt;
    r.proj_dic = p.projection ? p.dic : 0;
    r.f32_dst = p.dst_dt == dnnl_f32;
    r.f32_iter = p.iter_dt == dnnl_f32;
    r.src_iter = r.src_iter_c = r.dst_iter = r.dst_iter_c = p.with_iter;
    return r;
}

// Runs p on the GPU with benchdnn's kind of inputs (u8 in [64, 192], s8 in [-20, 20], f32
// from the reference's ranges) and checks every output against the reference run on the
// dequantized inputs: u8 outputs requantized within one step (the states are requantized
// between steps, which may cross a boundary), f32 ones within 1e-4.
void check(const problem_t &p) {
    using namespace rnn_ref;
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    {
        const prob_t r = ref_problem(p);
        mds_t m(p);
        const_dnnl_memory_desc_t md[NT] = {m.src_layer, m.src_iter, m.src_iter_c, nullptr, m.wl,
                m.wi, nullptr, m.wproj, m.bias, m.dst_layer, m.dst_iter, m.dst_iter_c};
        dnnl_primitive_attr_t attr = make_attr(p);
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(make_pd(&pd, gpu, p, m, attr), dnnl_success);
        dnnl_primitive_attr_destroy(attr);
        const char *name = nullptr;
        dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
        EXPECT_STREQ(name, "ocl:rnn:gemm");
        const int64_t cols = gates_of(p.cell) * p.DHC;
        auto wscale = [&](size_t i) {
            return p.per_column_scales ? 30.0 + double(i % size_t(cols) % 7) : 31.0;
        };
        std::vector<std::unique_ptr<tensor_t>> host(NT);
        std::vector<std::unique_ptr<gpu_test::device_memory_t>> dev(NT);
        vec in[NT];
        std::vector<dnnl_exec_arg_t> args;
        for (int k = 0; k < NT; ++k) {
            if (!md[k]) continue;
            host[k].reset(new tensor_t(cpu, md[k]));
            dev[k].reset(new gpu_test::device_memory_t(gpu, md[k]));
            if (k < DL) {
                const dnnl_data_type_t dt = r.dt_of(k);
                const bool weights = k == WL || k == WI || k == WPR;
                const double lo = std::max(-128.0, double(p.shift) - 64);
                vec v = weights ? random_values(count(r.dims(k)), 50 + k, -20, 20)
                        : dt == dnnl_u8 ? random_values(count(r.dims(k)), 50 + k, 64, 192)
                        : dt == dnnl_s8 ? random_values(count(r.dims(k)), 50 + k, lo, lo + 128)
                                        : input_values(r, k, 50 + k);
                if (dt != dnnl_f32)
                    for (auto &x : v)
                        x = std::round(x);
                write_all(*host[k], v);
                dev[k]->upload(*host[k]);
                in[k] = read_all(*host[k]);
                for (size_t i = 0; i < in[k].size(); ++i) {
                    if (k == WPR)
                        in[k][i] /= projection_scale(p, int64_t(i % size_t(p.state())));
                    else if (weights) in[k][i] /= wscale(i);
                    else if (dt != dnnl_f32) in[k][i] = (in[k][i] - p.shift) / data_scale;
                }
            } else {
                dev[k]->fill(0xff);
            }
            args.push_back({fwd_arg[k], dev[k]->mem});
        }
        gpu_test::execute(gpu, pd, args);
        const ref_out_t ref = ref_forward(r, in);
        for (int k : {DL, DI, DIC}) {
            if (!md[k]) continue;
            dev[k]->download(*host[k]);
            const vec got = read_all(*host[k]);
            for (size_t i = 0; i < got.size(); ++i) {
                double e = ref.v[k][i];
                if (r.dt_of(k) != dnnl_f32) {
                    const bool s8 = r.dt_of(k) == dnnl_s8;
                    e = std::min(s8 ? 127.0 : 255.0,
                            std::max(s8 ? -128.0 : 0.0, std::round(e * data_scale + p.shift)));
                    ASSERT_NEAR(got[i], e, 1.0) << slot_names[k] << " element " << i;
                } else {
                    ASSERT_NEAR(got[i], e, 1e-4 * std::fabs(e) + 1e-4)
                            << slot_names[k] << " element " << i;
                }
            }
        }
        dnnl_primitive_desc_destroy(pd);
    }
    dnnl_engine_destroy(cpu);
    dnnl_engine_destroy(gpu);
}

const auto l2r = dnnl_unidirectional_left2right, r2l = dnnl_unidirectional_right2left,
           concat = dnnl_bidirectional_concat, sum = dnnl_bidirectional_sum;

problem_t cell(const char *name, dnnl_alg_kind_t kind, dnnl_rnn_direction_t dir, int64_t L,
        int64_t T, int64_t N, int64_t SLC, int64_t DHC) {
    return problem_t {name, kind, dir, L, T, N, SLC, DHC};
}

problem_t one_scale(problem_t p) {
    p.per_column_scales = false;
    return p;
}

problem_t f32_dst(problem_t p) {
    p.dst_dt = dnnl_f32;
    return p;
}

problem_t f32_iter(problem_t p) {
    p.iter_dt = dnnl_f32;
    return p;
}

problem_t no_iter(problem_t p) {
    p.with_iter = false;
    return p;
}

// s8 data (the int8 tensors among src_iter and the outputs too) with the given shift.
problem_t s8_data(problem_t p, float shift = 0.f) {
    p.src_dt = dnnl_s8;
    if (p.dst_dt == dnnl_u8) p.dst_dt = dnnl_s8;
    if (p.iter_dt == dnnl_u8) p.iter_dt = dnnl_s8;
    p.shift = shift;
    return p;
}

// LSTM projection to dic channels (mask 8 scales, or 0: one for all).
problem_t projected(problem_t p, int64_t dic, int mask = 8) {
    p.projection = true;
    p.dic = dic;
    p.proj_mask = mask;
    return p;
}

const problem_t problems[] = {
        cell("lstm_l2r_2layers", dnnl_vanilla_lstm, l2r, 2, 3, 4, 8, 8),
        cell("lstm_concat_odd", dnnl_vanilla_lstm, concat, 1, 5, 3, 5, 7),
        one_scale(cell("lstm_r2l_one_scale_mb1_t1", dnnl_vanilla_lstm, r2l, 1, 1, 1, 17, 3)),
        f32_dst(cell("lstm_sum_f32_dst", dnnl_vanilla_lstm, sum, 2, 3, 2, 6, 6)),
        f32_iter(f32_dst(cell("lstm_l2r_f32_iter_and_dst", dnnl_vanilla_lstm, l2r, 1, 3, 2, 5,
                9))),
        no_iter(cell("lstm_concat_no_states", dnnl_vanilla_lstm, concat, 1, 2, 3, 4, 5)),
        cell("gru_l2r_2layers", dnnl_vanilla_gru, l2r, 2, 3, 4, 8, 8),
        one_scale(f32_dst(cell("gru_concat_one_scale_f32_dst", dnnl_vanilla_gru, concat, 1, 4,
                3, 7, 5))),
        cell("gru_sum_odd", dnnl_vanilla_gru, sum, 1, 4, 1, 2, 9),
        cell("lbr_gru_r2l_2layers", dnnl_lbr_gru, r2l, 2, 3, 4, 6, 6),
        f32_dst(cell("lbr_gru_concat_f32_dst", dnnl_lbr_gru, concat, 1, 5, 3, 5, 7)),
        f32_iter(one_scale(cell("lbr_gru_l2r_one_scale_f32_iter", dnnl_lbr_gru, l2r, 1, 2, 2,
                3, 11))),
        // Large enough for the tiled GEMM where the device runs it.
        cell("lstm_concat_tiled_gemm", dnnl_vanilla_lstm, concat, 1, 3, 16, 64, 64),
        f32_dst(cell("lbr_gru_l2r_tiled_gemm", dnnl_lbr_gru, l2r, 1, 2, 16, 40, 72)),
        s8_data(cell("s8_lstm_concat_odd", dnnl_vanilla_lstm, concat, 1, 5, 3, 5, 7)),
        s8_data(cell("s8_gru_r2l_shift_2layers", dnnl_vanilla_gru, r2l, 2, 3, 2, 6, 6), -9.f),
        f32_iter(s8_data(one_scale(cell("s8_lbr_gru_sum_f32_iter", dnnl_lbr_gru, sum, 1, 3, 4,
                5, 9)))),
        projected(cell("lstm_projection_l2r_2layers", dnnl_vanilla_lstm, l2r, 2, 3, 2, 5, 9), 5),
        f32_dst(projected(s8_data(cell("s8_lstm_projection_concat_one_scale", dnnl_vanilla_lstm,
                                          concat, 1, 2, 3, 4, 6)),
                7, 0)),
};

// The whole problem in a failure message or a test listing (gtest prints raw bytes otherwise).
void PrintTo(const problem_t &p, std::ostream *os) {
    *os << p.name << " (" << dnnl_alg_kind2str(p.cell) << " " << dnnl_rnn_direction2str(p.dir)
        << ", " << dnnl_prop_kind2str(p.prop) << ", L " << p.L << ", T " << p.T << ", N " << p.N
        << ", SLC " << p.SLC << ", DHC " << p.DHC << ", src " << dnnl_dt2str(p.src_dt)
        << ", dst " << dnnl_dt2str(p.dst_dt) << ", iter " << dnnl_dt2str(p.iter_dt)
        << (p.with_iter ? "" : " (no iter)")
        << (p.per_column_scales ? ", per-column weights scales" : ", one weights scale")
        << (p.projection ? ", projection to " + std::to_string(p.dic) : std::string())
        << ", shift " << p.shift << ")";
}

class rnn_int8_gpu : public ::testing::TestWithParam<problem_t> {};

TEST_P(rnn_int8_gpu, forward_inference_matches_reference) {
    if (dnnl_engine_get_count(dnnl_gpu) == 0) {
        GTEST_SKIP() << "no OpenCL device";
    }
    check(GetParam());
}

INSTANTIATE_TEST_SUITE_P(cells, rnn_int8_gpu, ::testing::ValuesIn(problems),
        [](const ::testing::TestParamInfo<problem_t> &i) { return std::string(i.param.name); });

// The status of creating p's primitive descriptor on engine kind k.
dnnl_status_t status_on(dnnl_engine_kind_t k, const problem_t &p, float scale = data_scale,
        bool bad_scales_count = false) {
    dnnl_engine_t eng = nullptr;
    EXPECT_EQ(dnnl_engine_create(&eng, k, 0), dnnl_success);
    dnnl_status_t st = dnnl_runtime_error;
    {
        mds_t m(p);
        dnnl_primitive_attr_t attr = make_attr(p, scale);
        if (bad_scales_count) {
            const float two[2] = {30.f, 31.f};
            EXPECT_EQ(dnnl_primitive_attr_set_rnn_weights_qparams(attr, 2, 24, two),
                    dnnl_success);
        }
        dnnl_primitive_desc_t pd = nullptr;
        st = make_pd(&pd, eng, p, m, attr);
        dnnl_primitive_desc_destroy(pd);
        dnnl_primitive_attr_destroy(attr);
    }
    dnnl_engine_destroy(eng);
    return st;
}

void expect_same_status(const problem_t &p, dnnl_status_t want, float scale = data_scale,
        bool bad_scales_count = false) {
    EXPECT_EQ(status_on(dnnl_cpu, p, scale, bad_scales_count), want);
    EXPECT_EQ(status_on(dnnl_gpu, p, scale, bad_scales_count), want);
}

TEST(rnn_int8_gpu, refuses_what_the_cpu_engine_refuses) {
    if (dnnl_engine_get_count(dnnl_gpu) == 0) {
        GTEST_SKIP() << "no OpenCL device";
    }
    const problem_t lstm = cell("lstm", dnnl_vanilla_lstm, l2r, 1, 2, 2, 4, 4);
    problem_t f32_src = lstm; // s8 weights need u8 or s8 src_layer
    f32_src.src_dt = dnnl_f32;
    expect_same_status(f32_src, dnnl_unimplemented);
    problem_t training = lstm; // int8 is inference only
    training.prop = dnnl_forward_training;
    expect_same_status(training, dnnl_unimplemented);
    // Projection scales: mask 8 (per output channel) or 0 only.
    expect_same_status(projected(lstm, 3, 24), dnnl_unimplemented);
    expect_same_status(projected(lstm, 3), dnnl_success);
    expect_same_status(cell("vanilla", dnnl_vanilla_rnn, l2r, 1, 2, 2, 4, 4), dnnl_unimplemented);
    expect_same_status(lstm, dnnl_unimplemented, data_scale, true); // 2 scales for 16 columns
    expect_same_status(lstm, dnnl_invalid_arguments, 0.f); // data scale zero
}

} // namespace
