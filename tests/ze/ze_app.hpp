// The application's side of Level Zero tests: the drivers the loader found (the test driver,
// twice, under ctest), each with its first device, a context of ours with every device, and
// its other devices.
#pragma once

#include <gtest/gtest.h>
#include <level_zero/ze_api.h>

#include <cstdlib>
#include <vector>

namespace ze_test {

struct ze_app_driver_t {
    ze_driver_handle_t driver = nullptr;
    ze_device_handle_t device = nullptr;
    ze_context_handle_t context = nullptr;
    std::vector<ze_device_handle_t> other_devices;
};

class ze_app_t : public ::testing::Test {
protected:
    void SetUp() override {
        uint32_t count = 0;
        if (zeInit(ZE_INIT_FLAG_GPU_ONLY) != ZE_RESULT_SUCCESS
                || zeDriverGet(&count, nullptr) != ZE_RESULT_SUCCESS || count == 0) {
            // Under ctest the test driver must be there: its absence is a failure.
            ASSERT_EQ(std::getenv("ANYDNN_ZE_TEST_REQUIRE_DRIVER"), nullptr)
                    << "the Level Zero test driver was not loaded";
            GTEST_SKIP() << "no Level Zero driver (ctest loads the test driver)";
        }
        std::vector<ze_driver_handle_t> handles(count);
        ASSERT_EQ(zeDriverGet(&count, handles.data()), ZE_RESULT_SUCCESS);
        for (ze_driver_handle_t h : handles) {
            ze_app_driver_t d;
            d.driver = h;
            uint32_t ndevices = 0;
            ASSERT_EQ(zeDeviceGet(h, &ndevices, nullptr), ZE_RESULT_SUCCESS);
            ASSERT_GE(ndevices, 1u);
            std::vector<ze_device_handle_t> devices(ndevices);
            ASSERT_EQ(zeDeviceGet(h, &ndevices, devices.data()), ZE_RESULT_SUCCESS);
            d.device = devices[0];
            d.other_devices.assign(devices.begin() + 1, devices.begin() + ndevices);
            ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
            ASSERT_EQ(zeContextCreate(h, &desc, &d.context), ZE_RESULT_SUCCESS);
            drivers.push_back(d);
        }
    }
    void TearDown() override {
        for (auto &d : drivers) EXPECT_EQ(zeContextDestroy(d.context), ZE_RESULT_SUCCESS);
    }

    std::vector<ze_app_driver_t> drivers;
};

} // namespace ze_test
