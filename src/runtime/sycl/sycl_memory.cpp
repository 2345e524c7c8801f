#include "runtime/sycl/sycl_memory.hpp"

#include "runtime/sycl/sycl_engine.hpp"

namespace anydnn {
namespace sycl_rt {

sycl_buffer_storage_t::~sycl_buffer_storage_t() {
    mapped_.reset();
}

status_t sycl_buffer_storage_t::set_data_handle(void *handle) {
    return sycl_guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE(!mapped_, dnnl_invalid_arguments, "the memory is mapped");
        if (!handle) {
            buffer_.reset();
            return dnnl_success;
        }
        const auto &b = *static_cast<const byte_buffer_t *>(handle);
        ANYDNN_REQUIRE(b.byte_size() >= size_, dnnl_invalid_arguments,
                "the SYCL buffer has %zu bytes, the memory descriptor needs %zu", b.byte_size(),
                size_);
        buffer_ = std::make_unique<byte_buffer_t>(b);
        return dnnl_success;
    });
}

status_t sycl_buffer_storage_t::map(void **host_ptr) {
    *host_ptr = nullptr;
    if (!buffer_) return dnnl_success;
    return sycl_guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE(!mapped_, dnnl_invalid_arguments, "the memory is already mapped");
        mapped_ = std::make_unique<::sycl::host_accessor<uint8_t, 1>>(*buffer_);
        *host_ptr = mapped_->get_pointer();
        return dnnl_success;
    });
}

status_t sycl_buffer_storage_t::unmap(void *host_ptr) {
    mapped_.reset();
    return dnnl_success;
}

} // namespace sycl_rt
} // namespace anydnn
