// RNN forward and backward through the C API: every cell kind (vanilla relu/tanh/logistic,
// LSTM with peepholes and projection, GRU, LBR-GRU, AUGRU, LBR-AUGRU), every direction,
// several layers, optional states absent or present, odd sizes, T = 1 and N = 1, f32, bf16, f16,
// plain and transposed weights; against the double-precision recurrence of rnn_ref.hpp.
// Backward gradients are checked against central differences of that reference.
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "primitives/c_tensor.hpp"
#include "primitives/rnn_ref.hpp"

namespace {

using namespace c_tensor;

using namespace rnn_ref;

struct rnn_test : public engine_fixture {
    struct mds_t {
        dnnl_memory_desc_t m[NT] = {};
        ~mds_t() {
            for (auto md : m)
                if (md) dnnl_memory_desc_destroy(md);
        }
        const_dnnl_memory_desc_t c[NT] = {};
    };

    void make_mds(const prob_t &p, mds_t &out) {
        for (int k = 0; k < NT; ++k)
            if (p.has(k)) out.c[k] = out.m[k] = make_md(spec_t(p.dims(k), p.dt_of(k), p.tag_of(k)));
    }

    void check_forward(const prob_t &p, dnnl_prop_kind_t prop) {
        SCOPED_TRACE(testing::Message() << "cell " << dnnl_alg_kind2str(p.cell) << " dir "
                                        << dnnl_rnn_direction2str(p.dir) << " L" << p.L << " T"
                                        << p.T << " N" << p.N << " slc" << p.SLC << " dhc"
                                        << p.DHC << " dic" << p.dic() << " dt "
                                        << dnnl_dt2str(p.dt));
        mds_t mds, none;
        make_mds(p, mds);
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(create_pd(&pd, engine, p, prop, mds.c, none.c, nullptr), dnnl_success);
        EXPECT_NE(impl_name(pd).find("cpu:rnn:gemm"), std::string::npos) << impl_name(pd);
        const_dnnl_memory_desc_t ws_md = dnnl_primitive_desc_query_md(pd, dnnl_query_workspace_md, 0);
        EXPECT_EQ(dnnl_memory_desc_get_size(ws_md) > 0, prop == dnnl_forward_training);
        std::vector<std::unique_ptr<tensor_t>> t(NT);
        vec in[NT];
        std::vector<dnnl_exec_arg_t> args;
        for (int k = 0; k < NT; ++k) {
            if (!p.has(k)) continue;
            t[k] = std::make_unique<tensor_t>(engine, mds.c[k], 0xff);
            if (k < DL) {
                write_all(*t[k], input_values(p, k, 100 + k));
                in[k] = read_all(*t[k]); // what the tensor holds after rounding
            }
            args.push_back({fwd_arg[k], t[k]->mem});
        }
        tensor_t ws(engine, ws_md);
        if (prop == dnnl_forward_training) args.push_back({DNNL_ARG_WORKSPACE, ws.mem});
        ASSERT_EQ(execute(pd, args), dnnl_success);
        const ref_out_t ref = ref_forward(p, in);
        for (int k : {DL, DI, DIC}) {
            if (!p.has(k)) continue;
            const vec got = read_all(*t[k]);
            const dnnl_data_type_t dt = p.dt_of(k);
            for (size_t i = 0; i < got.size(); ++i) {
                const double e = ref.v[k][i];
                const double tol = dt == dnnl_bf16 ? 1e-2 * std::fabs(e) + 2e-2
                        : dt == dnnl_f16           ? 2e-3 * std::fabs(e) + 2e-3
                                                   : 2e-5 * std::fabs(e) + 2e-5;
                ASSERT_NEAR(got[i], e, tol) << slot_names[k] << " element " << i;
            }
        }
        dnnl_primitive_desc_destroy(pd);
    }

    // Backward: training forward, then backward with random output gradients; every input
    // gradient against central differences of the reference's sum(diff_dst * dst).
    void check_backward(const prob_t &p, bool overwrite = false) {
        check_backward(p, overwrite, 1e-3, 5e-4);
    }
    void check_backward(const prob_t &p, bool overwrite, double rtol, double atol) {
        SCOPED_TRACE(testing::Message() << "backward cell " << dnnl_alg_kind2str(p.cell)
                                        << " dir " << dnnl_rnn_direction2str(p.dir) << " L"
                                        << p.L << " T" << p.T << " N" << p.N << " slc" << p.SLC
                                        << " dhc" << p.DHC << " dic" << p.dic());
        mds_t mds, dmds, none;
        make_mds(p, mds);
        make_mds(p, dmds);
        dnnl_primitive_desc_t fpd = nullptr, bpd = nullptr;
        ASSERT_EQ(create_pd(&fpd, engine, p, dnnl_forward_training, mds.c, none.c, nullptr),
                dnnl_success);
        ASSERT_EQ(create_pd(&bpd, engine, p, dnnl_backward, mds.c, dmds.c, fpd,
                          overwrite ? dnnl_rnn_flags_diff_weights_overwrite : 0),
                dnnl_success);
        const_dnnl_memory_desc_t ws_md = dnnl_primitive_desc_query_md(fpd, dnnl_query_workspace_md, 0);
        tensor_t ws(engine, ws_md);
        std::vector<std::unique_ptr<tensor_t>> t(NT), dt(NT);
        vec in[NT], dout[NT];
        std::vector<dnnl_exec_arg_t> fargs, bargs;
        for (int k = 0; k < NT; ++k) {
            if (!p.has(k)) continue;
            t[k] = std::make_unique<tensor_t>(engine, mds.c[k]);
            dt[k] = std::make_unique<tensor_t>(engine, dmds.c[k]);
            if (k < DL) {
                write_all(*t[k], input_values(p, k, 200 + k));
                in[k] = read_all(*t[k]);
                // Accumulation: diff weights start at one unless overwritten.
                if (k >= WL) write_all(*dt[k], vec(count(p.dims(k)), overwrite ? 7.0 : 1.0));
            } else {
                write_all(*dt[k], input_values(p, k, 300 + k));
                dout[k] = read_all(*dt[k]);
            }
            fargs.push_back({fwd_arg[k], t[k]->mem});
            bargs.push_back({fwd_arg[k], t[k]->mem});
            bargs.push_back({diff_arg[k], dt[k]->mem});
        }
        fargs.push_back({DNNL_ARG_WORKSPACE, ws.mem});
        bargs.push_back({DNNL_ARG_WORKSPACE, ws.mem});
        ASSERT_EQ(execute(fpd, fargs), dnnl_success);
        ASSERT_EQ(execute(bpd, bargs), dnnl_success);

        vec x[NT];
        for (int k = 0; k < DL; ++k)
            x[k] = in[k];
        for (int k = 0; k < DL; ++k) {
            if (!p.has(k)) continue;
            const vec got = read_all(*dt[k]);
            const double base = (k >= WL && !overwrite) ? 1.0 : 0.0;
            for (size_t i = 0; i < got.size(); ++i) {
                const double e = numeric_gradient(p, x, dout, k, i) + base;
                ASSERT_NEAR(got[i], e, rtol * std::fabs(e) + atol)
                        << "diff_" << slot_names[k] << " element " << i;
            }
        }
        dnnl_primitive_desc_destroy(bpd);
        dnnl_primitive_desc_destroy(fpd);
    }
};

const dnnl_alg_kind_t all_cells[] = {dnnl_vanilla_rnn, dnnl_vanilla_lstm, dnnl_vanilla_gru,
        dnnl_lbr_gru, dnnl_vanilla_augru, dnnl_lbr_augru};
const dnnl_rnn_direction_t all_dirs[] = {dnnl_unidirectional_left2right,
        dnnl_unidirectional_right2left, dnnl_bidirectional_concat, dnnl_bidirectional_sum};

// oneDNN defines AUGRU for one left-to-right layer only.
bool augru_cell(dnnl_alg_kind_t c) { return c == dnnl_vanilla_augru || c == dnnl_lbr_augru; }

TEST_F(rnn_test, forward_every_cell_and_direction_one_layer_odd_sizes) {
    for (auto cell : all_cells)
        for (auto dir : all_dirs) {
            if (augru_cell(cell) && dir != dnnl_unidirectional_left2right) continue;
            prob_t p;
            p.cell = cell;
            p.dir = dir;
            check_forward(p, dnnl_forward_inference);
            check_forward(p, dnnl_forward_training);
        }
}

TEST_F(rnn_test, forward_every_cell_and_direction_three_layers) {
    for (auto cell : all_cells)
        for (auto dir : all_dirs) {
            if (augru_cell(cell)) continue;
            prob_t p;
            p.cell = cell;
            p.dir = dir;
            p.L = 3;
            p.SLC = p.DHC = 6;
            p.T = 4;
            p.N = 3;
            check_forward(p, dnnl_forward_inference);
        }
}

TEST_F(rnn_test, forward_vanilla_activations) {
    for (auto act : {dnnl_eltwise_relu, dnnl_eltwise_tanh, dnnl_eltwise_logistic}) {
        prob_t p;
        p.cell = dnnl_vanilla_rnn;
        p.act = act;
        p.alpha = act == dnnl_eltwise_relu ? 0.25f : 0.f;
        p.L = 2;
        p.SLC = p.DHC = 9;
        check_forward(p, dnnl_forward_inference);
    }
}

TEST_F(rnn_test, forward_lstm_peephole_projection_optional_states) {
    for (bool peep : {false, true})
        for (int dic : {0, 4})
            for (bool states : {false, true}) {
                prob_t p;
                p.peephole = peep;
                p.proj_dic = dic;
                p.L = 2;
                p.DHC = 6;
                p.SLC = dic ? dic : 6;
                p.src_iter = p.src_iter_c = p.dst_iter = p.dst_iter_c = p.bias = states;
                p.dir = dnnl_bidirectional_concat;
                check_forward(p, dnnl_forward_training);
            }
}

TEST_F(rnn_test, forward_edge_shapes_t1_mb1_transposed_weights) {
    for (auto cell : all_cells) {
        prob_t p;
        p.cell = cell;
        p.T = 1;
        p.N = 1;
        p.SLC = 1;
        p.DHC = 17;
        check_forward(p, dnnl_forward_inference);
        p.T = 5;
        p.N = 1;
        p.ldgoi = true;
        p.src_iter = p.dst_iter = false;
        check_forward(p, dnnl_forward_inference);
    }
}

TEST_F(rnn_test, forward_bf16) {
    for (auto cell : {dnnl_vanilla_lstm, dnnl_vanilla_gru, dnnl_lbr_gru}) {
        prob_t p;
        p.cell = cell;
        p.dt = dnnl_bf16;
        p.dir = dnnl_bidirectional_sum;
        p.DHC = 20;
        p.SLC = 20;
        p.L = 2;
        check_forward(p, dnnl_forward_inference);
    }
}

// int8 inference: u8 or s8 data with a scale and shift, s8 weights with per-gate-column
// scales (or one), s8 projection weights with per-channel scales (or one); the reference
// runs on the dequantized values, int8 outputs may differ by one step.
struct int8_case_t {
    float scale = 64.f, shift = 128.f;
    bool weights_per_column = true, projection_per_channel = true;
};

struct rnn_int8_test : public rnn_test {
    void check_int8(const prob_t &p, const int8_case_t &q);
};

void rnn_int8_test::check_int8(const prob_t &p, const int8_case_t &q) {
    using c_tensor::make_md;
    const int64_t cols = p.G() * p.DHC, pcols = p.dic();
    std::vector<float> wscales(static_cast<size_t>(cols)), pscales(static_cast<size_t>(pcols));
    for (int64_t j = 0; j < cols; ++j)
        wscales[j] = q.weights_per_column ? 30.f + float(j % 7) : 31.f;
    for (int64_t j = 0; j < pcols; ++j)
        pscales[j] = q.projection_per_channel ? 100.f + float(j % 5) : 97.f;
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_rnn_data_qparams(attr, q.scale, q.shift), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_rnn_weights_qparams(attr, q.weights_per_column ? cols : 1,
                      q.weights_per_column ? 24 : 0, wscales.data()),
            dnnl_success);
    if (p.projection())
        ASSERT_EQ(dnnl_primitive_attr_set_rnn_weights_projection_qparams(attr,
                          q.projection_per_channel ? pcols : 1,
                          q.projection_per_channel ? 8 : 0, pscales.data()),
                dnnl_success);
    dnnl_memory_desc_t mds[NT] = {};
    const_dnnl_memory_desc_t m[NT] = {};
    for (int k = 0; k < NT; ++k)
        if (p.has(k)) m[k] = mds[k] = make_md(spec_t(p.dims(k), p.dt_of(k), p.tag_of(k)));
    const dnnl_prop_kind_t inf = dnnl_forward_inference;
    dnnl_primitive_desc_t pd = nullptr;
    const dnnl_status_t st = p.cell == dnnl_vanilla_lstm
            ? dnnl_lstm_forward_primitive_desc_create(&pd, engine, inf, p.dir, m[SL], m[SI],
                    m[SIC], m[WL], m[WI], nullptr, m[WPR], m[BIA], m[DL], m[DI], m[DIC], 0, attr)
            : p.cell == dnnl_vanilla_gru
            ? dnnl_gru_forward_primitive_desc_create(&pd, engine, inf, p.dir, m[SL], m[SI], m[WL],
                    m[WI], m[BIA], m[DL], m[DI], 0, attr)
            : dnnl_lbr_gru_forward_primitive_desc_create(&pd, engine, inf, p.dir, m[SL], m[SI],
                    m[WL], m[WI], m[BIA], m[DL], m[DI], 0, attr);
    dnnl_primitive_attr_destroy(attr);
    ASSERT_EQ(st, dnnl_success);
    const double qlo = p.dt == dnnl_s8 ? -128.0 : 0.0, qhi = p.dt == dnnl_s8 ? 127.0 : 255.0;
    std::vector<std::unique_ptr<tensor_t>> t(NT);
    vec in[NT];
    std::vector<dnnl_exec_arg_t> args;
    for (int k = 0; k < NT; ++k) {
        if (!p.has(k)) continue;
        t[k] = std::make_unique<tensor_t>(engine, m[k]);
        if (k < DL) {
            const dnnl_data_type_t dt = p.dt_of(k);
            const bool weights = k == WL || k == WI || k == WPR;
            // Data values around the shift (u8 [64, 192], s8 [-64, 64] + shift).
            vec v = weights ? random_values(count(p.dims(k)), 50 + k, -20, 20)
                    : dt == dnnl_u8 ? random_values(count(p.dims(k)), 50 + k, 64, 192)
                    : dt == dnnl_s8
                    ? random_values(count(p.dims(k)), 50 + k,
                            std::max(-128.0, double(q.shift) - 64),
                            std::min(127.0, double(q.shift) + 64))
                    : input_values(p, k, 50 + k);
            if (dt != dnnl_f32)
                for (auto &x : v)
                    x = std::round(x);
            write_all(*t[k], v);
            in[k] = read_all(*t[k]);
            for (size_t i = 0; i < in[k].size(); ++i) {
                if (k == WPR) in[k][i] /= pscales[i % size_t(pcols)];
                else if (weights) in[k][i] /= wscales[i % size_t(cols)];
                else if (dt == dnnl_u8 || dt == dnnl_s8) in[k][i] = (in[k][i] - q.shift) / q.scale;
            }
        }
        args.push_back({fwd_arg[k], t[k]->mem});
    }
    ASSERT_EQ(execute(pd, args), dnnl_success);
    const ref_out_t ref = ref_forward(p, in);
    for (int k : {DL, DI, DIC}) {
        if (!p.has(k)) continue;
        const vec got = read_all(*t[k]);
        for (size_t i = 0; i < got.size(); ++i) {
            double e = ref.v[k][i];
            if (p.dt_of(k) != dnnl_f32) {
                e = std::min(qhi, std::max(qlo, std::round(e * q.scale + q.shift)));
                ASSERT_NEAR(got[i], e, 1.0) << slot_names[k] << " element " << i;
            } else {
                ASSERT_NEAR(got[i], e, 1e-4 * std::fabs(e) + 1e-4)
                        << slot_names[k] << " element " << i;
            }
        }
    }
    dnnl_primitive_desc_destroy(pd);
    for (auto md : mds)
        if (md) dnnl_memory_desc_destroy(md);
}

TEST_F(rnn_int8_test, forward_int8_lstm_gru) {
    for (auto data : {dnnl_u8, dnnl_s8})
        for (auto cell : {dnnl_vanilla_lstm, dnnl_vanilla_gru, dnnl_lbr_gru})
            for (bool f32_dst : {false, true}) {
                prob_t p;
                p.cell = cell;
                p.dt = data;
                p.f32_dst = f32_dst;
                p.f32_iter = f32_dst && cell == dnnl_lbr_gru;
                p.L = 2;
                p.SLC = p.DHC = 10;
                p.dir = dnnl_bidirectional_concat;
                int8_case_t q;
                if (data == dnnl_s8) q.shift = 0.f;
                q.weights_per_column = !(f32_dst && cell == dnnl_vanilla_gru);
                SCOPED_TRACE(testing::Message() << dnnl_alg_kind2str(cell) << " "
                                                << dnnl_dt2str(data) << " f32 dst " << f32_dst);
                check_int8(p, q);
            }
}

// s8 data quantize with the shift as u8 data do (q = f * scale + shift), saturating at
// -128 and 127; odd sizes, one row, one step, every direction.
TEST_F(rnn_int8_test, forward_int8_s8_data_with_shift_every_direction) {
    for (auto dir : all_dirs) {
        prob_t p;
        p.cell = dnnl_vanilla_lstm;
        p.dt = dnnl_s8;
        p.dir = dir;
        p.T = 1;
        p.N = 1;
        p.SLC = 3;
        p.DHC = 5;
        int8_case_t q;
        q.scale = 50.f;
        q.shift = 10.f;
        SCOPED_TRACE(dnnl_rnn_direction2str(dir));
        check_int8(p, q);
        p.T = 4;
        p.N = 3;
        p.cell = dnnl_vanilla_gru;
        q.shift = -7.f;
        check_int8(p, q);
    }
}

// int8 LSTM with projection: s8 projection weights with one scale per output channel
// (mask 8) or one for all (mask 0), dic different from dhc.
TEST_F(rnn_int8_test, forward_int8_lstm_projection) {
    for (auto data : {dnnl_u8, dnnl_s8})
        for (bool per_channel : {true, false}) {
            prob_t p;
            p.cell = dnnl_vanilla_lstm;
            p.dt = data;
            p.L = 2;
            p.T = 3;
            p.N = 3;
            p.SLC = 6;
            p.DHC = 9;
            p.proj_dic = 6;
            p.dir = per_channel ? dnnl_bidirectional_sum : dnnl_unidirectional_right2left;
            p.f32_dst = !per_channel;
            int8_case_t q;
            if (data == dnnl_s8) q.shift = 0.f;
            q.projection_per_channel = per_channel;
            SCOPED_TRACE(testing::Message()
                    << dnnl_dt2str(data) << " per-channel projection scales " << per_channel);
            check_int8(p, q);
        }
}

// What int8 RNN does not take: f32 projection weights, projection scales of another count
// or mask, training, vanilla cells; each refused with a reason.
TEST_F(rnn_int8_test, int8_refusals) {
    using c_tensor::make_md;
    prob_t p;
    p.cell = dnnl_vanilla_lstm;
    p.dt = dnnl_s8;
    p.DHC = 4;
    p.SLC = 4;
    p.proj_dic = 3;
    auto status = [&](dnnl_data_type_t wpr_dt, int pmask, int64_t pcount,
                          dnnl_prop_kind_t prop) {
        dnnl_primitive_attr_t attr = nullptr;
        EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
        EXPECT_EQ(dnnl_primitive_attr_set_rnn_data_qparams(attr, 64.f, 0.f), dnnl_success);
        const std::vector<float> sc(size_t(std::max<int64_t>(pcount, 1)), 90.f);
        EXPECT_EQ(dnnl_primitive_attr_set_rnn_weights_projection_qparams(
                          attr, pcount, pmask, sc.data()),
                dnnl_success);
        dnnl_memory_desc_t mds[NT] = {};
        for (int k = 0; k < NT; ++k)
            if (p.has(k))
                mds[k] = make_md(spec_t(p.dims(k), k == WPR ? wpr_dt : p.dt_of(k), p.tag_of(k)));
        dnnl_primitive_desc_t pd = nullptr;
        const dnnl_status_t st = dnnl_lstm_forward_primitive_desc_create(&pd, engine, prop,
                p.dir, mds[SL], mds[SI], mds[SIC], mds[WL], mds[WI], nullptr, mds[WPR],
                mds[BIA], mds[DL], mds[DI], mds[DIC], 0, attr);
        dnnl_primitive_desc_destroy(pd);
        dnnl_primitive_attr_destroy(attr);
        for (auto md : mds)
            if (md) dnnl_memory_desc_destroy(md);
        return st;
    };
    EXPECT_EQ(status(dnnl_s8, 8, 3, dnnl_forward_inference), dnnl_success);
    EXPECT_EQ(status(dnnl_s8, 0, 1, dnnl_forward_inference), dnnl_success);
    EXPECT_EQ(status(dnnl_f32, 0, 1, dnnl_forward_inference), dnnl_unimplemented);
    EXPECT_EQ(status(dnnl_s8, 8, 2, dnnl_forward_inference), dnnl_unimplemented);
    EXPECT_EQ(status(dnnl_s8, 24, 3, dnnl_forward_inference), dnnl_unimplemented);
    EXPECT_EQ(status(dnnl_s8, 0, 1, dnnl_forward_training), dnnl_unimplemented);
}

TEST_F(rnn_test, backward_every_cell_and_direction) {
    for (auto cell : all_cells)
        for (auto dir : all_dirs) {
            if (augru_cell(cell) && dir != dnnl_unidirectional_left2right) continue;
            prob_t p;
            p.cell = cell;
            p.dir = dir;
            p.L = augru_cell(cell) ? 1 : 2;
            p.T = 3;
            p.N = 2;
            p.SLC = p.DHC = 3;
            check_backward(p);
        }
}

TEST_F(rnn_test, backward_lstm_peephole_projection_overwrite) {
    prob_t p;
    p.peephole = true;
    p.proj_dic = 2;
    p.DHC = 3;
    p.SLC = 2;
    p.L = 2;
    p.dir = dnnl_bidirectional_concat;
    check_backward(p);
    check_backward(p, true);
    p.src_iter = p.src_iter_c = p.dst_iter = p.dst_iter_c = p.bias = false;
    p.dir = dnnl_unidirectional_right2left;
    check_backward(p);
}

// bf16 data with bf16 weight gradients (oneDNN's bf16 training): the gradients accumulate in
// f32 onto the tensors' old values (or zeros with overwrite) and are rounded once; bias and
// peephole gradients stay f32.
TEST_F(rnn_test, backward_bf16_weight_gradients) {
    for (auto cell : {dnnl_vanilla_rnn, dnnl_vanilla_lstm, dnnl_vanilla_gru, dnnl_lbr_gru}) {
        prob_t p;
        p.cell = cell;
        p.dt = dnnl_bf16;
        p.dir = dnnl_bidirectional_concat;
        p.L = 2;
        p.T = 3;
        p.N = 2;
        p.SLC = p.DHC = 3;
        check_backward(p, false, 2e-2, 2e-2);
        check_backward(p, true, 2e-2, 2e-2);
    }
    prob_t lstm;
    lstm.dt = dnnl_bf16;
    lstm.peephole = true;
    lstm.proj_dic = 2;
    lstm.DHC = 3;
    lstm.SLC = 5;
    lstm.T = 1;
    lstm.N = 1;
    check_backward(lstm, false, 2e-2, 2e-2);
}

// f16 data and weights (f32 math, f32 bias and cell states), forward and backward.
TEST_F(rnn_test, f16_forward_and_backward) {
    for (auto cell : {dnnl_vanilla_rnn, dnnl_vanilla_lstm, dnnl_vanilla_gru, dnnl_lbr_gru}) {
        prob_t p;
        p.cell = cell;
        p.dt = dnnl_f16;
        p.dir = dnnl_bidirectional_sum;
        p.L = 2;
        p.T = 3;
        p.N = 2;
        p.SLC = p.DHC = 5;
        check_forward(p, dnnl_forward_inference);
        check_forward(p, dnnl_forward_training);
        check_backward(p, false, 5e-3, 5e-3);
    }
}

TEST_F(rnn_test, backward_vanilla_activations_odd_sizes) {
    for (auto act : {dnnl_eltwise_relu, dnnl_eltwise_tanh, dnnl_eltwise_logistic}) {
        prob_t p;
        p.cell = dnnl_vanilla_rnn;
        p.act = act;
        p.alpha = act == dnnl_eltwise_relu ? 0.5f : 0.f;
        p.T = 1;
        p.N = 1;
        p.SLC = 5;
        p.DHC = 3;
        p.ldgoi = true;
        check_backward(p);
    }
}

TEST_F(rnn_test, queries_follow_onednn_numbering) {
    prob_t p;
    p.peephole = true;
    p.proj_dic = 4;
    p.SLC = 5;
    mds_t mds, none;
    make_mds(p, mds);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(create_pd(&pd, engine, p, dnnl_forward_inference, mds.c, none.c, nullptr),
            dnnl_success);
    auto dims_of = [&](dnnl_query_t q, int i) {
        const_dnnl_memory_desc_t md = dnnl_primitive_desc_query_md(pd, q, i);
        int nd = 0;
        dnnl_memory_desc_query(md, dnnl_query_ndims_s32, &nd);
        return nd;
    };
    EXPECT_EQ(dims_of(dnnl_query_src_md, 0), 3);
    EXPECT_EQ(dims_of(dnnl_query_src_md, 1), 4);
    EXPECT_EQ(dims_of(dnnl_query_src_md, 2), 4);
    EXPECT_EQ(dims_of(dnnl_query_weights_md, 0), 5);
    EXPECT_EQ(dims_of(dnnl_query_weights_md, 1), 5);
    EXPECT_EQ(dims_of(dnnl_query_weights_md, 2), 4); // peephole
    EXPECT_EQ(dims_of(dnnl_query_weights_md, 3), 4); // projection
    EXPECT_EQ(dims_of(dnnl_query_weights_md, 4), 4); // bias
    EXPECT_EQ(dims_of(dnnl_query_weights_md, 5), 0);
    EXPECT_EQ(dims_of(dnnl_query_dst_md, 2), 4);
    EXPECT_EQ(dims_of(dnnl_query_workspace_md, 0), 0);
    dnnl_alg_kind_t cell = dnnl_alg_kind_undef;
    EXPECT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_cell_kind, 0, &cell), dnnl_success);
    EXPECT_EQ(cell, dnnl_vanilla_lstm);
    dnnl_primitive_desc_destroy(pd);

    // Without peephole and projection the bias is weights 2.
    prob_t g;
    g.cell = dnnl_vanilla_gru;
    mds_t gm;
    make_mds(g, gm);
    ASSERT_EQ(create_pd(&pd, engine, g, dnnl_forward_inference, gm.c, none.c, nullptr),
            dnnl_success);
    EXPECT_EQ(dims_of(dnnl_query_weights_md, 2), 4);
    EXPECT_EQ(dims_of(dnnl_query_weights_md, 3), 0);
    dnnl_primitive_desc_destroy(pd);
}

TEST_F(rnn_test, format_any_resolves_to_plain) {
    prob_t p;
    p.cell = dnnl_vanilla_gru;
    mds_t mds, none;
    for (int k = 0; k < NT; ++k)
        if (p.has(k)) mds.c[k] = mds.m[k] = make_md(spec_t(p.dims(k), dnnl_f32, dnnl_format_tag_any));
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(create_pd(&pd, engine, p, dnnl_forward_training, mds.c, none.c, nullptr),
            dnnl_success);
    dnnl_memory_desc_t ldigo = make_md(spec_t(p.dims(WL), dnnl_f32, dnnl_ldigo));
    EXPECT_EQ(dnnl_memory_desc_equal(
                      dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0), ldigo),
            1);
    dnnl_memory_desc_destroy(ldigo);
    dnnl_primitive_desc_destroy(pd);
}

// oneDNN lets src_iter (and weights_iter) have other channels than the state for one time
// step, LSTM and vanilla RNN: a first step fed by another model's state.
TEST_F(rnn_test, forward_src_iter_channels_differ_from_state_one_step) {
    for (auto cell : {dnnl_vanilla_lstm, dnnl_vanilla_rnn})
        for (int64_t sic : {1, 3, 11})
            for (auto dir : {dnnl_unidirectional_left2right, dnnl_bidirectional_concat}) {
                prob_t p;
                p.cell = cell;
                p.dir = dir;
                p.T = 1;
                p.N = 3;
                p.sic = sic;
                check_forward(p, dnnl_forward_inference);
                check_forward(p, dnnl_forward_training);
                p.L = 2; // stacked: layer 2 reads layer 1's output, its own src_iter
                p.SLC = p.DHC;
                check_forward(p, dnnl_forward_inference);
            }
    prob_t proj; // LSTM with projection: sic against the projected size
    proj.T = 1;
    proj.DHC = 6;
    proj.proj_dic = 4;
    proj.sic = 9;
    proj.peephole = true;
    check_forward(proj, dnnl_forward_training);
}

TEST_F(rnn_test, src_iter_channels_differing_from_state_are_refused_where_onednn_does) {
    auto status = [&](const prob_t &p, dnnl_prop_kind_t prop) {
        mds_t mds, none;
        make_mds(p, mds);
        dnnl_primitive_desc_t q = nullptr;
        dnnl_status_t st = create_pd(&q, engine, p, prop, mds.c, none.c, nullptr);
        if (q) dnnl_primitive_desc_destroy(q);
        return st;
    };
    prob_t p;
    p.sic = 4;
    p.T = 2; // the state of step 1 would feed step 2 with other channels
    EXPECT_EQ(status(p, dnnl_forward_inference), dnnl_invalid_arguments);
    p.T = 1;
    EXPECT_EQ(status(p, dnnl_forward_inference), dnnl_success);
    for (auto cell : {dnnl_vanilla_gru, dnnl_lbr_gru}) { // GRU blends the old state in
        prob_t g = p;
        g.cell = cell;
        EXPECT_EQ(status(g, dnnl_forward_inference), dnnl_invalid_arguments);
    }
}

// Backward of one step whose src_iter has other channels than the state (sic != dic): the
// gradients of src_iter and weights_iter have sic channels (central differences of the
// reference), every direction, two layers, projection and peephole, more and fewer channels.
TEST_F(rnn_test, backward_src_iter_channels_differing_from_state) {
    for (int64_t sic : {11, 3, 1})
        for (auto dir : {dnnl_unidirectional_left2right, dnnl_unidirectional_right2left,
                     dnnl_bidirectional_concat, dnnl_bidirectional_sum}) {
            prob_t p;
            p.T = 1;
            p.sic = sic;
            p.dir = dir;
            check_backward(p);
            prob_t v = p;
            v.cell = dnnl_vanilla_rnn;
            v.act = dnnl_eltwise_logistic;
            check_backward(v);
        }
    prob_t p;
    p.T = 1;
    p.L = 2;
    p.SLC = 7; // layers above read the state: SLC = DIC for L > 1
    p.sic = 5;
    p.N = 3;
    check_backward(p);
    check_backward(p, true);
    prob_t proj;
    proj.T = 1;
    proj.SLC = 4;
    proj.proj_dic = 4;
    proj.sic = 9;
    proj.peephole = true;
    check_backward(proj);
    prob_t bare = proj; // no src_iter given: zero state of sic channels, no diff_src_iter
    bare.src_iter = bare.src_iter_c = false;
    check_backward(bare);
}

TEST_F(rnn_test, bad_arguments_are_rejected) {
    dnnl_primitive_desc_t pd = nullptr;
    // Null descriptors: invalid, pd set to null.
    pd = reinterpret_cast<dnnl_primitive_desc_t>(&engine);
    EXPECT_EQ(dnnl_vanilla_rnn_forward_primitive_desc_create(&pd, engine, dnnl_forward_inference,
                      dnnl_eltwise_tanh, dnnl_unidirectional_left2right, nullptr, nullptr,
                      nullptr, nullptr, nullptr, nullptr, nullptr, 0, 0.f, 0.f, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(pd, nullptr);

    auto expect_status = [&](prob_t p, dnnl_status_t want, std::function<void(mds_t &)> edit,
                                 dnnl_prop_kind_t prop = dnnl_forward_inference) {
        mds_t mds, none;
        make_mds(p, mds);
        edit(mds);
        dnnl_primitive_desc_t q = nullptr;
        EXPECT_EQ(create_pd(&q, engine, p, prop, mds.c, none.c, nullptr), want);
        if (q) dnnl_primitive_desc_destroy(q);
    };
    prob_t p;
    auto remake = [&](mds_t &m, int k, dims_t dims, dnnl_data_type_t dt = dnnl_f32) {
        if (m.m[k]) dnnl_memory_desc_destroy(m.m[k]);
        m.c[k] = m.m[k] = make_md(spec_t(dims, dt, dnnl_format_tag_undef));
    };
    expect_status(p, dnnl_invalid_arguments, [&](mds_t &m) { remake(m, SL, {3, 2, 4}); });
    expect_status(p, dnnl_invalid_arguments, [&](mds_t &m) { remake(m, DL, {3, 2, 14}); });
    expect_status(p, dnnl_invalid_arguments, [&](mds_t &m) { remake(m, SI, {1, 1, 3, 7}); });
    expect_status(p, dnnl_invalid_arguments, [&](mds_t &m) { remake(m, WL, {1, 1, 5, 3, 7}); });
    expect_status(p, dnnl_invalid_arguments, [&](mds_t &m) { remake(m, WI, {1, 1, 6, 4, 7}); });
    expect_status(p, dnnl_invalid_arguments, [&](mds_t &m) { remake(m, BIA, {1, 1, 4}); });
    expect_status(p, dnnl_invalid_arguments, [&](mds_t &m) { remake(m, DIC, {1, 1, 2, 6}); });
    expect_status(p, dnnl_invalid_arguments, [&](mds_t &m) { m.c[WL] = nullptr; });
    expect_status(p, dnnl_invalid_arguments, [&](mds_t &) {}, dnnl_backward);
    // Unidirectional weights with a bidirectional direction.
    prob_t b = p;
    b.dir = dnnl_bidirectional_sum;
    expect_status(b, dnnl_invalid_arguments, [&](mds_t &m) { remake(m, WL, {1, 1, 5, 4, 7}); });
    // Multi-layer needs slc == dic.
    prob_t ml = p;
    ml.L = 2;
    expect_status(ml, dnnl_invalid_arguments, [&](mds_t &) {});
    // AUGRU without attention, right to left, or with two layers.
    prob_t au;
    au.cell = dnnl_vanilla_augru;
    expect_status(au, dnnl_invalid_arguments, [&](mds_t &m) { m.c[ATT] = nullptr; });
    au.dir = dnnl_unidirectional_right2left;
    expect_status(au, dnnl_invalid_arguments, [&](mds_t &) {});
    au.dir = dnnl_unidirectional_left2right;
    au.L = 2;
    au.SLC = au.DHC;
    expect_status(au, dnnl_invalid_arguments, [&](mds_t &) {});
    // Unsupported data type reported as unimplemented.
    expect_status(p, dnnl_unimplemented, [&](mds_t &m) {
        remake(m, SL, {3, 2, 5}, dnnl_f64);
    });
    // Vanilla RNN with an activation it does not have.
    mds_t m;
    prob_t v;
    v.cell = dnnl_vanilla_rnn;
    make_mds(v, m);
    EXPECT_EQ(dnnl_vanilla_rnn_forward_primitive_desc_create(&pd, engine,
                      dnnl_forward_inference, dnnl_eltwise_gelu_erf,
                      dnnl_unidirectional_left2right, m.c[SL], m.c[SI], m.c[WL], m.c[WI],
                      m.c[BIA], m.c[DL], m.c[DI], 0, 0.f, 0.f, nullptr),
            dnnl_invalid_arguments);
    // Unknown flags, and a backward without hint.
    EXPECT_EQ(dnnl_vanilla_rnn_forward_primitive_desc_create(&pd, engine,
                      dnnl_forward_inference, dnnl_eltwise_tanh,
                      dnnl_unidirectional_left2right, m.c[SL], m.c[SI], m.c[WL], m.c[WI],
                      m.c[BIA], m.c[DL], m.c[DI], 0x10, 0.f, 0.f, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(create_pd(&pd, engine, v, dnnl_backward, m.c, m.c, nullptr),
            dnnl_invalid_arguments);
    // A backward whose hint is an inference pd has no workspace to read.
    dnnl_primitive_desc_t ipd = nullptr;
    ASSERT_EQ(create_pd(&ipd, engine, v, dnnl_forward_inference, m.c, m.c, nullptr),
            dnnl_success);
    EXPECT_EQ(create_pd(&pd, engine, v, dnnl_backward, m.c, m.c, ipd), dnnl_unimplemented);
    dnnl_primitive_desc_destroy(ipd);
    // Executing without a required argument fails cleanly.
    ASSERT_EQ(create_pd(&pd, engine, v, dnnl_forward_inference, m.c, m.c, nullptr),
            dnnl_success);
    EXPECT_EQ(execute(pd, {}), dnnl_invalid_arguments);
    dnnl_primitive_desc_destroy(pd);
}

} // namespace
