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

// Constant tensor cache: the results of a compiled partition's constant steps (constant
// weights packed into the layout their primitive reads), kept across executions. Keyed by
// the compiled partition and the handles of its constant inputs (oneDNN's contract: a
// constant tensor's contents do not change). An enabled flag and a capacity in megabytes per
// engine kind: setting it flushes that kind's entries, and once it is reached nothing new is
// kept (as in oneDNN). Host memory: CPU engines only.
int constant_cache_enabled();
void set_constant_cache_enabled(int flag);
size_t constant_cache_capacity(dnnl_engine_kind_t kind);
void set_constant_cache_capacity(dnnl_engine_kind_t kind, size_t size);

// 64-byte aligned host bytes of one cache entry.
struct constant_buffer_t {
    explicit constant_buffer_t(size_t size);
    ~constant_buffer_t();
    constant_buffer_t(const constant_buffer_t &) = delete;
    constant_buffer_t &operator=(const constant_buffer_t &) = delete;
    void *ptr = nullptr;
    size_t size = 0;
};
uint64_t new_constant_cache_id(); // names one compiled partition in the keys
std::shared_ptr<constant_buffer_t> constant_cache_find(const std::string &key);
// Keeps buf under key unless the cache is disabled or buf would exceed the capacity.
void constant_cache_add(
        dnnl_engine_kind_t kind, const std::string &key, std::shared_ptr<constant_buffer_t> buf);

} // namespace graph
} // namespace anydnn
