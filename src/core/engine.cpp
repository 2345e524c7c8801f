#include "core/engine.hpp"

#include <atomic>

#include "core/primitive_cache.hpp"

namespace {
std::atomic<uint64_t> next_engine_id {1};
}

dnnl_engine::dnnl_engine(
        dnnl_engine_kind_t kind, anydnn::runtime_kind_t runtime, size_t index)
    : kind_(kind), runtime_(runtime), index_(index), id_(next_engine_id++) {}

// The engine's primitives cannot be reached again: drop them from the cache.
dnnl_engine::~dnnl_engine() {
    anydnn::primitive_cache().drop_engine(id_);
}
