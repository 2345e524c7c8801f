// The GPU engine's int8 RNN inference (u8 data with a scale and shift, s8 weights with one
// scale or one per gate column, u8 or f32 outputs) against the CPU engine's, which
// tests/primitives checks against a reference: u8 outputs within one quantization step,
// f32 ones within f32 rounding. Problems the CPU engine refuses get the same status on the
// GPU. Skipped without an OpenCL device.
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_debug.h"

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
    bool projection = false;
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
        const int64_t D = directions(p), G = gates_of(p.cell), H = p.DHC;
        const int64_t DLC = p.dir == dnnl_bidirectional_concat ? 2 * H : H;
        const bool lstm = p.cell == dnnl_vanilla_lstm;
        make(src_layer, {p.T, p.N, p.SLC}, p.src_dt, dnnl_tnc);
        make(wl, {p.L, D, p.SLC, G, H}, dnnl_s8, dnnl_ldigo);
        make(wi, {p.L, D, H, G, H}, dnnl_s8, dnnl_ldigo);
        if (p.projection) make(wproj, {p.L, D, H, H}, dnnl_s8, dnnl_ldio);
        make(bias, {p.L, D, G + (p.cell == dnnl_lbr_gru ? 1 : 0), H}, dnnl_f32, dnnl_ldgo);
        make(dst_layer, {p.T, p.N, DLC}, p.dst_dt, dnnl_tnc);
        if (p.with_iter) {
            make(src_iter, {p.L, D, p.N, H}, p.iter_dt, dnnl_ldnc);
            make(dst_iter, {p.L, D, p.N, H}, p.iter_dt, dnnl_ldnc);
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

// The quantization attributes: data scale/shift and the weights scales (30 + j % 7 per gate
// column as benchdnn, or one 31 for all).
dnnl_primitive_attr_t make_attr(const problem_t &p, float scale = data_scale) {
    dnnl_primitive_attr_t attr = nullptr;
    EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_set_rnn_data_qparams(attr, scale, data_shift), dnnl_success);
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

const int args[] = {DNNL_ARG_SRC_LAYER, DNNL_ARG_SRC_ITER, DNNL_ARG_SRC_ITER_C,
        DNNL_ARG_WEIGHTS_LAYER, DNNL_ARG_WEIGHTS_ITER, DNNL_ARG_BIAS, DNNL_ARG_DST_LAYER,
        DNNL_ARG_DST_ITER, DNNL_ARG_DST_ITER_C};
const int outputs[] = {DNNL_ARG_DST_LAYER, DNNL_ARG_DST_ITER, DNNL_ARG_DST_ITER_C};

// Deterministic inputs as benchdnn draws them: u8 in [64, 192], s8 in [-20, 20], f32 (bias,
// c states, f32 h states) in [-0.5, 0.5].
void fill(void *p, dnnl_data_type_t dt, int arg, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        const size_t h = i * 37 + size_t(arg) * 11;
        if (dt == dnnl_u8)
            static_cast<uint8_t *>(p)[i] = uint8_t(64 + h % 129);
        else if (dt == dnnl_s8)
            static_cast<int8_t *>(p)[i] = int8_t(int(h % 41) - 20);
        else
            static_cast<float *>(p)[i] = 0.5f * std::sin(0.71f * float(i) + 1.37f * float(arg));
    }
}

size_t dt_size(dnnl_data_type_t dt) { return dt == dnnl_f32 ? 4 : 1; }

struct result_t {
    std::map<int, std::vector<float>> out;
    std::map<int, dnnl_data_type_t> dt;
};

// Creates and fills every argument of pd, executes, and reads the outputs back.
void execute(dnnl_engine_t eng, const_dnnl_primitive_desc_t pd, result_t &r) {
    std::map<int, dnnl_memory_t> mem;
    for (int arg : args) {
        const_dnnl_memory_desc_t md = dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
        if (!md || dnnl_memory_desc_get_size(md) == 0) continue;
        dnnl_memory_t m = nullptr;
        ASSERT_EQ(dnnl_memory_create(&m, md, eng, DNNL_MEMORY_ALLOCATE), dnnl_success);
        mem[arg] = m;
        dnnl_data_type_t dt = dnnl_data_type_undef;
        dnnl_memory_desc_query(md, dnnl_query_data_type, &dt);
        void *p = nullptr;
        ASSERT_EQ(dnnl_memory_map_data(m, &p), dnnl_success);
        fill(p, dt, arg, dnnl_memory_desc_get_size(md) / dt_size(dt));
        ASSERT_EQ(dnnl_memory_unmap_data(m, p), dnnl_success);
    }
    std::vector<dnnl_exec_arg_t> exec;
    for (auto &a : mem) exec.push_back({a.first, a.second});
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_stream_create(&s, eng, dnnl_stream_default_flags), dnnl_success);
    dnnl_primitive_t prim = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
    EXPECT_EQ(dnnl_primitive_execute(prim, s, int(exec.size()), exec.data()), dnnl_success);
    EXPECT_EQ(dnnl_stream_wait(s), dnnl_success);
    dnnl_primitive_destroy(prim);
    dnnl_stream_destroy(s);
    for (int arg : outputs) {
        if (!mem.count(arg)) continue;
        const_dnnl_memory_desc_t md = nullptr;
        dnnl_memory_get_memory_desc(mem[arg], &md);
        dnnl_data_type_t dt = dnnl_data_type_undef;
        dnnl_memory_desc_query(md, dnnl_query_data_type, &dt);
        const size_t n = dnnl_memory_desc_get_size(md) / dt_size(dt);
        void *p = nullptr;
        ASSERT_EQ(dnnl_memory_map_data(mem[arg], &p), dnnl_success);
        std::vector<float> &v = r.out[arg];
        for (size_t i = 0; i < n; ++i)
            v.push_back(dt == dnnl_u8 ? float(static_cast<const uint8_t *>(p)[i])
                                      : static_cast<const float *>(p)[i]);
        EXPECT_EQ(dnnl_memory_unmap_data(mem[arg], p), dnnl_success);
        r.dt[arg] = dt;
    }
    for (auto &a : mem) dnnl_memory_destroy(a.second);
}

void run_on(dnnl_engine_t eng, const problem_t &p, result_t &r, bool gpu) {
    mds_t m(p);
    dnnl_primitive_attr_t attr = make_attr(p);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(make_pd(&pd, eng, p, m, attr), dnnl_success);
    dnnl_primitive_attr_destroy(attr);
    if (gpu) {
        const char *name = nullptr;
        dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
        EXPECT_STREQ(name, "ocl:rnn:gemm");
    }
    execute(eng, pd, r);
    dnnl_primitive_desc_destroy(pd);
}

// u8 outputs within one step (the f32 states differ by rounding, which may cross a
// quantization boundary), f32 outputs within f32 rounding of the dequantized sums.
void expect_close(const result_t &cpu, const result_t &gpu, int arg) {
    if (!cpu.out.count(arg)) return;
    SCOPED_TRACE("argument " + std::to_string(arg));
    ASSERT_TRUE(gpu.out.count(arg));
    const std::vector<float> &want = cpu.out.at(arg), &got = gpu.out.at(arg);
    ASSERT_EQ(want.size(), got.size());
    const bool u8 = cpu.dt.at(arg) == dnnl_u8;
    int bad = 0;
    for (size_t i = 0; i < want.size() && bad < 5; ++i) {
        const float tol = u8 ? 1.f : 2e-5f * std::max(1.f, std::fabs(want[i]));
        if (!(std::fabs(got[i] - want[i]) <= tol)) {
            ADD_FAILURE() << "element " << i << ": gpu " << got[i] << " cpu " << want[i];
            ++bad;
        }
    }
}

void check(const problem_t &p) {
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    {
        result_t c, g;
        run_on(cpu, p, c, false);
        run_on(gpu, p, g, true);
        for (int a : outputs) expect_close(c, g, a);
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
};

// The whole problem in a failure message or a test listing (gtest prints raw bytes otherwise).
void PrintTo(const problem_t &p, std::ostream *os) {
    *os << p.name << " (" << dnnl_alg_kind2str(p.cell) << " " << dnnl_rnn_direction2str(p.dir)
        << ", " << dnnl_prop_kind2str(p.prop) << ", L " << p.L << ", T " << p.T << ", N " << p.N
        << ", SLC " << p.SLC << ", DHC " << p.DHC << ", src " << dnnl_dt2str(p.src_dt)
        << ", dst " << dnnl_dt2str(p.dst_dt) << ", iter " << dnnl_dt2str(p.iter_dt)
        << (p.with_iter ? "" : " (no iter)")
        << (p.per_column_scales ? ", per-column weights scales" : ", one weights scale")
        << (p.projection ? ", projection" : "") << ")";
}

class rnn_int8_gpu_vs_cpu : public ::testing::TestWithParam<problem_t> {};

TEST_P(rnn_int8_gpu_vs_cpu, forward_inference_matches) {
    if (dnnl_engine_get_count(dnnl_gpu) == 0) {
        GTEST_SKIP() << "no OpenCL device";
    }
    check(GetParam());
}

INSTANTIATE_TEST_SUITE_P(cells, rnn_int8_gpu_vs_cpu, ::testing::ValuesIn(problems),
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
    problem_t f32_src = lstm; // s8 weights need u8 src_layer
    f32_src.src_dt = dnnl_f32;
    expect_same_status(f32_src, dnnl_unimplemented);
    problem_t training = lstm; // int8 is inference only
    training.prop = dnnl_forward_training;
    expect_same_status(training, dnnl_unimplemented);
    problem_t projection = lstm; // int8 LSTM projection: the CPU engine has none
    projection.projection = true;
    expect_same_status(projection, dnnl_unimplemented);
    expect_same_status(cell("vanilla", dnnl_vanilla_rnn, l2r, 1, 2, 2, 4, 4), dnnl_unimplemented);
    expect_same_status(lstm, dnnl_unimplemented, data_scale, true); // 2 scales for 16 columns
    expect_same_status(lstm, dnnl_invalid_arguments, 0.f); // data scale zero
}

} // namespace
