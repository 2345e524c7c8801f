// Memory objects over handles of a runtime's own (OpenCL buffers or USM, SYCL USM or buffers):
// the descriptor and handle-count checks every interop API shares.
#pragma once

#include <functional>
#include <memory>

#include "core/memory.hpp"
#include "oneapi/dnnl/dnnl.h"

namespace anydnn {

// One storage of `bytes` over `handle` (DNNL_MEMORY_ALLOCATE, DNNL_MEMORY_NONE or the user's).
using make_storage_fn = std::function<status_t(
        std::unique_ptr<memory_storage_t> &storage, size_t bytes, void *handle)>;

// Checks `md` and the handle count, then makes one storage per handle with `make_storage`.
status_t create_interop_memory(dnnl_memory_t *memory, const memory_desc_t *md, engine_t *engine,
        int nhandles, void **handles, const make_storage_fn &make_storage);

} // namespace anydnn
