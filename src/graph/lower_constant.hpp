// Constant weights in the layout their primitive prefers (CPU engines): a reorder step that
// runs only when the constant tensor cache has no packed copy yet (caches.hpp).
#pragma once

#include <functional>
#include <string>

#include "graph/lower.hpp"

namespace anydnn {
namespace graph {

using pd_factory_t =
        std::function<dnnl_status_t(const memory_desc_t &weights, dnnl_primitive_desc_t *pd)>;

// When weights value wei_id is a constant input port of the partition on a CPU engine, asks
// `create` for the same primitive with weights `any`. If it prefers another layout than
// wei_md, records a constant step that reorders the weights into the compiled partition's
// cached area, points the DNNL_ARG_WEIGHTS entry of args there and replaces pd (the old one
// is destroyed). Otherwise nothing changes. On an error pd is destroyed and null.
status_t use_packed_constant_weights(lowering_t &l, size_t wei_id, const memory_desc_t &wei_md,
        const pd_factory_t &create, dnnl_primitive_desc_t &pd,
        std::vector<std::pair<int, size_t>> &args, const op_t &op);

// Cache key of one execution: the compiled partition, and the buffers of its constant
// inputs (base: each storage's address in this execution).
std::string constant_cache_key(const compiled_impl_t &impl, const std::vector<void *> &base);

} // namespace graph
} // namespace anydnn
