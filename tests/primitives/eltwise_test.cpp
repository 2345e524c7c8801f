// Eltwise forward and backward through the C API, every algorithm and implementation
// (dnnl_primitive_desc_next_impl walks them all), against double-precision formulas written
// here: f32/bf16/f16 (and integer types forward), odd shapes, blocked layouts with tails,
// strided and mixed layouts, zero-size tensors, in-place, post-ops, and bad arguments.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_debug.h"
#include "primitives/eltwise_ref.hpp"
#include "sanitizer_budget.hpp"

namespace {

using dims_t = std::vector<dnnl_dim_t>;

using eltwise_ref::fwd_alg_of;
using eltwise_ref::uses_dst;

// ---- element types, written independently of the library ----

float bf16_round(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if (std::isnan(f)) return f;
    u = (u + 0x7fff + ((u >> 16) & 1)) & 0xffff0000u;
    std::memcpy(&f, &u, 4);
    return f;
}

size_t dt_size(dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_f32:
        case dnnl_s32: return 4;
        case dnnl_bf16:
        case dnnl_f16: return 2;
        default: return 1;
    }
}

void put(dnnl_data_type_t dt, void *base, dnnl_dim_t i, double v) {
    switch (dt) {
        case dnnl_f32: static_cast<float *>(base)[i] = float(v); break;
        case dnnl_bf16: {
            float f = bf16_round(float(v));
            uint32_t u;
            std::memcpy(&u, &f, 4);
            static_cast<uint16_t *>(base)[i] = uint16_t(u >> 16);
            break;
        }
        case dnnl_f16: static_cast<_Float16 *>(base)[i] = _Float16(float(v)); break;
        case dnnl_s32: static_cast<int32_t *>(base)[i] = int32_t(v); break;
        case dnnl_s8: static_cast<int8_t *>(base)[i] = int8_t(v); break;
        case dnnl_u8: static_cast<uint8_t *>(base)[i] = uint8_t(v); break;
        default: break;
    }
}

double get(dnnl_data_type_t dt, const void *base, dnnl_dim_t i) {
    switch (dt) {
        case dnnl_f32: return static_cast<const float *>(base)[i];
        case dnnl_bf16: {
            uint32_t u = uint32_t(static_cast<const uint16_t *>(base)[i]) << 16;
            float f;
            std::memcpy(&f, &u, 4);
            return f;
        }
        case dnnl_f16: return float(static_cast<const _Float16 *>(base)[i]);
        case dnnl_s32: return static_cast<const int32_t *>(base)[i];
        case dnnl_s8: return static_cast<const int8_t *>(base)[i];
        case dnnl_u8: return static_cast<const uint8_t *>(base)[i];
        default: return NAN;
    }
}

bool is_int(dnnl_data_type_t dt) { return dt == dnnl_s32 || dt == dnnl_s8 || dt == dnnl_u8; }

// The value an integer destination holds for v: nearest even, saturated.
double int_expected(dnnl_data_type_t dt, double v) {
    double lo = dt == dnnl_s8 ? -128 : dt == dnnl_u8 ? 0 : -2147483648.0;
    double hi = dt == dnnl_s8 ? 127 : dt == dnnl_u8 ? 255 : 2147483647.0;
    if (std::isnan(v)) return 0;
    return std::min(hi, std::max(lo, std::nearbyint(v)));
}

// |got - want| within tolerance; NaN matches NaN and infinities match exactly.
bool close(double got, double want, dnnl_data_type_t dt) {
    if (std::isnan(want)) return std::isnan(got);
    if (std::isinf(want)) return got == want;
    if (is_int(dt)) return std::fabs(got - want) <= 1.0;
    double rtol = dt == dnnl_f32 ? 4e-6 : dt == dnnl_bf16 ? 8e-3 : 1e-3;
    double atol = dt == dnnl_f32 ? 1e-6 : dt == dnnl_bf16 ? 1e-5 : 2e-6;
    // Results past the type's range round to infinity.
    const double max = dt == dnnl_f16 ? 65519.0 : 3.4028235e38;
    if (std::fabs(want) > max) return std::isinf(got) && (got > 0) == (want > 0);
    return std::fabs(got - want) <= atol + rtol * std::fabs(want);
}

// ---- layouts the test builds and addresses itself ----

struct layout_t {
    enum kind_t { strided, nchw16c } kind = strided;
    dims_t dims;
    dims_t strides; // strided only; empty: dense row-major

    static layout_t plain(dims_t d) { return {strided, d, {}}; }
    static layout_t with_strides(dims_t d, dims_t s) { return {strided, d, s}; }
    static layout_t blocked16(dims_t d) { return {nchw16c, d, {}}; }

    dnnl_dim_t nelems() const {
        dnnl_dim_t n = 1;
        for (auto d : dims)
            n *= d;
        return n;
    }
    dims_t real_strides() const {
        if (!strides.empty()) return strides;
        dims_t s(dims.size());
        dnnl_dim_t st = 1;
        for (int d = int(dims.size()) - 1; d >= 0; --d) {
            s[d] = st;
            st *= dims[d];
        }
        return s;
    }
    // Offset of logical row-major element i.
    dnnl_dim_t offset(dnnl_dim_t i) const {
        dims_t pos(dims.size());
        for (int d = int(dims.size()) - 1; d >= 0; --d) {
            pos[d] = i % dims[d];
            i /= dims[d];
        }
        if (kind == nchw16c) {
            const dnnl_dim_t cb = (dims[1] + 15) / 16, h = dims[2], w = dims[3];
            return (((pos[0] * cb + pos[1] / 16) * h + pos[2]) * w + pos[3]) * 16 + pos[1] % 16;
        }
        dims_t s = real_strides();
        dnnl_dim_t off = 0;
        for (size_t d = 0; d < dims.size(); ++d)
            off += pos[d] * s[d];
        return off;
    }
    // Elements the buffer needs (padding and gaps included).
    dnnl_dim_t buffer_elems() const {
        if (nelems() == 0) return 0;
        if (kind == nchw16c) return dims[0] * (dims[1] + 15) / 16 * 16 * dims[2] * dims[3];
        dims_t s = real_strides();
        dnnl_dim_t last = 0;
        for (size_t d = 0; d < dims.size(); ++d)
            last += (dims[d] - 1) * s[d];
        return last + 1;
    }
    dnnl_memory_desc_t md(dnnl_data_type_t dt) const {
        dnnl_memory_desc_t m = nullptr;
        dnnl_status_t st;
        if (kind == nchw16c)
            st = dnnl_memory_desc_create_with_tag(&m, 4, dims.data(), dt, dnnl_nChw16c);
        else
            st = dnnl_memory_desc_create_with_strides(&m, int(dims.size()), dims.data(), dt,
                    real_strides().data());
        EXPECT_EQ(st, dnnl_success);
        return m;
    }
};

// A buffer in a layout, filled with a marker so unwritten elements show.
struct tensor_t {
    layout_t layout;
    dnnl_data_type_t dt;
    std::vector<char> bytes;
    tensor_t(const layout_t &l, dnnl_data_type_t t)
        : layout(l), dt(t), bytes(std::max<size_t>(1, l.buffer_elems() * dt_size(t)), 0x5a) {}
    double at(dnnl_dim_t i) const { return get(dt, bytes.data(), layout.offset(i)); }
    void set(dnnl_dim_t i, double v) { put(dt, bytes.data(), layout.offset(i), v); }
    void *data() { return bytes.data(); }
};

struct env_t {
    dnnl_engine_t engine = nullptr;
    dnnl_stream_t stream = nullptr;
    env_t() {
        EXPECT_EQ(dnnl_engine_create(&engine, dnnl_cpu, 0), dnnl_success);
        EXPECT_EQ(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags), dnnl_success);
    }
    ~env_t() {
        dnnl_stream_destroy(stream);
        dnnl_engine_destroy(engine);
    }
};

env_t &env() {
    static env_t e;
    return e;
}

dnnl_memory_t make_memory(const_dnnl_memory_desc_t md, void *handle) {
    dnnl_memory_t m = nullptr;
    EXPECT_EQ(dnnl_memory_create(&m, md, env().engine, handle), dnnl_success);
    return m;
}

std::string impl_name(const_dnnl_primitive_desc_t pd) {
    const char *s = nullptr;
    EXPECT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &s), dnnl_success);
    return s ? s : "?";
}

dnnl_status_t run(const_dnnl_primitive_desc_t pd, std::vector<dnnl_exec_arg_t> args) {
    dnnl_primitive_t prim = nullptr;
    dnnl_status_t st = dnnl_primitive_create(&prim, pd);
    if (st != dnnl_success) return st;
    st = dnnl_primitive_execute(prim, env().stream, int(args.size()), args.data());
    if (st == dnnl_success) st = dnnl_stream_wait(env().stream);
    dnnl_primitive_destroy(prim);
    return st;
}

// Inputs that exercise each algorithm: a deterministic spread over [lo, hi] with 0 and +-1.
void input_range(dnnl_alg_kind_t alg, dnnl_data_type_t dt, double &lo, double &hi) {
    lo = -10, hi = 10;
    switch (fwd_alg_of(alg)) {
        case dnnl_eltwise_exp: lo = -100, hi = 88; break; // derivatives stay finite
        case dnnl_eltwise_logistic:
        case dnnl_eltwise_soft_relu:
        case dnnl_eltwise_mish:
        case dnnl_eltwise_swish:
        case dnnl_eltwise_elu: lo = -100, hi = 100; break;
        case dnnl_eltwise_gelu_erf:
        case dnnl_eltwise_gelu_tanh: lo = -15, hi = 15; break;
        case dnnl_eltwise_sqrt:
        case dnnl_eltwise_log: lo = 0, hi = 1000; break;
        case dnnl_eltwise_pow: lo = 0, hi = 4; break;
        default: break;
    }
    if (dt == dnnl_f16) {
        lo = std::max(lo, -10.0);
        hi = std::min(hi, fwd_alg_of(alg) == dnnl_eltwise_exp ? 10.0 : 100.0);
    }
    if (dt == dnnl_u8) lo = std::max(lo, 0.0);
}

double input_value(dnnl_dim_t i, double lo, double hi) {
    switch (i % 97) {
        case 0: return lo <= 0 && hi >= 0 ? 0.0 : lo;
        case 1: return hi >= 1 && lo <= 1 ? 1.0 : hi;
        case 2: return lo <= -1 ? -1.0 : lo;
        default: break;
    }
    uint32_t h = uint32_t(i) * 2654435761u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    double u = (h & 0xffffff) / double(0xffffff);
    // Half of the values near zero, where most algorithms bend.
    if (h & 0x1000000) return std::max(lo, std::min(hi, (u - 0.5) * 6));
    return lo + (hi - lo) * u;
}

void alpha_beta(dnnl_alg_kind_t alg, float &a, float &b) {
    a = 0.f, b = 0.f;
    switch (fwd_alg_of(alg)) {
        case dnnl_eltwise_relu: a = alg == dnnl_eltwise_relu ? -0.25f : 0.25f; break;
        case dnnl_eltwise_elu: a = 0.75f; break;
        case dnnl_eltwise_linear: a = 0.3f, b = -1.5f; break;
        case dnnl_eltwise_soft_relu: a = 1.5f; break;
        case dnnl_eltwise_hardsigmoid: a = 0.2f, b = 0.5f; break;
        case dnnl_eltwise_swish: a = 1.25f; break;
        case dnnl_eltwise_clip:
        case dnnl_eltwise_clip_v2: a = -2.f, b = 3.f; break;
        case dnnl_eltwise_pow: a = 1.5f, b = 2.5f; break;
        case dnnl_eltwise_hardswish: a = 1.f / 6, b = 0.5f; break;
        default: break;
    }
}

const dnnl_alg_kind_t all_algs[] = {dnnl_eltwise_relu, dnnl_eltwise_tanh, dnnl_eltwise_elu,
        dnnl_eltwise_square, dnnl_eltwise_abs, dnnl_eltwise_sqrt, dnnl_eltwise_linear,
        dnnl_eltwise_soft_relu, dnnl_eltwise_hardsigmoid, dnnl_eltwise_logistic,
        dnnl_eltwise_exp, dnnl_eltwise_gelu_tanh, dnnl_eltwise_swish, dnnl_eltwise_log,
        dnnl_eltwise_clip, dnnl_eltwise_clip_v2, dnnl_eltwise_pow, dnnl_eltwise_gelu_erf,
        dnnl_eltwise_round, dnnl_eltwise_mish, dnnl_eltwise_hardswish,
        dnnl_eltwise_relu_use_dst_for_bwd, dnnl_eltwise_tanh_use_dst_for_bwd,
        dnnl_eltwise_elu_use_dst_for_bwd, dnnl_eltwise_sqrt_use_dst_for_bwd,
        dnnl_eltwise_logistic_use_dst_for_bwd, dnnl_eltwise_exp_use_dst_for_bwd,
        dnnl_eltwise_clip_v2_use_dst_for_bwd};

// Layout pairs (src, dst) every algorithm and type runs on.
struct shape_case_t {
    const char *name;
    layout_t src, dst;
};

std::vector<shape_case_t> shape_cases(bool big) {
    std::vector<shape_case_t> v = {
            {"1", layout_t::plain({1}), layout_t::plain({1})},
            {"17", layout_t::plain({17}), layout_t::plain({17})},
            {"3x5x7", layout_t::plain({3, 5, 7}), layout_t::plain({3, 5, 7})},
            {"nChw16c_C17", layout_t::blocked16({2, 17, 3, 5}),
                    layout_t::blocked16({2, 17, 3, 5})},
            {"strided", layout_t::with_strides({3, 5, 7}, {100, 17, 2}),
                    layout_t::with_strides({3, 5, 7}, {100, 17, 2})},
            {"abc_to_cba", layout_t::plain({3, 5, 7}),
                    layout_t::with_strides({3, 5, 7}, {1, 3, 15})},
            {"nchw_to_nChw16c", layout_t::plain({2, 17, 3, 5}),
                    layout_t::blocked16({2, 17, 3, 5})},
    };
    // Large enough to be split between threads (odd: a vector tail in the last part).
    const dnnl_dim_t n = test_budget::pick(1000003, 100003);
    if (big) v.push_back({"large_odd", layout_t::plain({n}), layout_t::plain({n})});
    return v;
}

struct case_t {
    dnnl_alg_kind_t alg;
    dnnl_data_type_t dt;
};

std::string case_name(const ::testing::TestParamInfo<case_t> &info) {
    std::string a = dnnl_alg_kind2str(info.param.alg);
    const std::string prefix = "eltwise_";
    if (a.rfind(prefix, 0) == 0) a = a.substr(prefix.size());
    return a + "_" + dnnl_dt2str(info.param.dt);
}

// The case in a failure message or a test listing (gtest prints raw bytes otherwise).
void PrintTo(const case_t &c, std::ostream *os) {
    *os << dnnl_alg_kind2str(c.alg) << " " << dnnl_dt2str(c.dt);
}

// Creates the forward pd, runs every implementation that accepts, checks each against
// the formulas. Returns the names of the implementations that ran.
std::vector<std::string> check_fwd(dnnl_alg_kind_t alg, dnnl_data_type_t sdt,
        dnnl_data_type_t ddt, const shape_case_t &sc, bool in_place = false) {
    float a, b;
    alpha_beta(alg, a, b);
    double lo, hi;
    input_range(alg, is_int(sdt) ? ddt : sdt, lo, hi);
    if (is_int(sdt)) lo = std::max(lo, sdt == dnnl_u8 ? 0.0 : -100.0), hi = std::min(hi, 100.0);
    tensor_t src(sc.src, sdt);
    const dnnl_dim_t n = sc.src.nelems();
    for (dnnl_dim_t i = 0; i < n; ++i)
        src.set(i, is_int(sdt) ? std::nearbyint(input_value(i, lo, hi)) : input_value(i, lo, hi));
    dnnl_memory_desc_t smd = sc.src.md(sdt), dmd = sc.dst.md(ddt);
    dnnl_primitive_desc_t pd = nullptr;
    std::vector<std::string> ran;
    EXPECT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, env().engine,
                      dnnl_forward_training, alg, smd, dmd, a, b, nullptr),
            dnnl_success)
            << sc.name;
    if (!pd) return ran;
    do {
        const std::string impl = impl_name(pd);
        ran.push_back(impl);
        tensor_t dst(sc.dst, ddt);
        tensor_t &out = in_place ? src : dst;
        tensor_t in = src; // a copy: in-place overwrites src
        dnnl_memory_t ms = make_memory(smd, src.data());
        dnnl_memory_t md = make_memory(dmd, out.data());
        EXPECT_EQ(run(pd, {{DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, md}}), dnnl_success) << impl;
        int bad = 0;
        for (dnnl_dim_t i = 0; i < n && bad < 5; ++i) {
            const double x = in.at(i);
            double want = eltwise_ref::forward(alg, x, a, b);
            if (is_int(ddt)) want = int_expected(ddt, want);
            const double got = out.at(i);
            if (!close(got, want, ddt)) {
                ++bad;
                ADD_FAILURE() << impl << " " << sc.name << " fwd " << dnnl_alg_kind2str(alg)
                              << " " << dnnl_dt2str(sdt) << "->" << dnnl_dt2str(ddt) << " at "
                              << i << ": x=" << x << " got " << got << " want " << want;
            }
        }
        // Blocked destinations keep their padding zero.
        if (sc.dst.kind == layout_t::nchw16c && sc.dst.dims[1] % 16 != 0) {
            const auto &d = sc.dst.dims;
            const dnnl_dim_t cb = (d[1] + 15) / 16;
            int nonzero = 0;
            for (dnnl_dim_t i = 0; i < sc.dst.buffer_elems(); ++i)
                if ((i % 16) + (i / 16 / (d[2] * d[3]) % cb) * 16 >= d[1])
                    nonzero += get(ddt, out.data(), i) != 0.0;
            EXPECT_EQ(nonzero, 0) << impl << ": padding not zeroed";
        }
        if (in_place) src = in;
        dnnl_memory_destroy(ms);
        dnnl_memory_destroy(md);
    } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(smd);
    dnnl_memory_desc_destroy(dmd);
    return ran;
}

std::vector<std::string> check_bwd(
        dnnl_alg_kind_t alg, dnnl_data_type_t dt, const shape_case_t &sc) {
    float a, b;
    alpha_beta(alg, a, b);
    double lo, hi;
    input_range(alg, dt, lo, hi);
    const dnnl_dim_t n = sc.src.nelems();
    // data: src, or the forward's dst (as the type stores it) for the dst variants.
    tensor_t data(sc.src, dt), dd(sc.dst, dt);
    std::vector<double> xs(n);
    for (dnnl_dim_t i = 0; i < n; ++i) {
        tensor_t one(layout_t::plain({1}), dt);
        one.set(0, input_value(i, lo, hi));
        xs[i] = one.at(0);
        data.set(i, uses_dst(alg) ? eltwise_ref::forward(alg, xs[i], a, b) : xs[i]);
        dd.set(i, input_value(i * 7 + 3, -2, 2));
    }
    dnnl_memory_desc_t data_md = sc.src.md(dt), dd_md = sc.dst.md(dt), ds_md = sc.dst.md(dt);
    dnnl_primitive_desc_t fwd = nullptr, pd = nullptr;
    std::vector<std::string> ran;
    EXPECT_EQ(dnnl_eltwise_forward_primitive_desc_create(&fwd, env().engine,
                      dnnl_forward_training, alg, data_md, data_md, a, b, nullptr),
            dnnl_success);
    EXPECT_EQ(dnnl_eltwise_backward_primitive_desc_create(
                      &pd, env().engine, alg, ds_md, dd_md, data_md, a, b, fwd, nullptr),
            dnnl_success)
            << sc.name;
    if (pd) do {
            const std::string impl = impl_name(pd);
            ran.push_back(impl);
            tensor_t ds(sc.dst, dt);
            dnnl_memory_t mx = make_memory(data_md, data.data());
            dnnl_memory_t mg = make_memory(dd_md, dd.data());
            dnnl_memory_t mo = make_memory(ds_md, ds.data());
            const int data_arg = uses_dst(alg) ? DNNL_ARG_DST : DNNL_ARG_SRC;
            EXPECT_EQ(run(pd, {{data_arg, mx}, {DNNL_ARG_DIFF_DST, mg}, {DNNL_ARG_DIFF_SRC, mo}}),
                    dnnl_success)
                    << impl;
            int bad = 0;
            for (dnnl_dim_t i = 0; i < n && bad < 5; ++i) {
                const double x = xs[i], y = data.at(i), g = dd.at(i);
                const double want = eltwise_ref::backward(alg, g, x, y, a, b);
                const double got = ds.at(i);
                // The derivative of a rounded input: bf16/f16 data move x by an ulp, which
                // moves steep derivatives; compare against the rounded data then.
                if (!close(got, want, dt)) {
                    ++bad;
                    ADD_FAILURE() << impl << " " << sc.name << " bwd " << dnnl_alg_kind2str(alg)
                                  << " " << dnnl_dt2str(dt) << " at " << i << ": x=" << x
                                  << " y=" << y << " g=" << g << " got " << got << " want "
                                  << want;
                }
            }
            dnnl_memory_destroy(mx);
            dnnl_memory_destroy(mg);
            dnnl_memory_destroy(mo);
        } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_desc_destroy(fwd);
    dnnl_memory_desc_destroy(data_md);
    dnnl_memory_desc_destroy(dd_md);
    dnnl_memory_desc_destroy(ds_md);
    return ran;
}

bool has_avx512() {
    const unsigned isa = dnnl_get_effective_cpu_isa();
    return (isa & dnnl_cpu_isa_avx512_core) == dnnl_cpu_isa_avx512_core;
}

bool contains(const std::vector<std::string> &v, const std::string &s) {
    for (const auto &e : v)
        if (e == s) return true;
    return false;
}

struct eltwise_alg : public ::testing::TestWithParam<case_t> {};

std::vector<case_t> float_cases() {
    std::vector<case_t> v;
    for (auto dt : {dnnl_f32, dnnl_bf16, dnnl_f16})
        for (auto alg : all_algs)
            v.push_back({alg, dt});
    return v;
}

} // namespace

TEST_P(eltwise_alg, forward_matches_formula_on_every_layout_and_impl) {
    const auto p = GetParam();
    for (const auto &sc : shape_cases(p.dt == dnnl_f32)) {
        auto ran = check_fwd(p.alg, p.dt, p.dt, sc);
        EXPECT_TRUE(contains(ran, "cpu:eltwise:ref")) << sc.name;
        const bool one_dense_layout = sc.src.kind == sc.dst.kind && sc.src.strides.empty()
                && sc.dst.strides.empty();
        if (has_avx512() && one_dense_layout) {
            EXPECT_TRUE(contains(ran, "cpu:eltwise:avx512")) << sc.name;
        }
    }
}

TEST_P(eltwise_alg, forward_in_place) {
    const auto p = GetParam();
    check_fwd(p.alg, p.dt, p.dt, {"in_place_1000", layout_t::plain({1000}),
                                         layout_t::plain({1000})},
            true);
}

TEST_P(eltwise_alg, backward_matches_formula_on_every_layout_and_impl) {
    const auto p = GetParam();
    if (p.alg == dnnl_eltwise_round) GTEST_SKIP() << "round has no backward";
    for (const auto &sc : shape_cases(p.dt == dnnl_f32)) {
        if (sc.src.kind != sc.dst.kind) continue; // backward keeps one layout per case
        auto ran = check_bwd(p.alg, p.dt, sc);
        EXPECT_TRUE(contains(ran, "cpu:eltwise:ref")) << sc.name;
    }
}

INSTANTIATE_TEST_SUITE_P(eltwise, eltwise_alg, ::testing::ValuesIn(float_cases()), case_name);

TEST(eltwise, integer_and_mixed_types_forward) {
    const shape_case_t sc = {"3x5x7", layout_t::plain({3, 5, 7}), layout_t::plain({3, 5, 7})};
    for (auto dt : {dnnl_s32, dnnl_s8, dnnl_u8})
        for (auto alg : {dnnl_eltwise_relu, dnnl_eltwise_linear, dnnl_eltwise_abs,
                     dnnl_eltwise_clip, dnnl_eltwise_square, dnnl_eltwise_round}) {
            check_fwd(alg, dt, dt, sc);
            check_fwd(alg, dt, dnnl_f32, sc);
        }
    check_fwd(dnnl_eltwise_gelu_erf, dnnl_f32, dnnl_bf16, sc);
    check_fwd(dnnl_eltwise_tanh, dnnl_f16, dnnl_f32, sc);
    check_fwd(dnnl_eltwise_relu, dnnl_f32, dnnl_s8, sc);
}

TEST(eltwise, zero_size_tensor_is_a_no_op) {
    layout_t l = layout_t::plain({0, 5});
    dnnl_memory_desc_t md = l.md(dnnl_f32);
    dnnl_primitive_desc_t pd = nullptr, bwd = nullptr;
    ASSERT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, env().engine,
                      dnnl_forward_inference, dnnl_eltwise_gelu_erf, md, md, 0.f, 0.f, nullptr),
            dnnl_success);
    dnnl_memory_t m = make_memory(md, nullptr);
    EXPECT_EQ(run(pd, {{DNNL_ARG_SRC, m}, {DNNL_ARG_DST, m}}), dnnl_success);
    ASSERT_EQ(dnnl_eltwise_backward_primitive_desc_create(&bwd, env().engine,
                      dnnl_eltwise_gelu_erf, md, md, md, 0.f, 0.f, pd, nullptr),
            dnnl_success);
    EXPECT_EQ(run(bwd, {{DNNL_ARG_SRC, m}, {DNNL_ARG_DIFF_DST, m}, {DNNL_ARG_DIFF_SRC, m}}),
            dnnl_success);
    dnnl_memory_destroy(m);
    dnnl_primitive_desc_destroy(bwd);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(md);
}

TEST(eltwise, dst_any_takes_the_src_layout) {
    dnnl_dims_t dims = {2, 17, 3, 5};
    dnnl_memory_desc_t src = nullptr, any = nullptr;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&src, 4, dims, dnnl_f32, dnnl_nChw16c),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&any, 4, dims, dnnl_f32, dnnl_format_tag_any),
            dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, env().engine,
                      dnnl_forward_inference, dnnl_eltwise_relu, src, any, 0.f, 0.f, nullptr),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0), src),
            1);
    // Backward: diff tensors given as any follow the data tensor.
    dnnl_primitive_desc_t bwd = nullptr;
    ASSERT_EQ(dnnl_eltwise_backward_primitive_desc_create(&bwd, env().engine,
                      dnnl_eltwise_relu, any, any, src, 0.f, 0.f, pd, nullptr),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(
                      dnnl_primitive_desc_query_md(bwd, dnnl_query_diff_src_md, 0), src),
            1);
    EXPECT_EQ(dnnl_memory_desc_equal(
                      dnnl_primitive_desc_query_md(bwd, dnnl_query_diff_dst_md, 0), src),
            1);
    dnnl_primitive_desc_destroy(bwd);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(src);
    dnnl_memory_desc_destroy(any);
}

TEST(eltwise, queries_report_alg_alpha_beta_and_impl) {
    layout_t l = layout_t::plain({64, 64});
    dnnl_memory_desc_t md = l.md(dnnl_f32);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, env().engine,
                      dnnl_forward_inference, dnnl_eltwise_clip, md, md, -1.f, 2.f, nullptr),
            dnnl_success);
    dnnl_alg_kind_t alg;
    float alpha = 0, beta = 0;
    EXPECT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_alg_kind, 0, &alg), dnnl_success);
    EXPECT_EQ(alg, dnnl_eltwise_clip);
    EXPECT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_alpha_f32, 0, &alpha), dnnl_success);
    EXPECT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_beta_f32, 0, &beta), dnnl_success);
    EXPECT_EQ(alpha, -1.f);
    EXPECT_EQ(beta, 2.f);
    if (has_avx512()) {
        EXPECT_EQ(impl_name(pd), "cpu:eltwise:avx512");
    }
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(md);
}

TEST(eltwise, large_out_of_place_tensor_uses_streaming_stores_correctly) {
    // Past the streaming-store threshold, with a misaligned dst start (offset view).
    const dnnl_dim_t n = (40 << 20) / 8 + 13;
    layout_t l = layout_t::plain({n});
    dnnl_memory_desc_t md = l.md(dnnl_f32);
    std::vector<float> src(n), dst(n + 1, -7.f);
    for (dnnl_dim_t i = 0; i < n; ++i)
        src[i] = float(input_value(i, -5, 5));
    dnnl_primitive_desc_t pd = nullptr;
    for (auto alg : {dnnl_eltwise_relu, dnnl_eltwise_gelu_erf}) {
        ASSERT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, env().engine,
                          dnnl_forward_inference, alg, md, md, 0.f, 0.f, nullptr),
                dnnl_success);
        dnnl_memory_t ms = make_memory(md, src.data());
        dnnl_memory_t mdst = make_memory(md, dst.data() + 1);
        ASSERT_EQ(run(pd, {{DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, mdst}}), dnnl_success);
        EXPECT_EQ(dst[0], -7.f);
        for (dnnl_dim_t i = 0; i < n; i += 997)
            ASSERT_TRUE(close(dst[i + 1], eltwise_ref::forward(alg, src[i], 0, 0), dnnl_f32)) << i;
        ASSERT_TRUE(close(dst[n], eltwise_ref::forward(alg, src[n - 1], 0, 0), dnnl_f32));
        dnnl_memory_destroy(ms);
        dnnl_memory_destroy(mdst);
        dnnl_primitive_desc_destroy(pd);
    }
    dnnl_memory_desc_destroy(md);
}

TEST(eltwise, post_ops_binary_add_and_eltwise_run_on_the_reference) {
    layout_t l = layout_t::plain({4, 6});
    dnnl_memory_desc_t md = l.md(dnnl_f32);
    dnnl_dims_t bdims = {1, 6};
    dnnl_memory_desc_t bmd = nullptr;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&bmd, 2, bdims, dnnl_f32, dnnl_ab), dnnl_success);
    dnnl_post_ops_t po = nullptr;
    ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_binary(po, dnnl_binary_add, bmd), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_linear, 2.f, 1.f), dnnl_success);
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, env().engine,
                      dnnl_forward_inference, dnnl_eltwise_relu, md, md, 0.f, 0.f, attr),
            dnnl_success);
    std::vector<float> src(24), bias(6), dst(24);
    for (int i = 0; i < 24; ++i)
        src[i] = float(i % 5) - 2.f;
    for (int i = 0; i < 6; ++i)
        bias[i] = 0.5f * i;
    dnnl_memory_t ms = make_memory(md, src.data()), mdst = make_memory(md, dst.data());
    dnnl_memory_t mb = make_memory(bmd, bias.data());
    ASSERT_EQ(run(pd,
                      {{DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, mdst},
                              {DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, mb}}),
            dnnl_success);
    for (int i = 0; i < 24; ++i)
        EXPECT_FLOAT_EQ(dst[i], 2.f * (std::max(0.f, src[i]) + bias[i % 6]) + 1.f) << i;
    // The binary source is an argument: leaving it out is an error.
    EXPECT_EQ(run(pd, {{DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, mdst}}), dnnl_invalid_arguments);
    dnnl_memory_destroy(ms);
    dnnl_memory_destroy(mdst);
    dnnl_memory_destroy(mb);
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_attr_destroy(attr);
    dnnl_post_ops_destroy(po);
    dnnl_memory_desc_destroy(bmd);
    dnnl_memory_desc_destroy(md);
}

TEST(eltwise, bad_arguments_are_rejected_with_a_status) {
    layout_t l = layout_t::plain({4, 6}), other = layout_t::plain({4, 7});
    dnnl_memory_desc_t md = l.md(dnnl_f32), md2 = other.md(dnnl_f32);
    dnnl_engine_t eng = env().engine;
    dnnl_primitive_desc_t pd = nullptr, fwd = nullptr;
    auto fwd_create = [&](dnnl_primitive_desc_t *out, dnnl_prop_kind_t prop,
                              dnnl_alg_kind_t alg, const_dnnl_memory_desc_t s,
                              const_dnnl_memory_desc_t d, float alpha) {
        return dnnl_eltwise_forward_primitive_desc_create(
                out, eng, prop, alg, s, d, alpha, 0.f, nullptr);
    };
    EXPECT_EQ(fwd_create(nullptr, dnnl_forward_training, dnnl_eltwise_relu, md, md, 0.f),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd_create(&pd, dnnl_forward_training, dnnl_eltwise_relu, md, md2, 0.f),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd_create(&pd, dnnl_forward_training, dnnl_binary_add, md, md, 0.f),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd_create(&pd, dnnl_forward_training, dnnl_alg_kind_undef, md, md, 0.f),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd_create(&pd, dnnl_backward_data, dnnl_eltwise_relu, md, md, 0.f),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd_create(&pd, dnnl_forward_training, dnnl_eltwise_relu, nullptr, md, 0.f),
            dnnl_invalid_arguments);
    EXPECT_EQ(fwd_create(&pd, dnnl_forward_training, dnnl_eltwise_relu_use_dst_for_bwd, md,
                      md, -0.5f),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, nullptr, dnnl_forward_training,
                      dnnl_eltwise_relu, md, md, 0.f, 0.f, nullptr),
            dnnl_invalid_arguments);

    ASSERT_EQ(fwd_create(&fwd, dnnl_forward_training, dnnl_eltwise_relu, md, md, 0.f),
            dnnl_success);
    // Backward needs the forward hint, matching dims, and an algorithm with a derivative.
    EXPECT_EQ(dnnl_eltwise_backward_primitive_desc_create(
                      &pd, eng, dnnl_eltwise_relu, md, md, md, 0.f, 0.f, nullptr, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_eltwise_backward_primitive_desc_create(
                      &pd, eng, dnnl_eltwise_relu, md, md2, md, 0.f, 0.f, fwd, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_eltwise_backward_primitive_desc_create(
                      &pd, eng, dnnl_eltwise_round, md, md, md, 0.f, 0.f, fwd, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_eltwise_backward_primitive_desc_create(
                      nullptr, eng, dnnl_eltwise_relu, md, md, md, 0.f, 0.f, fwd, nullptr),
            dnnl_invalid_arguments);
    // Integer backward has no implementation.
    dnnl_memory_desc_t imd = l.md(dnnl_s32);
    EXPECT_EQ(dnnl_eltwise_backward_primitive_desc_create(
                      &pd, eng, dnnl_eltwise_relu, imd, imd, imd, 0.f, 0.f, fwd, nullptr),
            dnnl_unimplemented);

    // Execution with memory smaller than the primitive's descriptor, or without an argument,
    // is refused; a larger memory is read through the primitive's descriptor, as oneDNN does.
    std::vector<float> a(24), b(28), c(18);
    layout_t small = layout_t::plain({3, 6});
    dnnl_memory_desc_t md3 = small.md(dnnl_f32);
    dnnl_memory_t ma = make_memory(md, a.data()), mb = make_memory(md2, b.data());
    dnnl_memory_t mc = make_memory(md3, c.data());
    EXPECT_EQ(run(fwd, {{DNNL_ARG_SRC, ma}, {DNNL_ARG_DST, mc}}), dnnl_invalid_arguments);
    EXPECT_EQ(run(fwd, {{DNNL_ARG_SRC, ma}, {DNNL_ARG_DST, mb}}), dnnl_success);
    EXPECT_EQ(run(fwd, {{DNNL_ARG_SRC, ma}}), dnnl_invalid_arguments);
    EXPECT_EQ(run(fwd, {{DNNL_ARG_SRC, ma}, {DNNL_ARG_DST, ma}}), dnnl_success);
    dnnl_memory_destroy(ma);
    dnnl_memory_destroy(mb);
    dnnl_memory_destroy(mc);
    dnnl_memory_desc_destroy(md3);
    dnnl_primitive_desc_destroy(fwd);
    dnnl_memory_desc_destroy(imd);
    dnnl_memory_desc_destroy(md);
    dnnl_memory_desc_destroy(md2);
}
