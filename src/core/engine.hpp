// The engine object behind dnnl_engine_t: one device of one runtime. Runtimes derive from it;
// operations reach a device only through this interface and memory_storage_t.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/object.hpp"
#include "core/status.hpp"

namespace anydnn {

struct memory_storage_t;
struct impl_entry_t;
namespace gpu {
struct compute_engine_t;
}

enum class runtime_kind_t { cpu, ocl, ze, sycl };

} // namespace anydnn

struct dnnl_engine : public anydnn::ref_counted_t {
    dnnl_engine(dnnl_engine_kind_t kind, anydnn::runtime_kind_t runtime, size_t index);

    dnnl_engine_kind_t kind() const { return kind_; }
    anydnn::runtime_kind_t runtime() const { return runtime_; }
    size_t index() const { return index_; }
    // Unique for the life of the process: primitive cache keys use it, never the address.
    uint64_t id() const { return id_; }

    virtual anydnn::status_t create_stream(dnnl_stream **stream, unsigned flags) = 0;
    // handle: DNNL_MEMORY_ALLOCATE, DNNL_MEMORY_NONE or a user handle of this runtime.
    virtual anydnn::status_t create_memory_storage(
            std::unique_ptr<anydnn::memory_storage_t> &storage, size_t size, void *handle)
            = 0;
    // Ordered implementations of one primitive kind; the first that accepts wins.
    virtual const std::vector<anydnn::impl_entry_t> &impl_list(
            dnnl_primitive_kind_t kind) const = 0;
    // The compute interface of a GPU runtime's engine (core/compute/compute.hpp); null on
    // engines that run no kernels of ours.
    virtual anydnn::gpu::compute_engine_t *compute() { return nullptr; }

protected:
    ~dnnl_engine() override;

private:
    dnnl_engine_kind_t kind_;
    anydnn::runtime_kind_t runtime_;
    size_t index_;
    uint64_t id_;
};

namespace anydnn {
using engine_t = dnnl_engine;

// Keeps an engine alive while an object that uses it exists.
class engine_ref_t {
public:
    engine_ref_t() = default;
    explicit engine_ref_t(engine_t *e) : e_(e) { if (e_) e_->retain(); }
    engine_ref_t(const engine_ref_t &o) : engine_ref_t(o.e_) {}
    engine_ref_t &operator=(const engine_ref_t &o) {
        if (o.e_) o.e_->retain();
        if (e_) e_->release();
        e_ = o.e_;
        return *this;
    }
    ~engine_ref_t() { if (e_) e_->release(); }
    engine_t *get() const { return e_; }
    engine_t *operator->() const { return e_; }

private:
    engine_t *e_ = nullptr;
};
} // namespace anydnn
