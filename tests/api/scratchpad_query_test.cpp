// The scratchpad descriptor query, as a oneDNN program sees it: in the default (library) mode
// the library owns the scratchpad and scratchpad_desc() is a zero descriptor for every
// primitive; in user mode it describes the buffer to pass, at least the memory consumption.
// On the CPU engine and on the first GPU engine when one is present.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
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

using pd_maker = std::function<primitive_desc(const engine &, const primitive_attr &)>;

// One primitive of each family that keeps a scratchpad somewhere in its implementations.
std::vector<std::pair<std::string, pd_maker>> makers() {
    const memory::desc act({3, 19, 7, 5}, dt::f32, tag::nchw);
    const memory::desc rows({5, 37}, dt::f32, tag::ab);
    return {
            {"softmax",
                    [=](const engine &e, const primitive_attr &a) -> primitive_desc {
                        return softmax_forward::primitive_desc(e, prop_kind::forward_inference,
                                algorithm::softmax_accurate, rows, rows, 1, a);
                    }},
            {"convolution",
                    [=](const engine &e, const primitive_attr &a) -> primitive_desc {
                        return convolution_forward::primitive_desc(e,
                                prop_kind::forward_inference, algorithm::convolution_direct,
                                act, memory::desc({8, 19, 3, 3}, dt::f32, tag::any),
                                memory::desc({3, 8, 7, 5}, dt::f32, tag::any), {1, 1}, {1, 1},
                                {1, 1}, a);
                    }},
            {"matmul",
                    [=](const engine &e, const primitive_attr &a) -> primitive_desc {
                        return matmul::primitive_desc(e,
                                memory::desc({2, 5, 37}, dt::f32, tag::abc),
                                memory::desc({2, 37, 11}, dt::f32, tag::abc),
                                memory::desc({2, 5, 11}, dt::f32, tag::abc), a);
                    }},
            {"batch_normalization",
                    [=](const engine &e, const primitive_attr &a) -> primitive_desc {
                        return batch_normalization_forward::primitive_desc(e,
                                prop_kind::forward_training, act, act, 1e-5f,
                                normalization_flags::use_scale | normalization_flags::use_shift,
                                a);
                    }},
            {"layer_normalization",
                    [=](const engine &e, const primitive_attr &a) -> primitive_desc {
                        return layer_normalization_forward::primitive_desc(e,
                                prop_kind::forward_training, rows, rows, 1e-5f,
                                normalization_flags::none, a);
                    }},
            {"pooling",
                    [=](const engine &e, const primitive_attr &a) -> primitive_desc {
                        return pooling_forward::primitive_desc(e, prop_kind::forward_training,
                                algorithm::pooling_max, act,
                                memory::desc({3, 19, 3, 2}, dt::f32, tag::nchw), {2, 2},
                                {2, 2}, {0, 0}, {0, 0}, {0, 0}, a);
                    }},
            {"reduction",
                    [=](const engine &e, const primitive_attr &a) -> primitive_desc {
                        return reduction::primitive_desc(e, algorithm::reduction_sum, act,
                                memory::desc({3, 1, 7, 1}, dt::f32, tag::nchw), 0.f, 0.f, a);
                    }},
            {"inner_product",
                    [=](const engine &e, const primitive_attr &a) -> primitive_desc {
                        return inner_product_forward::primitive_desc(e,
                                prop_kind::forward_inference, rows,
                                memory::desc({6, 37}, dt::f32, tag::ab),
                                memory::desc({5, 6}, dt::f32, tag::ab), a);
                    }},
    };
}

TEST(scratchpad_query, library_mode_descriptor_is_zero_for_every_primitive) {
    for (const engine &eng : engines()) {
        bool some_scratchpad = false;
        for (const auto &m : makers()) {
            SCOPED_TRACE(m.first + " on " + where(eng));
            primitive_attr library, user;
            user.set_scratchpad_mode(scratchpad_mode::user);
            primitive_desc lib_pd = m.second(eng, library);
            EXPECT_EQ(lib_pd.scratchpad_desc(), memory::desc());
            EXPECT_EQ(lib_pd.scratchpad_desc().get_size(), 0u);
            EXPECT_EQ(lib_pd.query_md(query::exec_arg_md, DNNL_ARG_SCRATCHPAD).get_size(), 0u);

            primitive_desc user_pd = m.second(eng, user);
            const memory::dim used = user_pd.query_s64(query::memory_consumption_s64);
            EXPECT_GE(static_cast<memory::dim>(user_pd.scratchpad_desc().get_size()), used);
            EXPECT_EQ(user_pd.scratchpad_desc().get_size() > 0, used > 0);
            if (used > 0) some_scratchpad = true;
        }
        // Some keep one on each engine (convolution on both, softmax on the CPU): the user-mode
        // half of the check above has seen a non-empty descriptor.
        EXPECT_TRUE(some_scratchpad);
    }
}

// Library mode runs without a scratchpad argument on every engine, with the right values.
TEST(scratchpad_query, library_mode_softmax_runs_without_a_scratchpad_argument) {
    const memory::dim n = 5, c = 37;
    std::vector<float> src(n * c);
    for (size_t i = 0; i < src.size(); ++i)
        src[i] = static_cast<float>((i * 13) % 17) * 0.5f - 4.f;
    for (const engine &eng : engines()) {
        stream strm(eng);
        memory::desc md({n, c}, dt::f32, tag::ab);
        softmax_forward::primitive_desc pd(
                eng, prop_kind::forward_inference, algorithm::softmax_accurate, md, md, 1);
        memory msrc = filled(md, eng, src), mdst(md, eng);
        softmax_forward(pd).execute(strm, {{DNNL_ARG_SRC, msrc}, {DNNL_ARG_DST, mdst}});
        strm.wait();
        const float *dst = mdst.map_data<float>();
        for (memory::dim r = 0; r < n; ++r) {
            double mx = -1e30, sum = 0;
            for (memory::dim k = 0; k < c; ++k)
                mx = std::max(mx, double(src[r * c + k]));
            for (memory::dim k = 0; k < c; ++k)
                sum += std::exp(double(src[r * c + k]) - mx);
            for (memory::dim k = 0; k < c; ++k)
                EXPECT_NEAR(dst[r * c + k], std::exp(double(src[r * c + k]) - mx) / sum, 1e-6)
                        << r << "," << k;
        }
        mdst.unmap_data(const_cast<float *>(dst));
    }
}

} // namespace
