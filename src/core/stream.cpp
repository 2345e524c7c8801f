#include "core/stream.hpp"

#include "core/memory.hpp"

dnnl_stream::dnnl_stream(dnnl_engine *engine, unsigned flags) : engine_(engine), flags_(flags) {}

dnnl_stream::~dnnl_stream() = default;

anydnn::status_t dnnl_stream::scratchpad(
        size_t bytes, const anydnn::memory_storage_t *&storage) {
    storage = nullptr;
    // Without turns, another thread could replace the buffer between this call and the
    // enqueue of the execution that uses it.
    if (engine()->kind() == dnnl_cpu || !(flags_ & dnnl_stream_in_order) || turn_exempt_)
        return dnnl_success;
    if (bytes > scratchpad_bytes_) {
        if (scratchpad_) {
            ANYDNN_CHECK(wait());
            scratchpad_.reset();
            scratchpad_bytes_ = 0;
        }
        ANYDNN_CHECK(engine()->create_memory_storage(scratchpad_, bytes, DNNL_MEMORY_ALLOCATE));
        scratchpad_bytes_ = bytes;
    }
    storage = scratchpad_.get();
    return dnnl_success;
}
