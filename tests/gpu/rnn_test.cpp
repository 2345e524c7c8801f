// The GPU engine's RNN (every cell kind, direction, layer count; forward inference and
// training, backward from the forward's own workspace) against the reference of
// tests/primitives (rnn_ref.hpp): outputs against the double-precision recurrence, input
// gradients against central differences of it (every element of small tensors, sixteen
// spread ones of large, four under sanitizers). Skipped without an OpenCL device.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "gpu/device_copy.hpp"
#include "primitives/rnn_ref.hpp"
#include "sanitizer_budget.hpp"

namespace {

using namespace rnn_ref;
using gpu_test::device_memory_t;
using gpu_test::execute;

// A named problem of the reference, with the flags its backward takes.
struct problem_t {
    const char *name;
    prob_t p;
    unsigned flags = 0;
};

problem_t make(const char *name, dnnl_alg_kind_t cell, dnnl_rnn_direction_t dir, int64_t L,
        int64_t T, int64_t N, int64_t SLC, int64_t DHC) {
    problem_t r {name, {}};
    r.p.cell = cell;
    r.p.dir = dir;
    r.p.L = L;
    r.p.T = T;
    r.p.N = N;
    r.p.SLC = SLC;
    r.p.DHC = DHC;
    return r;
}

const auto l2r = dnnl_unidirectional_left2right, r2l = dnnl_unidirectional_right2left,
           concat = dnnl_bidirectional_concat, sum = dnnl_bidirectional_sum;

problem_t vanilla(const char *name, dnnl_alg_kind_t act, float alpha, dnnl_rnn_direction_t dir) {
    problem_t r = make(name, dnnl_vanilla_rnn, dir, 1, 3, 2, 7, 5);
    r.p.act = act;
    r.p.alpha = alpha;
    return r;
}

problem_t cell(const char *name, dnnl_alg_kind_t kind, dnnl_rnn_direction_t dir, int64_t L,
        int64_t T, int64_t N, int64_t SLC, int64_t DHC) {
    return make(name, kind, dir, L, T, N, SLC, DHC);
}

problem_t lstm_proj(const char *name, dnnl_rnn_direction_t dir, bool peephole, int64_t L,
        unsigned flags = 0) {
    problem_t r = make(name, dnnl_vanilla_lstm, dir, L, 3, 2, 4, 6);
    r.p.peephole = peephole;
    r.p.proj_dic = 4;
    r.flags = flags;
    return r;
}

problem_t ldgoi(problem_t r) {
    r.p.ldgoi = true;
    return r;
}

// One step whose src_iter has `sic` channels, other than the state's.
problem_t with_sic(problem_t r, int64_t sic) {
    r.p.T = 1;
    r.p.sic = sic;
    return r;
}

// Without some of the optional states (absent src_iter, src_iter_c: zeros).
problem_t states(problem_t r, bool src_iter, bool src_iter_c, bool dst_iter, bool dst_iter_c) {
    r.p.src_iter = src_iter;
    r.p.src_iter_c = src_iter_c;
    r.p.dst_iter = dst_iter;
    r.p.dst_iter_c = dst_iter_c;
    return r;
}

problem_t bf16(problem_t r) {
    r.p.dt = dnnl_bf16;
    return r;
}

std::string impl_name(const_dnnl_primitive_desc_t pd) {
    const char *name = nullptr;
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
    return name ? name : "";
}

// The descriptors of a problem's tensors by slot (null where absent); gradients of bf16
// weights are f32.
struct mds_t {
    dnnl_memory_desc_t m[NT] = {};
    const_dnnl_memory_desc_t c[NT] = {};
    mds_t(const prob_t &p, bool diff) {
        for (int k = 0; k < NT; ++k) {
            if (!p.has(k)) continue;
            const bool weights = k >= WL && k <= WPR;
            const dnnl_data_type_t dt = diff && weights ? dnnl_f32 : p.dt_of(k);
            c[k] = m[k] = c_tensor::make_md({p.dims(k), dt, p.tag_of(k)});
        }
    }
    ~mds_t() {
        for (auto md : m)
            dnnl_memory_desc_destroy(md);
    }
    mds_t(const mds_t &) = delete;
    mds_t &operator=(const mds_t &) = delete;
};

// A host tensor and its device copy for one slot.
struct slot_t {
    std::unique_ptr<tensor_t> host;
    std::unique_ptr<device_memory_t> dev;
    slot_t(dnnl_engine_t cpu, dnnl_engine_t gpu, const_dnnl_memory_desc_t md)
        : host(new tensor_t(cpu, md)), dev(new device_memory_t(gpu, md)) {}
    void put(const vec &v) {
        write_all(*host, v);
        dev->upload(*host);
    }
    vec read() {
        dev->download(*host);
        return read_all(*host);
    }
};

// The output tolerance of the recurrence: bf16 storage of every step's states, or f32.
double out_tol(dnnl_data_type_t dt, double e) {
    return dt == dnnl_bf16 ? 1e-2 * std::fabs(e) + 2e-2 : 2e-5 * std::fabs(e) + 2e-5;
}

// Forward (inference, or training then backward from its workspace) of r on the GPU against
// the reference.
void check(const problem_t &r, bool backward) {
    const prob_t &p = r.p;
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    {
        mds_t m(p, false), g(p, true), none(p, false);
        for (auto &x : none.c)
            x = nullptr;
        dnnl_primitive_desc_t fpd = nullptr, bpd = nullptr;
        ASSERT_EQ(create_pd(&fpd, gpu, p,
                          backward ? dnnl_forward_training : dnnl_forward_inference, m.c, none.c,
                          nullptr, r.flags),
                dnnl_success);
        EXPECT_EQ(impl_name(fpd), "ocl:rnn:gemm");
        std::vector<std::unique_ptr<slot_t>> t(NT), dt(NT);
        vec in[NT], dout[NT];
        std::vector<dnnl_exec_arg_t> fargs, bargs;
        for (int k = 0; k < NT; ++k) {
            if (!p.has(k)) continue;
            t[k].reset(new slot_t(cpu, gpu, m.c[k]));
            if (k < DL) {
                t[k]->put(input_values(p, k, 100 + k));
                in[k] = read_all(*t[k]->host); // what the tensor holds after rounding
            } else {
                t[k]->dev->fill(0xff);
            }
            fargs.push_back({fwd_arg[k], t[k]->dev->mem});
        }
        const_dnnl_memory_desc_t ws_md = dnnl_primitive_desc_query_md(fpd, dnnl_query_workspace_md, 0);
        device_memory_t ws(gpu, ws_md);
        if (backward) fargs.push_back({DNNL_ARG_WORKSPACE, ws.mem});
        execute(gpu, fpd, fargs);
        const ref_out_t ref = ref_forward(p, in);
        for (int k : {DL, DI, DIC}) {
            if (!p.has(k)) continue;
            const vec got = t[k]->read();
            for (size_t i = 0; i < got.size(); ++i)
                ASSERT_NEAR(got[i], ref.v[k][i], out_tol(p.dt_of(k), ref.v[k][i]))
                        << slot_names[k] << " element " << i;
        }
        if (backward) {
            ASSERT_EQ(create_pd(&bpd, gpu, p, dnnl_backward, m.c, g.c, fpd, r.flags),
                    dnnl_success);
            EXPECT_EQ(impl_name(bpd), "ocl:rnn:gemm");
            const bool overwrite = r.flags & dnnl_rnn_flags_diff_weights_overwrite;
            for (int k = 0; k < NT; ++k) {
                if (!p.has(k)) continue;
                dt[k].reset(new slot_t(cpu, gpu, g.c[k]));
                if (k >= DL) {
                    dt[k]->put(input_values(p, k, 300 + k));
                    dout[k] = read_all(*dt[k]->host);
                } else if (k >= WL) { // accumulated into unless overwritten
                    dt[k]->put(vec(size_t(count(p.dims(k))), overwrite ? 7.0 : 1.0));
                } else {
                    dt[k]->dev->fill(0xff);
                }
                bargs.push_back({fwd_arg[k], t[k]->dev->mem});
                bargs.push_back({diff_arg[k], dt[k]->dev->mem});
            }
            bargs.push_back({DNNL_ARG_WORKSPACE, ws.mem});
            execute(gpu, bpd, bargs);
            vec x[NT];
            for (int k = 0; k < DL; ++k)
                x[k] = in[k];
            const bool lowp = p.dt == dnnl_bf16;
            for (int k = 0; k < DL; ++k) {
                if (!p.has(k)) continue;
                const vec got = dt[k]->read();
                const double base = (k >= WL && !overwrite) ? 1.0 : 0.0;
                const size_t spread = size_t(test_budget::pick(16, 4));
                const size_t n = got.size(), step = n <= 64 ? 1 : n / spread;
                for (size_t i = step > 1 ? step / 2 : 0; i < n; i += step) {
                    const double e = numeric_gradient(p, x, dout, k, i) + base;
                    ASSERT_NEAR(got[i], e, (lowp ? 1e-2 : 1e-3) * std::fabs(e) + (lowp ? 1e-2 : 5e-4))
                            << "diff_" << slot_names[k] << " element " << i;
                }
            }
        }
        dnnl_primitive_desc_destroy(bpd);
        dnnl_primitive_desc_destroy(fpd);
    }
    dnnl_engine_destroy(cpu);
    dnnl_engine_destroy(gpu);
}

const problem_t problems[] = {
        vanilla("vanilla_relu_l2r", dnnl_eltwise_relu, 0.25f, l2r),
        vanilla("vanilla_relu_concat", dnnl_eltwise_relu, 0.f, concat),
        vanilla("vanilla_tanh_r2l", dnnl_eltwise_tanh, 0.f, r2l),
        vanilla("vanilla_tanh_sum", dnnl_eltwise_tanh, 0.f, sum),
        vanilla("vanilla_logistic_l2r", dnnl_eltwise_logistic, 0.f, l2r),
        vanilla("vanilla_logistic_concat", dnnl_eltwise_logistic, 0.f, concat),
        cell("lstm_l2r_2layers", dnnl_vanilla_lstm, l2r, 2, 3, 4, 8, 8),
        cell("lstm_r2l_mb1_t1", dnnl_vanilla_lstm, r2l, 1, 1, 1, 17, 3),
        cell("lstm_concat_2layers", dnnl_vanilla_lstm, concat, 2, 2, 3, 6, 6),
        cell("lstm_sum_odd", dnnl_vanilla_lstm, sum, 1, 4, 1, 2, 9),
        lstm_proj("lstm_peephole_projection_l2r", l2r, true, 2),
        lstm_proj("lstm_projection_concat", concat, false, 1),
        lstm_proj("lstm_peephole_projection_sum_overwrite", sum, true, 1,
                dnnl_rnn_flags_diff_weights_overwrite),
        cell("gru_l2r_2layers", dnnl_vanilla_gru, l2r, 2, 3, 4, 8, 8),
        cell("gru_r2l_mb1_t1", dnnl_vanilla_gru, r2l, 1, 1, 1, 17, 3),
        cell("gru_concat", dnnl_vanilla_gru, concat, 2, 2, 3, 5, 5),
        cell("gru_sum_odd", dnnl_vanilla_gru, sum, 1, 4, 1, 2, 9),
        cell("lbr_gru_l2r_2layers", dnnl_lbr_gru, l2r, 2, 3, 4, 8, 8),
        cell("lbr_gru_r2l_mb1_t1", dnnl_lbr_gru, r2l, 1, 1, 1, 17, 3),
        cell("lbr_gru_concat", dnnl_lbr_gru, concat, 2, 2, 3, 5, 5),
        cell("lbr_gru_sum_odd", dnnl_lbr_gru, sum, 1, 4, 1, 2, 9),
        cell("augru_l2r", dnnl_vanilla_augru, l2r, 1, 4, 3, 7, 5),
        cell("augru_mb1_t1", dnnl_vanilla_augru, l2r, 1, 1, 1, 3, 16),
        cell("lbr_augru_l2r", dnnl_lbr_augru, l2r, 1, 4, 3, 7, 5),
        cell("lbr_augru_mb1_t1", dnnl_lbr_augru, l2r, 1, 1, 1, 3, 16),
        // Layer-wide products large enough for the tiled GEMM where the device runs it.
        cell("lstm_concat_tiled_gemm", dnnl_vanilla_lstm, concat, 2, 3, 16, 64, 64),
        cell("lbr_gru_r2l_tiled_gemm", dnnl_lbr_gru, r2l, 1, 2, 16, 64, 64),
        cell("gru_sum_tiled_gemm", dnnl_vanilla_gru, sum, 1, 2, 16, 48, 96),
        // Recurrent products with K split on GPUs (ctest's rnn_split_k forces it here): odd
        // channels (a tail slice), one row, one step, src_iter wider than the state.
        cell("lstm_l2r_odd_split", dnnl_vanilla_lstm, l2r, 1, 3, 5, 19, 37),
        cell("gru_l2r_mb1_odd_split", dnnl_vanilla_gru, l2r, 1, 2, 1, 13, 33),
        cell("lbr_gru_concat_odd_split", dnnl_lbr_gru, concat, 1, 2, 3, 11, 35),
        cell("vanilla_mb1_t1_split", dnnl_vanilla_rnn, l2r, 1, 1, 1, 9, 41),
        with_sic(cell("lstm_sic_more_mb1_split", dnnl_vanilla_lstm, l2r, 1, 1, 1, 5, 33), 47),
        // Weights with the input channel innermost (transposed GEMM operands).
        ldgoi(cell("lstm_ldgoi_weights", dnnl_vanilla_lstm, concat, 2, 3, 2, 5, 5)),
        ldgoi(cell("lbr_gru_ldgoi_weights_tiled_gemm", dnnl_lbr_gru, l2r, 1, 2, 16, 40, 72)),
        // src_iter with other channels than the state (one step).
        with_sic(cell("lstm_sic_more_l2r", dnnl_vanilla_lstm, l2r, 1, 1, 3, 5, 7), 11),
        with_sic(cell("lstm_sic_fewer_concat_2layers", dnnl_vanilla_lstm, concat, 2, 1, 2, 6, 6),
                3),
        with_sic(vanilla("vanilla_sic_more_sum", dnnl_eltwise_tanh, 0.f, sum), 9),
        with_sic(lstm_proj("lstm_peephole_projection_sic", r2l, true, 1), 9),
        // LSTM without some optional states (on NVIDIA GPUs that load sm_90a PTX, inference
        // takes the persistent kernel: tools/gpu_bench/run_lstm.sh runs these there).
        states(cell("lstm_no_src_iter_no_dst_iter_c", dnnl_vanilla_lstm, l2r, 1, 3, 7, 19, 19),
                false, true, true, false),
        states(cell("lstm_no_src_iter_c_no_dst_iter", dnnl_vanilla_lstm, r2l, 2, 2, 5, 33, 33),
                true, false, false, true),
        states(cell("lstm_no_states_concat", dnnl_vanilla_lstm, concat, 1, 3, 4, 8, 8), false,
                false, false, false),
};


// The whole problem in a failure message or a test listing (gtest prints raw bytes otherwise).
void PrintTo(const problem_t &r, std::ostream *os) {
    const prob_t &p = r.p;
    *os << r.name << " (" << dnnl_alg_kind2str(p.cell) << " " << dnnl_rnn_direction2str(p.dir)
        << ", L " << p.L << ", T " << p.T << ", N " << p.N << ", SLC " << p.SLC << ", DHC "
        << p.DHC << ", DIC " << p.dic() << (p.peephole ? ", peephole" : "")
        << (p.projection() ? ", projection" : "") << ", activation " << dnnl_alg_kind2str(p.act)
        << " alpha " << p.alpha << ", flags " << r.flags << ", " << dnnl_dt2str(p.dt)
        << ", weights " << (p.ldgoi ? "ldgoi" : "ldigo") << ")";
}

std::string name_of(const ::testing::TestParamInfo<problem_t> &i) {
    return i.param.name;
}

class rnn_gpu : public ::testing::TestWithParam<problem_t> {};

TEST_P(rnn_gpu, forward_inference_matches_reference) {
    SKIP_WITHOUT_GPU();
    check(GetParam(), false);
}

TEST_P(rnn_gpu, forward_training_and_backward_match_reference) {
    SKIP_WITHOUT_GPU();
    check(GetParam(), true);
}

INSTANTIATE_TEST_SUITE_P(cells, rnn_gpu, ::testing::ValuesIn(problems), name_of);

const problem_t bf16_problems[] = {
        bf16(vanilla("vanilla_tanh_l2r", dnnl_eltwise_tanh, 0.f, l2r)),
        bf16(cell("lstm_sum_2layers", dnnl_vanilla_lstm, sum, 2, 3, 4, 16, 16)),
        bf16(lstm_proj("lstm_peephole_projection", concat, true, 1)),
        bf16(cell("gru_l2r", dnnl_vanilla_gru, l2r, 2, 3, 4, 16, 16)),
        bf16(cell("lbr_gru_r2l", dnnl_lbr_gru, r2l, 1, 3, 2, 5, 7)),
        bf16(cell("lbr_augru_l2r", dnnl_lbr_augru, l2r, 1, 3, 2, 5, 7)),
};

class rnn_gpu_bf16 : public ::testing::TestWithParam<problem_t> {};

TEST_P(rnn_gpu_bf16, forward_inference_matches_reference) {
    SKIP_WITHOUT_GPU();
    check(GetParam(), false);
}

TEST_P(rnn_gpu_bf16, forward_training_and_backward_match_reference) {
    SKIP_WITHOUT_GPU();
    check(GetParam(), true);
}

INSTANTIATE_TEST_SUITE_P(cells, rnn_gpu_bf16, ::testing::ValuesIn(bf16_problems), name_of);

} // namespace
