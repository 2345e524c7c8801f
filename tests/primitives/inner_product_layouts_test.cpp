// Inner product whose src (or diff_src) and weights do not flatten to the same dense rows:
// channel-blocked sources with `any` or plain weights, plain sources with blocked or
// channels-last weights, `any` on either side of a blocked one. oneDNN runs these (its CNN
// programs feed a blocked convolution output into a fully connected layer); the CPU engine
// runs them through copies in one order, and results are checked against loops over logical
// positions (layouts read here from the queried descriptors). Forward, backward data and
// backward weights, with the padding of blocked outputs checked to be zero.
#include <vector>

#include <gtest/gtest.h>

#include "c_tensor.hpp"
#include "oneapi/dnnl/dnnl.h"

namespace {

using namespace c_tensor;

struct ip_layouts_case_t {
    dims_t src; // {MB, IC, spatial...}
    int64_t oc;
    dnnl_format_tag_t src_tag, wei_tag;
};

void PrintTo(const ip_layouts_case_t &c, std::ostream *os) {
    *os << "src" << c.src.size() << "d_" << dnnl_fmt_tag2str(c.src_tag) << "_wei_"
        << dnnl_fmt_tag2str(c.wei_tag) << "_ic" << c.src[1] << "_oc" << c.oc;
}

dims_t wei_dims(const ip_layouts_case_t &c) {
    dims_t w = c.src;
    w[0] = c.oc;
    return w;
}

const_dnnl_memory_desc_t query(const_dnnl_primitive_desc_t pd, dnnl_query_t q) {
    return dnnl_primitive_desc_query_md(pd, q, 0);
}

struct ip_layouts : public engine_fixture, public ::testing::WithParamInterface<ip_layouts_case_t> {
    // sum over the reduction positions of a(mb, r...) * w(oc, r...), in double.
    static double dot(const tensor_t &a, int64_t mb, const tensor_t &w, int64_t oc) {
        const int nd = a.lay.ndims;
        int64_t r[DNNL_MAX_NDIMS] = {}, rdims[DNNL_MAX_NDIMS] = {};
        for (int d = 1; d < nd; ++d)
            rdims[d - 1] = a.lay.dims[d];
        double acc = 0;
        do {
            int64_t pa[DNNL_MAX_NDIMS] = {mb}, pw[DNNL_MAX_NDIMS] = {oc};
            for (int d = 1; d < nd; ++d)
                pa[d] = pw[d] = r[d - 1];
            acc += double(a.get(pa)) * w.get(pw);
        } while (next_pos(r, rdims, nd - 1));
        return acc;
    }
};

TEST_P(ip_layouts, forward_matches_loops) {
    const ip_layouts_case_t c = GetParam();
    const int64_t mb = c.src[0];
    dnnl_memory_desc_t src = make_md({c.src, dnnl_f32, c.src_tag});
    dnnl_memory_desc_t wei = make_md({wei_dims(c), dnnl_f32, c.wei_tag});
    dnnl_memory_desc_t bia = make_md({{c.oc}, dnnl_f32, dnnl_a});
    dnnl_memory_desc_t dst = make_md({{mb, c.oc}, dnnl_f32, dnnl_format_tag_any});
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_inner_product_forward_primitive_desc_create(
                      &pd, engine, dnnl_forward_inference, src, wei, bia, dst, nullptr),
            dnnl_success);
    tensor_t s(engine, query(pd, dnnl_query_src_md)), w(engine, query(pd, dnnl_query_weights_md));
    tensor_t b(engine, bia), d(engine, query(pd, dnnl_query_dst_md), 0x7f);
    s.fill_random(1), w.fill_random(2), b.fill_random(3);
    ASSERT_EQ(execute(pd, {{DNNL_ARG_SRC, s.mem}, {DNNL_ARG_WEIGHTS, w.mem}, {DNNL_ARG_BIAS, b.mem},
                                  {DNNL_ARG_DST, d.mem}}),
            dnnl_success);
    for (int64_t n = 0; n < mb; ++n)
        for (int64_t o = 0; o < c.oc; ++o) {
            int64_t po[] = {o}, pd_[] = {n, o};
            const float want = static_cast<float>(dot(s, n, w, o) + b.get(po));
            ASSERT_TRUE(close(dnnl_f32, want, d.get(pd_)))
                    << n << "," << o << ": " << d.get(pd_) << " want " << want;
        }
    dnnl_primitive_desc_destroy(pd);
    for (auto m : {src, wei, bia, dst})
        dnnl_memory_desc_destroy(m);
}

TEST_P(ip_layouts, backward_data_matches_loops_and_zeroes_padding) {
    const ip_layouts_case_t c = GetParam();
    const int64_t mb = c.src[0];
    dnnl_memory_desc_t src = make_md({c.src, dnnl_f32, c.src_tag});
    dnnl_memory_desc_t wei = make_md({wei_dims(c), dnnl_f32, c.wei_tag});
    dnnl_memory_desc_t dst = make_md({{mb, c.oc}, dnnl_f32, dnnl_ab});
    dnnl_primitive_desc_t fwd = nullptr, pd = nullptr;
    ASSERT_EQ(dnnl_inner_product_forward_primitive_desc_create(
                      &fwd, engine, dnnl_forward_training, src, wei, nullptr, dst, nullptr),
            dnnl_success);
    ASSERT_EQ(dnnl_inner_product_backward_data_primitive_desc_create(
                      &pd, engine, src, wei, dst, fwd, nullptr),
            dnnl_success);
    tensor_t ds(engine, query(pd, dnnl_query_diff_src_md), 0x7f);
    tensor_t w(engine, query(pd, dnnl_query_weights_md)), dd(engine, dst);
    w.fill_random(4), dd.fill_random(5);
    ASSERT_EQ(execute(pd, {{DNNL_ARG_DIFF_SRC, ds.mem}, {DNNL_ARG_WEIGHTS, w.mem},
                                  {DNNL_ARG_DIFF_DST, dd.mem}}),
            dnnl_success);
    int64_t pos[DNNL_MAX_NDIMS] = {};
    do {
        double acc = 0;
        for (int64_t o = 0; o < c.oc; ++o) {
            int64_t pw[DNNL_MAX_NDIMS], pdd[] = {pos[0], o};
            for (int k = 0; k < ds.lay.ndims; ++k)
                pw[k] = pos[k];
            pw[0] = o;
            acc += double(dd.get(pdd)) * w.get(pw);
        }
        ASSERT_TRUE(close(dnnl_f32, static_cast<float>(acc), ds.get(pos)));
    } while (next_pos(pos, ds.lay.dims, ds.lay.ndims));
    EXPECT_TRUE(ds.padding_is_zero());
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_desc_destroy(fwd);
    for (auto m : {src, wei, dst})
        dnnl_memory_desc_destroy(m);
}

TEST_P(ip_layouts, backward_weights_matches_loops_and_zeroes_padding) {
    const ip_layouts_case_t c = GetParam();
    const int64_t mb = c.src[0];
    dnnl_memory_desc_t src = make_md({c.src, dnnl_f32, c.src_tag});
    dnnl_memory_desc_t wei = make_md({wei_dims(c), dnnl_f32, c.wei_tag});
    dnnl_memory_desc_t bia = make_md({{c.oc}, dnnl_f32, dnnl_a});
    dnnl_memory_desc_t dst = make_md({{mb, c.oc}, dnnl_f32, dnnl_ab});
    dnnl_primitive_desc_t fwd = nullptr, pd = nullptr;
    ASSERT_EQ(dnnl_inner_product_forward_primitive_desc_create(
                      &fwd, engine, dnnl_forward_training, src, wei, bia, dst, nullptr),
            dnnl_success);
    ASSERT_EQ(dnnl_inner_product_backward_weights_primitive_desc_create(
                      &pd, engine, src, wei, bia, dst, fwd, nullptr),
            dnnl_success);
    tensor_t s(engine, query(pd, dnnl_query_src_md)), dd(engine, dst);
    tensor_t dw(engine, query(pd, dnnl_query_diff_weights_md), 0x7f), db(engine, bia, 0x7f);
    s.fill_random(6), dd.fill_random(7);
    ASSERT_EQ(execute(pd, {{DNNL_ARG_SRC, s.mem}, {DNNL_ARG_DIFF_DST, dd.mem},
                                  {DNNL_ARG_DIFF_WEIGHTS, dw.mem}, {DNNL_ARG_DIFF_BIAS, db.mem}}),
            dnnl_success);
    int64_t pos[DNNL_MAX_NDIMS] = {};
    do {
        double acc = 0;
        for (int64_t n = 0; n < mb; ++n) {
            int64_t ps[DNNL_MAX_NDIMS], pdd[] = {n, pos[0]};
            for (int k = 0; k < dw.lay.ndims; ++k)
                ps[k] = pos[k];
            ps[0] = n;
            acc += double(dd.get(pdd)) * s.get(ps);
        }
        ASSERT_TRUE(close(dnnl_f32, static_cast<float>(acc), dw.get(pos)));
    } while (next_pos(pos, dw.lay.dims, dw.lay.ndims));
    EXPECT_TRUE(dw.padding_is_zero());
    for (int64_t o = 0; o < c.oc; ++o) {
        double acc = 0;
        for (int64_t n = 0; n < mb; ++n) {
            int64_t pdd[] = {n, o};
            acc += dd.get(pdd);
        }
        int64_t po[] = {o};
        ASSERT_TRUE(close(dnnl_f32, static_cast<float>(acc), db.get(po)));
    }
    dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_desc_destroy(fwd);
    for (auto m : {src, wei, bia, dst})
        dnnl_memory_desc_destroy(m);
}

const dnnl_format_tag_t any = dnnl_format_tag_any;
INSTANTIATE_TEST_SUITE_P(mixed, ip_layouts,
        ::testing::Values(
                // A blocked convolution output into a fully connected layer.
                ip_layouts_case_t{{2, 32, 3, 3}, 10, dnnl_nChw16c, any},
                ip_layouts_case_t{{3, 3, 5, 2}, 7, dnnl_nChw16c, any}, // channels padded
                ip_layouts_case_t{{1, 20, 1, 1}, 1, dnnl_nChw8c, dnnl_oihw},
                ip_layouts_case_t{{2, 17, 2, 3}, 5, dnnl_nChw16c, dnnl_ohwi},
                // Plain sources against blocked or channels-last weights.
                ip_layouts_case_t{{2, 16, 2, 2}, 16, dnnl_nchw, dnnl_OIhw16i16o},
                ip_layouts_case_t{{3, 5, 3, 1}, 9, dnnl_nchw, dnnl_ohwi},
                ip_layouts_case_t{{2, 6, 2, 2}, 3, dnnl_nhwc, dnnl_oihw},
                ip_layouts_case_t{{2, 19, 3, 3}, 18, any, dnnl_OIhw16i16o},
                ip_layouts_case_t{{4, 8, 2, 2, 2}, 3, dnnl_nCdhw8c, any},
                ip_layouts_case_t{{5, 33}, 4, dnnl_ab, dnnl_ba}),
        [](const ::testing::TestParamInfo<ip_layouts_case_t> &i) {
            const ip_layouts_case_t &c = i.param;
            std::string s = std::string(dnnl_fmt_tag2str(c.src_tag)) + "_"
                            + dnnl_fmt_tag2str(c.wei_tag) + "_ic" + std::to_string(c.src[1]) + "_oc"
                            + std::to_string(c.oc);
            return s;
        });

} // namespace
