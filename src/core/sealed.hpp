// The envelope around every binary the library reads back (disk-cache entries, engine and
// primitive cache blobs): magic, format version, payload length, XXH3-128 of the payload and
// the key it was stored under, checked before anything parses the payload or a driver sees it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace anydnn {
namespace sealed {

// Bumped whenever the envelope or any payload layout changes: old data then reads as a miss.
constexpr uint32_t format_version = 1;

std::string seal(const std::string &key, const void *payload, size_t size);
inline std::string seal(const std::string &key, const std::string &payload) {
    return seal(key, payload.data(), payload.size());
}

enum class verdict_t { ok, truncated, bad_magic, bad_version, wrong_key, bad_length, bad_hash };

// Checks `data` against `key`; on ok, [*payload, *payload + *payload_size) is the payload.
verdict_t open(const uint8_t *data, size_t size, const std::string &key,
        const uint8_t **payload, size_t *payload_size);

// "truncated", "payload hash mismatch"... for verbose reasons.
const char *verdict_text(verdict_t v);

} // namespace sealed
} // namespace anydnn
