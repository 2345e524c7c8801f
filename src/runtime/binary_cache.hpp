// What the OpenCL program cache and the Level Zero module cache share: keys hashed from
// everything a binary depends on, the disk cache (sealed entries, atomic writes, a size limit
// with least-recently-used eviction) and the length-prefixed fields of engine cache blobs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace anydnn {
namespace binary_cache {

// A 32-hex-digit name for `all` (source, options, device, driver, library version...).
std::string hash_key(const std::string &all);

// The disk cache directory (created on demand), or empty when disabled:
// ONEDNN_KERNEL_CACHE_DIR ("off" or "0" disables), else $XDG_CACHE_HOME/anydnn/kernels, else
// ~/.cache/anydnn/kernels. A directory that cannot be created or written disables the disk
// cache for this process, with one verbose warning.
std::string disk_dir();

// The entry stored under `name` (a file name without extension): false on a miss, and a
// truncated, corrupt, foreign or older-format entry is a miss (the caller rebuilds and
// stores it again). A hit marks the entry as recently used.
bool load_entry(const std::string &name, std::vector<unsigned char> &payload);
// Stores atomically (a private temporary in the same directory, then a rename), then evicts
// the least recently used entries beyond size_limit() (the directory is listed when this
// process's estimate of its size would pass the limit, and every 64 writes). A failed write
// (read-only, full disk) disables the disk cache with one verbose warning.
void store_entry(const std::string &name, const std::vector<unsigned char> &payload);

// ONEDNN_KERNEL_CACHE_MAX_SIZE: bytes, or with a K, M or G suffix; 1G when unset or unreadable.
uint64_t size_limit();
// Removes the least recently used entries of `dir` until they take at most `limit` bytes, and
// temporaries that crashed writers left behind. Returns the bytes the entries take afterwards.
uint64_t evict(const std::string &dir, uint64_t limit);

// Blob fields: a u64 length then the bytes.
void put_u64(std::string &out, uint64_t v);
void put_bytes(std::string &out, const void *data, size_t size);
bool get_u64(const uint8_t *&p, const uint8_t *end, uint64_t &v);
bool get_bytes(const uint8_t *&p, const uint8_t *end, std::string &s);

} // namespace binary_cache
} // namespace anydnn
