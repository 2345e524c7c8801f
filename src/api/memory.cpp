// dnnl_memory_* entry points (the memory object; descriptors are in memory_desc.cpp).
#include <cstring>

#include "api/api.hpp"
#include "core/memory.hpp"
#include "core/memory_zero_pad.hpp"
#include "core/sparse_packed.hpp"

using namespace anydnn;

namespace {

status_t check_creatable(const memory_desc_t *md, engine_t *engine) {
    ANYDNN_REQUIRE_NOT_NULL(md);
    ANYDNN_REQUIRE_LIVE(engine, engine);
    ANYDNN_REQUIRE(md->format_kind != dnnl_format_kind_any, dnnl_invalid_arguments,
            "memory cannot be created with format_kind any");
    ANYDNN_REQUIRE(!sparse_packed::is_request(*md), dnnl_invalid_arguments,
            "memory cannot be created with a packed encoding request: query the "
            "primitive's weights descriptor for the packed layout");
    ANYDNN_REQUIRE(md->format_kind != dnnl_format_kind_undef || is_zero_md(*md),
            dnnl_invalid_arguments, "memory descriptor has no format");
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(*md), dnnl_invalid_arguments,
            "memory cannot be created with runtime dimensions or strides");
    return dnnl_success;
}

status_t create_memory(dnnl_memory_t *memory, const memory_desc_t *md, engine_t *engine,
        int nhandles, void **handles) {
    ANYDNN_REQUIRE_NOT_NULL(memory);
    ANYDNN_CHECK(check_creatable(md, engine));
    ANYDNN_REQUIRE(md->format_kind != dnnl_format_kind_host_scalar, dnnl_invalid_arguments,
            "host scalar memory is created with dnnl_memory_create_host_scalar");
    const int expected = num_handles(*md);
    ANYDNN_REQUIRE(nhandles == expected && handles, dnnl_invalid_arguments,
            "memory needs %d handle(s), got %d", expected, nhandles);
    auto mem = std::make_unique<dnnl_memory>(engine, *md);
    for (int i = 0; i < nhandles; ++i) {
        std::unique_ptr<memory_storage_t> storage;
        // A submemory view starts offset0 elements into its buffer: allocate that too.
        size_t bytes = size_in_bytes(*md, i);
        if (i == 0 && bytes > 0) bytes += md->offset0 * data_type_size(md->data_type);
        ANYDNN_CHECK(engine->create_memory_storage(storage, bytes, handles[i]));
        mem->add_storage(std::move(storage));
    }
    registry_add(object_kind::memory, mem.get());
    *memory = mem.release();
    return dnnl_success;
}

bool is_host_scalar(const_dnnl_memory_t memory) {
    return memory->md().format_kind == dnnl_format_kind_host_scalar;
}

status_t check_handle_index(const_dnnl_memory_t memory, int index) {
    ANYDNN_REQUIRE_LIVE(memory, memory);
    ANYDNN_REQUIRE(index >= 0 && index < memory->nhandles(), dnnl_invalid_arguments,
            "handle index %d out of range (memory has %d)", index, memory->nhandles());
    return dnnl_success;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_memory_create(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine, void *handle) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(memory_desc);
        ANYDNN_REQUIRE(num_handles(*memory_desc) == 1, dnnl_invalid_arguments,
                "this layout needs %d handles: use dnnl_memory_create_v2",
                num_handles(*memory_desc));
        return create_memory(memory, memory_desc, engine, 1, &handle);
    });
}

DNNL_API dnnl_status_t dnnl_memory_create_v2(dnnl_memory_t *memory,
        const_dnnl_memory_desc_t memory_desc, dnnl_engine_t engine, int nhandles,
        void **handles) {
    return guarded(__func__,
            [&] { return create_memory(memory, memory_desc, engine, nhandles, handles); });
}

DNNL_API dnnl_status_t dnnl_memory_create_host_scalar(
        dnnl_memory_t *memory, const_dnnl_memory_desc_t memory_desc, void *scalar_ptr) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(memory);
        ANYDNN_REQUIRE_NOT_NULL(memory_desc);
        ANYDNN_REQUIRE_NOT_NULL(scalar_ptr);
        ANYDNN_REQUIRE(memory_desc->format_kind == dnnl_format_kind_host_scalar,
                dnnl_invalid_arguments, "descriptor is not a host scalar one");
        // Host scalars live on the host, with no engine of their own.
        auto mem = std::make_unique<dnnl_memory>(nullptr, *memory_desc);
        std::memcpy(mem->scalar_value, scalar_ptr, data_type_size(memory_desc->data_type));
        registry_add(object_kind::memory, mem.get());
        *memory = mem.release();
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_memory_get_host_scalar_value(
        const_dnnl_memory_t memory, void *value) {
    ANYDNN_REQUIRE_LIVE(memory, memory);
    ANYDNN_REQUIRE_NOT_NULL(value);
    ANYDNN_REQUIRE(memory->md().format_kind == dnnl_format_kind_host_scalar,
            dnnl_invalid_arguments, "memory is not a host scalar");
    std::memcpy(value, memory->scalar_value, data_type_size(memory->md().data_type));
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_memory_set_host_scalar_value(
        dnnl_memory_t memory, const void *value) {
    ANYDNN_REQUIRE_LIVE(memory, memory);
    ANYDNN_REQUIRE_NOT_NULL(value);
    ANYDNN_REQUIRE(memory->md().format_kind == dnnl_format_kind_host_scalar,
            dnnl_invalid_arguments, "memory is not a host scalar");
    std::memcpy(memory->scalar_value, value, data_type_size(memory->md().data_type));
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_memory_get_memory_desc(
        const_dnnl_memory_t memory, const_dnnl_memory_desc_t *memory_desc) {
    ANYDNN_REQUIRE_LIVE(memory, memory);
    ANYDNN_REQUIRE_NOT_NULL(memory_desc);
    *memory_desc = &memory->md();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_memory_get_engine(
        const_dnnl_memory_t memory, dnnl_engine_t *engine) {
    ANYDNN_REQUIRE_LIVE(memory, memory);
    ANYDNN_REQUIRE_NOT_NULL(engine);
    *engine = memory->engine();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_memory_map_data_v2(
        const_dnnl_memory_t memory, void **mapped_ptr, int index) {
    ANYDNN_REQUIRE_LIVE(memory, memory);
    ANYDNN_REQUIRE_NOT_NULL(mapped_ptr);
    // A host scalar maps to its value in place (as in oneDNN; it has no data handle).
    if (is_host_scalar(memory) && index == 0) {
        *mapped_ptr = const_cast<unsigned char *>(memory->scalar_value);
        return dnnl_success;
    }
    ANYDNN_CHECK(check_handle_index(memory, index));
    return memory->storage(index)->map(mapped_ptr);
}

DNNL_API dnnl_status_t dnnl_memory_map_data(const_dnnl_memory_t memory, void **mapped_ptr) {
    return dnnl_memory_map_data_v2(memory, mapped_ptr, 0);
}

DNNL_API dnnl_status_t dnnl_memory_unmap_data_v2(
        const_dnnl_memory_t memory, void *mapped_ptr, int index) {
    ANYDNN_REQUIRE_LIVE(memory, memory);
    if (is_host_scalar(memory) && index == 0) {
        ANYDNN_REQUIRE(mapped_ptr == memory->scalar_value, dnnl_invalid_arguments,
                "pointer was not mapped from this host scalar");
        return dnnl_success;
    }
    ANYDNN_CHECK(check_handle_index(memory, index));
    return memory->storage(index)->unmap(mapped_ptr);
}

DNNL_API dnnl_status_t dnnl_memory_unmap_data(const_dnnl_memory_t memory, void *mapped_ptr) {
    return dnnl_memory_unmap_data_v2(memory, mapped_ptr, 0);
}

DNNL_API dnnl_status_t dnnl_memory_get_data_handle_v2(
        const_dnnl_memory_t memory, void **handle, int index) {
    ANYDNN_CHECK(check_handle_index(memory, index));
    ANYDNN_REQUIRE_NOT_NULL(handle);
    *handle = memory->storage(index)->data_handle();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_memory_get_data_handle(
        const_dnnl_memory_t memory, void **handle) {
    return dnnl_memory_get_data_handle_v2(memory, handle, 0);
}

DNNL_API dnnl_status_t dnnl_memory_set_data_handle_v2(
        dnnl_memory_t memory, void *handle, int index) {
    ANYDNN_CHECK(check_handle_index(memory, index));
    ANYDNN_REQUIRE(handle != DNNL_MEMORY_ALLOCATE, dnnl_invalid_arguments,
            "DNNL_MEMORY_ALLOCATE is not a handle");
    ANYDNN_CHECK(memory->storage(index)->set_data_handle(handle));
    // The new buffer's padding may hold anything: primitives read it as zero.
    if (index == 0 && handle) return zero_pad(memory->md(), *memory->storage(0));
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_memory_set_data_handle(dnnl_memory_t memory, void *handle) {
    return dnnl_memory_set_data_handle_v2(memory, handle, 0);
}

DNNL_API dnnl_status_t dnnl_memory_destroy(dnnl_memory_t memory) {
    if (!memory) return dnnl_success;
    ANYDNN_REQUIRE_LIVE(memory, memory);
    registry_remove(object_kind::memory, memory);
    delete memory;
    return dnnl_success;
}

} // extern "C"
