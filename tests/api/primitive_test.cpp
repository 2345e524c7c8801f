// Contracts common to every primitive, exercised on eltwise relu through the C API:
// descriptor queries, implementation iteration, cloning, the primitive cache, cache blobs,
// verbose lines and argument validation at execution.
#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl.hpp"

namespace {

struct relu_fixture : public ::testing::Test {
    void SetUp() override {
        ASSERT_EQ(dnnl_engine_create(&engine, dnnl_cpu, 0), dnnl_success);
        ASSERT_EQ(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags), dnnl_success);
        dnnl_dims_t dims = {3, 7};
        ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md, 2, dims, dnnl_f32, dnnl_ab),
                dnnl_success);
        ASSERT_EQ(make_pd(&pd, 0.f), dnnl_success);
    }
    void TearDown() override {
        dnnl_primitive_desc_destroy(pd);
        dnnl_memory_desc_destroy(md);
        dnnl_stream_destroy(stream);
        dnnl_engine_destroy(engine);
    }
    dnnl_status_t make_pd(dnnl_primitive_desc_t *out, float alpha) {
        return dnnl_eltwise_forward_primitive_desc_create(out, engine, dnnl_forward_inference,
                dnnl_eltwise_relu, md, md, alpha, 0.f, nullptr);
    }
    dnnl_engine_t engine = nullptr;
    dnnl_stream_t stream = nullptr;
    dnnl_memory_desc_t md = nullptr;
    dnnl_primitive_desc_t pd = nullptr;
};

} // namespace

TEST_F(relu_fixture, queries_describe_the_problem) {
    const char *impl = nullptr;
    ASSERT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl), dnnl_success);
    ASSERT_NE(impl, nullptr);
    EXPECT_NE(std::string(impl).find("eltwise"), std::string::npos);
    dnnl_primitive_kind_t kind;
    ASSERT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_primitive_kind, 0, &kind), dnnl_success);
    EXPECT_EQ(kind, dnnl_eltwise);
    dnnl_prop_kind_t prop;
    ASSERT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_prop_kind, 0, &prop), dnnl_success);
    EXPECT_EQ(prop, dnnl_forward_inference);
    dnnl_alg_kind_t alg;
    ASSERT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_alg_kind, 0, &alg), dnnl_success);
    EXPECT_EQ(alg, dnnl_eltwise_relu);
    EXPECT_EQ(dnnl_primitive_desc_query_s32(pd, dnnl_query_num_of_inputs_s32, 0), 1);
    EXPECT_EQ(dnnl_primitive_desc_query_s32(pd, dnnl_query_num_of_outputs_s32, 0), 1);
    EXPECT_EQ(dnnl_memory_desc_equal(dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0), md),
            1);
    EXPECT_EQ(dnnl_memory_desc_equal(dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0), md),
            1);
    EXPECT_EQ(dnnl_memory_desc_equal(
                      dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, DNNL_ARG_SRC), md),
            1);
    // Arguments the primitive does not have are zero descriptors, never null.
    const_dnnl_memory_desc_t w = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(dnnl_memory_desc_get_size(w), 0u);
    EXPECT_EQ(dnnl_memory_desc_get_size(
                      dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0)),
            0u);
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_engine, 0, &e), dnnl_success);
    EXPECT_EQ(e, engine);
    const_dnnl_primitive_attr_t attr = nullptr;
    EXPECT_EQ(dnnl_primitive_desc_get_attr(pd, &attr), dnnl_success);
    EXPECT_NE(attr, nullptr);
    EXPECT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_desc_query_md(nullptr, dnnl_query_src_md, 0), nullptr);
}

TEST_F(relu_fixture, next_impl_walks_to_the_end) {
    dnnl_status_t st = dnnl_success;
    int steps = 0;
    while ((st = dnnl_primitive_desc_next_impl(pd)) == dnnl_success)
        ASSERT_LT(++steps, 100);
    EXPECT_EQ(st, dnnl_last_impl_reached);
    const char *impl = nullptr; // still describes a valid implementation
    ASSERT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl), dnnl_success);
    EXPECT_NE(impl, nullptr);
}

TEST_F(relu_fixture, clone_is_independent) {
    dnnl_primitive_desc_t copy = nullptr;
    ASSERT_EQ(dnnl_primitive_desc_clone(&copy, pd), dnnl_success);
    ASSERT_EQ(dnnl_primitive_desc_destroy(pd), dnnl_success);
    pd = copy;
    const char *impl = nullptr;
    EXPECT_EQ(dnnl_primitive_desc_query(copy, dnnl_query_impl_info_str, 0, &impl), dnnl_success);
    EXPECT_EQ(dnnl_primitive_desc_clone(nullptr, copy), dnnl_invalid_arguments);
}

TEST_F(relu_fixture, execute_computes_and_validates_arguments) {
    dnnl_primitive_t prim = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
    std::vector<float> src(21), dst(21, 42.f);
    for (int i = 0; i < 21; ++i)
        src[i] = static_cast<float>(i) - 10.5f;
    dnnl_memory_t msrc = nullptr, mdst = nullptr;
    ASSERT_EQ(dnnl_memory_create(&msrc, md, engine, src.data()), dnnl_success);
    ASSERT_EQ(dnnl_memory_create(&mdst, md, engine, dst.data()), dnnl_success);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, msrc}, {DNNL_ARG_DST, mdst}};
    ASSERT_EQ(dnnl_primitive_execute(prim, stream, 2, args), dnnl_success);
    ASSERT_EQ(dnnl_stream_wait(stream), dnnl_success);
    for (int i = 0; i < 21; ++i)
        EXPECT_EQ(dst[i], src[i] > 0 ? src[i] : 0.f) << i;

    // Missing argument, wrong descriptor, bad lists, foreign stream.
    EXPECT_EQ(dnnl_primitive_execute(prim, stream, 1, args), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_execute(prim, stream, 2, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_execute(prim, stream, -1, args), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_execute(prim, nullptr, 2, args), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_execute(nullptr, stream, 2, args), dnnl_invalid_arguments);
    // A memory smaller than the primitive's descriptor (a larger one or another layout of the
    // same size is read through the primitive's descriptor, as oneDNN does).
    dnnl_dims_t other_dims = {2, 3};
    dnnl_memory_desc_t other_md = nullptr;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&other_md, 2, other_dims, dnnl_f32, dnnl_ab),
            dnnl_success);
    dnnl_memory_t mother = nullptr;
    ASSERT_EQ(dnnl_memory_create(&mother, other_md, engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
    dnnl_exec_arg_t wrong[] = {{DNNL_ARG_SRC, mother}, {DNNL_ARG_DST, mdst}};
    EXPECT_EQ(dnnl_primitive_execute(prim, stream, 2, wrong), dnnl_invalid_arguments);
    dnnl_engine_t e2 = nullptr;
    dnnl_stream_t s2 = nullptr;
    ASSERT_EQ(dnnl_engine_create(&e2, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_stream_create(&s2, e2, 0), dnnl_success);
    EXPECT_EQ(dnnl_primitive_execute(prim, s2, 2, args), dnnl_invalid_arguments);
    dnnl_stream_destroy(s2);
    dnnl_engine_destroy(e2);
    dnnl_memory_destroy(mother);
    dnnl_memory_desc_destroy(other_md);
    ASSERT_EQ(dnnl_memory_destroy(msrc), dnnl_success);
    EXPECT_EQ(dnnl_primitive_execute(prim, stream, 2, args), dnnl_invalid_arguments);

    dnnl_memory_destroy(mdst);
    EXPECT_EQ(dnnl_primitive_destroy(prim), dnnl_success);
    EXPECT_EQ(dnnl_primitive_destroy(prim), dnnl_invalid_arguments);
}

TEST_F(relu_fixture, primitive_desc_of_primitive_is_not_destroyable) {
    dnnl_primitive_t prim = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
    const_dnnl_primitive_desc_t ppd = nullptr;
    ASSERT_EQ(dnnl_primitive_get_primitive_desc(prim, &ppd), dnnl_success);
    ASSERT_NE(ppd, nullptr);
    EXPECT_EQ(dnnl_memory_desc_equal(dnnl_primitive_desc_query_md(ppd, dnnl_query_src_md, 0), md),
            1);
    EXPECT_EQ(dnnl_primitive_desc_destroy(const_cast<dnnl_primitive_desc_t>(ppd)),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_destroy(prim), dnnl_success);
}

TEST_F(relu_fixture, cache_blob_round_trip_and_mismatch) {
    dnnl_primitive_t prim = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
    size_t size = 0;
    ASSERT_EQ(dnnl_primitive_get_cache_blob(prim, &size, nullptr), dnnl_success);
    ASSERT_GT(size, 0u);
    std::vector<uint8_t> blob(size);
    ASSERT_EQ(dnnl_primitive_get_cache_blob(prim, &size, blob.data()), dnnl_success);
    dnnl_primitive_t from_blob = nullptr;
    EXPECT_EQ(dnnl_primitive_create_from_cache_blob(&from_blob, pd, size, blob.data()),
            dnnl_success);
    EXPECT_EQ(dnnl_primitive_destroy(from_blob), dnnl_success);

    // A blob of another problem (different alpha) is refused.
    dnnl_primitive_desc_t other = nullptr;
    ASSERT_EQ(make_pd(&other, 0.5f), dnnl_success);
    EXPECT_EQ(dnnl_primitive_create_from_cache_blob(&from_blob, other, size, blob.data()),
            dnnl_invalid_arguments);
    blob[blob.size() / 2] ^= 0xff;
    EXPECT_EQ(dnnl_primitive_create_from_cache_blob(&from_blob, pd, size, blob.data()),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_create_from_cache_blob(&from_blob, pd, 0, nullptr),
            dnnl_invalid_arguments);
    size_t small = size - 1;
    EXPECT_EQ(dnnl_primitive_get_cache_blob(prim, &small, blob.data()), dnnl_invalid_arguments);
    // The blob id identifies the problem.
    dnnl_dim_t id_size = 0;
    ASSERT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_cache_blob_id_size_s64, 0, &id_size),
            dnnl_success);
    EXPECT_GT(id_size, 0);
    dnnl_primitive_desc_destroy(other);
    EXPECT_EQ(dnnl_primitive_destroy(prim), dnnl_success);
}

TEST_F(relu_fixture, damaged_cache_blob_is_invalid_arguments) {
    dnnl_primitive_t prim = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
    size_t size = 0;
    ASSERT_EQ(dnnl_primitive_get_cache_blob(prim, &size, nullptr), dnnl_success);
    std::vector<uint8_t> blob(size);
    ASSERT_EQ(dnnl_primitive_get_cache_blob(prim, &size, blob.data()), dnnl_success);
    EXPECT_EQ(dnnl_primitive_destroy(prim), dnnl_success);
    dnnl_primitive_t from_blob = nullptr;
    for (size_t n = 1; n < size; ++n) {
        EXPECT_EQ(dnnl_primitive_create_from_cache_blob(&from_blob, pd, n, blob.data()),
                dnnl_invalid_arguments)
                << "cut to " << n << " of " << size;
    }
    for (size_t i = 0; i < size; ++i)
        for (int bit = 0; bit < 8; bit += 3) {
            std::vector<uint8_t> bad = blob;
            bad[i] ^= static_cast<uint8_t>(1u << bit);
            EXPECT_EQ(dnnl_primitive_create_from_cache_blob(&from_blob, pd, size, bad.data()),
                    dnnl_invalid_arguments)
                    << "byte " << i << " bit " << bit;
        }
    std::vector<uint8_t> longer = blob;
    longer.push_back(0);
    EXPECT_EQ(dnnl_primitive_create_from_cache_blob(&from_blob, pd, longer.size(), longer.data()),
            dnnl_invalid_arguments);
    EXPECT_EQ(from_blob, nullptr);
    EXPECT_EQ(dnnl_primitive_create_from_cache_blob(&from_blob, pd, size, blob.data()),
            dnnl_success);
    EXPECT_EQ(dnnl_primitive_destroy(from_blob), dnnl_success);
}

TEST_F(relu_fixture, cache_hit_is_reported_by_verbose) {
    ASSERT_EQ(dnnl_set_primitive_cache_capacity(16), dnnl_success);
    ASSERT_EQ(dnnl_set_verbose(2), dnnl_success);
    ::testing::internal::CaptureStdout();
    dnnl_primitive_t p1 = nullptr, p2 = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&p1, pd), dnnl_success);
    ASSERT_EQ(dnnl_primitive_create(&p2, pd), dnnl_success);
    std::string out = ::testing::internal::GetCapturedStdout();
    ASSERT_EQ(dnnl_set_verbose(0), dnnl_success);
    EXPECT_NE(out.find("primitive,create:cache_hit,cpu,eltwise"), std::string::npos) << out;
    EXPECT_NE(out.find("alg:eltwise_relu"), std::string::npos) << out;
    dnnl_primitive_destroy(p1);
    dnnl_primitive_destroy(p2);

    // With capacity 0 nothing is kept.
    ASSERT_EQ(dnnl_set_primitive_cache_capacity(0), dnnl_success);
    ASSERT_EQ(dnnl_set_verbose(2), dnnl_success);
    ::testing::internal::CaptureStdout();
    ASSERT_EQ(dnnl_primitive_create(&p1, pd), dnnl_success);
    ASSERT_EQ(dnnl_primitive_create(&p2, pd), dnnl_success);
    out = ::testing::internal::GetCapturedStdout();
    ASSERT_EQ(dnnl_set_verbose(0), dnnl_success);
    EXPECT_EQ(out.find("cache_hit"), std::string::npos) << out;
    dnnl_primitive_destroy(p1);
    dnnl_primitive_destroy(p2);
    ASSERT_EQ(dnnl_set_primitive_cache_capacity(1024), dnnl_success);
}

TEST_F(relu_fixture, exec_verbose_line_has_impl_shape_and_time) {
    dnnl_primitive_t prim = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
    dnnl_memory_t m = nullptr;
    ASSERT_EQ(dnnl_memory_create(&m, md, engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, m}, {DNNL_ARG_DST, m}};
    ASSERT_EQ(dnnl_set_verbose(1), dnnl_success);
    ::testing::internal::CaptureStdout();
    ASSERT_EQ(dnnl_primitive_execute(prim, stream, 2, args), dnnl_success);
    std::string out = ::testing::internal::GetCapturedStdout();
    ASSERT_EQ(dnnl_set_verbose(0), dnnl_success);
    EXPECT_NE(out.find("primitive,exec,cpu,eltwise"), std::string::npos) << out;
    EXPECT_NE(out.find("3x7"), std::string::npos) << out;
    EXPECT_NE(out.find("src:f32"), std::string::npos) << out;
    dnnl_memory_destroy(m);
    dnnl_primitive_destroy(prim);
}

// The primitive keeps its engine alive after the user destroys the engine handle.
TEST_F(relu_fixture, primitive_outlives_engine_handle) {
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_engine_create(&e, dnnl_cpu, 0), dnnl_success);
    dnnl_primitive_desc_t epd = nullptr;
    ASSERT_EQ(dnnl_eltwise_forward_primitive_desc_create(&epd, e, dnnl_forward_inference,
                      dnnl_eltwise_relu, md, md, 0.f, 0.f, nullptr),
            dnnl_success);
    dnnl_primitive_t prim = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&prim, epd), dnnl_success);
    dnnl_primitive_desc_destroy(epd);
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_stream_create(&s, e, 0), dnnl_success);
    std::vector<float> buf(21, -1.f);
    dnnl_memory_t m = nullptr;
    ASSERT_EQ(dnnl_memory_create(&m, md, e, buf.data()), dnnl_success);
    ASSERT_EQ(dnnl_engine_destroy(e), dnnl_success);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, m}, {DNNL_ARG_DST, m}};
    EXPECT_EQ(dnnl_primitive_execute(prim, s, 2, args), dnnl_success);
    EXPECT_EQ(buf[20], 0.f);
    dnnl_memory_destroy(m);
    EXPECT_EQ(dnnl_primitive_destroy(prim), dnnl_success);
    EXPECT_EQ(dnnl_stream_destroy(s), dnnl_success);
}

// Attributes read back from a primitive descriptor can build another one, and cannot be
// destroyed by the user.
TEST_F(relu_fixture, attr_from_primitive_desc_is_reusable) {
    const_dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_desc_get_attr(pd, &attr), dnnl_success);
    dnnl_primitive_desc_t again = nullptr;
    EXPECT_EQ(dnnl_eltwise_forward_primitive_desc_create(&again, engine, dnnl_forward_inference,
                      dnnl_eltwise_relu, md, md, 0.f, 0.f, attr),
            dnnl_success);
    EXPECT_EQ(dnnl_primitive_attr_destroy(const_cast<dnnl_primitive_attr_t>(attr)),
            dnnl_invalid_arguments);
    dnnl_primitive_desc_destroy(again);
}

// A program written for oneDNN asks for the scratchpad's descriptor (to size its own pools)
// and still executes in the default library mode without passing a scratchpad; in user
// mode the scratchpad is required and checked.
TEST(scratchpad_mode, library_mode_never_needs_the_scratchpad_argument_after_its_query) {
    using namespace dnnl;
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    const memory::dim rows = 5, cols = 37;
    memory::desc md({rows, cols}, memory::data_type::f32, memory::format_tag::ab);
    std::vector<float> src(rows * cols), dst(rows * cols, -1.f);
    for (size_t i = 0; i < src.size(); ++i)
        src[i] = static_cast<float>((i * 7) % 11) - 5.f;
    memory msrc(md, eng, src.data()), mdst(md, eng, dst.data());

    for (auto mode : {scratchpad_mode::library, scratchpad_mode::user}) {
        primitive_attr attr;
        attr.set_scratchpad_mode(mode);
        softmax_forward::primitive_desc pd(eng, prop_kind::forward_inference,
                algorithm::softmax_accurate, md, md, 1, attr);
        memory::desc sp_md = pd.scratchpad_desc();
        softmax_forward prim(pd);
        std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, msrc}, {DNNL_ARG_DST, mdst}};
        if (mode == scratchpad_mode::user && sp_md.get_size() > 0) {
            EXPECT_THROW(prim.execute(strm, args), error);
            args.insert({DNNL_ARG_SCRATCHPAD, memory(sp_md, eng)});
        }
        prim.execute(strm, args);
        strm.wait();
        for (memory::dim r = 0; r < rows; ++r) {
            double mx = -1e30, sum = 0;
            for (memory::dim c = 0; c < cols; ++c)
                mx = std::max(mx, double(src[r * cols + c]));
            for (memory::dim c = 0; c < cols; ++c)
                sum += std::exp(double(src[r * cols + c]) - mx);
            for (memory::dim c = 0; c < cols; ++c)
                EXPECT_NEAR(dst[r * cols + c], std::exp(double(src[r * cols + c]) - mx) / sum,
                        1e-6)
                        << r << "," << c;
        }
    }
}
