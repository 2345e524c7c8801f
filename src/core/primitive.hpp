// A created primitive (shared through the primitive cache), its execution context, and
// the C object dnnl_primitive that the user holds.
#pragma once

#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "core/memory.hpp"
#include "core/primitive_desc.hpp"
#include "core/stream.hpp"

namespace anydnn {

// The arguments of one execution, validated against the primitive's descriptor.
struct exec_ctx_t {
    stream_t *stream = nullptr;
    std::vector<std::pair<int, memory_t *>> args; // few entries: linear search is fastest
    void *scratchpad = nullptr; // host pointer on CPU engines
    const memory_storage_t *scratchpad_storage = nullptr; // on every engine

    memory_t *arg(int a) const {
        for (const auto &e : args)
            if (e.first == a) return e.second;
        return nullptr;
    }
    // Host pointer of an argument (CPU engines), null when it is absent.
    template <typename T = void>
    T *host_ptr(int a) const {
        memory_t *m = arg(a);
        return m ? static_cast<T *>(m->host_ptr()) : nullptr;
    }
    // The descriptor of the memory passed (carries actual sizes for runtime dimensions).
    const memory_desc_t &md(int a) const;
};

struct primitive_t {
    explicit primitive_t(const primitive_desc_t &pd) : pd_(pd.clone()) {}
    virtual ~primitive_t() = default;
    // Work done once per primitive (packing, kernel builds); runs before the cache sees it.
    virtual status_t init() { return dnnl_success; }
    virtual status_t execute(const exec_ctx_t &ctx) const = 0;
    const primitive_desc_t &pd() const { return *pd_; }

private:
    std::unique_ptr<primitive_desc_t> pd_;
};

template <typename pd_type, typename primitive_type>
status_t primitive_desc_impl_t<pd_type, primitive_type>::create_primitive(
        std::shared_ptr<primitive_t> &prim) const {
    auto p = std::make_shared<primitive_type>(static_cast<const pd_type &>(*this));
    status_t st = p->init();
    if (st != dnnl_success) return st;
    prim = std::move(p);
    return dnnl_success;
}

// Creates (or finds in the cache) the primitive for a primitive descriptor.
status_t primitive_create(dnnl_primitive **prim, const dnnl_primitive_desc *pd);
// Validates `args` against the primitive and runs it on `stream` (through `run` when given:
// interop executions pass their events that way).
using stream_run_t = std::function<status_t(const primitive_t &, const exec_ctx_t &)>;
status_t primitive_execute(const dnnl_primitive *prim, stream_t *stream, int nargs,
        const dnnl_exec_arg_t *args, const stream_run_t &run = nullptr);

} // namespace anydnn

struct dnnl_primitive {
    anydnn::engine_ref_t engine;
    std::shared_ptr<anydnn::primitive_t> impl;
    dnnl_primitive_desc *pd = nullptr; // owned; returned by get_primitive_desc
    ~dnnl_primitive();
};
