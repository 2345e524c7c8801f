#include "graph/compiled_partition.hpp"

#include <algorithm>

#include "core/compute/compute.hpp"
#include "core/object.hpp"
#include "core/primitive.hpp"
#include "core/stream.hpp"
#include "graph/allocator.hpp"
#include "graph/caches.hpp"
#include "graph/lower_constant.hpp"
#include "graph/tensor.hpp"

namespace anydnn {
namespace graph {

// Memory objects over the buffers of one execution, destroyed with it.
struct memories_t {
    ~memories_t() {
        for (auto m : list)
            dnnl_memory_destroy(m);
    }
    // On a GPU engine every graph buffer is USM of the engine's context: the runtime makes
    // the storage (compute_engine_t::create_usm_storage).
    status_t make(const memory_desc_t &md, engine_t *engine, void *ptr, dnnl_memory_t &m) {
        if (gpu::compute_engine_t *c = engine->compute()) {
            size_t bytes = size_in_bytes(md);
            if (bytes > 0) bytes += md.offset0 * data_type_size(md.data_type);
            std::unique_ptr<memory_storage_t> storage;
            ANYDNN_CHECK(c->create_usm_storage(storage, bytes, ptr));
            auto mem = std::make_unique<dnnl_memory>(engine, md);
            mem->add_storage(std::move(storage));
            registry_add(object_kind::memory, mem.get());
            m = mem.release();
        } else {
            ANYDNN_CHECK(dnnl_memory_create(&m, &md, engine, ptr));
        }
        list.push_back(m);
        return dnnl_success;
    }
    std::vector<dnnl_memory_t> list;
};

namespace {

// The steps of one execution on a GPU engine's stream. Plain calls: each step is one
// execution of the stream, in the stream's order. Interop calls: each step waits for the
// previous one (the first for the caller's dependencies) through the runtime's events.
// `finish` gives one event for the whole execution, after which temporaries may be freed.
struct device_chain_t {
    device_chain_t(dnnl_stream *stream, const interop_events_t *events)
        : stream(stream), compute(stream->engine()->compute()), events(events) {}
    ~device_chain_t() {
        if (last) compute->release_event(last);
    }
    status_t run(const dnnl_primitive *prim, const std::vector<dnnl_exec_arg_t> &args) {
        const int nargs = static_cast<int>(args.size());
        if (!events) return dnnl_primitive_execute(prim, stream, nargs, args.data());
        return chained([&](void *const *deps, int ndeps, void **ev) {
            return primitive_execute(prim, stream, nargs, args.data(),
                    [&](const primitive_t &p, const exec_ctx_t &ctx) {
                        return compute->enqueue(
                                stream, [&] { return p.execute(ctx); }, true, deps, ndeps, ev);
                    });
        });
    }
    // A device kernel step: `enqueue` launches on the stream.
    status_t run(const std::function<status_t()> &enqueue) {
        if (!events) return compute->enqueue(stream, enqueue, false, nullptr, 0, nullptr);
        return chained([&](void *const *deps, int ndeps, void **ev) {
            return compute->enqueue(stream, enqueue, true, deps, ndeps, ev);
        });
    }
    // Runs `exec` after the previous step (the first after the caller's dependencies).
    template <typename exec_t>
    status_t chained(const exec_t &exec) {
        void *const *deps = last ? &last : events->deps;
        const int ndeps = last ? 1 : events->ndeps;
        void *ev = nullptr;
        ANYDNN_CHECK(exec(deps, ndeps, &ev));
        if (last) compute->release_event(last);
        last = ev;
        return dnnl_success;
    }
    // An event completing after every command of this execution (the caller's to release).
    status_t finish(void *&done) {
        void *const *wait = last ? &last : (events ? events->deps : nullptr);
        const int nwait = last ? 1 : (events ? events->ndeps : 0);
        return compute->join_events(stream, wait, nwait, &done);
    }
    dnnl_stream *stream;
    gpu::compute_engine_t *compute;
    const interop_events_t *events;
    void *last = nullptr;
};

// The tensor given for port `lt`, checked against the compiled description.
status_t find_tensor(const lt_t &lt, size_t n, const const_dnnl_graph_tensor_t *ts,
        const char *what, const dnnl_graph_tensor *&found) {
    found = nullptr;
    for (size_t i = 0; i < n && !found; ++i)
        if (ts[i]->lt.id == lt.id) found = ts[i];
    ANYDNN_REQUIRE(found, dnnl_invalid_arguments, "no %s tensor for logical tensor %zu", what,
            lt.id);
    ANYDNN_REQUIRE(found->lt.data_type == lt.data_type, dnnl_invalid_arguments,
            "%s tensor %zu is %s, compiled for %s", what, lt.id,
            dnnl_dt2str(found->lt.data_type), dnnl_dt2str(lt.data_type));
    if (known_shape(found->lt) && !found->is_scalar())
        ANYDNN_REQUIRE(lt_dims(found->lt) == lt_dims(lt), dnnl_invalid_arguments,
                "%s tensor %zu is %s, compiled for %s", what, lt.id,
                dims_str(lt_dims(found->lt)).c_str(), dims_str(lt_dims(lt)).c_str());
    if (known_shape(found->lt) && !found->is_scalar() && lt.ndims > 0
            && found->lt.layout_type == dnnl_graph_layout_type_strided)
        for (int d = 0; d < lt.ndims; ++d)
            ANYDNN_REQUIRE(lt.dims[d] == 1 || found->lt.layout.strides[d] == lt.layout.strides[d],
                    dnnl_invalid_arguments,
                    "%s tensor %zu has stride %lld in dimension %d, compiled for %lld", what,
                    lt.id, (long long)found->lt.layout.strides[d], d,
                    (long long)lt.layout.strides[d]);
    ANYDNN_REQUIRE(found->data() || lt_mem_size(lt) == 0, dnnl_invalid_arguments,
            "%s tensor %zu has no buffer", what, lt.id);
    return dnnl_success;
}

} // namespace

status_t compiled_impl_t::execute(dnnl_stream *stream, size_t nin,
        const const_dnnl_graph_tensor_t *in, size_t nout, const const_dnnl_graph_tensor_t *out,
        const_dnnl_graph_tensor_t scratchpad, const interop_events_t *events) const {
    engine_t *e = engine.get();
    ANYDNN_REQUIRE(stream->engine()->kind() == e->kind()
                    && stream->engine()->index() == e->index(),
            dnnl_invalid_arguments, "the stream is not on the engine the partition was compiled for");
    gpu::compute_engine_t *compute = e->compute();
    if (compute) {
        gpu::compute_engine_t *stream_compute = stream->engine()->compute();
        ANYDNN_REQUIRE(stream_compute && stream->engine()->runtime() == e->runtime()
                        && stream_compute->device_and_context() == compute->device_and_context(),
                dnnl_invalid_arguments,
                "the stream's device or context is not the compiled partition's");
    }
    ANYDNN_REQUIRE(!events || compute, dnnl_invalid_arguments,
            "interop execution of a partition compiled for a %s engine",
            dnnl_engine_kind2str(e->kind()));
    ANYDNN_REQUIRE(nin == inputs.size() && nout == outputs.size(), dnnl_invalid_arguments,
            "compiled for %zu inputs and %zu outputs, got %zu and %zu", inputs.size(),
            outputs.size(), nin, nout);
    std::vector<void *> base(storages.size(), nullptr);
    engine_allocation_t temp;
    char *temp_ptr = nullptr;
    if (temp_size() > 0) {
        if (scratchpad && scratchpad->handle && lt_mem_size(scratchpad->lt) >= temp_size()) {
            temp_ptr = static_cast<char *>(scratchpad->handle);
        } else {
            ANYDNN_CHECK(temp.allocate(e, temp_size()));
            temp_ptr = static_cast<char *>(temp.get());
        }
    }
    for (size_t s = 0; s < storages.size(); ++s) {
        const dnnl_graph_tensor *t = nullptr;
        switch (storages[s].kind) {
            case storage_kind::input:
                ANYDNN_CHECK(find_tensor(inputs[storages[s].index], nin, in, "input", t));
                base[s] = t->data();
                break;
            case storage_kind::output:
                ANYDNN_CHECK(find_tensor(outputs[storages[s].index], nout, out, "output", t));
                base[s] = t->data();
                break;
            case storage_kind::temp: base[s] = temp_ptr + storages[s].index; break;
            case storage_kind::constant:
                base[s] = const_cast<uint8_t *>(constants[storages[s].index].data());
                break;
            case storage_kind::cached: break; // once the inputs are known, below
        }
    }
    // Constant steps run only when the cache has no copy of their outputs for these inputs.
    std::shared_ptr<constant_buffer_t> cached;
    std::string cache_key;
    bool run_constant_steps = true;
    if (cached_size > 0) {
        cache_key = constant_cache_key(*this, base);
        cached = constant_cache_find(cache_key);
        run_constant_steps = !cached;
        if (!cached) cached = std::make_shared<constant_buffer_t>(cached_size);
        ANYDNN_REQUIRE(cached->ptr, dnnl_out_of_memory, "constant cache area of %zu bytes",
                cached_size);
        for (size_t s = 0; s < storages.size(); ++s)
            if (storages[s].kind == storage_kind::cached)
                base[s] = static_cast<char *>(cached->ptr) + storages[s].index;
    }
    memories_t mems;
    std::vector<dnnl_memory_t> view_mem(views.size(), nullptr);
    for (size_t v = 0; v < views.size(); ++v)
        ANYDNN_CHECK(mems.make(views[v].md, e, base[views[v].storage], view_mem[v]));
    if (compute) return execute_device(stream, view_mem, temp_ptr, temp, mems, events);
    std::vector<dnnl_exec_arg_t> args;
    std::vector<void *> buffers;
    for (const auto &step : steps) {
        if (step.constant && !run_constant_steps) continue;
        if (step.host_kernel) {
            buffers.clear();
            for (const auto &a : step.args)
                buffers.push_back(base[views[a.second].storage]);
            step.host_kernel(buffers, temp_ptr + values_size);
            continue;
        }
        args.clear();
        for (const auto &a : step.args)
            args.push_back({a.first, view_mem[a.second]});
        if (!is_zero_md(step.scratchpad_md)) {
            dnnl_memory_t m = nullptr;
            ANYDNN_CHECK(mems.make(step.scratchpad_md, e, temp_ptr + values_size, m));
            args.push_back({DNNL_ARG_SCRATCHPAD, m});
        }
        ANYDNN_CHECK(dnnl_primitive_execute(
                step.prim.get(), stream, static_cast<int>(args.size()), args.data()));
    }
    if (cached_size > 0 && run_constant_steps) constant_cache_add(e->kind(), cache_key, cached);
    return dnnl_success;
}

status_t compiled_impl_t::execute_device(dnnl_stream *stream,
        const std::vector<dnnl_memory_t> &view_mem, char *temp_ptr, engine_allocation_t &temp,
        memories_t &mems, const interop_events_t *events) const {
    engine_t *e = engine.get();
    device_chain_t chain(stream, events);
    std::vector<dnnl_exec_arg_t> args;
    status_t st = dnnl_success;
    std::vector<dnnl_memory *> step_mems;
    for (const auto &step : steps) {
        // compile_partition never gives a GPU engine a host kernel
        if (step.device_kernel) {
            step_mems.clear();
            for (const auto &a : step.args)
                step_mems.push_back(view_mem[a.second]);
            st = chain.run([&] { return step.device_kernel(stream, step_mems); });
            if (st != dnnl_success) break;
            continue;
        }
        args.clear();
        for (const auto &a : step.args)
            args.push_back({a.first, view_mem[a.second]});
        if (!is_zero_md(step.scratchpad_md)) {
            dnnl_memory_t m = nullptr;
            st = mems.make(step.scratchpad_md, e, temp_ptr + values_size, m);
            if (st != dnnl_success) break;
            args.push_back({DNNL_ARG_SCRATCHPAD, m});
        }
        st = chain.run(step.prim.get(), args);
        if (st != dnnl_success) break;
    }
    // One event for the whole execution, when the caller or the temporaries' free needs it.
    void *done = nullptr;
    const bool need_done = temp.get() || (events && events->done);
    if (st == dnnl_success && need_done) st = chain.finish(done);
    if (st != dnnl_success) {
        // Whatever was enqueued may still use the temporaries: let it finish first (an
        // event after everything enqueued so far: a SYCL stream runs this in a host task,
        // where waiting for the whole queue would wait for the task itself).
        void *drained = nullptr;
        if (temp.get() && chain.compute->join_events(stream, nullptr, 0, &drained) == dnnl_success) {
            chain.compute->wait_event(drained);
            chain.compute->release_event(drained);
        }
        temp.release();
        return st;
    }
    temp.release(done); // the allocator's free call-back gets the last event
    if (events && events->done)
        *events->done = done;
    else if (done)
        chain.compute->release_event(done);
    return dnnl_success;
}

} // namespace graph
} // namespace anydnn
