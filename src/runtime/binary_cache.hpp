// What the OpenCL program cache and the Level Zero module cache share: keys hashed from
// everything a binary depends on, the disk directory, whole-file reads and atomic writes, and
// the length-prefixed fields of engine cache blobs.
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
// ~/.cache/anydnn/kernels.
std::string disk_dir();

bool read_file(const std::string &path, std::vector<unsigned char> &bytes);
// Readers never see half a file: written to a private temporary, then renamed.
void write_file(const std::string &path, const std::vector<unsigned char> &bytes);

// Blob fields: a u64 length then the bytes.
void put_u64(std::string &out, uint64_t v);
void put_bytes(std::string &out, const void *data, size_t size);
bool get_u64(const uint8_t *&p, const uint8_t *end, uint64_t &v);
bool get_bytes(const uint8_t *&p, const uint8_t *end, std::string &s);

} // namespace binary_cache
} // namespace anydnn
