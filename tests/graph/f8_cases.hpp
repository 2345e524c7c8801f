// Quantize / Dequantize and TypeCast through f8_e4m3 and f8_e5m2 as cases (training_cases.hpp's
// case_t) for the CPU and OpenCL tests. The reference decodes every one of the 256 codes from
// its fields and quantizes by searching them for the nearest value (ties to the even code),
// so it shares nothing with the library's conversion.
#pragma once

#include "graph/training_cases.hpp"

namespace f8_cases {

using namespace graph_test;
using training_cases::case_t;

// The value of code c: sign, exponent field, mantissa field; e4m3 has no infinity.
inline float decode(uint8_t c, bool e4m3) {
    const int mb = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15, ef = (c & 0x7f) >> mb,
              mf = c & ((1 << mb) - 1), emax = e4m3 ? 15 : 31;
    const double sign = (c & 0x80) ? -1 : 1;
    if (e4m3 && (c & 0x7f) == 0x7f) return NAN;
    if (!e4m3 && ef == emax) return mf ? NAN : float(sign * INFINITY);
    const double frac = ef ? 1.0 + mf / double(1 << mb) : mf / double(1 << mb);
    return float(sign * frac * std::pow(2.0, (ef ? ef : 1) - bias));
}

// The code nearest to x among the finite ones of x's sign; ties go to the even code.
inline uint8_t nearest(float x, bool e4m3) {
    int best = -1;
    double best_d = INFINITY;
    for (int c = 0; c < 256; ++c) {
        const float v = decode(uint8_t(c), e4m3);
        if (!std::isfinite(v) || (std::signbit(v) != std::signbit(x) && v != 0)) continue;
        const double d = std::fabs(double(v) - x);
        if (d < best_d || (d == best_d && (c & 1) == 0)) best = c, best_d = d;
    }
    return uint8_t(best);
}

// Quantize then Dequantize (per tensor or per channel along axis 0), values across the
// range: zero, subnormal, normal, near the largest finite value.
inline case_t round_trip(bool e4m3, bool per_channel) {
    const dt f8 = e4m3 ? dt::f8_e4m3 : dt::f8_e5m2;
    const int64_t C = 3, W = 7;
    const std::vector<float> scales = per_channel ? std::vector<float> {0.5f, 0.01f, 2.f}
                                                  : std::vector<float> {0.25f};
    std::vector<float> x(C * W), want(C * W);
    const float top = e4m3 ? 440.f : 50000.f;
    const float mags[] = {0.f, 0.0013f, 0.03f, 1.f, 3.3f, 17.7f, top};
    for (int64_t c = 0; c < C; ++c)
        for (int64_t w = 0; w < W; ++w) {
            const float s = scales[per_channel ? c : 0];
            const size_t i = size_t(c * W + w);
            x[i] = (w % 2 ? -1.f : 1.f) * mags[w] * s;
            want[i] = decode(nearest(x[i] / s, e4m3), e4m3) * s;
        }
    case_t k;
    k.name = std::string("Quantize/Dequantize ") + (e4m3 ? "f8_e4m3" : "f8_e5m2")
            + (per_channel ? " per_channel" : " per_tensor");
    k.build = [=](graph &g) {
        op q(1, op::kind::Quantize, {lt(0, {C, W})}, {lt(1, {C, W}, f8)});
        op dq(2, op::kind::Dequantize, {lt(1, {C, W}, f8)}, {lt(2, {C, W})});
        for (op *o : {&q, &dq}) {
            o->set_attr(op::attr::qtype, std::string(per_channel ? "per_channel" : "per_tensor"));
            o->set_attr(op::attr::axis, int64_t(0));
            o->set_attr(op::attr::scales, scales);
            o->set_attr(op::attr::zps, std::vector<int64_t>(scales.size(), 0));
        }
        g.add_op(q);
        g.add_op(dq);
    };
    k.inputs = {{0, training_cases::bytes(x)}};
    k.want[2] = want;
    k.tol = 0.f;
    k.partitions = 2;
    return k;
}

// TypeCast f32 -> f8 -> f32 of every finite code's value (exact) and of the midpoints
// between neighbours (ties: the even code).
inline case_t type_cast(bool e4m3) {
    const dt f8 = e4m3 ? dt::f8_e4m3 : dt::f8_e5m2;
    std::vector<float> x;
    for (int c = 0; c < 256; ++c) {
        const float v = decode(uint8_t(c), e4m3);
        if (std::isfinite(v)) x.push_back(v);
    }
    const size_t exact = x.size();
    for (size_t i = 0; i + 1 < exact; ++i)
        if (std::signbit(x[i]) == std::signbit(x[i + 1]) && x[i] != 0 && x[i + 1] != 0)
            x.push_back(0.5f * (x[i] + x[i + 1]));
    std::vector<float> want;
    for (float v : x)
        want.push_back(decode(nearest(v, e4m3), e4m3));
    const int64_t n = int64_t(x.size());
    case_t k;
    k.name = std::string("TypeCast ") + (e4m3 ? "f8_e4m3" : "f8_e5m2");
    k.build = [=](graph &g) {
        g.add_op(op(1, op::kind::TypeCast, {lt(0, {n})}, {lt(1, {n}, f8)}));
        g.add_op(op(2, op::kind::TypeCast, {lt(1, {n}, f8)}, {lt(2, {n})}));
    };
    k.inputs = {{0, training_cases::bytes(x)}};
    k.want[2] = want;
    k.tol = 0.f;
    k.partitions = 2;
    return k;
}

inline std::vector<case_t> all_cases() {
    std::vector<case_t> all;
    for (bool e4m3 : {true, false}) {
        for (bool per_channel : {false, true})
            all.push_back(round_trip(e4m3, per_channel));
        all.push_back(type_cast(e4m3));
    }
    return all;
}

} // namespace f8_cases
