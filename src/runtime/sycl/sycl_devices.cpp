#include "runtime/sycl/sycl_devices.hpp"

#include <cstdlib>
#include <cstring>
#include <vector>

#include "runtime/sycl/sycl_engine.hpp"

namespace anydnn {
namespace sycl_rt {

namespace {

std::vector<::sycl::device> find_devices() {
    std::vector<::sycl::device> all;
    try {
        for (const auto &d : ::sycl::device::get_devices())
            if (d.get_backend() == ::sycl::backend::opencl) all.push_back(d);
    } catch (const ::sycl::exception &) {
        return {};
    }
    for (auto type : {::sycl::info::device_type::gpu, ::sycl::info::device_type::accelerator,
                 ::sycl::info::device_type::cpu}) {
        std::vector<::sycl::device> of_type;
        for (const auto &d : all)
            if (d.get_info<::sycl::info::device::device_type>() == type) of_type.push_back(d);
        if (!of_type.empty()) return of_type;
    }
    return {};
}

// Never destroyed: SYCL's runtime may be gone by the time static objects are.
const std::vector<::sycl::device> &devices() {
    static const auto *d = new std::vector<::sycl::device>(find_devices());
    return *d;
}

} // namespace

bool gpu_runtime_is_sycl() {
    const char *env = std::getenv("ANYDNN_GPU_RUNTIME");
    return env && std::strcmp(env, "sycl") == 0;
}

size_t engine_count() { return devices().size(); }

status_t create_engine(engine_t **engine, size_t index) {
    ANYDNN_REQUIRE(index < devices().size(), dnnl_invalid_arguments, "no SYCL device %zu", index);
    return sycl_guarded(__func__, [&]() -> status_t {
        const ::sycl::device &d = devices()[index];
        sycl_engine_t *e = nullptr;
        ANYDNN_CHECK(sycl_engine_t::create(&e, d, ::sycl::context(d)));
        *engine = e;
        return dnnl_success;
    });
}

} // namespace sycl_rt
} // namespace anydnn
