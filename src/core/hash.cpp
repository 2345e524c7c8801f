#include "core/hash.hpp"

#include <cstdio>

// Inlined from the header: no run-time library to ship or find.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace anydnn {

hash128_t hash128(const void *data, size_t size) {
    const XXH128_hash_t h = XXH3_128bits(data, size);
    return {h.low64, h.high64};
}

std::string hash_hex(const std::string &bytes) {
    const hash128_t h = hash128(bytes);
    char hex[33];
    std::snprintf(hex, sizeof(hex), "%016llx%016llx", static_cast<unsigned long long>(h.high),
            static_cast<unsigned long long>(h.low));
    return hex;
}

} // namespace anydnn
