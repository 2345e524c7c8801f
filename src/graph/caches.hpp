// The graph API's global settings: compiled partition cache (capacity, LRU, lock) and the
// constant tensor cache controls.
#pragma once

#include <memory>
#include <string>

#include "graph/compiled_partition.hpp"

namespace anydnn {
namespace graph {

int compiled_cache_capacity();
status_t set_compiled_cache_capacity(int capacity);
// Key of one compilation: partition, engine, port descriptions.
std::string compiled_cache_key(const partition_impl_t &part, const engine_t &engine,
        const std::vector<lt_t> &inputs, const std::vector<lt_t> &outputs);
std::shared_ptr<const compiled_impl_t> compiled_cache_find(const std::string &key);
void compiled_cache_add(const std::string &key, std::shared_ptr<const compiled_impl_t> impl);
size_t compiled_cache_size();

// Constant tensor cache: enabled flag and a byte capacity per engine kind. Compiled
// partitions on the CPU engine keep no preprocessed constants, so nothing is stored yet.
int constant_cache_enabled();
void set_constant_cache_enabled(int flag);
size_t constant_cache_capacity(dnnl_engine_kind_t kind);
void set_constant_cache_capacity(dnnl_engine_kind_t kind, size_t size);

} // namespace graph
} // namespace anydnn
