// The GPU engine's RNN (every cell kind, direction, layer count; forward training and
// backward from its workspace) against the CPU engine's, which tests/primitives checks
// against references: same problem, same inputs, outputs within a tolerance. Skipped
// without an OpenCL device.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_debug.h"

namespace {

struct problem_t {
    const char *name;
    dnnl_alg_kind_t cell;
    dnnl_rnn_direction_t dir;
    int64_t L, T, N, SLC, DHC, DIC;
    bool peephole = false, projection = false;
    dnnl_alg_kind_t act = dnnl_eltwise_tanh;
    float alpha = 0.f;
    unsigned flags = 0;
    dnnl_data_type_t dt = dnnl_f32;
    dnnl_format_tag_t wtag = dnnl_ldigo; // weights layer and iter, and their gradients
};

int64_t gates_of(dnnl_alg_kind_t cell) {
    switch (cell) {
        case dnnl_vanilla_rnn: return 1;
        case dnnl_vanilla_lstm: return 4;
        default: return 3;
    }
}

bool lbr(dnnl_alg_kind_t cell) { return cell == dnnl_lbr_gru || cell == dnnl_lbr_augru; }

// The descriptors of one problem (null where a tensor is absent).
struct mds_t {
    dnnl_memory_desc_t src_layer = nullptr, src_iter = nullptr, src_iter_c = nullptr,
                       att = nullptr, wl = nullptr, wi = nullptr, wpeep = nullptr,
                       wproj = nullptr, bias = nullptr, dst_layer = nullptr,
                       dst_iter = nullptr, dst_iter_c = nullptr;

    explicit mds_t(const problem_t &p, bool weights_f32 = false) {
        const int64_t D = p.dir == dnnl_bidirectional_concat || p.dir == dnnl_bidirectional_sum
                ? 2
                : 1;
        const int64_t G = gates_of(p.cell), DLC = p.dir == dnnl_bidirectional_concat
                ? 2 * p.DIC
                : p.DIC;
        const dnnl_data_type_t wdt = weights_f32 ? dnnl_f32 : p.dt;
        make(src_layer, {p.T, p.N, p.SLC}, p.dt, dnnl_tnc);
        make(src_iter, {p.L, D, p.N, p.DIC}, p.dt, dnnl_ldnc);
        if (p.cell == dnnl_vanilla_lstm) {
            make(src_iter_c, {p.L, D, p.N, p.DHC}, dnnl_f32, dnnl_ldnc);
            make(dst_iter_c, {p.L, D, p.N, p.DHC}, dnnl_f32, dnnl_ldnc);
        }
        if (p.cell == dnnl_vanilla_augru || p.cell == dnnl_lbr_augru)
            make(att, {p.T, p.N, 1}, p.dt, dnnl_tnc);
        make(wl, {p.L, D, p.SLC, G, p.DHC}, wdt, p.wtag);
        make(wi, {p.L, D, p.DIC, G, p.DHC}, wdt, p.wtag);
        if (p.peephole) make(wpeep, {p.L, D, 3, p.DHC}, dnnl_f32, dnnl_ldgo);
        if (p.projection) make(wproj, {p.L, D, p.DHC, p.DIC}, wdt, dnnl_ldio);
        make(bias, {p.L, D, G + (lbr(p.cell) ? 1 : 0), p.DHC}, dnnl_f32, dnnl_ldgo);
        make(dst_layer, {p.T, p.N, DLC}, p.dt, dnnl_tnc);
        make(dst_iter, {p.L, D, p.N, p.DIC}, p.dt, dnnl_ldnc);
    }
    ~mds_t() {
        for (dnnl_memory_desc_t m : {src_layer, src_iter, src_iter_c, att, wl, wi, wpeep, wproj,
                     bias, dst_layer, dst_iter, dst_iter_c})
            dnnl_memory_desc_destroy(m);
    }
    mds_t(const mds_t &) = delete;
    mds_t &operator=(const mds_t &) = delete;

private:
    static void make(dnnl_memory_desc_t &m, std::vector<int64_t> dims, dnnl_data_type_t dt,
            dnnl_format_tag_t tag) {
        ASSERT_EQ(dnnl_memory_desc_create_with_tag(
                          &m, int(dims.size()), dims.data(), dt, tag),
                dnnl_success);
    }
};

dnnl_status_t make_fwd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng, const problem_t &p,
        const mds_t &m, dnnl_prop_kind_t prop) {
    switch (p.cell) {
        case dnnl_vanilla_rnn:
            return dnnl_vanilla_rnn_forward_primitive_desc_create(pd, eng, prop, p.act, p.dir,
                    m.src_layer, m.src_iter, m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter,
                    p.flags, p.alpha, 0.f, nullptr);
        case dnnl_vanilla_lstm:
            return dnnl_lstm_forward_primitive_desc_create(pd, eng, prop, p.dir, m.src_layer,
                    m.src_iter, m.src_iter_c, m.wl, m.wi, m.wpeep, m.wproj, m.bias, m.dst_layer,
                    m.dst_iter, m.dst_iter_c, p.flags, nullptr);
        case dnnl_vanilla_gru:
            return dnnl_gru_forward_primitive_desc_create(pd, eng, prop, p.dir, m.src_layer,
                    m.src_iter, m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter, p.flags, nullptr);
        case dnnl_lbr_gru:
            return dnnl_lbr_gru_forward_primitive_desc_create(pd, eng, prop, p.dir,
                    m.src_layer, m.src_iter, m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter,
                    p.flags, nullptr);
        case dnnl_vanilla_augru:
            return dnnl_augru_forward_primitive_desc_create(pd, eng, prop, p.dir, m.src_layer,
                    m.src_iter, m.att, m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter, p.flags,
                    nullptr);
        default:
            return dnnl_lbr_augru_forward_primitive_desc_create(pd, eng, prop, p.dir,
                    m.src_layer, m.src_iter, m.att, m.wl, m.wi, m.bias, m.dst_layer,
                    m.dst_iter, p.flags, nullptr);
    }
}

// Gradients have the forward tensors' descriptors (f32 diff weights).
dnnl_status_t make_bwd(dnnl_primitive_desc_t *pd, dnnl_engine_t eng, const problem_t &p,
        const mds_t &m, const mds_t &g, const_dnnl_primitive_desc_t hint) {
    const dnnl_prop_kind_t prop = dnnl_backward;
    switch (p.cell) {
        case dnnl_vanilla_rnn:
            return dnnl_vanilla_rnn_backward_primitive_desc_create(pd, eng, prop, p.act, p.dir,
                    m.src_layer, m.src_iter, m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter,
                    g.src_layer, g.src_iter, g.wl, g.wi, g.bias, g.dst_layer, g.dst_iter,
                    p.flags, p.alpha, 0.f, hint, nullptr);
        case dnnl_vanilla_lstm:
            return dnnl_lstm_backward_primitive_desc_create(pd, eng, prop, p.dir, m.src_layer,
                    m.src_iter, m.src_iter_c, m.wl, m.wi, m.wpeep, m.wproj, m.bias, m.dst_layer,
                    m.dst_iter, m.dst_iter_c, g.src_layer, g.src_iter, g.src_iter_c, g.wl, g.wi,
                    g.wpeep, g.wproj, g.bias, g.dst_layer, g.dst_iter, g.dst_iter_c, p.flags,
                    hint, nullptr);
        case dnnl_vanilla_gru:
            return dnnl_gru_backward_primitive_desc_create(pd, eng, prop, p.dir, m.src_layer,
                    m.src_iter, m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter, g.src_layer,
                    g.src_iter, g.wl, g.wi, g.bias, g.dst_layer, g.dst_iter, p.flags, hint,
                    nullptr);
        case dnnl_lbr_gru:
            return dnnl_lbr_gru_backward_primitive_desc_create(pd, eng, prop, p.dir,
                    m.src_layer, m.src_iter, m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter,
                    g.src_layer, g.src_iter, g.wl, g.wi, g.bias, g.dst_layer, g.dst_iter,
                    p.flags, hint, nullptr);
        case dnnl_vanilla_augru:
            return dnnl_augru_backward_primitive_desc_create(pd, eng, prop, p.dir, m.src_layer,
                    m.src_iter, m.att, m.wl, m.wi, m.bias, m.dst_layer, m.dst_iter, g.src_layer,
                    g.src_iter, g.att, g.wl, g.wi, g.bias, g.dst_layer, g.dst_iter, p.flags,
                    hint, nullptr);
        default:
            return dnnl_lbr_augru_backward_primitive_desc_create(pd, eng, prop, p.dir,
                    m.src_layer, m.src_iter, m.att, m.wl, m.wi, m.bias, m.dst_layer,
                    m.dst_iter, g.src_layer, g.src_iter, g.att, g.wl, g.wi, g.bias,
                    g.dst_layer, g.dst_iter, p.flags, hint, nullptr);
    }
}

const int fwd_args[] = {DNNL_ARG_SRC_LAYER, DNNL_ARG_SRC_ITER, DNNL_ARG_SRC_ITER_C,
        DNNL_ARG_AUGRU_ATTENTION, DNNL_ARG_WEIGHTS_LAYER, DNNL_ARG_WEIGHTS_ITER,
        DNNL_ARG_WEIGHTS_PEEPHOLE, DNNL_ARG_WEIGHTS_PROJECTION, DNNL_ARG_BIAS,
        DNNL_ARG_DST_LAYER, DNNL_ARG_DST_ITER, DNNL_ARG_DST_ITER_C};
const int fwd_outputs[] = {DNNL_ARG_DST_LAYER, DNNL_ARG_DST_ITER, DNNL_ARG_DST_ITER_C};
const int bwd_outputs[] = {DNNL_ARG_DIFF_SRC_LAYER, DNNL_ARG_DIFF_SRC_ITER,
        DNNL_ARG_DIFF_SRC_ITER_C, DNNL_ARG_DIFF_AUGRU_ATTENTION, DNNL_ARG_DIFF_WEIGHTS_LAYER,
        DNNL_ARG_DIFF_WEIGHTS_ITER, DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE,
        DNNL_ARG_DIFF_WEIGHTS_PROJECTION, DNNL_ARG_DIFF_BIAS};
const int bwd_inputs[] = {DNNL_ARG_DIFF_DST_LAYER, DNNL_ARG_DIFF_DST_ITER,
        DNNL_ARG_DIFF_DST_ITER_C};

// Deterministic values in [-0.5, 0.5), smaller for weights (gates stay off saturation);
// attention in [0, 1).
float value_of(int arg, size_t i) {
    const float v = 0.5f * std::sin(0.71f * float(i) + 1.37f * float(arg));
    if (arg == DNNL_ARG_AUGRU_ATTENTION) return v + 0.5f;
    const bool weights = arg == DNNL_ARG_WEIGHTS_LAYER || arg == DNNL_ARG_WEIGHTS_ITER
            || arg == DNNL_ARG_WEIGHTS_PROJECTION || arg == DNNL_ARG_WEIGHTS_PEEPHOLE;
    return weights ? 0.6f * v : v;
}

size_t dt_size(dnnl_data_type_t dt) { return dt == dnnl_f32 ? 4 : dt == dnnl_u8 ? 1 : 2; }

// The memories of one execution by argument, destroyed with it.
struct memories_t {
    std::map<int, dnnl_memory_t> mem;
    ~memories_t() {
        for (auto &m : mem) dnnl_memory_destroy(m.second);
    }
    std::vector<float> read(int arg) const {
        std::vector<float> out;
        const dnnl_memory_t m = mem.at(arg);
        const_dnnl_memory_desc_t md = nullptr;
        dnnl_memory_get_memory_desc(m, &md);
        dnnl_data_type_t dt = dnnl_data_type_undef;
        dnnl_memory_desc_query(md, dnnl_query_data_type, &dt);
        const size_t n = dnnl_memory_desc_get_size(md) / dt_size(dt);
        void *p = nullptr;
        EXPECT_EQ(dnnl_memory_map_data(m, &p), dnnl_success);
        for (size_t i = 0; i < n; ++i) {
            if (dt == dnnl_f32) {
                out.push_back(static_cast<const float *>(p)[i]);
            } else {
                const uint32_t u = uint32_t(static_cast<const uint16_t *>(p)[i]) << 16;
                float v;
                std::memcpy(&v, &u, 4);
                out.push_back(v);
            }
        }
        EXPECT_EQ(dnnl_memory_unmap_data(m, p), dnnl_success);
        return out;
    }
};

// Creates and fills a memory of every argument of pd in `args` (outputs too: gradients
// accumulate), takes `ws` as the workspace when given, and executes.
void execute(dnnl_engine_t eng, const_dnnl_primitive_desc_t pd, std::vector<int> args,
        memories_t &m, dnnl_memory_t ws = nullptr) {
    for (int arg : args) {
        const_dnnl_memory_desc_t md = dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
        if (!md || dnnl_memory_desc_get_size(md) == 0) continue;
        dnnl_memory_t mem = nullptr;
        ASSERT_EQ(dnnl_memory_create(&mem, md, eng, DNNL_MEMORY_ALLOCATE), dnnl_success);
        m.mem[arg] = mem;
        if (arg == DNNL_ARG_WORKSPACE) continue;
        dnnl_data_type_t dt = dnnl_data_type_undef;
        dnnl_memory_desc_query(md, dnnl_query_data_type, &dt);
        const size_t n = dnnl_memory_desc_get_size(md) / dt_size(dt);
        void *p = nullptr;
        ASSERT_EQ(dnnl_memory_map_data(mem, &p), dnnl_success);
        for (size_t i = 0; i < n; ++i) {
            const float v = value_of(arg, i);
            if (dt == dnnl_f32) {
                static_cast<float *>(p)[i] = v;
            } else {
                uint32_t u;
                std::memcpy(&u, &v, 4);
                static_cast<uint16_t *>(p)[i] = uint16_t(u >> 16);
            }
        }
        ASSERT_EQ(dnnl_memory_unmap_data(mem, p), dnnl_success);
    }
    std::vector<dnnl_exec_arg_t> exec;
    for (auto &a : m.mem) exec.push_back({a.first, a.second});
    if (ws) exec.push_back({DNNL_ARG_WORKSPACE, ws});
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_stream_create(&s, eng, dnnl_stream_default_flags), dnnl_success);
    dnnl_primitive_t prim = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
    EXPECT_EQ(dnnl_primitive_execute(prim, s, int(exec.size()), exec.data()), dnnl_success);
    EXPECT_EQ(dnnl_stream_wait(s), dnnl_success);
    dnnl_primitive_destroy(prim);
    dnnl_stream_destroy(s);
}

void expect_close(const memories_t &cpu, const memories_t &gpu, int arg, float tol) {
    if (!cpu.mem.count(arg)) return;
    SCOPED_TRACE("argument " + std::to_string(arg));
    ASSERT_TRUE(gpu.mem.count(arg));
    const std::vector<float> want = cpu.read(arg), got = gpu.read(arg);
    ASSERT_EQ(want.size(), got.size());
    int bad = 0;
    for (size_t i = 0; i < want.size() && bad < 5; ++i)
        if (!(std::fabs(got[i] - want[i]) <= tol * std::max(1.f, std::fabs(want[i])))) {
            ADD_FAILURE() << "element " << i << ": gpu " << got[i] << " cpu " << want[i];
            ++bad;
        }
}

std::string impl_name(const_dnnl_primitive_desc_t pd) {
    const char *name = nullptr;
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
    return name ? name : "";
}

// One engine's forward training and backward runs of p.
struct engine_run_t {
    memories_t fwd, bwd;
};

void run_on(dnnl_engine_t eng, const problem_t &p, bool backward, engine_run_t &r,
        bool gpu) {
    mds_t m(p), g(p, true);
    const dnnl_prop_kind_t prop = backward ? dnnl_forward_training : dnnl_forward_inference;
    dnnl_primitive_desc_t fpd = nullptr;
    ASSERT_EQ(make_fwd(&fpd, eng, p, m, prop), dnnl_success);
    if (gpu) {
        EXPECT_EQ(impl_name(fpd), "ocl:rnn:gemm");
    }
    std::vector<int> args(std::begin(fwd_args), std::end(fwd_args));
    if (backward) args.push_back(DNNL_ARG_WORKSPACE);
    execute(eng, fpd, args, r.fwd);
    if (backward) {
        dnnl_primitive_desc_t bpd = nullptr;
        ASSERT_EQ(make_bwd(&bpd, eng, p, m, g, fpd), dnnl_success);
        if (gpu) {
            EXPECT_EQ(impl_name(bpd), "ocl:rnn:gemm");
        }
        std::vector<int> bargs(std::begin(fwd_args), std::end(fwd_args));
        bargs.insert(bargs.end(), std::begin(bwd_inputs), std::end(bwd_inputs));
        bargs.insert(bargs.end(), std::begin(bwd_outputs), std::end(bwd_outputs));
        execute(eng, bpd, bargs, r.bwd, r.fwd.mem.at(DNNL_ARG_WORKSPACE));
        dnnl_primitive_desc_destroy(bpd);
    }
    dnnl_primitive_desc_destroy(fpd);
}

void check(const problem_t &p, bool backward) {
    dnnl_engine_t cpu = nullptr, gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    {
        engine_run_t c, g;
        run_on(cpu, p, backward, c, false);
        run_on(gpu, p, backward, g, true);
        const float tol = p.dt == dnnl_f32 ? 2e-5f : 1e-2f;
        for (int a : fwd_outputs) expect_close(c.fwd, g.fwd, a, tol);
        if (backward)
            for (int a : bwd_outputs) expect_close(c.bwd, g.bwd, a, 1e-4f);
    }
    dnnl_engine_destroy(cpu);
    dnnl_engine_destroy(gpu);
}

const auto l2r = dnnl_unidirectional_left2right, r2l = dnnl_unidirectional_right2left,
           concat = dnnl_bidirectional_concat, sum = dnnl_bidirectional_sum;

problem_t vanilla(const char *name, dnnl_alg_kind_t act, float alpha, dnnl_rnn_direction_t dir) {
    problem_t p {name, dnnl_vanilla_rnn, dir, 1, 3, 2, 7, 5, 5};
    p.act = act;
    p.alpha = alpha;
    return p;
}

problem_t cell(const char *name, dnnl_alg_kind_t kind, dnnl_rnn_direction_t dir, int64_t L,
        int64_t T, int64_t N, int64_t SLC, int64_t DHC) {
    return problem_t {name, kind, dir, L, T, N, SLC, DHC, DHC};
}

problem_t lstm_proj(const char *name, dnnl_rnn_direction_t dir, bool peephole, int64_t L,
        unsigned flags = 0) {
    problem_t p {name, dnnl_vanilla_lstm, dir, L, 3, 2, 4, 6, 4};
    p.peephole = peephole;
    p.projection = true;
    p.flags = flags;
    return p;
}

problem_t ldgoi(problem_t p) {
    p.wtag = dnnl_ldgoi;
    return p;
}

problem_t bf16(problem_t p) {
    p.dt = dnnl_bf16;
    return p;
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
        // Weights with the input channel innermost (transposed GEMM operands).
        ldgoi(cell("lstm_ldgoi_weights", dnnl_vanilla_lstm, concat, 2, 3, 2, 5, 5)),
        ldgoi(cell("lbr_gru_ldgoi_weights_tiled_gemm", dnnl_lbr_gru, l2r, 1, 2, 16, 40, 72)),
};

// The whole problem in a failure message or a test listing (gtest prints raw bytes otherwise).
void PrintTo(const problem_t &p, std::ostream *os) {
    *os << p.name << " (" << dnnl_alg_kind2str(p.cell) << " " << dnnl_rnn_direction2str(p.dir)
        << ", L " << p.L << ", T " << p.T << ", N " << p.N << ", SLC " << p.SLC << ", DHC "
        << p.DHC << ", DIC " << p.DIC << (p.peephole ? ", peephole" : "")
        << (p.projection ? ", projection" : "") << ", activation " << dnnl_alg_kind2str(p.act)
        << " alpha " << p.alpha << ", flags " << p.flags << ", " << dnnl_dt2str(p.dt)
        << ", weights " << dnnl_fmt_tag2str(p.wtag) << ")";
}

class rnn_gpu_vs_cpu : public ::testing::TestWithParam<problem_t> {};

TEST_P(rnn_gpu_vs_cpu, forward_inference_matches) {
    if (dnnl_engine_get_count(dnnl_gpu) == 0) {
        GTEST_SKIP() << "no OpenCL device";
    }
    check(GetParam(), false);
}

TEST_P(rnn_gpu_vs_cpu, forward_training_and_backward_match) {
    if (dnnl_engine_get_count(dnnl_gpu) == 0) {
        GTEST_SKIP() << "no OpenCL device";
    }
    check(GetParam(), true);
}

INSTANTIATE_TEST_SUITE_P(cells, rnn_gpu_vs_cpu, ::testing::ValuesIn(problems),
        [](const ::testing::TestParamInfo<problem_t> &i) { return std::string(i.param.name); });

const problem_t bf16_problems[] = {
        bf16(vanilla("vanilla_tanh_l2r", dnnl_eltwise_tanh, 0.f, l2r)),
        bf16(cell("lstm_sum_2layers", dnnl_vanilla_lstm, sum, 2, 3, 4, 16, 16)),
        bf16(lstm_proj("lstm_peephole_projection", concat, true, 1)),
        bf16(cell("gru_l2r", dnnl_vanilla_gru, l2r, 2, 3, 4, 16, 16)),
        bf16(cell("lbr_gru_r2l", dnnl_lbr_gru, r2l, 1, 3, 2, 5, 7)),
        bf16(cell("lbr_augru_l2r", dnnl_lbr_augru, l2r, 1, 3, 2, 5, 7)),
};

class rnn_gpu_vs_cpu_bf16 : public ::testing::TestWithParam<problem_t> {};

TEST_P(rnn_gpu_vs_cpu_bf16, forward_inference_matches) {
    if (dnnl_engine_get_count(dnnl_gpu) == 0) {
        GTEST_SKIP() << "no OpenCL device";
    }
    check(GetParam(), false);
}

TEST_P(rnn_gpu_vs_cpu_bf16, forward_training_and_backward_match) {
    if (dnnl_engine_get_count(dnnl_gpu) == 0) {
        GTEST_SKIP() << "no OpenCL device";
    }
    check(GetParam(), true);
}

INSTANTIATE_TEST_SUITE_P(cells, rnn_gpu_vs_cpu_bf16, ::testing::ValuesIn(bf16_problems),
        [](const ::testing::TestParamInfo<problem_t> &i) { return std::string(i.param.name); });

} // namespace
