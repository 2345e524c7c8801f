// The persistent LSTM forward's CUDA source (gpu/rnn/cuda/lstm_persistent.cu) run on the host
// (cuda_host_shim.hpp's cooperative launch: every CTA's threads at once, each CTA with its
// own shared buffer, so the grid barrier between steps really waits for the others) with the
// launch shape the host picks (persistent_shape) for a few compute units, against a plain
// double-precision LSTM: gates (activated), c and h of every step. Shapes: odd channels and
// rows (unit and K tails, scalar loads of h), one row, one step, CTAs with fewer units,
// several K chunks per slice (the next chunk loaded under this one's products), more items
// than threads (two passes), an initial state with a row pitch of its own, weights in either
// layout; and nothing written outside the outputs. A grid that is not all there (a CTA that
// never arrives, the error word already set) leaves at the first barrier with the states of
// the steps left NaN.
#include "gpu/rnn/persistent.hpp"

#include "cuda_host_shim.hpp"

#include "gpu/rnn/cuda/lstm_persistent.cu"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace {

struct lstm_case_t {
    int64_t T, N, H, compute_units;
    bool own_h0 = false; // step 0 reads h from its own rows, pitch H + 3
    bool w_column_major = false; // W(k, col) at k + col * (H + 1), else k * (4 H + 2) + col
    bool misaligned = false; // h's rows start off a 4-float boundary
};

double sigmoid_ref(double x) {
    return 1. / (1. + std::exp(-x));
}

void check(const lstm_case_t &p) {
    const auto shape = anydnn::gpu::rnn::persistent_shape(p.compute_units, p.N, p.H);
    ASSERT_GT(shape.grid, 0);
    ASSERT_LE(shape.grid, p.compute_units);
    const int64_t T = p.T, N = p.N, H = p.H, GC = 4 * H, NH = N * H;
    // The workspace: gates, h and c of every step, then the initial state's own rows, with
    // gaps (checked untouched).
    const int64_t gates0 = 3;
    const int64_t h0 = (gates0 + T * N * GC + 3) / 4 * 4 + (p.misaligned ? 1 : 0);
    const int64_t c0 = h0 + (T + 1) * NH + 2;
    const int64_t ld0 = p.own_h0 ? H + 3 : H;
    const int64_t hprev0 = p.own_h0 ? c0 + (T + 1) * NH + 1 : h0;
    const int64_t ws_size = (p.own_h0 ? hprev0 + N * ld0 : c0 + (T + 1) * NH) + 5;
    std::mt19937 gen(unsigned(T * 1000003 + N * 1009 + H));
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    std::vector<float> ws(size_t(ws_size), std::nanf(""));
    for (int64_t i = 0; i < T * N * GC; ++i)
        ws[size_t(gates0 + i)] = u(gen);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t j = 0; j < H; ++j) {
            ws[size_t(hprev0 + n * ld0 + j)] = u(gen);
            ws[size_t(c0 + n * H + j)] = u(gen);
        }
    // The scratchpad: bias, then the counter and error word (zero).
    const int64_t bias = 5, sync = bias + GC + 1;
    std::vector<float> scr(size_t(sync + 2 + 3), std::nanf(""));
    for (int64_t i = 0; i < GC; ++i)
        scr[size_t(bias + i)] = u(gen);
    scr[size_t(sync)] = scr[size_t(sync + 1)] = 0.f;
    // Weights (K = H inputs x GC columns), a little under 1 / sqrt(H) so the gates vary.
    const int64_t w_off = 7, w_si = p.w_column_major ? 1 : GC + 2;
    const int64_t w_sj = p.w_column_major ? H + 1 : 1;
    std::vector<float> w(size_t(w_off + (H - 1) * w_si + (GC - 1) * w_sj + 1), std::nanf(""));
    const float w_scale = 2.f / std::sqrt(float(H));
    for (int64_t k = 0; k < H; ++k)
        for (int64_t col = 0; col < GC; ++col)
            w[size_t(w_off + k * w_si + col * w_sj)] = u(gen) * w_scale;
    const std::vector<float> ws_before = ws, scr_before = scr;

    host_launch_cooperative(unsigned(shape.grid), threads, size_t(w_cap + part_cap + 4), [&] {
        anydnn_lstm_fwd_persistent(ws.data(), scr.data(), w.data(), gates0, h0, hprev0, ld0, c0,
                bias, w_off, w_si, w_sj, sync, int(T), int(N), int(H), int(shape.units),
                int(shape.kgroups));
    });

    unsigned counter = 0, error = 0;
    std::memcpy(&counter, &scr[size_t(sync)], 4);
    std::memcpy(&error, &scr[size_t(sync + 1)], 4);
    EXPECT_EQ(error, 0u);
    EXPECT_EQ(int64_t(counter), (T - 1) * shape.grid);

    // The reference, in double, from the same inputs.
    const size_t nh = size_t(NH);
    std::vector<double> h(nh), c(nh), hn(nh), cn(nh);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t j = 0; j < H; ++j) {
            h[size_t(n * H + j)] = ws_before[size_t(hprev0 + n * ld0 + j)];
            c[size_t(n * H + j)] = ws_before[size_t(c0 + n * H + j)];
        }
    std::vector<bool> output(size_t(ws_size), false);
    const double tol = 2e-5;
    int bad = 0;
    auto expect_near = [&](int64_t at, double ref, const char *what, int64_t s) {
        output[size_t(at)] = true;
        if (!(std::fabs(ws[size_t(at)] - ref) <= tol) && bad++ < 8)
            ADD_FAILURE() << what << " of step " << s << " at " << at << ": " << ws[size_t(at)]
                          << " against " << ref;
    };
    for (int64_t s = 0; s < T; ++s) {
        for (int64_t n = 0; n < N; ++n)
            for (int64_t j = 0; j < H; ++j) {
                double g[4];
                for (int q = 0; q < 4; ++q) {
                    const int64_t col = q * H + j;
                    double acc = double(ws_before[size_t(gates0 + (s * N + n) * GC + col)])
                            + double(scr_before[size_t(bias + col)]);
                    for (int64_t k = 0; k < H; ++k)
                        acc += h[size_t(n * H + k)] * double(w[size_t(w_off + k * w_si + col * w_sj)]);
                    g[q] = q == 2 ? std::tanh(acc) : sigmoid_ref(acc);
                }
                const double ct = g[1] * c[size_t(n * H + j)] + g[0] * g[2];
                cn[size_t(n * H + j)] = ct;
                hn[size_t(n * H + j)] = g[3] * std::tanh(ct);
                for (int q = 0; q < 4; ++q)
                    expect_near(gates0 + (s * N + n) * GC + q * H + j, g[q], "gate", s);
                expect_near(c0 + (s + 1) * NH + n * H + j, ct, "c", s);
                expect_near(h0 + (s + 1) * NH + n * H + j, hn[size_t(n * H + j)], "h", s);
            }
        h.swap(hn);
        c.swap(cn);
    }
    for (int64_t i = 0; i < ws_size; ++i)
        if (!output[size_t(i)] && std::memcmp(&ws[size_t(i)], &ws_before[size_t(i)], 4) != 0
                && bad++ < 8)
            ADD_FAILURE() << "the workspace at " << i << " (not an output) changed";
    for (int64_t i = 0; i < sync; ++i)
        if (std::memcmp(&scr[size_t(i)], &scr_before[size_t(i)], 4) != 0 && bad++ < 8)
            ADD_FAILURE() << "the scratchpad at " << i << " changed";
}

// T steps of N rows, H units, on `grid` CTAs of which the last never runs: the others' first
// barrier sees the error word (set before the launch) and gives up.
void check_missing_cta(int64_t T, int64_t N, int64_t H, int64_t compute_units) {
    const auto shape = anydnn::gpu::rnn::persistent_shape(compute_units, N, H);
    ASSERT_GT(shape.grid, 1);
    const int64_t GC = 4 * H, NH = N * H, gates0 = 0, h0 = T * N * GC, c0 = h0 + (T + 1) * NH;
    std::vector<float> ws(size_t(c0 + (T + 1) * NH), 0.5f), scr(size_t(GC + 2), 0.f);
    std::vector<float> w(size_t(H * GC), 0.01f);
    const unsigned one = 1;
    std::memcpy(&scr[size_t(GC + 1)], &one, 4);
    host_launch_cooperative(unsigned(shape.grid), threads, size_t(w_cap + part_cap + 4), [&] {
        if (int64_t(blockIdx.x) == shape.grid - 1) return;
        anydnn_lstm_fwd_persistent(ws.data(), scr.data(), w.data(), gates0, h0, h0, H, c0, 0, 0,
                GC, 1, GC, int(T), int(N), int(H), int(shape.units), int(shape.kgroups));
    });
    unsigned error = 0;
    std::memcpy(&error, &scr[size_t(GC + 1)], 4);
    EXPECT_EQ(error, 1u);
    const int64_t ran = (shape.grid - 1) * shape.units; // units of the CTAs that ran
    for (int64_t s = 1; s <= T; ++s)
        for (int64_t n = 0; n < N; ++n)
            for (int64_t j = 0; j < H; ++j) {
                const float h = ws[size_t(h0 + s * NH + n * H + j)];
                const float c = ws[size_t(c0 + s * NH + n * H + j)];
                if (j >= ran) { // the missing CTA's units: untouched
                    EXPECT_EQ(h, 0.5f);
                    EXPECT_EQ(c, 0.5f);
                } else if (s == 1) { // the step before the first barrier
                    EXPECT_FALSE(std::isnan(h) || std::isnan(c));
                } else {
                    EXPECT_TRUE(std::isnan(h) && std::isnan(c)) << "step " << s << " unit " << j;
                }
            }
}

} // namespace

TEST(lstm_persistent_emulated, launch_shape) {
    using anydnn::gpu::rnn::persistent_shape;
    // The timed problem on 132 compute units: 128 CTAs of 4 units, 16 K slices of 32.
    const auto s = persistent_shape(132, 64, 512);
    EXPECT_EQ(s.grid, 128);
    EXPECT_EQ(s.units, 4);
    EXPECT_EQ(s.kgroups, 16);
    // A weights slice past the shared array: none.
    EXPECT_EQ(persistent_shape(8, 64, 1024).grid, 0);
    EXPECT_EQ(persistent_shape(0, 64, 512).grid, 0);
}

TEST(lstm_persistent_emulated, odd_shapes_one_row_one_step) {
    check({3, 64, 16, 4}); // 4 CTAs of 4 units, vector loads of h
    check({4, 7, 13, 3, false, true}); // 5, 5 and 3 units, scalar loads, K tails
    check({5, 1, 9, 2, true}); // one row, the initial state's own pitch
    check({1, 5, 21, 4, false, false, true}); // one step (no barrier), misaligned rows
}

TEST(lstm_persistent_emulated, chunks_and_passes) {
    check({2, 64, 128, 8, true, false}); // K slices of 32: four chunks each
    check({3, 20, 40, 3, false, true, true}); // 14, 14, 12 units
    // 258 items of 4 rows: two passes of 256 threads.
    check({2, 1030, 4, 1});
}

TEST(lstm_persistent_emulated, barrier_timeout_leaves_nan_states) {
    check_missing_cta(4, 3, 10, 3); // 3 CTAs of 4, 4 and 2 units; the last never runs
}
