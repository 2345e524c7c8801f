// The CPU layout helpers other implementations build on: derived layouts, layout equality,
// run stride, run plans and flat broadcast patterns, and the post-op chain's checks.
#include <gtest/gtest.h>

#include "core/memory_desc.hpp"
#include "core/ops/layout.hpp"
#include "core/ops/post_ops.hpp"
#include "core/primitive_attr.hpp"

using namespace anydnn;
using namespace anydnn::cpu;

namespace {

memory_desc_t md(std::initializer_list<dim_t> d, dnnl_format_tag_t tag,
        dnnl_data_type_t dt = dnnl_f32) {
    memory_desc_t m;
    dnnl_dims_t dims = {};
    int n = 0;
    for (dim_t v : d)
        dims[n++] = v;
    EXPECT_EQ(md_init_with_tag(m, n, dims, dt, tag), dnnl_success);
    return m;
}

} // namespace

TEST(cpu_layout, md_like_keeps_order_and_blocks_for_new_dims) {
    const memory_desc_t src = md({2, 19, 3, 3}, dnnl_nChw16c);
    const dnnl_dims_t dims = {2, 40, 5, 3};
    EXPECT_TRUE(md_equal(md_like(src, 4, dims, dnnl_bf16), md({2, 40, 5, 3}, dnnl_nChw16c, dnnl_bf16)));
    // An extent-one channel in nhwc stays innermost.
    const memory_desc_t one_c = md({2, 1, 4, 4}, dnnl_nhwc);
    const dnnl_dims_t wide = {2, 8, 4, 4};
    EXPECT_TRUE(md_equal(md_like(one_c, 4, wide, dnnl_f32), md({2, 8, 4, 4}, dnnl_nhwc)));
    // No layout to follow: row-major.
    memory_desc_t any = md({2, 3}, dnnl_format_tag_any);
    const dnnl_dims_t d2 = {2, 3};
    EXPECT_TRUE(md_equal(md_like(any, 2, d2, dnnl_f32), md({2, 3}, dnnl_ab)));
}

TEST(cpu_layout, same_layout_ignores_type_and_unit_strides) {
    EXPECT_TRUE(same_layout(md({2, 3, 1, 1}, dnnl_nchw), md({2, 3, 1, 1}, dnnl_nhwc, dnnl_s8)));
    EXPECT_FALSE(same_layout(md({2, 3, 4, 1}, dnnl_nchw), md({2, 3, 4, 1}, dnnl_nhwc)));
    EXPECT_FALSE(same_layout(md({2, 16, 4, 4}, dnnl_nChw16c), md({2, 16, 4, 4}, dnnl_nChw8c)));
}

TEST(cpu_layout, run_stride_inside_and_across_blocks) {
    const memory_desc_t b = md({2, 19, 3, 3}, dnnl_nChw16c);
    EXPECT_EQ(run_stride(b, 1, 0, 16), 1);
    EXPECT_EQ(run_stride(b, 1, 16, 3), 1);
    EXPECT_EQ(run_stride(b, 1, 8, 16), -1);
    EXPECT_EQ(run_stride(b, 3, 0, 3), 16);
    EXPECT_EQ(run_stride(md({4, 5}, dnnl_ba), 0, 0, 4), 1);
}

TEST(cpu_layout, run_plan_covers_every_element_once) {
    for (auto tag : {dnnl_nchw, dnnl_nhwc, dnnl_nChw16c, dnnl_cdba}) {
        const memory_desc_t m = md({2, 19, 3, 5}, tag);
        const run_plan_t p = make_run_plan(m, 4);
        std::vector<int> seen(static_cast<size_t>(nelems(m)), 0);
        dim_t pos[max_ndims];
        for (dim_t r = 0; r < p.nruns; ++r) {
            const dim_t n = p.run(r, pos);
            EXPECT_GE(run_stride(m, p.axis, pos[p.axis], n), 0);
            for (dim_t k = 0; k < n; ++k) {
                const dim_t lin = ((pos[0] * 19 + pos[1]) * 3 + pos[2]) * 5 + pos[3];
                ++seen[static_cast<size_t>(lin)];
                ++pos[p.axis];
            }
        }
        for (int s : seen)
            EXPECT_EQ(s, 1);
    }
}

TEST(cpu_layout, flat_broadcast_patterns) {
    const memory_desc_t nchw = md({2, 8, 3, 5}, dnnl_nchw), nhwc = md({2, 8, 3, 5}, dnnl_nhwc);
    const memory_desc_t chan = md({1, 8, 1, 1}, dnnl_nchw), scalar = md({1, 1, 1, 1}, dnnl_nchw);
    flat_bcast_t f = analyze_flat_bcast(nchw, chan);
    EXPECT_TRUE(f.ok);
    EXPECT_EQ(f.period, 8);
    EXPECT_EQ(f.inner, 15);
    f = analyze_flat_bcast(nhwc, chan);
    EXPECT_TRUE(f.ok);
    EXPECT_EQ(f.inner, 1);
    EXPECT_TRUE(analyze_flat_bcast(nchw, scalar).ok);
    EXPECT_EQ(analyze_flat_bcast(nchw, scalar).index(77), 0);
    // Spatial dims are one group in nchw; n and w are split by h in nhwc.
    EXPECT_TRUE(analyze_flat_bcast(nchw, md({1, 1, 3, 5}, dnnl_nchw)).ok);
    EXPECT_FALSE(analyze_flat_bcast(nhwc, md({2, 1, 1, 5}, dnnl_nchw)).ok);
    EXPECT_FALSE(analyze_flat_bcast(nchw, nhwc).ok);
    // Per-channel against a channel-blocked dst.
    const memory_desc_t blk = md({2, 32, 3, 5}, dnnl_nChw16c);
    f = analyze_flat_bcast(blk, md({1, 32, 1, 1}, dnnl_nchw));
    ASSERT_TRUE(f.ok);
    dim_t pos[4] = {1, 20, 2, 4};
    EXPECT_EQ(f.index(off_logical(blk, pos)), 20);
    EXPECT_FALSE(analyze_flat_bcast(md({2, 19, 3, 5}, dnnl_nChw16c), md({1, 19, 1, 1}, dnnl_nchw)).ok);
}

TEST(cpu_post_ops, chain_lists_its_arguments_and_rejects_bad_sources) {
    primitive_attr_t attr;
    post_op_t bin;
    bin.kind = dnnl_binary;
    bin.alg = dnnl_binary_add;
    bin.src1_md = md({1, 8, 1, 1}, dnnl_nchw);
    post_op_t prelu;
    prelu.kind = dnnl_prelu;
    prelu.prelu_mask = 2;
    attr.post_ops.entries = {bin, prelu};
    post_ops_chain_t chain;
    const memory_desc_t dst = md({2, 8, 3, 5}, dnnl_nhwc);
    ASSERT_EQ(chain.init(attr, dst), dnnl_success);
    EXPECT_TRUE(chain.flat_ok());
    std::map<int, memory_desc_t> args;
    chain.add_args(args);
    EXPECT_EQ(args.size(), 2u);
    EXPECT_TRUE(args.count(DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1));
    ASSERT_TRUE(args.count(DNNL_ARG_ATTR_MULTIPLE_POST_OP(1) | DNNL_ARG_WEIGHTS));
    EXPECT_EQ(args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(1) | DNNL_ARG_WEIGHTS].dims[1], 8);

    attr.post_ops.entries[0].src1_md = md({1, 7, 1, 1}, dnnl_nchw);
    EXPECT_EQ(chain.init(attr, dst), dnnl_invalid_arguments);
    post_op_t dw;
    dw.kind = dnnl_convolution;
    attr.post_ops.entries = {dw};
    EXPECT_EQ(chain.init(attr, dst), dnnl_unimplemented);
}
