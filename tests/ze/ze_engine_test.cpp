// Level Zero engines on the test driver, through Debian's loader and validation layer: the
// application's driver, device and context are kept (not owned) and handed back; cache blob
// ids; a device of another driver, a context without the device and unknown handles are
// refused; what is not implemented yet (primitives, cache blobs) says so.
#include <vector>

#include "oneapi/dnnl/dnnl_ze.h"
#include "oneapi/dnnl/dnnl_ze.hpp"
#include "ze/ze_app.hpp"

namespace ze_test {
namespace {

using ze_engine = ze_app_t;

TEST_F(ze_engine, keeps_and_returns_driver_device_and_context) {
    const auto &d = drivers[0];
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_ze_interop_engine_create(&e, d.driver, d.device, d.context), dnnl_success);
    dnnl_engine_kind_t kind = dnnl_any_engine;
    EXPECT_EQ(dnnl_engine_get_kind(e, &kind), dnnl_success);
    EXPECT_EQ(kind, dnnl_gpu);
    ze_driver_handle_t driver = nullptr;
    ze_device_handle_t device = nullptr;
    ze_context_handle_t context = nullptr;
    EXPECT_EQ(dnnl_ze_interop_engine_get_driver(e, &driver), dnnl_success);
    EXPECT_EQ(dnnl_ze_interop_engine_get_device(e, &device), dnnl_success);
    EXPECT_EQ(dnnl_ze_interop_engine_get_context(e, &context), dnnl_success);
    EXPECT_EQ(driver, d.driver);
    EXPECT_EQ(device, d.device);
    EXPECT_EQ(context, d.context);
    EXPECT_EQ(dnnl_ze_interop_engine_get_driver(e, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
    // Not owned: the context is still the application's and alive.
    EXPECT_EQ(zeContextGetStatus(d.context), ZE_RESULT_SUCCESS);
}

TEST_F(ze_engine, cpp_api_round_trip) {
    const auto &d = drivers[0];
    dnnl::engine eng = dnnl::ze_interop::make_engine(d.driver, d.device, d.context);
    EXPECT_EQ(eng.get_kind(), dnnl::engine::kind::gpu);
    EXPECT_EQ(dnnl::ze_interop::get_driver(eng), d.driver);
    EXPECT_EQ(dnnl::ze_interop::get_device(eng), d.device);
    EXPECT_EQ(dnnl::ze_interop::get_context(eng), d.context);
    const std::vector<uint8_t> id = dnnl::ze_interop::get_engine_cache_blob_id(d.driver, d.device);
    EXPECT_FALSE(id.empty());
    EXPECT_FALSE(dnnl::ze_interop::get_engine_cache_blob(eng).empty()); // the id, no module yet
    EXPECT_THROW(dnnl::ze_interop::make_stream(eng, nullptr), dnnl::error); // null list
}

TEST_F(ze_engine, cache_blob_id_identifies_the_device) {
    const auto &d = drivers[0];
    size_t size = 0;
    ASSERT_EQ(dnnl_ze_interop_engine_get_cache_blob_id(d.driver, d.device, &size, nullptr),
            dnnl_success);
    ASSERT_GT(size, 0u);
    std::vector<uint8_t> id(size), again(size);
    EXPECT_EQ(dnnl_ze_interop_engine_get_cache_blob_id(d.driver, d.device, &size, id.data()),
            dnnl_success);
    EXPECT_EQ(dnnl_ze_interop_engine_get_cache_blob_id(d.driver, d.device, &size, again.data()),
            dnnl_success);
    EXPECT_EQ(id, again);
    size_t wrong = size - 1;
    EXPECT_EQ(dnnl_ze_interop_engine_get_cache_blob_id(d.driver, d.device, &wrong, id.data()),
            dnnl_invalid_arguments);
    if (!d.other_devices.empty()) {
        size_t other_size = 0;
        ASSERT_EQ(dnnl_ze_interop_engine_get_cache_blob_id(
                          d.driver, d.other_devices[0], &other_size, nullptr),
                dnnl_success);
        std::vector<uint8_t> other(other_size);
        ASSERT_EQ(dnnl_ze_interop_engine_get_cache_blob_id(
                          d.driver, d.other_devices[0], &other_size, other.data()),
                dnnl_success);
        EXPECT_NE(other, id);
    }
}

TEST_F(ze_engine, device_of_another_driver_is_refused) {
    if (drivers.size() < 2) GTEST_SKIP() << "needs two drivers (ctest loads the test driver twice)";
    dnnl_engine_t e = nullptr;
    EXPECT_EQ(dnnl_ze_interop_engine_create(
                      &e, drivers[0].driver, drivers[1].device, drivers[0].context),
            dnnl_invalid_arguments);
    size_t size = 0;
    EXPECT_EQ(dnnl_ze_interop_engine_get_cache_blob_id(
                      drivers[1].driver, drivers[0].device, &size, nullptr),
            dnnl_invalid_arguments);
    // A context of another driver cannot hold the device either.
    EXPECT_EQ(dnnl_ze_interop_engine_create(
                      &e, drivers[0].driver, drivers[0].device, drivers[1].context),
            dnnl_invalid_arguments);
    EXPECT_EQ(e, nullptr);
}

TEST_F(ze_engine, context_without_the_device_is_refused) {
    const auto &d = drivers[0];
    if (d.other_devices.empty()) GTEST_SKIP() << "needs a driver with two devices";
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    ze_device_handle_t only_other = d.other_devices[0];
    ze_context_handle_t narrow = nullptr;
    ASSERT_EQ(zeContextCreateEx(d.driver, &desc, 1, &only_other, &narrow), ZE_RESULT_SUCCESS);
    dnnl_engine_t e = nullptr;
    EXPECT_EQ(dnnl_ze_interop_engine_create(&e, d.driver, d.device, narrow),
            dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_ze_interop_engine_create(&e, d.driver, only_other, narrow), dnnl_success);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
    EXPECT_EQ(zeContextDestroy(narrow), ZE_RESULT_SUCCESS);
}

TEST_F(ze_engine, handles_of_no_driver_are_refused_without_use) {
    const auto &d = drivers[0];
    const auto fake_driver = reinterpret_cast<ze_driver_handle_t>(0x10);
    const auto fake_device = reinterpret_cast<ze_device_handle_t>(0x20);
    dnnl_engine_t e = nullptr;
    EXPECT_EQ(dnnl_ze_interop_engine_create(&e, fake_driver, d.device, d.context),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_engine_create(&e, d.driver, fake_device, d.context),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_engine_create(&e, d.driver, d.device, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(e, nullptr);
}

// Cache blobs of another device or truncated are refused; primitives are made on a Level Zero
// engine (tests/ze/ze_primitive_test.cpp runs them).
TEST_F(ze_engine, foreign_cache_blobs_are_refused_and_primitives_are_made) {
    const auto &d = drivers[0];
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_ze_interop_engine_create(&e, d.driver, d.device, d.context), dnnl_success);
    size_t size = 0;
    EXPECT_EQ(dnnl_ze_interop_engine_get_cache_blob(e, &size, nullptr), dnnl_success);
    EXPECT_GT(size, 0u); // the id at least
    const uint8_t blob[4] = {1, 2, 3, 4};
    dnnl_engine_t from_blob = nullptr;
    EXPECT_EQ(dnnl_ze_interop_engine_create_from_cache_blob(
                      &from_blob, d.driver, d.device, d.context, sizeof(blob), blob),
            dnnl_invalid_arguments);
    EXPECT_EQ(from_blob, nullptr);
    dnnl_memory_desc_t md = nullptr;
    dnnl_dims_t dims = {16};
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md, 1, dims, dnnl_f32, dnnl_a), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, e, dnnl_forward_inference,
                      dnnl_eltwise_relu, md, md, 0.f, 0.f, nullptr),
            dnnl_success);
    EXPECT_EQ(dnnl_primitive_desc_destroy(pd), dnnl_success);
    dnnl_engine_t cpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    for (bool to_device : {true, false}) {
        pd = nullptr;
        EXPECT_EQ(dnnl_reorder_primitive_desc_create(
                          &pd, md, to_device ? cpu : e, md, to_device ? e : cpu, nullptr),
                dnnl_success);
        EXPECT_EQ(dnnl_primitive_desc_destroy(pd), dnnl_success);
    }
    EXPECT_EQ(dnnl_engine_destroy(cpu), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_destroy(md), dnnl_success);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
}

TEST_F(ze_engine, cpu_engine_is_unaffected_by_a_driver) {
    dnnl_engine_t cpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ze_device_handle_t device = nullptr;
    EXPECT_EQ(dnnl_ze_interop_engine_get_device(cpu, &device), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_engine_destroy(cpu), dnnl_success);
}

} // namespace
} // namespace ze_test
