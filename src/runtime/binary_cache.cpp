#include "runtime/binary_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace anydnn {
namespace binary_cache {

namespace {

uint64_t fnv1a(const std::string &s, uint64_t h) {
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

} // namespace

std::string hash_key(const std::string &all) {
    char hex[40];
    std::snprintf(hex, sizeof(hex), "%016llx%016llx",
            static_cast<unsigned long long>(fnv1a(all, 14695981039346656037ull)),
            static_cast<unsigned long long>(fnv1a(all, 0x9e3779b97f4a7c15ull)));
    return hex;
}

std::string disk_dir() {
    const char *env = std::getenv("ONEDNN_KERNEL_CACHE_DIR");
    std::string dir;
    if (env) {
        if (!*env || std::strcmp(env, "off") == 0 || std::strcmp(env, "0") == 0) return {};
        dir = env;
    } else if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
        dir = std::string(xdg) + "/anydnn/kernels";
    } else if (const char *home = std::getenv("HOME"); home && *home) {
        dir = std::string(home) + "/.cache/anydnn/kernels";
    } else {
        return {};
    }
    // mkdir -p, quietly: a cache that cannot be written is only slower.
    for (size_t pos = 1; pos <= dir.size(); ++pos)
        if (pos == dir.size() || dir[pos] == '/') ::mkdir(dir.substr(0, pos).c_str(), 0755);
    return dir;
}

bool read_file(const std::string &path, std::vector<unsigned char> &bytes) {
    // One sized read: warm primitive creation reads a binary per program, and a byte-wise
    // stream copy of a few hundred KiB cost a fifth of it.
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    if (!f) return false;
    const std::streamoff size = f.tellg();
    if (size <= 0) return false;
    bytes.resize(static_cast<size_t>(size));
    f.seekg(0);
    f.read(reinterpret_cast<char *>(bytes.data()), size);
    return static_cast<bool>(f);
}

void write_file(const std::string &path, const std::vector<unsigned char> &bytes) {
    std::string tmp = path + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream f(tmp, std::ios::binary);
        if (!f) return;
        f.write(reinterpret_cast<const char *>(bytes.data()),
                static_cast<std::streamsize>(bytes.size()));
        if (!f) {
            std::remove(tmp.c_str());
            return;
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) std::remove(tmp.c_str());
}

void put_u64(std::string &out, uint64_t v) { out.append(reinterpret_cast<const char *>(&v), 8); }

void put_bytes(std::string &out, const void *data, size_t size) {
    put_u64(out, size);
    out.append(static_cast<const char *>(data), size);
}

bool get_u64(const uint8_t *&p, const uint8_t *end, uint64_t &v) {
    if (end - p < 8) return false;
    std::memcpy(&v, p, 8);
    p += 8;
    return true;
}

bool get_bytes(const uint8_t *&p, const uint8_t *end, std::string &s) {
    uint64_t n = 0;
    if (!get_u64(p, end, n) || static_cast<uint64_t>(end - p) < n) return false;
    s.assign(reinterpret_cast<const char *>(p), n);
    p += n;
    return true;
}

} // namespace binary_cache
} // namespace anydnn
