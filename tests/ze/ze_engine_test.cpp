// dnnl_ze_interop_* on the test driver, through Debian's loader and validation layer: the
// library finds the application's driver, tells a device of another driver apart, and says
// plainly that Level Zero engines are not implemented yet.
#include <vector>

#include "oneapi/dnnl/dnnl_ze.h"
#include "ze/ze_app.hpp"

namespace ze_test {
namespace {

using ze_engine = ze_app_t;

TEST_F(ze_engine, driver_device_and_context_reach_the_not_yet_implemented_engine) {
    const auto &d = drivers[0];
    dnnl_engine_t e = nullptr;
    EXPECT_EQ(dnnl_ze_interop_engine_create(&e, d.driver, d.device, d.context),
            dnnl_unimplemented);
    EXPECT_EQ(e, nullptr);
    size_t size = 0;
    EXPECT_EQ(dnnl_ze_interop_engine_get_cache_blob_id(d.driver, d.device, &size, nullptr),
            dnnl_unimplemented);
    const uint8_t blob[4] = {1, 2, 3, 4};
    EXPECT_EQ(dnnl_ze_interop_engine_create_from_cache_blob(
                      &e, d.driver, d.device, d.context, sizeof(blob), blob),
            dnnl_unimplemented);
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
    EXPECT_EQ(e, nullptr);
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

TEST_F(ze_engine, cpu_engine_is_unaffected_by_a_driver) {
    dnnl_engine_t cpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    ze_device_handle_t device = nullptr;
    EXPECT_EQ(dnnl_ze_interop_engine_get_device(cpu, &device), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_engine_destroy(cpu), dnnl_success);
}

} // namespace
} // namespace ze_test
