// dnnl_graph compiled partition, cache and dump entry points.
#include <algorithm>

#include "api/api.hpp"
#include "core/stream.hpp"
#include "core/verbose.hpp"
#include "graph/caches.hpp"
#include "graph/dump.hpp"
#include "graph/tensor.hpp"

using namespace anydnn;
using namespace anydnn::graph;

namespace {

status_t collect_lts(size_t n, const dnnl_graph_logical_tensor_t **lts, const char *what,
        std::vector<lt_t> &out) {
    ANYDNN_REQUIRE(n == 0 || lts, dnnl_invalid_arguments, "%s list is null", what);
    for (size_t i = 0; i < n; ++i) {
        ANYDNN_REQUIRE(lts[i], dnnl_invalid_arguments, "%s %zu is null", what, i);
        out.push_back(*lts[i]);
    }
    return dnnl_success;
}

status_t check_tensors(size_t n, const const_dnnl_graph_tensor_t *ts, const char *what) {
    ANYDNN_REQUIRE(n == 0 || ts, dnnl_invalid_arguments, "%s list is null", what);
    for (size_t i = 0; i < n; ++i)
        ANYDNN_REQUIRE(is_live(handle_kind::tensor, ts[i]), dnnl_invalid_arguments,
                "%s %zu is not a live graph tensor", what, i);
    return dnnl_success;
}

} // namespace

namespace anydnn {
namespace graph {

status_t checked_execute(const_dnnl_graph_compiled_partition_t cp, dnnl_stream_t stream,
        size_t num_inputs, const const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const const_dnnl_graph_tensor_t *outputs, const_dnnl_graph_tensor_t scratchpad,
        const interop_events_t *events) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(compiled_partition, cp);
    ANYDNN_REQUIRE_LIVE(stream, stream);
    ANYDNN_REQUIRE(cp->impl, dnnl_invalid_arguments, "the partition is not compiled");
    ANYDNN_CHECK(check_tensors(num_inputs, inputs, "input"));
    ANYDNN_CHECK(check_tensors(num_outputs, outputs, "output"));
    if (scratchpad) ANYDNN_REQUIRE_GRAPH_HANDLE(tensor, scratchpad);
    return cp->impl->execute(
            stream, num_inputs, inputs, num_outputs, outputs, scratchpad, events);
}

} // namespace graph
} // namespace anydnn

extern "C" {

DNNL_API dnnl_status_t dnnl_graph_compiled_partition_create(
        dnnl_graph_compiled_partition_t *compiled_partition, dnnl_graph_partition_t partition) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(compiled_partition);
        ANYDNN_REQUIRE_GRAPH_HANDLE(partition, partition);
        *compiled_partition = new dnnl_graph_compiled_partition(partition->impl);
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_partition_compile(dnnl_graph_partition_t partition,
        dnnl_graph_compiled_partition_t compiled_partition, size_t in_num,
        const dnnl_graph_logical_tensor_t **inputs, size_t out_num,
        const dnnl_graph_logical_tensor_t **outputs, dnnl_engine_t engine) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_GRAPH_HANDLE(partition, partition);
        ANYDNN_REQUIRE_GRAPH_HANDLE(compiled_partition, compiled_partition);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        ANYDNN_REQUIRE(compiled_partition->part == partition->impl, dnnl_invalid_arguments,
                "the compiled partition was created for another partition");
        std::vector<lt_t> ins, outs;
        ANYDNN_CHECK(collect_lts(in_num, inputs, "input", ins));
        ANYDNN_CHECK(collect_lts(out_num, outputs, "output", outs));
        const std::string key = compiled_cache_key(*partition->impl, *engine, ins, outs);
        std::shared_ptr<const compiled_impl_t> impl = compiled_cache_find(key);
        if (!impl) {
            ANYDNN_CHECK(compile_partition(*partition->impl, ins, outs, engine, impl));
            compiled_cache_add(key, impl);
            dump_partition(*partition->impl);
            if (verbose_on(verbose_flag::create))
                verbose_print("graph", "compile,partition " + std::to_string(partition->impl->id)
                                + "," + partition->impl->pattern + "," + impl->info);
        }
        compiled_partition->impl = impl;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_compiled_partition_execute(
        const_dnnl_graph_compiled_partition_t compiled_partition, dnnl_stream_t stream,
        size_t num_inputs, const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const_dnnl_graph_tensor_t *outputs) {
    return guarded(__func__, [&] {
        return checked_execute(compiled_partition, stream, num_inputs, inputs, num_outputs,
                outputs, nullptr, nullptr);
    });
}

DNNL_API dnnl_status_t dnnl_graph_compiled_partition_execute_v2(
        const_dnnl_graph_compiled_partition_t compiled_partition, dnnl_stream_t stream,
        size_t num_inputs, const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const_dnnl_graph_tensor_t *outputs, const_dnnl_graph_tensor_t scratchpad) {
    return guarded(__func__, [&] {
        return checked_execute(compiled_partition, stream, num_inputs, inputs, num_outputs,
                outputs, scratchpad, nullptr);
    });
}

DNNL_API dnnl_status_t dnnl_graph_compiled_partition_destroy(
        dnnl_graph_compiled_partition_t compiled_partition) {
    if (!compiled_partition) return dnnl_success;
    ANYDNN_REQUIRE_GRAPH_HANDLE(compiled_partition, compiled_partition);
    delete compiled_partition;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_compiled_partition_query_logical_tensor(
        const_dnnl_graph_compiled_partition_t compiled_partition, size_t tid,
        dnnl_graph_logical_tensor_t *lt) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(compiled_partition, compiled_partition);
    ANYDNN_REQUIRE_NOT_NULL(lt);
    const auto &impl = compiled_partition->impl;
    ANYDNN_REQUIRE(impl, dnnl_invalid_arguments, "the partition is not compiled");
    for (const auto *ports : {&impl->inputs, &impl->outputs})
        for (const auto &p : *ports)
            if (p.id == tid) {
                *lt = p;
                return dnnl_success;
            }
    return fail(dnnl_invalid_arguments, __func__,
            "logical tensor %zu is not a port of the compiled partition", tid);
}

DNNL_API dnnl_status_t dnnl_graph_compiled_partition_get_inplace_ports(
        const_dnnl_graph_compiled_partition_t compiled_partition, size_t *num_inplace_pairs,
        const dnnl_graph_inplace_pair_t **inplace_pairs) {
    ANYDNN_REQUIRE_GRAPH_HANDLE(compiled_partition, compiled_partition);
    ANYDNN_REQUIRE_NOT_NULL(num_inplace_pairs);
    ANYDNN_REQUIRE_NOT_NULL(inplace_pairs);
    const auto &impl = compiled_partition->impl;
    ANYDNN_REQUIRE(impl, dnnl_invalid_arguments, "the partition is not compiled");
    *num_inplace_pairs = impl->inplace.size();
    *inplace_pairs = impl->inplace.empty() ? nullptr : impl->inplace.data();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_compiled_partition_get_scratchpad_logical_tensor(
        const_dnnl_graph_compiled_partition_t compiled_partition,
        dnnl_graph_logical_tensor_t *lt) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_GRAPH_HANDLE(compiled_partition, compiled_partition);
        ANYDNN_REQUIRE_NOT_NULL(lt);
        const auto &impl = compiled_partition->impl;
        ANYDNN_REQUIRE(impl, dnnl_invalid_arguments, "the partition is not compiled");
        // One u8 buffer: the temporary values, then the largest primitive scratchpad.
        *lt = make_lt(0, dnnl_u8, {static_cast<dim_t>(impl->temp_size())});
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_graph_get_compiled_partition_cache_capacity(int *capacity) {
    ANYDNN_REQUIRE_NOT_NULL(capacity);
    *capacity = compiled_cache_capacity();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_set_compiled_partition_cache_capacity(int capacity) {
    return guarded(__func__, [&] { return set_compiled_cache_capacity(capacity); });
}

DNNL_API dnnl_status_t dnnl_graph_set_constant_tensor_cache(int flag) {
    ANYDNN_REQUIRE(flag >= 0, dnnl_invalid_arguments, "flag %d is negative", flag);
    set_constant_cache_enabled(flag);
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_get_constant_tensor_cache(int *flag) {
    ANYDNN_REQUIRE_NOT_NULL(flag);
    *flag = constant_cache_enabled();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_set_constant_tensor_cache_capacity(
        dnnl_engine_kind_t eng_kind, size_t size) {
    const int k = raw_value(eng_kind);
    ANYDNN_REQUIRE(k == dnnl_cpu || k == dnnl_gpu, dnnl_invalid_arguments,
            "engine kind %d is not cpu or gpu", k);
    set_constant_cache_capacity(eng_kind, size);
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_get_constant_tensor_cache_capacity(
        dnnl_engine_kind_t eng_kind, size_t *size) {
    const int k = raw_value(eng_kind);
    ANYDNN_REQUIRE(k == dnnl_cpu || k == dnnl_gpu, dnnl_invalid_arguments,
            "engine kind %d is not cpu or gpu", k);
    ANYDNN_REQUIRE_NOT_NULL(size);
    *size = constant_cache_capacity(eng_kind);
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_graph_set_dump_mode(dnnl_graph_dump_mode_t modes) {
    const unsigned m = static_cast<unsigned>(raw_value(modes));
    ANYDNN_REQUIRE((m & ~3u) == 0, dnnl_invalid_arguments, "dump mode 0x%x is not valid", m);
    set_dump_mode(m);
    return dnnl_success;
}

} // extern "C"
