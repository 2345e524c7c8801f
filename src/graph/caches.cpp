#include "graph/caches.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <iterator>
#include <list>
#include <mutex>
#include <unordered_map>

namespace anydnn {
namespace graph {

namespace {

struct compiled_cache_t {
    std::mutex mutex;
    int capacity = 1024;
    std::list<std::pair<std::string, std::shared_ptr<const compiled_impl_t>>> lru; // newest first
    std::unordered_map<std::string, decltype(lru)::iterator> index;

    void trim() {
        while (static_cast<int>(lru.size()) > capacity) {
            index.erase(lru.back().first);
            lru.pop_back();
        }
    }
};

compiled_cache_t &compiled_cache() {
    static compiled_cache_t *c = new compiled_cache_t; // outlives user static destructors
    return *c;
}

void append(std::string &key, const void *p, size_t n) {
    key.append(static_cast<const char *>(p), n);
}

void append_lt(std::string &key, const lt_t &lt) {
    append(key, &lt.id, sizeof(lt.id));
    append(key, &lt.ndims, sizeof(lt.ndims));
    append(key, &lt.data_type, sizeof(lt.data_type));
    append(key, &lt.property, sizeof(lt.property));
    append(key, &lt.layout_type, sizeof(lt.layout_type));
    for (int d = 0; d < lt.ndims; ++d) {
        append(key, &lt.dims[d], sizeof(lt.dims[d]));
        if (lt.layout_type == dnnl_graph_layout_type_strided)
            append(key, &lt.layout.strides[d], sizeof(lt.layout.strides[d]));
    }
}

std::atomic<int> constant_enabled {1};
std::atomic<size_t> constant_capacity[2] = {std::numeric_limits<size_t>::max(),
        std::numeric_limits<size_t>::max()};

int kind_index(dnnl_engine_kind_t kind) {
    return kind == dnnl_gpu ? 1 : 0;
}

struct constant_cache_t {
    struct entry_t {
        int kind;
        std::shared_ptr<constant_buffer_t> buf;
    };
    std::mutex mutex;
    std::unordered_map<std::string, entry_t> entries;
    size_t bytes[2] = {0, 0};

    void flush(int kind) {
        for (auto it = entries.begin(); it != entries.end();)
            it = it->second.kind == kind ? entries.erase(it) : std::next(it);
        bytes[kind] = 0;
    }
};

// The capacity is given in megabytes.
size_t capacity_bytes(int kind) {
    const size_t mb = constant_capacity[kind].load();
    const size_t unit = size_t(1) << 20;
    return mb > std::numeric_limits<size_t>::max() / unit ? std::numeric_limits<size_t>::max()
                                                          : mb * unit;
}

constant_cache_t &constant_cache() {
    static constant_cache_t *c = new constant_cache_t; // outlives user static destructors
    return *c;
}

} // namespace

int compiled_cache_capacity() {
    auto &c = compiled_cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    return c.capacity;
}

status_t set_compiled_cache_capacity(int capacity) {
    ANYDNN_REQUIRE(capacity >= 0, dnnl_invalid_arguments, "capacity %d is negative", capacity);
    auto &c = compiled_cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    c.capacity = capacity;
    c.trim();
    return dnnl_success;
}

std::string compiled_cache_key(const partition_impl_t &part, const engine_t &engine,
        const std::vector<lt_t> &inputs, const std::vector<lt_t> &outputs) {
    std::string key;
    const uint64_t eid = engine.id();
    append(key, &part.id, sizeof(part.id));
    append(key, &eid, sizeof(eid));
    for (const auto &lt : inputs)
        append_lt(key, lt);
    key += '|';
    for (const auto &lt : outputs)
        append_lt(key, lt);
    return key;
}

std::shared_ptr<const compiled_impl_t> compiled_cache_find(const std::string &key) {
    auto &c = compiled_cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    auto it = c.index.find(key);
    if (it == c.index.end()) return nullptr;
    c.lru.splice(c.lru.begin(), c.lru, it->second);
    return it->second->second;
}

void compiled_cache_add(const std::string &key, std::shared_ptr<const compiled_impl_t> impl) {
    auto &c = compiled_cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    if (c.capacity == 0 || c.index.count(key)) return;
    c.lru.emplace_front(key, std::move(impl));
    c.index[key] = c.lru.begin();
    c.trim();
}

size_t compiled_cache_size() {
    auto &c = compiled_cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    return c.lru.size();
}

int constant_cache_enabled() {
    return constant_enabled.load();
}

void set_constant_cache_enabled(int flag) {
    constant_enabled = flag != 0;
    if (flag) return;
    // Disabled: what the cache held is released.
    auto &c = constant_cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    c.flush(0);
    c.flush(1);
}

size_t constant_cache_capacity(dnnl_engine_kind_t kind) {
    return constant_capacity[kind_index(kind)].load();
}

void set_constant_cache_capacity(dnnl_engine_kind_t kind, size_t size) {
    // As in oneDNN: setting the capacity flushes the engine kind's entries.
    auto &c = constant_cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    constant_capacity[kind_index(kind)] = size;
    c.flush(kind_index(kind));
}

constant_buffer_t::constant_buffer_t(size_t n) : size(n) {
    ptr = std::aligned_alloc(64, (std::max<size_t>(n, 1) + 63) / 64 * 64);
}

constant_buffer_t::~constant_buffer_t() {
    std::free(ptr);
}

uint64_t new_constant_cache_id() {
    static std::atomic<uint64_t> next {1};
    return next++;
}

std::shared_ptr<constant_buffer_t> constant_cache_find(const std::string &key) {
    auto &c = constant_cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    auto it = c.entries.find(key);
    return it == c.entries.end() ? nullptr : it->second.buf;
}

void constant_cache_add(
        dnnl_engine_kind_t kind, const std::string &key, std::shared_ptr<constant_buffer_t> buf) {
    const int k = kind_index(kind);
    auto &c = constant_cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    // Once the capacity is reached nothing new is kept (oneDNN's rule); no eviction.
    if (!constant_enabled.load() || buf->size > capacity_bytes(k) - c.bytes[k]
            || c.entries.count(key))
        return;
    c.bytes[k] += buf->size;
    c.entries[key] = {k, std::move(buf)};
}

} // namespace graph
} // namespace anydnn
