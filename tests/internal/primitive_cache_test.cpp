// The primitive cache: LRU order, capacity changes, engine removal.
#include <memory>

#include <gtest/gtest.h>

#include "core/primitive.hpp"
#include "core/primitive_cache.hpp"

namespace {

// Entries only need identity: a null-desc primitive is never executed here.
std::shared_ptr<anydnn::primitive_t> token() {
    return std::shared_ptr<anydnn::primitive_t>(
            reinterpret_cast<anydnn::primitive_t *>(new char), [](anydnn::primitive_t *p) {
                delete reinterpret_cast<char *>(p);
            });
}

} // namespace

TEST(primitive_cache, evicts_least_recently_used) {
    anydnn::primitive_cache_t cache(2);
    auto a = token(), b = token(), c = token();
    cache.insert("a", 1, a);
    cache.insert("b", 1, b);
    EXPECT_EQ(cache.find("a"), a); // a is now the most recent
    cache.insert("c", 1, c); // evicts b
    EXPECT_EQ(cache.find("b"), nullptr);
    EXPECT_EQ(cache.find("a"), a);
    EXPECT_EQ(cache.find("c"), c);
    EXPECT_EQ(cache.size(), 2);
}

TEST(primitive_cache, shrinking_capacity_evicts_and_zero_disables) {
    anydnn::primitive_cache_t cache(4);
    for (const char *k : {"a", "b", "c", "d"})
        cache.insert(k, 1, token());
    EXPECT_EQ(cache.size(), 4);
    EXPECT_EQ(cache.set_capacity(1), dnnl_success);
    EXPECT_EQ(cache.size(), 1);
    EXPECT_NE(cache.find("d"), nullptr); // the newest survives
    EXPECT_EQ(cache.set_capacity(0), dnnl_success);
    EXPECT_EQ(cache.size(), 0);
    cache.insert("e", 1, token());
    EXPECT_EQ(cache.find("e"), nullptr);
    EXPECT_EQ(cache.set_capacity(-3), dnnl_invalid_arguments);
    EXPECT_EQ(cache.capacity(), 0);
}

TEST(primitive_cache, dropping_an_engine_removes_only_its_entries) {
    anydnn::primitive_cache_t cache(8);
    cache.insert("x1", 1, token());
    cache.insert("y2", 2, token());
    cache.insert("z1", 1, token());
    cache.drop_engine(1);
    EXPECT_EQ(cache.size(), 1);
    EXPECT_EQ(cache.find("x1"), nullptr);
    EXPECT_NE(cache.find("y2"), nullptr);
}
