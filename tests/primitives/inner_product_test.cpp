// Inner product forward, backward data and backward weights (+ bias) through the C API
// against the double-precision reference of inner_product_ref.hpp: 2D and 4D src in plain and
// channels-last layouts (weights `any` follow src), post-ops, bf16, zero-size, bad input.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "c_tensor.hpp"
#include "inner_product_ref.hpp"

namespace {

using namespace c_tensor;

struct mem_t {
    dnnl_memory_t m = nullptr;
    dnnl_data_type_t dt = dnnl_f32;
    std::vector<int64_t> dims, strides;
    ~mem_t() { if (m) dnnl_memory_destroy(m); }
    void init(dnnl_engine_t eng, const_dnnl_memory_desc_t md) {
        ASSERT_EQ(dnnl_memory_create(&m, md, eng, DNNL_MEMORY_ALLOCATE), dnnl_success);
        int nd;
        dnnl_memory_desc_query(md, dnnl_query_ndims_s32, &nd);
        dnnl_memory_desc_query(md, dnnl_query_data_type, &dt);
        const int64_t *d, *s;
        dnnl_memory_desc_query(md, dnnl_query_dims, &d);
        dnnl_memory_desc_query(md, dnnl_query_strides, &s);
        dims.assign(d, d + nd);
        strides.assign(s, s + nd);
    }
    int64_t n() const { int64_t r = 1; for (auto x : dims) r *= x; return r; }
    int64_t off(int64_t lin) const {
        int64_t o = 0;
        for (int i = static_cast<int>(dims.size()) - 1; i >= 0; --i) {
            o += (lin % dims[i]) * strides[i];
            lin /= dims[i];
        }
        return o;
    }
    void *p() const { void *h; dnnl_memory_get_data_handle(m, &h); return h; }
    float get(int64_t lin) const {
        const int64_t o = off(lin);
        return dt == dnnl_bf16 ? from_bf16(static_cast<uint16_t *>(p())[o]) : static_cast<float *>(p())[o];
    }
    void set(int64_t lin, float v) const {
        const int64_t o = off(lin);
        if (dt == dnnl_bf16) static_cast<uint16_t *>(p())[o] = to_bf16(v);
        else static_cast<float *>(p())[o] = v;
    }
    void fill(int seed) const {
        for (int64_t i = 0; i < n(); ++i)
            set(i, static_cast<float>((i * 7 + seed * 3) % 9 - 4) * 0.5f);
    }
};

inner_product_ref::flat_t get(const mem_t &t) {
    return [&t](int64_t i) { return static_cast<double>(t.get(i)); };
}

class ip_test : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(dnnl_engine_create(&eng, dnnl_cpu, 0), dnnl_success);
        ASSERT_EQ(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags), dnnl_success);
    }
    void TearDown() override { dnnl_stream_destroy(strm); dnnl_engine_destroy(eng); }
    const_dnnl_memory_desc_t q(const_dnnl_primitive_desc_t pd, int arg) {
        return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
    }
    void exec(const_dnnl_primitive_desc_t pd, std::vector<dnnl_exec_arg_t> args) {
        dnnl_primitive_t p;
        ASSERT_EQ(dnnl_primitive_create(&p, pd), dnnl_success);
        ASSERT_EQ(dnnl_primitive_execute(p, strm, (int)args.size(), args.data()), dnnl_success);
        dnnl_stream_wait(strm);
        dnnl_primitive_destroy(p);
    }

    // Every direction for src dims `sd` in layout `stag`, OC outputs, data type dt.
    void run_all(dims_t sd, dnnl_format_tag_t stag, int64_t OC, dnnl_data_type_t dt, bool relu) {
        const int nd = static_cast<int>(sd.size());
        const int64_t MB = sd[0];
        int64_t K = 1;
        for (int i = 1; i < nd; ++i) K *= sd[i];
        dims_t wd = sd;
        wd[0] = OC;
        dnnl_memory_desc_t smd = make_md(spec_t(sd, dt, stag)),
                wmd = make_md(spec_t(wd, dt, dnnl_format_tag_any)),
                bmd = make_md(spec_t({OC}, dnnl_f32, dnnl_a)),
                dmd = make_md(spec_t({MB, OC}, dt, dnnl_ab));
        dnnl_primitive_attr_t attr;
        dnnl_primitive_attr_create(&attr);
        if (relu) {
            dnnl_post_ops_t po;
            dnnl_post_ops_create(&po);
            dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f);
            dnnl_primitive_attr_set_post_ops(attr, po);
            dnnl_post_ops_destroy(po);
        }
        dnnl_primitive_desc_t fwd;
        ASSERT_EQ(dnnl_inner_product_forward_primitive_desc_create(&fwd, eng,
                          dnnl_forward_training, smd, wmd, bmd, dmd, attr),
                dnnl_success);
        mem_t s, w, b, d;
        s.init(eng, q(fwd, DNNL_ARG_SRC));
        w.init(eng, q(fwd, DNNL_ARG_WEIGHTS));
        b.init(eng, q(fwd, DNNL_ARG_BIAS));
        d.init(eng, q(fwd, DNNL_ARG_DST));
        s.fill(1);
        w.fill(2);
        b.fill(3);
        exec(fwd, {{DNNL_ARG_SRC, s.m}, {DNNL_ARG_WEIGHTS, w.m}, {DNNL_ARG_BIAS, b.m},
                {DNNL_ARG_DST, d.m}});
        const double tol = dt == dnnl_bf16 ? 2e-2 : 1e-5;
        for (int64_t m = 0; m < MB; ++m)
            for (int64_t o = 0; o < OC; ++o) {
                double acc = b.get(o)
                        + inner_product_ref::forward(get(s), get(w), m, o, K);
                if (relu && acc < 0) acc = 0;
                ASSERT_NEAR(d.get(m * OC + o), acc, tol * std::max(1.0, std::fabs(acc)))
                        << "fwd " << m << "," << o;
            }
        // Backward data: diff_src = diff_dst * weights.
        dnnl_primitive_desc_t bd;
        ASSERT_EQ(dnnl_inner_product_backward_data_primitive_desc_create(
                          &bd, eng, smd, wmd, dmd, fwd, nullptr),
                dnnl_success);
        mem_t ds, w2, dd;
        ds.init(eng, q(bd, DNNL_ARG_DIFF_SRC));
        w2.init(eng, q(bd, DNNL_ARG_WEIGHTS));
        dd.init(eng, q(bd, DNNL_ARG_DIFF_DST));
        w2.fill(2);
        dd.fill(5);
        exec(bd, {{DNNL_ARG_DIFF_SRC, ds.m}, {DNNL_ARG_WEIGHTS, w2.m}, {DNNL_ARG_DIFF_DST, dd.m}});
        for (int64_t m = 0; m < MB; ++m)
            for (int64_t k = 0; k < K; ++k) {
                const double acc = inner_product_ref::backward_data(get(dd), get(w2), m, k, OC, K);
                ASSERT_NEAR(ds.get(m * K + k), acc, tol * std::max(1.0, std::fabs(acc))) << "bwd_d";
            }
        // Backward weights with bias.
        dnnl_primitive_desc_t bw;
        ASSERT_EQ(dnnl_inner_product_backward_weights_primitive_desc_create(
                          &bw, eng, smd, wmd, bmd, dmd, fwd, nullptr),
                dnnl_success);
        mem_t s3, dw, db, dd3;
        s3.init(eng, q(bw, DNNL_ARG_SRC));
        dw.init(eng, q(bw, DNNL_ARG_DIFF_WEIGHTS));
        db.init(eng, q(bw, DNNL_ARG_DIFF_BIAS));
        dd3.init(eng, q(bw, DNNL_ARG_DIFF_DST));
        s3.fill(1);
        dd3.fill(5);
        exec(bw, {{DNNL_ARG_SRC, s3.m}, {DNNL_ARG_DIFF_WEIGHTS, dw.m}, {DNNL_ARG_DIFF_BIAS, db.m},
                {DNNL_ARG_DIFF_DST, dd3.m}});
        for (int64_t o = 0; o < OC; ++o) {
            const double bsum = inner_product_ref::backward_bias(get(dd3), o, MB, OC);
            ASSERT_NEAR(db.get(o), bsum, tol * std::max(1.0, std::fabs(bsum))) << "diff_bias";
            for (int64_t k = 0; k < K; ++k) {
                const double acc
                        = inner_product_ref::backward_weights(get(dd3), get(s3), o, k, MB, OC, K);
                ASSERT_NEAR(dw.get(o * K + k), acc, tol * std::max(1.0, std::fabs(acc))) << "bwd_w";
            }
        }
        for (auto p : {fwd, bd, bw})
            dnnl_primitive_desc_destroy(p);
        dnnl_primitive_attr_destroy(attr);
        for (auto m : {smd, wmd, bmd, dmd})
            dnnl_memory_desc_destroy(m);
    }

    dnnl_engine_t eng = nullptr;
    dnnl_stream_t strm = nullptr;
};

TEST_F(ip_test, two_d_every_direction) {
    run_all({13, 37}, dnnl_ab, 21, dnnl_f32, false);
    run_all({1, 1}, dnnl_ab, 1, dnnl_f32, true);
}

TEST_F(ip_test, four_d_plain_and_channels_last) {
    run_all({5, 6, 3, 4}, dnnl_nchw, 11, dnnl_f32, true);
    run_all({5, 6, 3, 4}, dnnl_nhwc, 11, dnnl_f32, false);
}

TEST_F(ip_test, bf16) {
    run_all({7, 40}, dnnl_ab, 9, dnnl_bf16, false);
}

TEST_F(ip_test, bad_arguments_are_reported) {
    dnnl_memory_desc_t s = make_md(spec_t({4, 5}, dnnl_f32, dnnl_ab)),
            w = make_md(spec_t({3, 6}, dnnl_f32, dnnl_ab)),
            d = make_md(spec_t({4, 3}, dnnl_f32, dnnl_ab));
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_inner_product_forward_primitive_desc_create(&pd, eng, dnnl_forward_training,
                      s, w, nullptr, d, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_inner_product_backward_data_primitive_desc_create(&pd, eng, s, w, d, nullptr,
                      nullptr),
            dnnl_invalid_arguments);
    for (auto m : {s, w, d})
        dnnl_memory_desc_destroy(m);
}

} // namespace
