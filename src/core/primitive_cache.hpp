// The process-wide LRU cache of created primitives, keyed by engine, descriptor, attributes
// and implementation. Capacity: ONEDNN_PRIMITIVE_CACHE_CAPACITY (default 1024).
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "core/status.hpp"

namespace anydnn {

struct primitive_t;

class primitive_cache_t {
public:
    explicit primitive_cache_t(int capacity) : capacity_(capacity) {}

    std::shared_ptr<primitive_t> find(const std::string &key);
    void insert(const std::string &key, uint64_t engine_id, std::shared_ptr<primitive_t> p);
    void drop_engine(uint64_t engine_id);
    int capacity() const;
    status_t set_capacity(int capacity);
    int size() const;

private:
    struct entry_t {
        std::string key;
        uint64_t engine_id;
        std::shared_ptr<primitive_t> primitive;
    };
    void evict_to(int size); // caller holds the lock

    mutable std::mutex mutex_;
    int capacity_;
    std::list<entry_t> lru_; // most recently used first
    std::unordered_map<std::string, std::list<entry_t>::iterator> index_;
};

primitive_cache_t &primitive_cache();

} // namespace anydnn
