#include "core/primitive.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "core/compute/compute.hpp"
#include "core/object.hpp"
#include "core/primitive_cache.hpp"
#include "core/serializer.hpp"
#include "core/stream_turn.hpp"
#include "core/verbose.hpp"

namespace anydnn {

const memory_desc_t &exec_ctx_t::md(int a) const {
    static const memory_desc_t zero = zero_md();
    memory_t *m = arg(a);
    return m ? m->md() : zero;
}

namespace {

std::string cache_key(const primitive_desc_t &pd) {
    serializer_t s;
    s.write(pd.engine->id());
    s.write(std::string(pd.name()));
    std::string key = s.bytes();
    key += op_serialize(pd.desc);
    key += attr_serialize(pd.attr);
    // Resolved layouts: a backward desc with `any` tensors resolves them from its forward
    // hint, which the op desc does not hold.
    serializer_t a;
    for (const auto &e : pd.args) {
        a.write(e.first);
        a.write(md_hash(e.second));
    }
    key += a.bytes();
    return key;
}

// Bytes a memory's buffer holds from its handle: the span of its layout past offset0, as
// memory creation allocates it.
size_t extent_in_bytes(const memory_desc_t &md) {
    size_t bytes = size_in_bytes(md);
    return bytes == 0 ? 0 : bytes + md.offset0 * data_type_size(md.data_type);
}

// How the primitive sees a passed memory. oneDNN checks only that arguments are there and
// applies the primitive's descriptor to the handle of the memory passed: a primitive made
// from a submemory descriptor runs on its parent memory (RNN stacks, in-place concat). We
// do the same for dense layouts, refusing a buffer too small for the primitive's view; a
// descriptor with run-time dimensions takes the passed memory's, which must agree in rank
// and type; sparse and scalar memories must match exactly.
status_t view_of(const primitive_desc_t &pd, int arg, const memory_desc_t &expected,
        memory_t *m, std::vector<std::unique_ptr<memory_t>> &views, memory_t *&seen) {
    seen = m;
    const memory_desc_t &given = m->md();
    if (md_equal(expected, given)) return dnnl_success;
    if (has_runtime_dims_or_strides(expected)) {
        ANYDNN_REQUIRE(expected.ndims == given.ndims && expected.data_type == given.data_type,
                dnnl_invalid_arguments,
                "%s: memory for argument %s does not match the primitive's descriptor",
                pd.name(), arg_name(arg).c_str());
        return dnnl_success;
    }
    ANYDNN_REQUIRE(is_blocked(expected) && is_blocked(given), dnnl_invalid_arguments,
            "%s: memory for argument %s does not match the primitive's descriptor",
            pd.name(), arg_name(arg).c_str());
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(given)
                    && reach_in_bytes(expected) <= extent_in_bytes(given),
            dnnl_invalid_arguments,
            "%s: memory for argument %s holds %zu bytes, the primitive's descriptor reaches "
            "%zu",
            pd.name(), arg_name(arg).c_str(), extent_in_bytes(given),
            reach_in_bytes(expected));
    views.push_back(std::make_unique<memory_t>(*m, expected));
    seen = views.back().get();
    return dnnl_success;
}

// Checks every argument the primitive describes and puts views in `ctx` where the passed
// memory's descriptor differs from the primitive's.
status_t check_args(const primitive_desc_t &pd, exec_ctx_t &ctx,
        std::vector<std::unique_ptr<memory_t>> &views) {
    for (const auto &a : pd.args) {
        // The scratchpad is never an argument in library mode, even once its descriptor was
        // queried; user mode checks it below.
        if (is_zero_md(a.second) || a.first == DNNL_ARG_SCRATCHPAD) continue;
        auto entry = std::find_if(ctx.args.begin(), ctx.args.end(),
                [&](const std::pair<int, memory_t *> &e) { return e.first == a.first; });
        ANYDNN_REQUIRE(entry != ctx.args.end(), dnnl_invalid_arguments,
                "%s: argument %s is missing", pd.name(), arg_name(a.first).c_str());
        memory_t *passed = entry->second;
        ANYDNN_CHECK(view_of(pd, a.first, a.second, passed, views, entry->second));
        const memory_t *m = entry->second;
        // Sparse values may have no buffer when there are no non-zeros.
        const memory_desc_t &md = m->md();
        bool empty = (nelems(md) == 0 && !has_runtime_dims_or_strides(md))
                || (md.format_kind == dnnl_format_kind_sparse && md.sparse.nnz == 0);
        ANYDNN_REQUIRE(empty || (m->storage() && m->storage()->data_handle()),
                dnnl_invalid_arguments, "%s: argument %s has no data handle", pd.name(),
                arg_name(a.first).c_str());
    }
    return dnnl_success;
}

} // namespace

status_t primitive_create(dnnl_primitive **out, const dnnl_primitive_desc *cpd) {
    const primitive_desc_t &pd = *cpd->impl;
    double start = now_ms();
    std::string key = cache_key(pd);
    std::shared_ptr<primitive_t> impl = primitive_cache().find(key);
    bool hit = impl != nullptr;
    if (!hit) {
        ANYDNN_CHECK(pd.create_primitive(impl));
        primitive_cache().insert(key, pd.engine->id(), impl);
    }
    auto prim = std::make_unique<dnnl_primitive>();
    prim->engine = cpd->engine;
    prim->impl = std::move(impl);
    prim->pd = new dnnl_primitive_desc;
    prim->pd->engine = cpd->engine;
    prim->pd->reorder_src_engine = cpd->reorder_src_engine;
    prim->pd->reorder_dst_engine = cpd->reorder_dst_engine;
    prim->pd->desc = cpd->desc;
    prim->pd->attr = cpd->attr;
    prim->pd->hint = cpd->hint;
    prim->pd->impl_index = cpd->impl_index;
    prim->pd->impl = pd.clone();
    prim->pd->owned_by_primitive = true;
    registry_add(object_kind::primitive_desc, prim->pd);
    if (verbose_on(verbose_flag::create))
        verbose_print(hit ? "primitive,create:cache_hit" : "primitive,create:cache_miss",
                primitive_desc_info(pd) + "," + std::to_string(now_ms() - start));
    registry_add(object_kind::primitive, prim.get());
    *out = prim.release();
    return dnnl_success;
}

status_t primitive_execute(const dnnl_primitive *prim, stream_t *stream, int nargs,
        const dnnl_exec_arg_t *args, const stream_run_t &run) {
    const primitive_t &impl = *prim->impl;
    const primitive_desc_t &pd = impl.pd();
    ANYDNN_REQUIRE(nargs >= 0 && (nargs == 0 || args), dnnl_invalid_arguments,
            "bad argument list (nargs %d)", nargs);
    exec_ctx_t ctx;
    ctx.stream = stream;
    ctx.args.reserve(nargs);
    for (int i = 0; i < nargs; ++i) {
        memory_t *m = args[i].memory;
        if (!m) continue; // oneDNN treats a null memory as an absent argument
        ANYDNN_REQUIRE(registry_contains(object_kind::memory, m), dnnl_invalid_arguments,
                "argument %d: not a live memory object", args[i].arg);
        ANYDNN_REQUIRE(ctx.arg(args[i].arg) == nullptr, dnnl_invalid_arguments,
                "argument %d passed twice", args[i].arg);
        // Only reorders move data between engines; other kernels read their engine's memory.
        ANYDNN_REQUIRE(!m->engine() || pd.kind() == dnnl_reorder
                        // Device memory belongs to its context; an equal engine made over
                        // the application's context (graph, interop) shares it.
                        || gpu::shares_memory(*m->engine(), *prim->engine.get()),
                dnnl_invalid_arguments,
                "%s: argument %s is memory of an engine of another %s", pd.name(),
                arg_name(args[i].arg).c_str(),
                m->engine()->runtime() == prim->engine->runtime() ? "context" : "kind");
        ctx.args.emplace_back(args[i].arg, m);
    }
    std::vector<std::unique_ptr<memory_t>> views; // live until the kernels are enqueued
    ANYDNN_CHECK(check_args(pd, ctx, views));

    // Scratchpad: the user's memory in user mode, else the stream's buffer where it keeps one
    // (device streams in order), else a buffer of the engine for this execution (device
    // buffers are freed by the runtime once the commands using them end).
    std::unique_ptr<memory_storage_t> owned_scratchpad;
    auto turn = stream_turn(stream); // the stream's scratchpad and events: one execution's
    if (pd.scratchpad_size > 0) {
        if (pd.attr.scratchpad_mode == dnnl_scratchpad_mode_user) {
            memory_t *m = ctx.arg(DNNL_ARG_SCRATCHPAD);
            ANYDNN_REQUIRE(m && size_in_bytes(m->md()) >= pd.scratchpad_size && m->storage()
                            && m->storage()->data_handle(),
                    dnnl_invalid_arguments, "%s: user scratchpad missing or too small",
                    pd.name());
            ctx.scratchpad_storage = m->storage();
        } else {
            size_t bytes = (pd.scratchpad_size + 63) / 64 * 64;
            ANYDNN_CHECK(stream->scratchpad(bytes, ctx.scratchpad_storage));
            if (!ctx.scratchpad_storage) {
                ANYDNN_CHECK(stream->engine()->create_memory_storage(
                        owned_scratchpad, bytes, DNNL_MEMORY_ALLOCATE));
                ctx.scratchpad_storage = owned_scratchpad.get();
            }
        }
        ctx.scratchpad = ctx.scratchpad_storage->host_ptr();
    }

    bool timed = verbose_on(verbose_flag::exec);
    double start = timed ? now_ms() : 0.0;
    status_t st = run ? run(impl, ctx) : stream->execute(impl, ctx);
    if (timed && st == dnnl_success) {
        stream->wait();
        verbose_print("primitive,exec",
                primitive_desc_info(pd) + "," + std::to_string(now_ms() - start));
    }
    return st;
}

} // namespace anydnn

dnnl_primitive::~dnnl_primitive() {
    anydnn::registry_remove(anydnn::object_kind::primitive, this);
    delete pd;
}
