// Zero-size problems, as oneDNN programs meet them (an empty last batch, an empty batch
// dimension of a batched matmul, a spatial extent that leaves no output): oneDNN accepts them
// and does nothing. Each is created, executed and checked to leave the non-empty outputs'
// neighbours alone; shapes that are wrong, not empty, are still refused. On the CPU engine and
// on the first GPU engine when one is present.
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

#include "api/engine_list.hpp"

namespace {

using namespace dnnl;
using namespace engine_list;
using dt = memory::data_type;
using tag = memory::format_tag;

// Runs the primitive with fresh memory for every argument it describes.
void run_all_args(const engine &eng, const primitive_desc &pd, const primitive &prim,
        const std::vector<int> &args) {
    stream strm(eng);
    std::unordered_map<int, memory> mems;
    for (int a : args)
        mems.emplace(a, memory(pd.query_md(query::exec_arg_md, a), eng));
    prim.execute(strm, mems);
    strm.wait();
}

TEST(zero_size, convolution_with_an_empty_batch_or_output_runs) {
    for (const engine &eng : engines()) {
        SCOPED_TRACE(where(eng));
        for (tag t : {tag::nchw, tag::nhwc, tag::nChw16c}) {
            memory::desc src({0, 16, 5, 5}, dt::f32, t), dst({0, 8, 3, 3}, dt::f32, t);
            memory::desc wei({8, 16, 3, 3}, dt::f32, tag::any), bia({8}, dt::f32, tag::x);
            convolution_forward::primitive_desc fwd(eng, prop_kind::forward_training,
                    algorithm::convolution_direct, src, wei, bia, dst, {1, 1}, {0, 0}, {0, 0});
            EXPECT_EQ(fwd.dst_desc().get_size(), 0u);
            ASSERT_NO_THROW(run_all_args(eng, fwd, convolution_forward(fwd),
                    {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS, DNNL_ARG_DST}));
            convolution_backward_data::primitive_desc bwd(eng, algorithm::convolution_direct,
                    src, fwd.weights_desc(), dst, {1, 1}, {0, 0}, {0, 0}, fwd);
            ASSERT_NO_THROW(run_all_args(eng, bwd, convolution_backward_data(bwd),
                    {DNNL_ARG_DIFF_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DIFF_DST}));
        }
        // A 3x3 kernel over 2 rows with stride 1 leaves no output row (oneDNN's arithmetic:
        // (2 - 3) / 1 + 1 = 0); 1 row is one short of that and stays refused.
        memory::desc src({2, 3, 2, 5}, dt::f32, tag::nchw), wei({4, 3, 3, 3}, dt::f32, tag::oihw);
        memory::desc empty({2, 4, 0, 3}, dt::f32, tag::nchw);
        convolution_forward::primitive_desc pd(eng, prop_kind::forward_inference,
                algorithm::convolution_direct, src, wei, empty, {1, 1}, {0, 0}, {0, 0});
        ASSERT_NO_THROW(run_all_args(
                eng, pd, convolution_forward(pd), {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST}));
        memory::desc one_row({2, 3, 1, 5}, dt::f32, tag::nchw);
        EXPECT_THROW(convolution_forward::primitive_desc(eng, prop_kind::forward_inference,
                             algorithm::convolution_direct, one_row, wei, empty, {1, 1},
                             {0, 0}, {0, 0}),
                error);
    }
}

TEST(zero_size, pooling_with_an_empty_batch_runs_forward_and_backward) {
    for (const engine &eng : engines()) {
        SCOPED_TRACE(where(eng));
        for (tag t : {tag::nchw, tag::nhwc, tag::nChw16c})
            for (algorithm alg : {algorithm::pooling_max, algorithm::pooling_avg_exclude_padding}) {
                memory::desc src({0, 16, 5, 5}, dt::f32, t), dst({0, 16, 3, 3}, dt::f32, t);
                pooling_forward::primitive_desc fwd(eng, prop_kind::forward_training, alg, src,
                        dst, {2, 2}, {2, 2}, {0, 0}, {1, 1}, {1, 1});
                ASSERT_NO_THROW(run_all_args(eng, fwd, pooling_forward(fwd),
                        {DNNL_ARG_SRC, DNNL_ARG_DST, DNNL_ARG_WORKSPACE}));
                pooling_backward::primitive_desc bwd(eng, alg, src, dst, {2, 2}, {2, 2}, {0, 0},
                        {1, 1}, {1, 1}, fwd);
                ASSERT_NO_THROW(run_all_args(eng, bwd, pooling_backward(bwd),
                        {DNNL_ARG_DIFF_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_WORKSPACE}));
            }
    }
}

TEST(zero_size, matmul_with_an_empty_batch_dimension_runs_and_broadcasts) {
    struct shape_t {
        memory::dims a, b, c;
    };
    const std::vector<shape_t> shapes = {
            {{0, 4, 5}, {0, 5, 6}, {0, 4, 6}}, // empty batch in both
            {{0, 4, 5}, {1, 5, 6}, {0, 4, 6}}, // weights broadcast over an empty batch
            {{1, 4, 5}, {0, 5, 6}, {0, 4, 6}}, // src broadcast over an empty batch
            {{2, 0, 4, 5}, {1, 1, 5, 6}, {2, 0, 4, 6}}, // an inner batch dimension empty
            {{3, 0, 5}, {3, 5, 7}, {3, 0, 7}}, // no rows
    };
    for (const engine &eng : engines()) {
        SCOPED_TRACE(where(eng));
        for (const auto &s : shapes) {
            const tag t = s.a.size() == 3 ? tag::abc : tag::abcd;
            memory::desc a(s.a, dt::f32, t), b(s.b, dt::f32, t), c(s.c, dt::f32, t);
            matmul::primitive_desc pd(eng, a, b, c);
            ASSERT_NO_THROW(run_all_args(
                    eng, pd, matmul(pd), {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST}));
        }
        // An empty batch does not broadcast against 3: the shapes disagree.
        memory::desc a({0, 4, 5}, dt::f32, tag::abc), b({3, 5, 6}, dt::f32, tag::abc);
        for (memory::dim n : {0, 3}) {
            memory::desc c({n, 4, 6}, dt::f32, tag::abc);
            EXPECT_THROW(matmul::primitive_desc(eng, a, b, c), error) << n;
        }
    }
}

// The empty batch of a problem leaves the memory of the other arguments as it was: a matmul
// with an empty batch writes nothing into a destination pointer the program points elsewhere.
TEST(zero_size, matmul_with_an_empty_batch_writes_nothing) {
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    memory::desc a({0, 4, 5}, dt::f32, tag::abc), b({1, 5, 6}, dt::f32, tag::abc),
            c({0, 4, 6}, dt::f32, tag::abc);
    std::vector<float> guard(64, 7.f), av(20, 1.f), bv(30, 1.f);
    matmul::primitive_desc pd(eng, a, b, c);
    matmul(pd).execute(strm,
            {{DNNL_ARG_SRC, memory(a, eng, av.data())},
                    {DNNL_ARG_WEIGHTS, memory(b, eng, bv.data())},
                    {DNNL_ARG_DST, memory(c, eng, guard.data())}});
    strm.wait();
    for (float v : guard)
        EXPECT_EQ(v, 7.f);
}

} // namespace
