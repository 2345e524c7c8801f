#include "core/sealed.hpp"

#include <cstring>

#include "core/hash.hpp"

namespace anydnn {
namespace sealed {

namespace {

constexpr char magic[8] = {'a', 'n', 'y', 'd', 'n', 'n', 'S', 'B'};
// magic, u32 version, u32 key length, u64 payload length, 16-byte hash; then key, payload.
constexpr size_t header_size = sizeof(magic) + 4 + 4 + 8 + 16;

template <typename T>
void put(std::string &out, T v) {
    out.append(reinterpret_cast<const char *>(&v), sizeof(v));
}

template <typename T>
T get(const uint8_t *p) {
    T v;
    std::memcpy(&v, p, sizeof(v));
    return v;
}

} // namespace

std::string seal(const std::string &key, const void *payload, size_t size) {
    const hash128_t h = hash128(payload, size);
    std::string out;
    out.reserve(header_size + key.size() + size);
    out.append(magic, sizeof(magic));
    put<uint32_t>(out, format_version);
    put<uint32_t>(out, static_cast<uint32_t>(key.size()));
    put<uint64_t>(out, size);
    put<uint64_t>(out, h.low);
    put<uint64_t>(out, h.high);
    out += key;
    out.append(static_cast<const char *>(payload), size);
    return out;
}

verdict_t open(const uint8_t *data, size_t size, const std::string &key,
        const uint8_t **payload, size_t *payload_size) {
    if (!data || size < header_size) return verdict_t::truncated;
    if (std::memcmp(data, magic, sizeof(magic)) != 0) return verdict_t::bad_magic;
    const uint8_t *p = data + sizeof(magic);
    if (get<uint32_t>(p) != format_version) return verdict_t::bad_version;
    const uint64_t key_size = get<uint32_t>(p + 4);
    const uint64_t body_size = get<uint64_t>(p + 8);
    const hash128_t stored {get<uint64_t>(p + 16), get<uint64_t>(p + 24)};
    const uint64_t rest = size - header_size;
    if (key_size > rest) return verdict_t::truncated;
    const uint8_t *k = data + header_size;
    if (key_size != key.size() || std::memcmp(k, key.data(), key.size()) != 0)
        return verdict_t::wrong_key;
    if (body_size != rest - key_size)
        return body_size > rest - key_size ? verdict_t::truncated : verdict_t::bad_length;
    const uint8_t *body = k + key_size;
    if (hash128(body, body_size) != stored) return verdict_t::bad_hash;
    *payload = body;
    *payload_size = body_size;
    return verdict_t::ok;
}

const char *verdict_text(verdict_t v) {
    switch (v) {
        case verdict_t::ok: return "ok";
        case verdict_t::truncated: return "truncated";
        case verdict_t::bad_magic: return "not an anydnn cache blob (bad magic)";
        case verdict_t::bad_version: return "made by another format version";
        case verdict_t::wrong_key: return "stored under another key";
        case verdict_t::bad_length: return "trailing bytes after the payload";
        case verdict_t::bad_hash: return "payload hash mismatch (corrupt)";
    }
    return "unknown";
}

} // namespace sealed
} // namespace anydnn
