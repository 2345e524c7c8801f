#include "api/interop_memory.hpp"

#include "api/api.hpp"
#include "core/memory_desc.hpp"
#include "core/primitive.hpp"

namespace anydnn {

status_t create_interop_memory(dnnl_memory_t *memory, const memory_desc_t *md, engine_t *engine,
        int nhandles, void **handles, const make_storage_fn &make_storage) {
    ANYDNN_REQUIRE(md->format_kind != dnnl_format_kind_any
                    && md->format_kind != dnnl_format_kind_host_scalar
                    && !has_runtime_dims_or_strides(*md),
            dnnl_invalid_arguments, "memory cannot be created with this descriptor");
    const int expected = num_handles(*md);
    ANYDNN_REQUIRE(nhandles == expected && handles, dnnl_invalid_arguments,
            "memory needs %d handle(s), got %d", expected, nhandles);
    auto mem = std::make_unique<dnnl_memory>(engine, *md);
    for (int i = 0; i < nhandles; ++i) {
        size_t bytes = size_in_bytes(*md, i);
        if (i == 0 && bytes > 0) bytes += md->offset0 * data_type_size(md->data_type);
        std::unique_ptr<memory_storage_t> storage;
        ANYDNN_CHECK(make_storage(storage, bytes, handles[i]));
        mem->add_storage(std::move(storage));
    }
    registry_add(object_kind::memory, mem.get());
    *memory = mem.release();
    return dnnl_success;
}

} // namespace anydnn
