// The one hash of the library: XXH3-128 (libxxhash). Cache keys, blob checks and the
// in-memory hashes of descriptors all use it, so there is one function to trust.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace anydnn {

struct hash128_t {
    uint64_t low = 0, high = 0;
    bool operator==(const hash128_t &o) const { return low == o.low && high == o.high; }
    bool operator!=(const hash128_t &o) const { return !(*this == o); }
};

hash128_t hash128(const void *data, size_t size);
inline hash128_t hash128(const std::string &bytes) { return hash128(bytes.data(), bytes.size()); }

// 32 lowercase hex digits: a file name for a cache entry.
std::string hash_hex(const std::string &bytes);

// The low half, where a table needs 64 bits.
inline uint64_t hash_bytes(const std::string &bytes) { return hash128(bytes).low; }

} // namespace anydnn
