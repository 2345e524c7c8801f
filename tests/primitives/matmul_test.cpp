// Matmul through the C API against a double-precision reference (the dot product of matmul_ref.hpp), on every
// implementation (dnnl_primitive_desc_next_impl): shapes 1 / odd / K beyond one cache block,
// transposed and strided operands, batch broadcast, bias broadcast, scales, zero points,
// post-ops, bf16/f16/int8, runtime dimensions, `any`, zero-size, and bad arguments.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "c_tensor.hpp"
#include "matmul_ref.hpp"

namespace {

using namespace c_tensor;

struct tensor_t {
    dnnl_memory_desc_t md = nullptr; // the resolved one (owned)
    dnnl_memory_t mem = nullptr;
    dnnl_data_type_t dt = dnnl_f32;
    int nd = 0;
    int64_t dims[DNNL_MAX_NDIMS] = {}, strides[DNNL_MAX_NDIMS] = {};
    ~tensor_t() {
        if (mem) dnnl_memory_destroy(mem);
        if (md) dnnl_memory_desc_destroy(md);
    }
    void *ptr() const {
        void *p = nullptr;
        dnnl_memory_get_data_handle(mem, &p);
        return p;
    }
    int64_t off(const int64_t *pos) const {
        int64_t o = 0;
        for (int d = 0; d < nd; ++d)
            o += (dims[d] == 1 ? 0 : pos[d]) * strides[d];
        return o;
    }
    float get(const int64_t *pos) const {
        const int64_t o = off(pos);
        switch (dt) {
            case dnnl_f32: return static_cast<float *>(ptr())[o];
            case dnnl_bf16: return from_bf16(static_cast<uint16_t *>(ptr())[o]);
            case dnnl_f16: return from_f16(static_cast<uint16_t *>(ptr())[o]);
            case dnnl_s32: return static_cast<float>(static_cast<int32_t *>(ptr())[o]);
            case dnnl_s8: return static_cast<int8_t *>(ptr())[o];
            case dnnl_u8: return static_cast<uint8_t *>(ptr())[o];
            default: return 0;
        }
    }
    void set_flat(int64_t i, float v) const {
        switch (dt) {
            case dnnl_f32: static_cast<float *>(ptr())[i] = v; break;
            case dnnl_bf16: static_cast<uint16_t *>(ptr())[i] = to_bf16(v); break;
            case dnnl_f16: static_cast<uint16_t *>(ptr())[i] = to_f16(v); break;
            case dnnl_s32: static_cast<int32_t *>(ptr())[i] = static_cast<int32_t>(v); break;
            case dnnl_s8: static_cast<int8_t *>(ptr())[i] = static_cast<int8_t>(v); break;
            case dnnl_u8: static_cast<uint8_t *>(ptr())[i] = static_cast<uint8_t>(v); break;
            default: break;
        }
    }
};

// Resolved descriptor `md` (copied) with its memory, filled with small integers-ish values.
void make_tensor(tensor_t &t, dnnl_engine_t eng, const_dnnl_memory_desc_t md, int seed,
        const dims_t &actual_dims = {}) {
    if (!actual_dims.empty()) { // runtime dims: build the actual row-major descriptor
        dnnl_dims_t d = {};
        for (size_t i = 0; i < actual_dims.size(); ++i)
            d[i] = actual_dims[i];
        dnnl_data_type_t dt;
        dnnl_memory_desc_query(md, dnnl_query_data_type, &dt);
        ASSERT_EQ(dnnl_memory_desc_create_with_strides(
                          &t.md, static_cast<int>(actual_dims.size()), d, dt, nullptr),
                dnnl_success);
    } else {
        ASSERT_EQ(dnnl_memory_desc_clone(&t.md, md), dnnl_success);
    }
    dnnl_memory_desc_query(t.md, dnnl_query_ndims_s32, &t.nd);
    dnnl_memory_desc_query(t.md, dnnl_query_data_type, &t.dt);
    const int64_t *dims = nullptr, *strides = nullptr;
    dnnl_memory_desc_query(t.md, dnnl_query_dims, &dims);
    dnnl_memory_desc_query(t.md, dnnl_query_strides, &strides);
    for (int d = 0; d < t.nd; ++d) {
        t.dims[d] = dims[d];
        t.strides[d] = strides[d];
    }
    ASSERT_EQ(dnnl_memory_create(&t.mem, t.md, eng, DNNL_MEMORY_ALLOCATE), dnnl_success);
    const size_t n = dnnl_memory_desc_get_size(t.md) / dt_size(t.dt);
    std::mt19937 gen(seed);
    for (size_t i = 0; i < n; ++i) {
        int v = static_cast<int>(gen() % 9) - 4;
        if (t.dt == dnnl_u8) v += 4;
        t.set_flat(static_cast<int64_t>(i), t.dt == dnnl_f32 ? v * 0.25f : float(v));
    }
}

struct attr_spec_t {
    float src_scale = 0, dst_scale = 0; // 0: none
    bool wei_scale_per_n = false;
    int src_zp = 0, wei_zp = 0, dst_zp = 0;
    bool dst_zp_per_n = false; // dst_zp + n % 3 for column n
    bool relu = false, sum = false, binary_add_n = false;
};

struct case_t {
    spec_t src, wei, bias, dst; // bias.dims empty: none
    attr_spec_t a;
    bool runtime = false; // M, N, K given at execution
};

class matmul_test : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_EQ(dnnl_engine_create(&eng, dnnl_cpu, 0), dnnl_success);
        ASSERT_EQ(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags), dnnl_success); }
    void TearDown() override {
        dnnl_stream_destroy(strm);
        dnnl_engine_destroy(eng);
    }
    // Runs the case on every implementation; returns how many ran.
    int run(const case_t &c) {
        const int nd = static_cast<int>(c.dst.dims.size());
        auto with_rt = [&](spec_t s) {
            if (!c.runtime) return s;
            for (auto &d : s.dims)
                d = DNNL_RUNTIME_DIM_VAL;
            s.tag = dnnl_format_tag_undef;
            s.strides.assign(s.dims.size(), DNNL_RUNTIME_DIM_VAL);
            return s;
        };
        dnnl_memory_desc_t smd = make_md(with_rt(c.src)), wmd = make_md(with_rt(c.wei)),
                           dmd = make_md(with_rt(c.dst));
        dnnl_memory_desc_t bmd = c.bias.dims.empty() ? nullptr : make_md(c.bias);
        dnnl_primitive_attr_t attr;
        dnnl_primitive_attr_create(&attr);
        const int n_mask = 1 << (nd - 1);
        if (c.a.src_scale) dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 0);
        if (c.a.wei_scale_per_n)
            dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_WEIGHTS, n_mask);
        if (c.a.dst_scale) dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_DST, 0);
        if (c.a.src_zp) dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_SRC, 0);
        if (c.a.wei_zp) dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_WEIGHTS, 0);
        if (c.a.dst_zp)
            dnnl_primitive_attr_set_zero_points_mask(
                    attr, DNNL_ARG_DST, c.a.dst_zp_per_n ? n_mask : 0);
        dnnl_post_ops_t po;
        dnnl_post_ops_create(&po);
        dnnl_memory_desc_t bin_md = nullptr;
        if (c.a.sum) dnnl_post_ops_append_sum(po, 0.5f, 0, dnnl_data_type_undef);
        if (c.a.binary_add_n) {
            dims_t bd(nd, 1);
            bd[nd - 1] = c.dst.dims[nd - 1];
            bin_md = make_md(spec_t(bd, dnnl_f32, dnnl_format_tag_undef));
            dnnl_post_ops_append_binary(po, dnnl_binary_add, bin_md);
        }
        if (c.a.relu) dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.1f, 0.f);
        dnnl_primitive_attr_set_post_ops(attr, po);
        dnnl_post_ops_destroy(po);

        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, eng, smd, wmd, bmd, dmd, attr),
                dnnl_success);
        int ran = 0;
        while (pd) {
            const char *name = nullptr;
            dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
            SCOPED_TRACE(name);
            check_one(c, pd, bin_md);
            ++ran;
            if (dnnl_primitive_desc_next_impl(pd) != dnnl_success) break;
        }
        if (pd) dnnl_primitive_desc_destroy(pd);
        dnnl_primitive_attr_destroy(attr);
        for (auto m : {smd, wmd, dmd, bmd, bin_md})
            if (m) dnnl_memory_desc_destroy(m);
        return ran;
    }

    void check_one(const case_t &c, const_dnnl_primitive_desc_t pd, const_dnnl_memory_desc_t bin_md) {
        const int nd = static_cast<int>(c.dst.dims.size());
        tensor_t s, w, b, d, bin, sc_s, sc_w, sc_d, z_s, z_w, z_d;
        auto q = [&](int arg) { return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg); };
        make_tensor(s, eng, q(DNNL_ARG_SRC), 1, c.runtime ? c.src.dims : dims_t {});
        make_tensor(w, eng, q(DNNL_ARG_WEIGHTS), 2, c.runtime ? c.wei.dims : dims_t {});
        make_tensor(d, eng, q(DNNL_ARG_DST), 3, c.runtime ? c.dst.dims : dims_t {});
        std::vector<dnnl_exec_arg_t> args = {{DNNL_ARG_SRC, s.mem}, {DNNL_ARG_WEIGHTS, w.mem},
                {DNNL_ARG_DST, d.mem}};
        if (!c.bias.dims.empty()) {
            make_tensor(b, eng, q(DNNL_ARG_BIAS), 4);
            args.push_back({DNNL_ARG_BIAS, b.mem});
        }
        if (bin_md) {
            make_tensor(bin, eng, bin_md, 5);
            args.push_back({DNNL_ARG_ATTR_MULTIPLE_POST_OP(c.a.sum ? 1 : 0) | DNNL_ARG_SRC_1,
                    bin.mem});
        }
        auto scalar = [&](tensor_t &t, dnnl_data_type_t dt, int64_t n, float v, int arg) {
            dnnl_memory_desc_t md;
            dnnl_dims_t dd = {n};
            dnnl_memory_desc_create_with_tag(&md, 1, dd, dt, dnnl_a);
            make_tensor(t, eng, md, 0);
            dnnl_memory_desc_destroy(md);
            for (int64_t i = 0; i < n; ++i)
                t.set_flat(i, v + 0.25f * (i % 3));
            args.push_back({arg, t.mem});
        };
        const int64_t N = c.dst.dims[nd - 1], K = c.src.dims[nd - 1];
        if (c.a.src_scale) scalar(sc_s, dnnl_f32, 1, c.a.src_scale, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC);
        if (c.a.wei_scale_per_n) scalar(sc_w, dnnl_f32, N, 0.5f, DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS);
        if (c.a.dst_scale) scalar(sc_d, dnnl_f32, 1, c.a.dst_scale, DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST);
        if (c.a.src_zp) scalar(z_s, dnnl_s32, 1, float(c.a.src_zp), DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC);
        if (c.a.wei_zp) scalar(z_w, dnnl_s32, 1, float(c.a.wei_zp), DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS);
        if (c.a.dst_zp) {
            scalar(z_d, dnnl_s32, c.a.dst_zp_per_n ? N : 1, float(c.a.dst_zp),
                    DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST);
            for (int64_t i = 0; i < (c.a.dst_zp_per_n ? N : 1); ++i)
                z_d.set_flat(i, float(c.a.dst_zp + i % 3));
        }

        // Reference before execution (sum reads the old dst).
        int64_t total = 1;
        for (int i = 0; i < nd; ++i)
            total *= c.dst.dims[i];
        std::vector<double> want(total);
        std::vector<int64_t> pos(nd);
        for (int64_t e = 0; e < total; ++e) {
            int64_t r = e;
            for (int i = nd - 1; i >= 0; --i) {
                pos[i] = r % c.dst.dims[i];
                r /= c.dst.dims[i];
            }
            double acc = matmul_ref::dot([&](const int64_t *p) { return s.get(p); },
                    [&](const int64_t *p) { return w.get(p); }, nd, pos.data(), K, c.a.src_zp,
                    c.a.wei_zp);
            const int64_t n = pos[nd - 1];
            if (c.a.src_scale) acc *= c.a.src_scale;
            if (c.a.wei_scale_per_n) acc *= 0.5 + 0.25 * (n % 3);
            if (!c.bias.dims.empty()) acc += b.get(pos.data());
            if (c.a.sum) acc += 0.5 * d.get(pos.data());
            if (bin_md) {
                std::vector<int64_t> bp(nd, 0);
                bp[nd - 1] = n;
                acc += bin.get(bp.data());
            }
            if (c.a.relu && acc < 0) acc *= 0.1;
            if (c.a.dst_scale) acc /= c.a.dst_scale;
            acc += c.a.dst_zp + (c.a.dst_zp_per_n ? n % 3 : 0);
            want[e] = acc;
        }
        dnnl_primitive_t prim;
        ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
        ASSERT_EQ(dnnl_primitive_execute(prim, strm, static_cast<int>(args.size()), args.data()),
                dnnl_success);
        dnnl_stream_wait(strm);
        dnnl_primitive_destroy(prim);
        const bool lowp = d.dt == dnnl_bf16 || d.dt == dnnl_f16;
        int bad = 0;
        for (int64_t e = 0; e < total && bad < 5; ++e) {
            int64_t r = e;
            for (int i = nd - 1; i >= 0; --i) {
                pos[i] = r % c.dst.dims[i];
                r /= c.dst.dims[i];
            }
            const double expect = round_to(d.dt, static_cast<float>(want[e]));
            const double got = d.get(pos.data());
            const double tol = lowp ? 1e-2 * std::max(1.0, std::fabs(want[e]))
                                    : 1e-5 * std::max(1.0, std::fabs(want[e]));
            if (std::fabs(got - expect) > tol) {
                ++bad;
                ADD_FAILURE() << "element " << e << ": got " << got << " want " << expect;
            }
        }
    }

    dnnl_engine_t eng = nullptr;
    dnnl_stream_t strm = nullptr;
};

spec_t plain(dims_t d, dnnl_data_type_t dt = dnnl_f32) {
    return spec_t(std::move(d), dt, dnnl_format_tag_undef);
}

TEST_F(matmul_test, f32_shapes_one_odd_and_k_beyond_a_block) {
    for (auto mnk : std::vector<dims_t> {{1, 1, 1}, {17, 33, 29}, {3, 70, 600}, {45, 31, 257}}) {
        const int64_t M = mnk[0], N = mnk[1], K = mnk[2];
        case_t c {plain({M, K}), plain({K, N}), {}, plain({M, N}), {}};
        EXPECT_EQ(run(c), 2);
    }
}

TEST_F(matmul_test, transposed_and_strided_operands) {
    case_t c {spec_t({19, 23}, dnnl_f32, dnnl_ba), spec_t({23, 37}, dnnl_f32, dnnl_ba), {},
            spec_t({19, 37}, dnnl_f32, dnnl_format_tag_undef, {40, 1}), {}};
    EXPECT_EQ(run(c), 2);
    case_t c2 {spec_t({19, 23}, dnnl_f32, dnnl_format_tag_undef, {30, 1}),
            spec_t({23, 37}, dnnl_f32, dnnl_format_tag_undef, {1, 29}), {},
            spec_t({19, 37}, dnnl_f32, dnnl_format_tag_undef, {1, 21}), {}};
    EXPECT_EQ(run(c2), 2);
}

TEST_F(matmul_test, batch_and_bias_broadcast) {
    case_t c {plain({2, 1, 5, 7}), plain({1, 3, 7, 4}), plain({1, 3, 1, 4}),
            plain({2, 3, 5, 4}), {}};
    EXPECT_EQ(run(c), 2);
    case_t c2 {plain({6, 9, 13}), plain({6, 13, 11}), plain({1, 9, 1}), plain({6, 9, 11}), {}};
    EXPECT_EQ(run(c2), 2);
}

TEST_F(matmul_test, scales_and_post_ops) {
    case_t c {plain({33, 40}), plain({40, 35}), plain({1, 35}), plain({33, 35}), {}};
    c.a.src_scale = 2.f;
    c.a.wei_scale_per_n = true;
    c.a.dst_scale = 4.f;
    c.a.relu = true;
    c.a.binary_add_n = true;
    EXPECT_EQ(run(c), 2);
    c.a.sum = true;
    EXPECT_EQ(run(c), 2);
}

TEST_F(matmul_test, bf16_and_f16) {
    for (auto dt : {dnnl_bf16, dnnl_f16}) {
        case_t c {plain({20, 50}, dt), plain({50, 40}, dt), plain({1, 40}, dnnl_f32),
                plain({20, 40}, dt), {}};
        EXPECT_GE(run(c), 2); // + the bf16 / int8 kernels where the ISA has them
        case_t c2 {plain({20, 50}, dt), plain({50, 40}, dt), {}, plain({20, 40}, dnnl_f32), {}};
        EXPECT_GE(run(c2), 2);
    }
}

TEST_F(matmul_test, int8_with_zero_points_and_scales) {
    for (auto ddt : {dnnl_s32, dnnl_f32, dnnl_s8, dnnl_u8, dnnl_bf16}) {
        case_t c {plain({15, 70}, dnnl_u8), plain({70, 33}, dnnl_s8), {},
                plain({15, 33}, ddt), {}};
        c.a.src_zp = 2;
        c.a.wei_zp = -1;
        if (ddt == dnnl_s8 || ddt == dnnl_u8) {
            c.a.dst_scale = 8.f;
            c.a.dst_zp = 3;
        }
        EXPECT_GE(run(c), 2); // + the bf16 / int8 kernels where the ISA has them
    }
    case_t c {plain({9, 70}, dnnl_s8), plain({70, 33}, dnnl_s8), plain({1, 33}, dnnl_f32),
            plain({9, 33}, dnnl_f32), {}};
    c.a.src_scale = 0.5f;
    c.a.wei_scale_per_n = true;
    EXPECT_GE(run(c), 2); // + the bf16 / int8 kernels where the ISA has them
}

TEST_F(matmul_test, runtime_dimensions) {
    case_t c {plain({31, 45}), plain({45, 17}), {}, plain({31, 17}), {}, true};
    EXPECT_EQ(run(c), 2);
}

TEST_F(matmul_test, int8_runtime_dimensions_with_post_ops) {
    for (auto ddt : {dnnl_f32, dnnl_s8}) {
        case_t c {plain({21, 70}, dnnl_u8), plain({70, 19}, dnnl_s8), {}, plain({21, 19}, ddt),
                {}, true};
        c.a.src_zp = 1;
        c.a.wei_zp = -2;
        c.a.src_scale = 0.5f;
        c.a.dst_scale = 16.f;
        c.a.sum = true;
        c.a.relu = true;
        EXPECT_GE(run(c), 2); // + the int8 kernels where the ISA has them
    }
    case_t f {plain({7, 45}), plain({45, 33}), {}, plain({7, 33}), {}, true};
    f.a.relu = true;
    f.a.sum = true;
    EXPECT_EQ(run(f), 2);
}

TEST_F(matmul_test, int8_bias_and_per_n_dst_zero_points) {
    for (auto bdt : {dnnl_s8, dnnl_u8}) {
        case_t c {plain({13, 40}, dnnl_u8), plain({40, 35}, dnnl_s8), plain({1, 35}, bdt),
                plain({13, 35}, dnnl_f32), {}};
        EXPECT_GE(run(c), 2);
        case_t f {plain({5, 20}), plain({20, 9}), plain({5, 9}, bdt), plain({5, 9}), {}};
        EXPECT_EQ(run(f), 2);
    }
    case_t c {plain({11, 64}, dnnl_s8), plain({64, 37}, dnnl_s8), {}, plain({11, 37}, dnnl_u8),
            {}};
    c.a.dst_scale = 32.f;
    c.a.dst_zp = 5;
    c.a.dst_zp_per_n = true;
    EXPECT_GE(run(c), 2);
}

// f32 weights `any` become the GEMM's panels: matmul_packed_test covers them.
TEST_F(matmul_test, any_dst_resolves_to_plain_and_zero_size_is_a_no_op) {
    case_t c {plain({5, 6}), plain({6, 7}), {},
            spec_t({5, 7}, dnnl_f32, dnnl_format_tag_any), {}};
    EXPECT_EQ(run(c), 2);
    case_t z {plain({0, 6}), plain({6, 7}), {}, plain({0, 7}), {}};
    EXPECT_EQ(run(z), 2);
    case_t k0 {plain({3, 0}), plain({0, 7}), plain({1, 7}), plain({3, 7}), {}};
    EXPECT_EQ(run(k0), 2);
}

TEST_F(matmul_test, bad_arguments_are_reported) {
    dnnl_memory_desc_t a = make_md(plain({4, 5})), b = make_md(plain({6, 7})),
                       d = make_md(plain({4, 7})), b3 = make_md(plain({1, 5, 7}));
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, eng, a, b, nullptr, d, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, eng, a, b3, nullptr, d, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(nullptr, eng, a, b, nullptr, d, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, eng, nullptr, b, nullptr, d, nullptr),
            dnnl_invalid_arguments);
    for (auto m : {a, b, d, b3})
        dnnl_memory_desc_destroy(m);
}

} // namespace
