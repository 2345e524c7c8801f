// Level Zero streams on the test driver: over the application's immediate command list (not
// owned, handed back, profiling flag kept) or one of ours; wait signals an event of the
// stream's own on the list; primitives of other engines are refused (ze_primitive_test.cpp
// runs Level Zero ones).
#include "oneapi/dnnl/dnnl_ze.h"
#include "oneapi/dnnl/dnnl_ze.hpp"
#include "ze/ze_app.hpp"

namespace ze_test {
namespace {

class ze_stream : public ze_app_t {
protected:
    void SetUp() override {
        ze_app_t::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        const auto &d = drivers[0];
        ASSERT_EQ(dnnl_ze_interop_engine_create(&engine, d.driver, d.device, d.context),
                dnnl_success);
        ze_command_queue_desc_t desc = {};
        desc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
        ASSERT_EQ(zeCommandListCreateImmediate(d.context, d.device, &desc, &list),
                ZE_RESULT_SUCCESS);
    }
    void TearDown() override {
        if (list) {
            EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
        }
        dnnl_engine_destroy(engine);
        ze_app_t::TearDown();
    }

    dnnl_engine_t engine = nullptr;
    ze_command_list_handle_t list = nullptr;
};

TEST_F(ze_stream, wraps_the_application_list) {
    for (int profiling : {0, 1}) {
        dnnl_stream_t s = nullptr;
        ASSERT_EQ(dnnl_ze_interop_stream_create(&s, engine, list, profiling), dnnl_success);
        ze_command_list_handle_t got = nullptr;
        EXPECT_EQ(dnnl_ze_interop_stream_get_list(s, &got), dnnl_success);
        EXPECT_EQ(got, list);
        dnnl_engine_t e = nullptr;
        EXPECT_EQ(dnnl_stream_get_engine(s, &e), dnnl_success);
        EXPECT_EQ(e, engine);
        EXPECT_EQ(dnnl_stream_wait(s), dnnl_success);
        EXPECT_EQ(dnnl_stream_wait(s), dnnl_success); // the stream's event is reusable
        EXPECT_EQ(dnnl_stream_destroy(s), dnnl_success);
    }
    // Not owned: the list is still the application's (TearDown destroys it).
    dnnl::engine eng(engine, true);
    dnnl::stream s = dnnl::ze_interop::make_stream(eng, list, true);
    EXPECT_EQ(dnnl::ze_interop::get_list(s), list);
    s.wait();
}

TEST_F(ze_stream, of_our_own) {
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_stream_create(&s, engine, dnnl_stream_default_flags), dnnl_success);
    ze_command_list_handle_t got = nullptr;
    EXPECT_EQ(dnnl_ze_interop_stream_get_list(s, &got), dnnl_success);
    EXPECT_NE(got, nullptr);
    EXPECT_NE(got, list);
    EXPECT_EQ(dnnl_stream_wait(s), dnnl_success);
    EXPECT_EQ(dnnl_stream_destroy(s), dnnl_success);
    EXPECT_EQ(dnnl_stream_create(&s, engine, dnnl_stream_out_of_order), dnnl_unimplemented);
}

TEST_F(ze_stream, bad_input) {
    dnnl_stream_t s = nullptr;
    EXPECT_EQ(dnnl_ze_interop_stream_create(&s, engine, nullptr, 0), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_stream_create(nullptr, engine, list, 0), dnnl_invalid_arguments);
    EXPECT_EQ(s, nullptr);
    ASSERT_EQ(dnnl_ze_interop_stream_create(&s, engine, list, 0), dnnl_success);
    EXPECT_EQ(dnnl_ze_interop_stream_get_list(s, nullptr), dnnl_invalid_arguments);
    // A CPU primitive on a Level Zero stream: different engines.
    dnnl_engine_t cpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    dnnl_memory_desc_t md = nullptr;
    dnnl_dims_t dims = {8};
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md, 1, dims, dnnl_f32, dnnl_a), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, cpu, dnnl_forward_inference,
                      dnnl_eltwise_relu, md, md, 0.f, 0.f, nullptr),
            dnnl_success);
    dnnl_primitive_t relu = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&relu, pd), dnnl_success);
    ze_event_handle_t done = nullptr;
    EXPECT_EQ(dnnl_ze_interop_primitive_execute(relu, s, 0, nullptr, 0, nullptr, &done),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_primitive_execute(relu, s, 0, nullptr, -1, nullptr, &done),
            dnnl_invalid_arguments);
    EXPECT_EQ(done, nullptr);
    dnnl_primitive_destroy(relu);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(md);
    dnnl_engine_destroy(cpu);
    EXPECT_EQ(dnnl_stream_destroy(s), dnnl_success);
}

} // namespace
} // namespace ze_test
