// Reorder between the CPU engine and an OpenCL engine, either direction, run on either
// engine's stream; and between two GPU engines, run on the source's. Identical dense layouts
// and types copy straight between host memory and the device (clEnqueueWrite/ReadBuffer or a
// USM memcpy); anything else converts on the device (ocl:reorder:*) through a staging buffer
// holding the other side's tensor as it is laid out. Between two GPU engines of different
// contexts the data goes through host memory (device memory belongs to its context).
#include <memory>
#include <vector>

#include "core/compute/compute.hpp"
#include "core/data_types_narrow.hpp"
#include "core/ops/reorder/common.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/reorder/reorder.hpp"

namespace anydnn {
namespace gpu {
namespace reorder {

namespace {

struct cross_engine_t;

struct cross_engine_pd_t : public primitive_desc_impl_t<cross_engine_pd_t, cross_engine_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return direct ? "ocl:reorder:cross_engine_copy" : "ocl:reorder:cross_engine";
    }

    static status_t init(cross_engine_pd_t &pd) {
        const auto &d = cpu::reorder::reorder_desc(pd);
        const bool up = d.src_engine_kind == dnnl_cpu && d.dst_engine_kind == dnnl_gpu;
        const bool down = d.src_engine_kind == dnnl_gpu && d.dst_engine_kind == dnnl_cpu;
        ANYDNN_REQUIRE(up || down || d.cross_engine, dnnl_unimplemented,
                "cross-engine reorder: one side must be the CPU engine, the other this one, "
                "or both GPU engines");
        for (auto dt : {d.src_md.data_type, d.dst_md.data_type})
            ANYDNN_REQUIRE(!is_4bit(dt), dnnl_unimplemented,
                    "cross-engine reorder: %s data (two elements a byte) is not supported",
                    dnnl_dt2str(dt));
        pd.to_device = up;
        pd.across = d.cross_engine;
        // The device-side conversion: a reorder between two tensors of this engine.
        reorder_desc_t inner_desc = d;
        inner_desc.src_engine_kind = inner_desc.dst_engine_kind = dnnl_gpu;
        inner_desc.cross_engine = false;
        auto inner = std::make_shared<reorder_pd_t>(inner_desc, pd.attr, pd.engine);
        ANYDNN_CHECK(reorder_pd_t::init_tensors(*inner, d.src_md, d.dst_md, false));
        pd.direct = inner->dense && inner->q.trivial() && d.src_md.data_type == d.dst_md.data_type;
        pd.args = inner->args;
        pd.inner = std::move(inner);
        return dnnl_success;
    }

    bool to_device = true; // CPU -> GPU
    bool across = false; // GPU -> another GPU engine
    bool direct = false; // a plain byte copy
    std::shared_ptr<const reorder_pd_t> inner;
};

// Memory of the engine `engine` holding `m`'s values: m itself when it is device memory,
// else a device copy (kept in `owned`).
status_t on_device(stream_t *stream, engine_t *engine, memory_t *m,
        std::vector<std::unique_ptr<memory_t>> &owned, memory_t *&out) {
    out = m;
    if (!m || !m->engine() || m->engine()->runtime() != runtime_kind_t::cpu) return dnnl_success;
    const size_t bytes = size_in_bytes(m->md());
    std::unique_ptr<memory_storage_t> storage;
    ANYDNN_CHECK(engine->create_memory_storage(storage, bytes, DNNL_MEMORY_ALLOCATE));
    ANYDNN_CHECK(copy_to_device(stream, storage.get(), 0, m->host_ptr(), bytes));
    auto copy = std::make_unique<memory_t>(engine, m->md());
    copy->add_storage(std::move(storage));
    out = copy.get();
    owned.push_back(std::move(copy));
    return dnnl_success;
}

struct cross_engine_t : public primitive_t {
    using primitive_t::primitive_t;
    const cross_engine_pd_t &pd_() const { return static_cast<const cross_engine_pd_t &>(pd()); }

    status_t init() override {
        std::shared_ptr<primitive_t> p;
        ANYDNN_CHECK(pd_().inner->create_primitive(p));
        inner_ = std::static_pointer_cast<reorder_t>(p);
        return dnnl_success;
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const cross_engine_pd_t &pd = pd_();
        if (pd.across) return execute_across(ctx);
        memory_t *host = ctx.arg(pd.to_device ? DNNL_ARG_SRC : DNNL_ARG_DST);
        memory_t *dev = ctx.arg(pd.to_device ? DNNL_ARG_DST : DNNL_ARG_SRC);
        ANYDNN_REQUIRE(host && host->engine() && host->engine()->runtime() == runtime_kind_t::cpu,
                dnnl_invalid_arguments, "cross-engine reorder: %s is not CPU memory",
                pd.to_device ? "src" : "dst");
        ANYDNN_REQUIRE(dev && dev->engine() && dev->engine()->kind() == dnnl_gpu,
                dnnl_invalid_arguments, "cross-engine reorder: %s is not GPU memory",
                pd.to_device ? "dst" : "src");
        // On the CPU engine's stream the copy runs on a stream of our own, to completion.
        stream_t *stream = ctx.stream;
        dnnl_stream *own = nullptr;
        if (stream->engine()->kind() != dnnl_gpu) {
            ANYDNN_CHECK(pd.engine->create_stream(&own, dnnl_stream_in_order));
            stream = own;
        }
        status_t st = run(ctx, stream, host, dev);
        if (own) {
            const status_t w = own->wait();
            if (st == dnnl_success) st = w;
            delete own;
        }
        return st;
    }

private:
    // GPU -> GPU of another engine: straight through the device reorder where the engines
    // share a context, else converted on the source's device into a staging buffer laid out
    // as dst (first filled with dst's bytes: a sum reads them, and bytes of dst's buffer
    // outside the tensor stay as they are), which goes to dst through host memory.
    status_t execute_across(const exec_ctx_t &ctx) const {
        const cross_engine_pd_t &pd = pd_();
        memory_t *src = ctx.arg(DNNL_ARG_SRC), *dst = ctx.arg(DNNL_ARG_DST);
        ANYDNN_REQUIRE(src && src->engine() && shares_memory(*src->engine(), *pd.engine),
                dnnl_invalid_arguments, "cross-engine reorder: src is not memory of the source "
                "engine's context");
        engine_t *dst_engine = dst ? dst->engine() : nullptr;
        ANYDNN_REQUIRE(dst_engine && dst_engine->kind() == dnnl_gpu && dst_engine->compute(),
                dnnl_invalid_arguments, "cross-engine reorder: dst is not GPU memory");
        // Each side on a stream of its context: the caller's where it fits, else our own
        // (waited for before returning).
        stream_t *src_stream = ctx.stream, *dst_stream = ctx.stream;
        std::unique_ptr<dnnl_stream> own_src, own_dst;
        auto own = [](engine_t *e, std::unique_ptr<dnnl_stream> &keep, stream_t *&s) {
            dnnl_stream *made = nullptr;
            ANYDNN_CHECK(e->create_stream(&made, dnnl_stream_in_order));
            keep.reset(made);
            s = made;
            return dnnl_success;
        };
        if (!shares_memory(*ctx.stream->engine(), *pd.engine))
            ANYDNN_CHECK(own(pd.engine, own_src, src_stream));
        if (!shares_memory(*ctx.stream->engine(), *dst_engine))
            ANYDNN_CHECK(own(dst_engine, own_dst, dst_stream));
        exec_ctx_t dctx = ctx;
        dctx.stream = src_stream;
        status_t st = shares_memory(*dst_engine, *pd.engine)
                ? inner_->run(dctx, src_stream, src->storage(), dst->storage())
                : run_across(dctx, src_stream, dst_stream, src, dst);
        for (auto *s : {own_src.get(), own_dst.get()})
            if (s) {
                const status_t w = s->wait();
                if (st == dnnl_success) st = w;
            }
        return st;
    }

    status_t run_across(const exec_ctx_t &dctx, stream_t *src_stream, stream_t *dst_stream,
            memory_t *src, memory_t *dst) const {
        const cross_engine_pd_t &pd = pd_();
        const memory_desc_t &smd = pd.arg_md(DNNL_ARG_SRC), &dmd = pd.arg_md(DNNL_ARG_DST);
        for (const auto &a : dctx.args)
            if (a.first != DNNL_ARG_SRC && a.first != DNNL_ARG_DST)
                ANYDNN_REQUIRE(!a.second->engine() || shares_memory(*a.second->engine(), *pd.engine)
                                || a.second->engine()->runtime() == runtime_kind_t::cpu,
                        dnnl_invalid_arguments,
                        "cross-engine reorder: scales and zero points are memory of the source "
                        "engine or the CPU");
        if (pd.direct) {
            const size_t esize = data_type_size(dmd.data_type);
            const size_t bytes = static_cast<size_t>(nelems(dmd)) * esize;
            std::vector<char> host(bytes);
            ANYDNN_CHECK(copy_from_device(src_stream, host.data(), src->storage(),
                    smd.offset0 * esize, bytes));
            return copy_to_device(dst_stream, dst->storage(), dmd.offset0 * esize, host.data(),
                    bytes);
        }
        exec_ctx_t cctx = dctx;
        std::vector<std::unique_ptr<memory_t>> owned;
        for (auto &a : cctx.args)
            if (a.first != DNNL_ARG_SRC && a.first != DNNL_ARG_DST)
                ANYDNN_CHECK(on_device(src_stream, pd.engine, a.second, owned, a.second));
        // dst's buffer from its handle to the last byte the tensor reaches (a window of a
        // larger buffer reaches less than the buffer).
        const size_t bytes = reach_in_bytes(dst->md());
        std::vector<char> host(bytes);
        std::unique_ptr<memory_storage_t> staging;
        ANYDNN_CHECK(pd.engine->create_memory_storage(staging, bytes, DNNL_MEMORY_ALLOCATE));
        ANYDNN_CHECK(copy_from_device(dst_stream, host.data(), dst->storage(), 0, bytes));
        ANYDNN_CHECK(copy_to_device(src_stream, staging.get(), 0, host.data(), bytes));
        ANYDNN_CHECK(inner_->run(cctx, src_stream, src->storage(), staging.get()));
        ANYDNN_CHECK(copy_from_device(src_stream, host.data(), staging.get(), 0, bytes));
        return copy_to_device(dst_stream, dst->storage(), 0, host.data(), bytes);
    }

    status_t run(const exec_ctx_t &ctx, stream_t *stream, memory_t *host, memory_t *dev) const {
        const cross_engine_pd_t &pd = pd_();
        const memory_desc_t &hmd = host->md();
        char *hptr = static_cast<char *>(host->host_ptr());
        if (pd.direct) {
            const memory_desc_t &smd = pd.arg_md(DNNL_ARG_SRC), &dmd = pd.arg_md(DNNL_ARG_DST);
            const size_t esize = data_type_size(dmd.data_type);
            const size_t bytes = static_cast<size_t>(nelems(dmd)) * esize;
            if (pd.to_device)
                return copy_to_device(stream, dev->storage(), dmd.offset0 * esize,
                        hptr + smd.offset0 * esize, bytes);
            return copy_from_device(stream, hptr + dmd.offset0 * esize, dev->storage(),
                    smd.offset0 * esize, bytes);
        }
        // Scales and zero points given as CPU memory are copied to the device first.
        exec_ctx_t dctx = ctx;
        dctx.stream = stream;
        std::vector<std::unique_ptr<memory_t>> owned;
        for (auto &a : dctx.args)
            if (a.first != DNNL_ARG_SRC && a.first != DNNL_ARG_DST)
                ANYDNN_CHECK(on_device(stream, pd.engine, a.second, owned, a.second));
        const size_t bytes = size_in_bytes(hmd);
        std::unique_ptr<memory_storage_t> staging;
        ANYDNN_CHECK(pd.engine->create_memory_storage(staging, bytes, DNNL_MEMORY_ALLOCATE));
        if (pd.to_device) {
            ANYDNN_CHECK(copy_to_device(stream, staging.get(), 0, hptr, bytes));
            return inner_->run(dctx, stream, staging.get(), dev->storage());
        }
        if (pd.inner->q.sum) ANYDNN_CHECK(copy_to_device(stream, staging.get(), 0, hptr, bytes));
        ANYDNN_CHECK(inner_->run(dctx, stream, dev->storage(), staging.get()));
        return copy_from_device(stream, hptr, staging.get(), 0, bytes);
    }

    std::shared_ptr<reorder_t> inner_;
};

} // namespace

} // namespace reorder

impl_entry_t reorder_cross_engine_entry() {
    return make_impl_entry<reorder::cross_engine_pd_t>("ocl:reorder:cross_engine");
}

} // namespace gpu
} // namespace anydnn
