// Softmax forward and backward through the C API, both algorithms, every implementation
// (dnnl_primitive_desc_next_impl walks them), against double-precision formulas written here:
// any axis, f32/bf16/f16 (s8/u8 dst in training and inference), plain, strided and blocked layouts with
// tails, zero-size and single-element tensors, src/dst scales, post-ops, streaming-size
// problems, and bad arguments.
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "primitives/c_tensor.hpp"
#include "primitives/softmax_ref.hpp"

namespace {

using namespace c_tensor;

struct sm_case_t {
    dims_t dims;
    int axis;
    dnnl_alg_kind_t alg;
    dnnl_data_type_t sdt, ddt;
    dnnl_format_tag_t tag;
    dnnl_prop_kind_t prop = dnnl_forward_training;
    float src_scale = 0.f, dst_scale = 0.f; // 0: none
    bool relu_post_op = false;
};

// Expected forward values (f32 from double) for every logical element, row-major.
std::vector<double> ref_fwd(const tensor_t &src, const sm_case_t &c) {
    const int nd = static_cast<int>(c.dims.size());
    const int64_t n = src.lay.nelems();
    std::vector<double> out(n);
    if (n == 0) return out;
    int64_t pos[DNNL_MAX_NDIMS] = {};
    int64_t stride = 1;
    for (int d = nd - 1; d > c.axis; --d)
        stride *= c.dims[d];
    const int64_t C = c.dims[c.axis];
    int64_t i = 0;
    do {
        if (pos[c.axis] == 0) {
            std::vector<double> x(C);
            int64_t p[DNNL_MAX_NDIMS];
            std::copy(pos, pos + nd, p);
            for (int64_t k = 0; k < C; ++k) {
                p[c.axis] = k;
                x[k] = src.get(p);
            }
            const std::vector<double> y = softmax_ref::slice(c.alg, x);
            for (int64_t k = 0; k < C; ++k) {
                double v = y[k];
                if (c.src_scale) v *= c.src_scale;
                if (c.relu_post_op) v = std::max(0.0, v);
                if (c.dst_scale) v /= c.dst_scale;
                out[i + k * stride] = v;
            }
        }
        ++i;
    } while (next_pos(pos, src.lay.dims, nd));
    return out;
}

struct softmax_test : public engine_fixture {
    dnnl_memory_desc_t md(const dims_t &dims, dnnl_data_type_t dt, dnnl_format_tag_t tag) {
        return make_md(spec_t(dims, dt, tag));
    }

    dnnl_primitive_attr_t make_attr(const sm_case_t &c) {
        dnnl_primitive_attr_t attr = nullptr;
        EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
        if (c.src_scale) dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 0);
        if (c.dst_scale) dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_DST, 0);
        if (c.relu_post_op) {
            dnnl_post_ops_t po;
            dnnl_post_ops_create(&po);
            dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f);
            dnnl_primitive_attr_set_post_ops(attr, po);
            dnnl_post_ops_destroy(po);
        }
        return attr;
    }

    // Runs forward with every implementation; returns how many ran.
    int check_fwd(const sm_case_t &c) {
        dnnl_memory_desc_t smd = md(c.dims, c.sdt, c.tag), dmd = md(c.dims, c.ddt, c.tag);
        dnnl_primitive_attr_t attr = make_attr(c);
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_softmax_forward_primitive_desc_create(
                          &pd, engine, c.prop, c.alg, smd, dmd, c.axis, attr),
                dnnl_success);
        int ran = 0;
        if (pd) {
            tensor_t src(engine, smd);
            src.fill_random(7);
            const auto exp = ref_fwd(src, c);
            dims_t one = {1};
            tensor_t ss(engine, spec_t(one, dnnl_f32, dnnl_a)), ds(engine, spec_t(one, dnnl_f32, dnnl_a));
            int64_t z[1] = {0};
            ss.set(z, c.src_scale);
            ds.set(z, c.dst_scale);
            do {
                SCOPED_TRACE(impl_name(pd));
                tensor_t dst(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0), 0x55);
                std::vector<dnnl_exec_arg_t> args
                        = {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_DST, dst.mem}};
                if (c.src_scale) args.push_back({DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, ss.mem});
                if (c.dst_scale) args.push_back({DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, ds.mem});
                if (execute(pd, args) != dnnl_success) {
                    ADD_FAILURE() << "execute failed";
                    break;
                }
                ++ran;
                int64_t pos[DNNL_MAX_NDIMS] = {};
                int64_t i = 0, bad = 0;
                if (src.lay.nelems() > 0) do {
                        const float e = static_cast<float>(exp[i++]);
                        const float got = dst.get(pos);
                        const bool is_int = c.ddt == dnnl_s8 || c.ddt == dnnl_u8;
                        const float tol = is_int ? 1.f
                                                 : tolerance(c.ddt, e)
                                        + (c.ddt == dnnl_f32 ? 2e-6f : 1e-3f);
                        const float want = is_int ? round_to(c.ddt, e) : e;
                        if (!(std::fabs(got - want) <= tol) && bad++ < 5)
                            ADD_FAILURE() << "at " << i - 1 << ": expected " << want << " got " << got;
                    } while (next_pos(pos, dst.lay.dims, dst.lay.ndims));
                EXPECT_EQ(bad, 0);
                EXPECT_TRUE(dst.padding_is_zero());
            } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
            dnnl_primitive_desc_destroy(pd);
        }
        dnnl_primitive_attr_destroy(attr);
        dnnl_memory_desc_destroy(smd);
        dnnl_memory_desc_destroy(dmd);
        return ran;
    }

    int check_bwd(const dims_t &dims, int axis, dnnl_alg_kind_t alg, dnnl_data_type_t dt,
            dnnl_format_tag_t tag) {
        dnnl_memory_desc_t m = md(dims, dt, tag);
        dnnl_primitive_desc_t fwd = nullptr, pd = nullptr;
        EXPECT_EQ(dnnl_softmax_forward_primitive_desc_create(
                          &fwd, engine, dnnl_forward_training, alg, m, m, axis, nullptr),
                dnnl_success);
        EXPECT_EQ(dnnl_softmax_backward_primitive_desc_create(
                          &pd, engine, alg, m, m, m, axis, fwd, nullptr),
                dnnl_success);
        int ran = 0;
        if (pd) {
            tensor_t y(engine, m), g(engine, m);
            g.fill_random(11);
            // dst: a genuine softmax output (any values would do for the formula).
            sm_case_t c {dims, axis, alg, dt, dt, tag};
            tensor_t x(engine, m);
            x.fill_random(5);
            const auto yv = ref_fwd(x, c);
            const int nd = static_cast<int>(dims.size());
            int64_t pos[DNNL_MAX_NDIMS] = {};
            int64_t i = 0;
            const int64_t n = y.lay.nelems();
            if (n > 0) do
                    y.set(pos, static_cast<float>(yv[i++]));
                while (next_pos(pos, y.lay.dims, nd));
            // Reference from the stored (rounded) values.
            std::vector<double> exp(n);
            int64_t stride = 1;
            for (int d = nd - 1; d > axis; --d)
                stride *= dims[d];
            std::fill(pos, pos + DNNL_MAX_NDIMS, 0);
            i = 0;
            if (n > 0) do {
                    if (pos[axis] == 0) {
                        int64_t p[DNNL_MAX_NDIMS];
                        std::copy(pos, pos + nd, p);
                        std::vector<double> ys, gs;
                        for (int64_t k = 0; k < dims[axis]; ++k) {
                            p[axis] = k;
                            ys.push_back(y.get(p));
                            gs.push_back(g.get(p));
                        }
                        const std::vector<double> dx = softmax_ref::backward_slice(alg, ys, gs);
                        for (int64_t k = 0; k < dims[axis]; ++k)
                            exp[i + k * stride] = dx[size_t(k)];
                    }
                    ++i;
                } while (next_pos(pos, y.lay.dims, nd));
            do {
                SCOPED_TRACE(impl_name(pd));
                tensor_t ds(engine, dnnl_primitive_desc_query_md(pd, dnnl_query_diff_src_md, 0), 0x55);
                if (execute(pd, {{DNNL_ARG_DST, y.mem}, {DNNL_ARG_DIFF_DST, g.mem},
                                              {DNNL_ARG_DIFF_SRC, ds.mem}}) != dnnl_success) {
                    ADD_FAILURE() << "execute failed";
                    break;
                }
                ++ran;
                std::fill(pos, pos + DNNL_MAX_NDIMS, 0);
                i = 0;
                int64_t bad = 0;
                if (n > 0) do {
                        const float e = static_cast<float>(exp[i++]);
                        const float got = ds.get(pos);
                        const float tol = tolerance(dt, e) + (dt == dnnl_f32 ? 1e-5f : 2e-2f);
                        if (!(std::fabs(got - e) <= tol) && bad++ < 5)
                            ADD_FAILURE() << "at " << i - 1 << ": expected " << e << " got " << got;
                    } while (next_pos(pos, ds.lay.dims, nd));
                EXPECT_EQ(bad, 0);
            } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
            dnnl_primitive_desc_destroy(pd);
        }
        dnnl_primitive_desc_destroy(fwd);
        dnnl_memory_desc_destroy(m);
        return ran;
    }
};

const dnnl_alg_kind_t algs[] = {dnnl_softmax_accurate, dnnl_softmax_log};

TEST_F(softmax_test, forward_every_axis_plain_f32) {
    for (auto alg : algs) {
        EXPECT_EQ(check_fwd({{1}, 0, alg, dnnl_f32, dnnl_f32, dnnl_a}), 2);
        EXPECT_EQ(check_fwd({{37}, 0, alg, dnnl_f32, dnnl_f32, dnnl_a}), 2);
        for (int axis = 0; axis < 3; ++axis)
            EXPECT_GE(check_fwd({{3, 5, 19}, axis, alg, dnnl_f32, dnnl_f32, dnnl_abc}), 1);
        EXPECT_EQ(check_fwd({{7, 1000}, 1, alg, dnnl_f32, dnnl_f32, dnnl_ab,
                          dnnl_forward_inference}),
                2);
    }
}

TEST_F(softmax_test, forward_layouts_blocked_and_channels_last) {
    for (auto alg : algs) {
        EXPECT_GE(check_fwd({{2, 19, 3, 3}, 1, alg, dnnl_f32, dnnl_f32, dnnl_aBcd16b}), 1);
        EXPECT_GE(check_fwd({{2, 19, 3, 3}, 1, alg, dnnl_f32, dnnl_f32, dnnl_acdb}), 1);
        EXPECT_GE(check_fwd({{2, 19, 3, 3}, 3, alg, dnnl_bf16, dnnl_bf16, dnnl_aBcd16b}), 1);
    }
}

TEST_F(softmax_test, forward_data_types_and_scales) {
    for (auto alg : algs) {
        EXPECT_EQ(check_fwd({{5, 67}, 1, alg, dnnl_bf16, dnnl_bf16, dnnl_ab}), 2);
        EXPECT_EQ(check_fwd({{5, 67}, 1, alg, dnnl_f16, dnnl_f32, dnnl_ab}), 2);
        EXPECT_EQ(check_fwd({{5, 67}, 1, alg, dnnl_f32, dnnl_f16, dnnl_ab}), 2);
        sm_case_t c {{4, 33}, 1, alg, dnnl_f32, dnnl_f32, dnnl_ab};
        c.src_scale = 2.f;
        c.dst_scale = 0.5f;
        EXPECT_EQ(check_fwd(c), 2);
    }
    for (auto prop : {dnnl_forward_inference, dnnl_forward_training}) {
        SCOPED_TRACE(dnnl_prop_kind2str(prop));
        sm_case_t q {{6, 40}, 1, dnnl_softmax_accurate, dnnl_f32, dnnl_u8, dnnl_ab, prop};
        q.dst_scale = 1.f / 255.f;
        EXPECT_EQ(check_fwd(q), 2);
        q.ddt = dnnl_s8;
        q.dst_scale = 1.f / 127.f;
        EXPECT_EQ(check_fwd(q), 2);
        q.alg = dnnl_softmax_log; // negative values: s8 saturates at -128
        q.dst_scale = 1.f / 16.f;
        q.src_scale = 3.f;
        EXPECT_EQ(check_fwd(q), 2);
    }
}

TEST_F(softmax_test, forward_post_ops) {
    sm_case_t c {{3, 40}, 1, dnnl_softmax_log, dnnl_f32, dnnl_f32, dnnl_ab};
    c.relu_post_op = true;
    c.src_scale = -1.f;
    EXPECT_EQ(check_fwd(c), 2);
    c.tag = dnnl_ba;
    EXPECT_EQ(check_fwd(c), 1); // only the reference takes a strided axis
}

// Outputs of 16 MiB and more take the non-temporal path, here with rows that start off a
// 64-byte boundary. Filled and read through pointers (dense row-major f32) to stay quick;
// every 17th row is checked in double.
TEST_F(softmax_test, streaming_size_rows_unaligned) {
    const int64_t R = 4096, C = 1027;
    dnnl_memory_desc_t m = md({R, C}, dnnl_f32, dnnl_ab);
    for (auto alg : algs) {
        dnnl_primitive_desc_t fwd = nullptr, bwd = nullptr;
        ASSERT_EQ(dnnl_softmax_forward_primitive_desc_create(
                          &fwd, engine, dnnl_forward_training, alg, m, m, 1, nullptr),
                dnnl_success);
        ASSERT_EQ(dnnl_softmax_backward_primitive_desc_create(
                          &bwd, engine, alg, m, m, m, 1, fwd, nullptr),
                dnnl_success);
        EXPECT_NE(impl_name(fwd).find("cpu:softmax:dense"), std::string::npos);
        tensor_t x(engine, m), y(engine, m, 0x55), g(engine, m), ds(engine, m, 0x55);
        float *xp = static_cast<float *>(x.data()), *yp = static_cast<float *>(y.data());
        float *gp = static_cast<float *>(g.data()), *dp = static_cast<float *>(ds.data());
        for (int64_t i = 0; i < R * C; ++i) {
            xp[i] = static_cast<float>((uint64_t(i) * 2654435761u) % 4096) / 256.f - 8.f;
            gp[i] = static_cast<float>((uint64_t(i) * 40503u) % 1000) / 250.f - 2.f;
        }
        ASSERT_EQ(execute(fwd, {{DNNL_ARG_SRC, x.mem}, {DNNL_ARG_DST, y.mem}}), dnnl_success);
        ASSERT_EQ(execute(bwd, {{DNNL_ARG_DST, y.mem}, {DNNL_ARG_DIFF_DST, g.mem},
                                       {DNNL_ARG_DIFF_SRC, ds.mem}}),
                dnnl_success);
        int bad = 0;
        for (int64_t r = 0; r < R; r += 17) {
            const float *xr = xp + r * C, *yr = yp + r * C, *gr = gp + r * C, *dr = dp + r * C;
            double mx = -INFINITY, sum = 0, gs = 0;
            for (int64_t c = 0; c < C; ++c)
                mx = std::max(mx, double(xr[c]));
            for (int64_t c = 0; c < C; ++c)
                sum += std::exp(xr[c] - mx);
            for (int64_t c = 0; c < C; ++c)
                gs += alg == dnnl_softmax_log ? gr[c] : double(gr[c]) * yr[c];
            for (int64_t c = 0; c < C; ++c) {
                const double e = alg == dnnl_softmax_log ? xr[c] - mx - std::log(sum)
                                                         : std::exp(xr[c] - mx) / sum;
                const double d = alg == dnnl_softmax_log ? gr[c] - std::exp(double(yr[c])) * gs
                                                         : yr[c] * (gr[c] - gs);
                if (std::fabs(yr[c] - e) > 1e-5 * std::fabs(e) + 1e-6 && bad++ < 5)
                    ADD_FAILURE() << "dst row " << r << " c " << c << ": " << e << " vs " << yr[c];
                if (std::fabs(dr[c] - d) > 1e-5 * std::fabs(d) + 1e-5 && bad++ < 5)
                    ADD_FAILURE() << "diff_src row " << r << " c " << c << ": " << d << " vs "
                                  << dr[c];
            }
        }
        EXPECT_EQ(bad, 0);
        dnnl_primitive_desc_destroy(bwd);
        dnnl_primitive_desc_destroy(fwd);
    }
    dnnl_memory_desc_destroy(m);
}

TEST_F(softmax_test, backward_every_axis_and_type) {
    for (auto alg : algs) {
        EXPECT_EQ(check_bwd({1}, 0, alg, dnnl_f32, dnnl_a), 2);
        for (int axis = 0; axis < 3; ++axis)
            EXPECT_GE(check_bwd({3, 4, 21}, axis, alg, dnnl_f32, dnnl_abc), 1);
        EXPECT_EQ(check_bwd({5, 50}, 1, alg, dnnl_bf16, dnnl_ab), 2);
        EXPECT_EQ(check_bwd({5, 50}, 1, alg, dnnl_f16, dnnl_ab), 2);
        EXPECT_GE(check_bwd({2, 19, 2, 3}, 1, alg, dnnl_f32, dnnl_aBcd16b), 1);
    }
}

TEST_F(softmax_test, zero_size_is_a_no_op) {
    EXPECT_EQ(check_fwd({{0, 5}, 1, dnnl_softmax_accurate, dnnl_f32, dnnl_f32, dnnl_ab}), 2);
    EXPECT_EQ(check_fwd({{4, 0}, 1, dnnl_softmax_log, dnnl_f32, dnnl_f32, dnnl_ab}), 2);
    EXPECT_EQ(check_bwd({0, 3}, 1, dnnl_softmax_log, dnnl_f32, dnnl_ab), 2);
}

TEST_F(softmax_test, bad_arguments) {
    dnnl_memory_desc_t a = md({2, 3}, dnnl_f32, dnnl_ab), b = md({2, 4}, dnnl_f32, dnnl_ab);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_softmax_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, dnnl_softmax_accurate, a, a, 2, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_softmax_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, dnnl_softmax_accurate, a, a, -1, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_softmax_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, dnnl_eltwise_relu, a, a, 1, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_softmax_forward_primitive_desc_create(
                      &pd, engine, dnnl_backward_data, dnnl_softmax_accurate, a, a, 1, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_softmax_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, dnnl_softmax_accurate, a, b, 1, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_softmax_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, dnnl_softmax_accurate, nullptr, a, 1,
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_softmax_forward_primitive_desc_create(
                      nullptr, engine, dnnl_forward_training, dnnl_softmax_accurate, a, a, 1,
                      nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_softmax_backward_primitive_desc_create(
                      &pd, engine, dnnl_softmax_accurate, a, a, a, 1, nullptr, nullptr),
            dnnl_invalid_arguments);
    // int8 dst in training, as oneDNN (softmax keeps nothing else for backward).
    dnnl_memory_desc_t q = md({2, 3}, dnnl_u8, dnnl_ab);
    ASSERT_EQ(dnnl_softmax_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_training, dnnl_softmax_accurate, a, q, 1, nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    // The former stub answered unimplemented for everything: a plain problem now works.
    ASSERT_EQ(dnnl_softmax_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_inference, dnnl_softmax_accurate, a, q, 1, nullptr),
            dnnl_success);
    int axis = dnnl_primitive_desc_query_s32(pd, dnnl_query_axis_s32, 0);
    EXPECT_EQ(axis, 1);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(q);
    dnnl_memory_desc_destroy(a);
    dnnl_memory_desc_destroy(b);
}

} // namespace
