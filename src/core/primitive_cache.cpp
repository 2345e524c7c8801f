#include "core/primitive_cache.hpp"

#include <cstdlib>

#include "core/primitive.hpp"

namespace anydnn {

std::shared_ptr<primitive_t> primitive_cache_t::find(const std::string &key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    lru_.splice(lru_.begin(), lru_, it->second);
    return it->second->primitive;
}

void primitive_cache_t::insert(
        const std::string &key, uint64_t engine_id, std::shared_ptr<primitive_t> p) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (capacity_ == 0 || index_.count(key)) return;
    evict_to(capacity_ - 1);
    lru_.push_front({key, engine_id, std::move(p)});
    index_[key] = lru_.begin();
}

void primitive_cache_t::drop_engine(uint64_t engine_id) {
    std::list<entry_t> dropped; // destroyed outside the lock
    {
        std::lock_guard<std::mutex> lock(mutex_);
        for (auto it = lru_.begin(); it != lru_.end();) {
            auto next = std::next(it);
            if (it->engine_id == engine_id) {
                index_.erase(it->key);
                dropped.splice(dropped.end(), lru_, it);
            }
            it = next;
        }
    }
}

int primitive_cache_t::capacity() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return capacity_;
}

status_t primitive_cache_t::set_capacity(int capacity) {
    ANYDNN_REQUIRE(capacity >= 0, dnnl_invalid_arguments, "negative cache capacity %d",
            capacity);
    std::lock_guard<std::mutex> lock(mutex_);
    capacity_ = capacity;
    evict_to(capacity_);
    return dnnl_success;
}

int primitive_cache_t::size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<int>(lru_.size());
}

void primitive_cache_t::evict_to(int size) {
    while (static_cast<int>(lru_.size()) > size && !lru_.empty()) {
        index_.erase(lru_.back().key);
        lru_.pop_back();
    }
}

primitive_cache_t &primitive_cache() {
    static primitive_cache_t *cache = [] {
        int capacity = 1024;
        const char *env = std::getenv("ONEDNN_PRIMITIVE_CACHE_CAPACITY");
        if (!env) env = std::getenv("DNNL_PRIMITIVE_CACHE_CAPACITY");
        if (env) {
            char *end = nullptr;
            long v = std::strtol(env, &end, 10);
            if (end != env && v >= 0 && v <= (1 << 30)) capacity = static_cast<int>(v);
        }
        return new primitive_cache_t(capacity);
    }();
    return *cache;
}

} // namespace anydnn
