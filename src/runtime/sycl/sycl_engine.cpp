#include "runtime/sycl/sycl_engine.hpp"

#include <algorithm>

#include "runtime/ocl/ocl_memory.hpp"
#include "runtime/sycl/sycl_memory.hpp"
#include "runtime/sycl/sycl_stream.hpp"

namespace anydnn {
namespace sycl_rt {

sycl_engine_t *as_sycl(engine_t *e) {
    return dynamic_cast<sycl_engine_t *>(ocl::as_ocl(e));
}

sycl_engine_t::sycl_engine_t(cl_device_id device, cl_context context,
        const ::sycl::device &sdevice, const ::sycl::context &scontext)
    : ocl_engine_t(device, context, 0), device_(sdevice), context_(scontext) {}

status_t sycl_engine_t::create(
        sycl_engine_t **engine, const ::sycl::device &device, const ::sycl::context &context) {
    return sycl_guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE(device.get_backend() == ::sycl::backend::opencl, dnnl_unimplemented,
                "the SYCL device is not on SYCL's OpenCL backend (only that one is supported)");
        const auto devices = context.get_devices();
        ANYDNN_REQUIRE(std::find(devices.begin(), devices.end(), device) != devices.end(),
                dnnl_invalid_arguments, "the SYCL device is not in the SYCL context");
        // get_native hands out one reference of each; prepare takes its own.
        cl_device_id cl_device = ::sycl::get_native<::sycl::backend::opencl>(device);
        cl_context cl_context_ = ::sycl::get_native<::sycl::backend::opencl>(context);
        ocl::device_info_t info;
        cl_context ctx = cl_context_;
        status_t st = prepare(cl_device, ctx, info);
        ocl::cl_api()->clReleaseContext(cl_context_);
        ocl::cl_api()->clReleaseDevice(cl_device);
        ANYDNN_CHECK(st);
        auto *e = new sycl_engine_t(cl_device, ctx, device, context);
        e->set_info(std::move(info));
        *engine = e;
        return dnnl_success;
    });
}

status_t sycl_engine_t::create_stream(dnnl_stream **stream, unsigned flags) {
    return sycl_guarded(__func__, [&]() -> status_t {
        ::sycl::property_list props;
        if (!(flags & dnnl_stream_out_of_order))
            props = ::sycl::property_list {::sycl::property::queue::in_order {}};
        ::sycl::queue queue(context_, device_, props);
        sycl_stream_t *s = nullptr;
        ANYDNN_CHECK(sycl_stream_t::create(&s, this, queue, flags));
        *stream = s;
        return dnnl_success;
    });
}

status_t sycl_engine_t::create_memory_storage(
        std::unique_ptr<memory_storage_t> &storage, size_t size, void *handle) {
    if (handle != DNNL_MEMORY_ALLOCATE && handle != DNNL_MEMORY_NONE && handle) {
        const auto type = ::sycl::get_pointer_type(handle, context_);
        ANYDNN_REQUIRE(type != ::sycl::usm::alloc::unknown, dnnl_invalid_arguments,
                "the handle is not a USM pointer of the engine's SYCL context");
    }
    return create_usm_storage(storage, size, handle);
}

status_t sycl_engine_t::create_buffer_storage(
        std::unique_ptr<memory_storage_t> &storage, size_t size, void *handle) {
    return sycl_guarded(__func__, [&]() -> status_t {
        auto s = std::make_unique<sycl_buffer_storage_t>(this, size);
        if (handle == DNNL_MEMORY_ALLOCATE) {
            if (size > 0) {
                ::sycl::buffer<uint8_t, 1> buffer {::sycl::range<1>(size)};
                ANYDNN_CHECK(s->set_data_handle(&buffer));
            }
        } else if (handle != DNNL_MEMORY_NONE) {
            ANYDNN_CHECK(s->set_data_handle(handle));
        }
        storage = std::move(s);
        return dnnl_success;
    });
}

} // namespace sycl_rt
} // namespace anydnn
