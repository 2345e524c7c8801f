// USM memory of Level Zero engines on the test driver: what anydnn allocates is shared USM,
// mapped in place and freed with the memory; the application's USM pointers (host, shared,
// device) are used, never freed; pointers that are not USM of the engine's context are refused.
#include <cstring>
#include <vector>

#include "oneapi/dnnl/dnnl_ze.h"
#include "oneapi/dnnl/dnnl_ze.hpp"
#include "ze/ze_app.hpp"

namespace ze_test {
namespace {

constexpr int n = 37;

class ze_memory : public ze_app_t {
protected:
    void SetUp() override {
        ze_app_t::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        const auto &d = drivers[0];
        ASSERT_EQ(dnnl_ze_interop_engine_create(&engine, d.driver, d.device, d.context),
                dnnl_success);
        dnnl_dims_t dims = {n};
        ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md, 1, dims, dnnl_f32, dnnl_a), dnnl_success);
    }
    void TearDown() override {
        dnnl_memory_desc_destroy(md);
        dnnl_engine_destroy(engine);
        ze_app_t::TearDown();
    }

    ze_memory_type_t type_of(const void *ptr, ze_context_handle_t context = nullptr) {
        ze_memory_allocation_properties_t props = {};
        props.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES;
        EXPECT_EQ(zeMemGetAllocProperties(context ? context : drivers[0].context, ptr, &props,
                          nullptr),
                ZE_RESULT_SUCCESS);
        return props.type;
    }
    void *app_alloc(ze_memory_type_t type) {
        const auto &d = drivers[0];
        ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
        ze_host_mem_alloc_desc_t hd = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
        void *p = nullptr;
        const size_t bytes = n * sizeof(float);
        if (type == ZE_MEMORY_TYPE_HOST)
            EXPECT_EQ(zeMemAllocHost(d.context, &hd, bytes, 64, &p), ZE_RESULT_SUCCESS);
        else if (type == ZE_MEMORY_TYPE_SHARED)
            EXPECT_EQ(zeMemAllocShared(d.context, &dd, &hd, bytes, 64, d.device, &p),
                    ZE_RESULT_SUCCESS);
        else
            EXPECT_EQ(zeMemAllocDevice(d.context, &dd, bytes, 64, d.device, &p),
                    ZE_RESULT_SUCCESS);
        return p;
    }
    // Writes i + 0.5 through a map, reads it back through another.
    void expect_map_round_trip(dnnl_memory_t m) {
        void *p = nullptr;
        ASSERT_EQ(dnnl_memory_map_data(m, &p), dnnl_success);
        ASSERT_NE(p, nullptr);
        for (int i = 0; i < n; ++i) static_cast<float *>(p)[i] = i + 0.5f;
        ASSERT_EQ(dnnl_memory_unmap_data(m, p), dnnl_success);
        ASSERT_EQ(dnnl_memory_map_data(m, &p), dnnl_success);
        for (int i = 0; i < n; ++i) EXPECT_EQ(static_cast<float *>(p)[i], i + 0.5f) << i;
        ASSERT_EQ(dnnl_memory_unmap_data(m, p), dnnl_success);
    }

    dnnl_engine_t engine = nullptr;
    dnnl_memory_desc_t md = nullptr;
};

TEST_F(ze_memory, allocated_is_shared_usm_freed_with_the_memory) {
    dnnl_memory_t m = nullptr;
    ASSERT_EQ(dnnl_memory_create(&m, md, engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
    void *ptr = nullptr;
    ASSERT_EQ(dnnl_memory_get_data_handle(m, &ptr), dnnl_success);
    ASSERT_NE(ptr, nullptr);
    EXPECT_EQ(type_of(ptr), ZE_MEMORY_TYPE_SHARED);
    expect_map_round_trip(m);
    ASSERT_EQ(dnnl_memory_destroy(m), dnnl_success);
    EXPECT_EQ(type_of(ptr), ZE_MEMORY_TYPE_UNKNOWN); // freed

    void *allocate = DNNL_MEMORY_ALLOCATE;
    ASSERT_EQ(dnnl_ze_interop_memory_create(&m, md, engine, 1, &allocate), dnnl_success);
    expect_map_round_trip(m);
    EXPECT_EQ(dnnl_memory_destroy(m), dnnl_success);
}

TEST_F(ze_memory, application_pointers_are_used_never_freed) {
    for (ze_memory_type_t type : {ZE_MEMORY_TYPE_HOST, ZE_MEMORY_TYPE_SHARED}) {
        void *ptr = app_alloc(type);
        dnnl_memory_t m = nullptr;
        ASSERT_EQ(dnnl_ze_interop_memory_create(&m, md, engine, 1, &ptr), dnnl_success);
        void *handle = nullptr;
        EXPECT_EQ(dnnl_memory_get_data_handle(m, &handle), dnnl_success);
        EXPECT_EQ(handle, ptr);
        expect_map_round_trip(m);
        for (int i = 0; i < n; ++i) EXPECT_EQ(static_cast<float *>(ptr)[i], i + 0.5f);
        ASSERT_EQ(dnnl_memory_destroy(m), dnnl_success);
        EXPECT_EQ(type_of(ptr), type); // still the application's
        EXPECT_EQ(zeMemFree(drivers[0].context, ptr), ZE_RESULT_SUCCESS);
    }
}

TEST_F(ze_memory, device_usm_maps_through_a_copy) {
    void *ptr = app_alloc(ZE_MEMORY_TYPE_DEVICE);
    dnnl_memory_t m = nullptr;
    ASSERT_EQ(dnnl_ze_interop_memory_create(&m, md, engine, 1, &ptr), dnnl_success);
    expect_map_round_trip(m);
    void *p = nullptr;
    ASSERT_EQ(dnnl_memory_map_data(m, &p), dnnl_success);
    EXPECT_NE(p, ptr); // a host copy
    EXPECT_EQ(dnnl_memory_unmap_data(m, p), dnnl_success);
    EXPECT_EQ(dnnl_memory_destroy(m), dnnl_success);
    EXPECT_EQ(zeMemFree(drivers[0].context, ptr), ZE_RESULT_SUCCESS);
}

TEST_F(ze_memory, none_then_set_data_handle) {
    dnnl_memory_t m = nullptr;
    void *none = DNNL_MEMORY_NONE;
    ASSERT_EQ(dnnl_ze_interop_memory_create(&m, md, engine, 1, &none), dnnl_success);
    void *handle = &handle;
    EXPECT_EQ(dnnl_memory_get_data_handle(m, &handle), dnnl_success);
    EXPECT_EQ(handle, nullptr);
    void *ptr = app_alloc(ZE_MEMORY_TYPE_SHARED);
    ASSERT_EQ(dnnl_memory_set_data_handle(m, ptr), dnnl_success);
    expect_map_round_trip(m);
    std::vector<float> not_usm(n);
    EXPECT_EQ(dnnl_memory_set_data_handle(m, not_usm.data()), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_get_data_handle(m, &handle), dnnl_success);
    EXPECT_EQ(handle, ptr);
    EXPECT_EQ(dnnl_memory_destroy(m), dnnl_success);
    EXPECT_EQ(zeMemFree(drivers[0].context, ptr), ZE_RESULT_SUCCESS);
}

TEST_F(ze_memory, pointers_that_are_not_usm_of_the_context_are_refused) {
    std::vector<float> host(n);
    void *ptr = host.data();
    dnnl_memory_t m = nullptr;
    EXPECT_EQ(dnnl_ze_interop_memory_create(&m, md, engine, 1, &ptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_create(&m, md, engine, ptr), dnnl_invalid_arguments);
    if (drivers.size() > 1) {
        ze_host_mem_alloc_desc_t hd = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
        void *other = nullptr;
        ASSERT_EQ(zeMemAllocHost(drivers[1].context, &hd, n * sizeof(float), 64, &other),
                ZE_RESULT_SUCCESS);
        EXPECT_EQ(dnnl_ze_interop_memory_create(&m, md, engine, 1, &other),
                dnnl_invalid_arguments);
        EXPECT_EQ(zeMemFree(drivers[1].context, other), ZE_RESULT_SUCCESS);
    }
    void *allocate = DNNL_MEMORY_ALLOCATE;
    EXPECT_EQ(dnnl_ze_interop_memory_create(&m, md, engine, 2, &allocate),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ze_interop_memory_create(&m, md, engine, 1, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(m, nullptr);
}

TEST_F(ze_memory, cpp_make_memory) {
    dnnl::engine eng(engine, true);
    dnnl::memory::desc d({n}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a);
    dnnl::memory allocated = dnnl::ze_interop::make_memory(d, eng);
    EXPECT_EQ(type_of(allocated.get_data_handle()), ZE_MEMORY_TYPE_SHARED);
    void *ptr = app_alloc(ZE_MEMORY_TYPE_HOST);
    {
        dnnl::memory user = dnnl::ze_interop::make_memory(d, eng, ptr);
        EXPECT_EQ(user.get_data_handle(), ptr);
    }
    EXPECT_EQ(zeMemFree(drivers[0].context, ptr), ZE_RESULT_SUCCESS);
}

} // namespace
} // namespace ze_test
