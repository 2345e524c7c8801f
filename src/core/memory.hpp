// The memory object behind dnnl_memory_t: a descriptor plus one storage per handle
// (dense layouts have one; sparse ones have values, indices, pointers).
#pragma once

#include <cstring>
#include <memory>
#include <vector>

#include "core/engine.hpp"
#include "core/memory_desc.hpp"

namespace anydnn {

// A buffer on an engine's device. CPU storage is host memory; others map to host.
struct memory_storage_t {
    virtual ~memory_storage_t() = default;
    // The user-visible handle (host pointer, cl_mem, USM pointer...); may be null.
    virtual void *data_handle() const = 0;
    virtual status_t set_data_handle(void *handle) = 0;
    // Host-accessible view of the buffer for the duration of a map.
    virtual status_t map(void **host_ptr) = 0;
    virtual status_t unmap(void *host_ptr) = 0;
    // Host pointer usable directly by CPU implementations (null for device memory).
    virtual void *host_ptr() const { return nullptr; }
};

} // namespace anydnn

struct dnnl_memory {
    dnnl_memory(dnnl_engine *engine, const dnnl_memory_desc &md)
        : engine_(engine), md_(md) {}
    // A view of `base`'s buffers under another descriptor: a primitive made from a submemory
    // descriptor runs on the parent memory passed to it this way, as oneDNN applies the
    // primitive's descriptor to the handle of the memory passed. `base` outlives the view.
    dnnl_memory(const dnnl_memory &base, const dnnl_memory_desc &md)
        : engine_(base.engine_), md_(md), base_(&base) {
        std::memcpy(scalar_value, base.scalar_value, sizeof(scalar_value));
    }
    virtual ~dnnl_memory() = default;

    dnnl_engine *engine() const { return engine_.get(); }
    const dnnl_memory_desc &md() const { return md_; }
    int nhandles() const {
        return base_ ? base_->nhandles() : static_cast<int>(storages_.size());
    }
    anydnn::memory_storage_t *storage(int index = 0) const {
        if (base_) return base_->storage(index);
        return index < nhandles() ? storages_[index].get() : nullptr;
    }
    void add_storage(std::unique_ptr<anydnn::memory_storage_t> s) {
        storages_.push_back(std::move(s));
    }
    // Host pointer of handle `index` for CPU kernels (already offset by nothing: offset0 is
    // part of the descriptor and applied by the kernels).
    void *host_ptr(int index = 0) const {
        auto *s = storage(index);
        return s ? s->host_ptr() : nullptr;
    }

    // Scalar memory (format_kind host_scalar) keeps its value inline.
    alignas(8) unsigned char scalar_value[16] = {};

private:
    anydnn::engine_ref_t engine_;
    dnnl_memory_desc md_;
    std::vector<std::unique_ptr<anydnn::memory_storage_t>> storages_;
    const dnnl_memory *base_ = nullptr; // a view's memory, whose storages it uses
};

namespace anydnn {
using memory_t = dnnl_memory;
}
