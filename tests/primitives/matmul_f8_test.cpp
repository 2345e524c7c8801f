// Matmul with 8-bit floats (f8_e4m3, f8_e5m2) on the CPU engine, every implementation, against
// a double reference with its own f8 codec (values decoded by formula, results encoded as the
// nearest code, ties to even): f8 x f8 to f32 / f8, bf16 and f16 src with f8 weights, bias and
// scales; the combinations oneDNN does not list are refused.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "c_tensor.hpp"

namespace {

using namespace c_tensor;

bool is_f8(dnnl_data_type_t dt) {
    return dt == dnnl_f8_e4m3 || dt == dnnl_f8_e5m2;
}

// The value of an f8 code (OCP: e5m2 IEEE-like; e4m3 without infinities, NaN at S.1111.111).
double f8_value(uint8_t code, dnnl_data_type_t dt) {
    const bool e5m2 = dt == dnnl_f8_e5m2;
    const int man = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7, emax = e5m2 ? 31 : 15;
    const int s = code >> 7, e = (code >> man) & emax, m = code & ((1 << man) - 1);
    if (e5m2 && e == emax) return m ? std::nan("") : (s ? -INFINITY : INFINITY);
    if (!e5m2 && e == emax && m == 7) return std::nan("");
    const double v = e == 0 ? m * std::pow(2.0, 1 - bias - man)
                            : (1.0 + m / double(1 << man)) * std::pow(2.0, e - bias);
    return s ? -v : v;
}

// The finite code nearest x (ties to the even code).
uint8_t f8_nearest(double x, dnnl_data_type_t dt) {
    int best = -1;
    double best_d = 0;
    for (int c = 0; c < 256; ++c) {
        const double v = f8_value(static_cast<uint8_t>(c), dt);
        if (!std::isfinite(v)) continue;
        const double d = std::fabs(v - x);
        if (best < 0 || d < best_d || (d == best_d && (c & 1) == 0 && (best & 1) == 1)) {
            best = c;
            best_d = d;
        }
    }
    return static_cast<uint8_t>(best);
}

struct f8_case_t {
    int64_t M, N, K;
    dnnl_data_type_t sdt, wdt, ddt;
    bool bias = false, scales = false;
};

class matmul_f8 : public engine_fixture {
protected:
    // Element values exact in f8 (both kinds), bf16 and f16.
    static double value_at(int64_t i, int seed) {
        static const double v[] = {-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 3};
        return v[(i * 7 + seed * 3) % 10];
    }
    static void write(dnnl_memory_t mem, dnnl_data_type_t dt, int64_t i, double x) {
        void *p = nullptr;
        dnnl_memory_get_data_handle(mem, &p);
        if (is_f8(dt)) static_cast<uint8_t *>(p)[i] = f8_nearest(x, dt);
        else if (dt == dnnl_bf16) static_cast<uint16_t *>(p)[i] = to_bf16(float(x));
        else if (dt == dnnl_f16) static_cast<uint16_t *>(p)[i] = to_f16(float(x));
        else static_cast<float *>(p)[i] = float(x);
    }

    dnnl_status_t create(const f8_case_t &c, dnnl_primitive_desc_t *pd) {
        dnnl_memory_desc_t s = make_md(spec_t({c.M, c.K}, c.sdt, dnnl_ab));
        dnnl_memory_desc_t w = make_md(spec_t({c.K, c.N}, c.wdt, dnnl_ab));
        dnnl_memory_desc_t d = make_md(spec_t({c.M, c.N}, c.ddt, dnnl_ab));
        dnnl_memory_desc_t b = c.bias ? make_md(spec_t({1, c.N}, dnnl_f32, dnnl_ab)) : nullptr;
        dnnl_primitive_attr_t attr;
        dnnl_primitive_attr_create(&attr);
        if (c.scales) {
            dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 0);
            dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_WEIGHTS, 1 << 1);
        }
        const dnnl_status_t st = dnnl_matmul_primitive_desc_create(pd, engine, s, w, b, d, attr);
        dnnl_primitive_attr_destroy(attr);
        for (auto m : {s, w, d, b})
            if (m) dnnl_memory_desc_destroy(m);
        return st;
    }

    int run(const f8_case_t &c) {
        return on_every_impl([&](dnnl_primitive_desc_t *pd) { return create(c, pd); },
                [&](const_dnnl_primitive_desc_t pd) { check(c, pd); });
    }

    void check(const f8_case_t &c, const_dnnl_primitive_desc_t pd) {
        auto q = [&](int arg) { return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg); };
        tensor_t s(engine, q(DNNL_ARG_SRC)), w(engine, q(DNNL_ARG_WEIGHTS)),
                d(engine, q(DNNL_ARG_DST), 0x7f);
        for (int64_t i = 0; i < c.M * c.K; ++i)
            write(s.mem, c.sdt, i, value_at(i, 1));
        for (int64_t i = 0; i < c.K * c.N; ++i)
            write(w.mem, c.wdt, i, value_at(i, 2));
        std::vector<dnnl_exec_arg_t> args
                = {{DNNL_ARG_SRC, s.mem}, {DNNL_ARG_WEIGHTS, w.mem}, {DNNL_ARG_DST, d.mem}};
        std::unique_ptr<tensor_t> b, ss, ws;
        if (c.bias) {
            b.reset(new tensor_t(engine, q(DNNL_ARG_BIAS)));
            for (int64_t n = 0; n < c.N; ++n)
                write(b->mem, dnnl_f32, n, 0.25 * (n % 5));
            args.push_back({DNNL_ARG_BIAS, b->mem});
        }
        if (c.scales) {
            ss.reset(new tensor_t(engine, spec_t({1}, dnnl_f32, dnnl_a)));
            ws.reset(new tensor_t(engine, spec_t({c.N}, dnnl_f32, dnnl_a)));
            write(ss->mem, dnnl_f32, 0, 0.5);
            for (int64_t n = 0; n < c.N; ++n)
                write(ws->mem, dnnl_f32, n, 0.25 * (1 + n % 3));
            args.push_back({DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, ss->mem});
            args.push_back({DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, ws->mem});
        }
        ASSERT_EQ(execute(pd, args), dnnl_success);
        void *dp = nullptr;
        dnnl_memory_get_data_handle(d.mem, &dp);
        int bad = 0;
        for (int64_t m = 0; m < c.M; ++m)
            for (int64_t n = 0; n < c.N; ++n) {
                double acc = 0;
                for (int64_t k = 0; k < c.K; ++k)
                    acc += value_at(m * c.K + k, 1) * value_at(k * c.N + n, 2);
                if (c.scales) acc *= 0.5 * 0.25 * (1 + n % 3);
                if (c.bias) acc += 0.25 * (n % 5);
                const int64_t i = m * c.N + n;
                bool ok;
                double got;
                if (is_f8(c.ddt)) { // exact: the f32 result is exact, then one rounding
                    const uint8_t code = static_cast<uint8_t *>(dp)[i];
                    got = f8_value(code, c.ddt);
                    ok = code == f8_nearest(acc, c.ddt);
                } else {
                    const int64_t pos[2] = {m, n};
                    got = d.get(pos);
                    ok = close(c.ddt, round_to(c.ddt, float(acc)), float(got));
                }
                if (!ok && bad++ < 5)
                    ADD_FAILURE() << "dst " << m << "," << n << ": got " << got << " want " << acc;
            }
        EXPECT_EQ(bad, 0);
    }
};

TEST_F(matmul_f8, f8_sources_to_f32_and_f8_dst) {
    for (auto sdt : {dnnl_f8_e4m3, dnnl_f8_e5m2})
        for (auto wdt : {dnnl_f8_e4m3, dnnl_f8_e5m2})
            for (auto ddt : {dnnl_f32, dnnl_f8_e4m3, dnnl_f8_e5m2}) {
                SCOPED_TRACE(::testing::Message() << dnnl_dt2str(sdt) << " x "
                                                  << dnnl_dt2str(wdt) << " -> " << dnnl_dt2str(ddt));
                f8_case_t c {5, 19, 37, sdt, wdt, ddt};
                c.bias = ddt == dnnl_f32;
                c.scales = ddt == dnnl_f32;
                EXPECT_EQ(run(c), 2);
            }
}

TEST_F(matmul_f8, low_precision_src_with_f8_weights_and_edge_shapes) {
    for (auto sdt : {dnnl_bf16, dnnl_f16})
        for (auto ddt : {dnnl_f32, dnnl_bf16, dnnl_f16}) {
            SCOPED_TRACE(::testing::Message() << dnnl_dt2str(sdt) << " -> " << dnnl_dt2str(ddt));
            f8_case_t c {3, 33, 70, sdt, dnnl_f8_e4m3, ddt};
            c.bias = true;
            EXPECT_EQ(run(c), 2);
        }
    for (auto mnk : std::vector<std::vector<int64_t>> {{1, 1, 1}, {1, 64, 1100}, {0, 4, 4}}) {
        f8_case_t c {mnk[0], mnk[1], mnk[2], dnnl_f8_e5m2, dnnl_f8_e5m2, dnnl_f32};
        EXPECT_EQ(run(c), 2);
    }
}

// Beyond the largest finite value: e4m3 (no infinity) gives NaN, e5m2 infinity.
TEST_F(matmul_f8, out_of_range_results_become_nan_or_infinity) {
    for (auto ddt : {dnnl_f8_e4m3, dnnl_f8_e5m2}) {
        SCOPED_TRACE(dnnl_dt2str(ddt));
        dnnl_memory_desc_t s = make_md(spec_t({1, 1}, dnnl_f8_e5m2, dnnl_ab));
        dnnl_memory_desc_t w = make_md(spec_t({1, 2}, dnnl_f8_e5m2, dnnl_ab));
        dnnl_memory_desc_t b = make_md(spec_t({1, 2}, dnnl_f32, dnnl_ab));
        dnnl_memory_desc_t d = make_md(spec_t({1, 2}, ddt, dnnl_ab));
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(dnnl_matmul_primitive_desc_create(&pd, engine, s, w, b, d, nullptr),
                dnnl_success);
        while (pd) {
            SCOPED_TRACE(impl_name(pd));
            tensor_t ts(engine, s), tw(engine, w), tb(engine, b), td(engine, d);
            write(ts.mem, dnnl_f8_e5m2, 0, 2);
            write(tw.mem, dnnl_f8_e5m2, 0, 3);
            write(tw.mem, dnnl_f8_e5m2, 1, 3);
            write(tb.mem, dnnl_f32, 0, 1000); // 1006
            write(tb.mem, dnnl_f32, 1, -1e5); // -99994
            ASSERT_EQ(execute(pd, {{DNNL_ARG_SRC, ts.mem}, {DNNL_ARG_WEIGHTS, tw.mem},
                                          {DNNL_ARG_BIAS, tb.mem}, {DNNL_ARG_DST, td.mem}}),
                    dnnl_success);
            const uint8_t *out = static_cast<const uint8_t *>(td.data());
            if (ddt == dnnl_f8_e4m3) {
                EXPECT_TRUE(std::isnan(f8_value(out[0], ddt)));
                EXPECT_TRUE(std::isnan(f8_value(out[1], ddt)));
            } else {
                EXPECT_EQ(f8_value(out[0], ddt), 1024.0);
                EXPECT_EQ(f8_value(out[1], ddt), -INFINITY);
            }
            if (dnnl_primitive_desc_next_impl(pd) != dnnl_success) break;
        }
        if (pd) dnnl_primitive_desc_destroy(pd);
        for (auto m : {s, w, b, d})
            dnnl_memory_desc_destroy(m);
    }
}

TEST_F(matmul_f8, unlisted_combinations_are_refused) {
    dnnl_primitive_desc_t pd = nullptr;
    // f32 src with f8 weights, f8 src with f32 weights, f8 dst from bf16 src.
    EXPECT_EQ(create({2, 3, 4, dnnl_f32, dnnl_f8_e4m3, dnnl_f32}, &pd), dnnl_unimplemented);
    EXPECT_EQ(create({2, 3, 4, dnnl_f8_e4m3, dnnl_f32, dnnl_f32}, &pd), dnnl_unimplemented);
    EXPECT_EQ(create({2, 3, 4, dnnl_bf16, dnnl_f8_e4m3, dnnl_f8_e4m3}, &pd), dnnl_unimplemented);
    EXPECT_EQ(pd, nullptr);
}

} // namespace
