#include "runtime/binary_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include "core/hash.hpp"
#include "core/sealed.hpp"
#include "core/verbose.hpp"

namespace anydnn {
namespace binary_cache {

namespace fs = std::filesystem;

namespace {

constexpr const char *entry_ext = ".bin";
constexpr uint64_t default_limit = uint64_t(1) << 30;
// A temporary older than this belongs to a writer that died.
constexpr auto stale_temporary_age = std::chrono::minutes(10);

std::string configured_dir() {
    const char *env = std::getenv("ONEDNN_KERNEL_CACHE_DIR");
    if (env) {
        if (!*env || std::strcmp(env, "off") == 0 || std::strcmp(env, "0") == 0) return {};
        return env;
    }
    if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::string(xdg) + "/anydnn/kernels";
    if (const char *home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.cache/anydnn/kernels";
    return {};
}

std::mutex dirs_mutex;
std::map<std::string, bool> &usable_dirs() { // directory -> usable, probed once per process
    static auto *dirs = new std::map<std::string, bool>;
    return *dirs;
}

void warn_disabled(const std::string &dir, const std::string &why) {
    if (verbose_on(verbose_flag::error))
        verbose_print("common,warning",
                "kernel disk cache off: " + dir + " " + why + " (set ONEDNN_KERNEL_CACHE_DIR)");
}

// Writes `bytes` to a new temporary in `dir` and renames it to `path`; errno-style reason on failure.
bool write_atomically(const std::string &dir, const std::string &path, const std::string &bytes,
        std::string &why) {
    std::string tmp = path + ".XXXXXX";
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0) {
        why = std::string("cannot create a file: ") + std::strerror(errno);
        return false;
    }
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        done += static_cast<size_t>(n);
    }
    const int write_errno = done == bytes.size() ? 0 : (errno ? errno : ENOSPC);
    ::fchmod(fd, 0644); // mkstemp makes 0600; the cache may be shared by a group
    if (::close(fd) != 0 && write_errno == 0) {
        why = std::string("cannot write a file: ") + std::strerror(errno);
        ::unlink(tmp.c_str());
        return false;
    }
    if (write_errno) {
        why = std::string("cannot write a file: ") + std::strerror(write_errno);
        ::unlink(tmp.c_str());
        return false;
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        why = std::string("cannot rename a file: ") + std::strerror(errno);
        ::unlink(tmp.c_str());
        return false;
    }
    return true;
}

bool probe(const std::string &dir, std::string &why) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir, ec)) {
        why = "cannot be created: " + (ec ? ec.message() : std::string("not a directory"));
        return false;
    }
    // Permissions alone do not tell (root, read-only mounts): try a write.
    const std::string path = dir + "/.probe-" + std::to_string(::getpid());
    if (!write_atomically(dir, path, "probe", why)) return false;
    ::unlink(path.c_str());
    return true;
}

void disable(const std::string &dir, const std::string &why) {
    std::lock_guard<std::mutex> lock(dirs_mutex);
    auto it = usable_dirs().find(dir);
    if (it != usable_dirs().end() && !it->second) return; // warned already
    usable_dirs()[dir] = false;
    warn_disabled(dir, why);
}

// What this process knows of a directory's size, so that not every write lists it: a listing
// of 8000 entries takes tens of milliseconds. Rescanned on the first write, when the estimate
// would pass the limit, and every `writes_per_scan` writes (other processes write too).
constexpr int writes_per_scan = 64;
struct dir_usage_t {
    uint64_t bytes = 0;
    int writes_since_scan = -1; // never scanned
};
std::mutex usage_mutex;
std::map<std::string, dir_usage_t> &usage() {
    static auto *u = new std::map<std::string, dir_usage_t>;
    return *u;
}

void account_write(const std::string &dir, uint64_t bytes) {
    const uint64_t limit = size_limit();
    {
        std::lock_guard<std::mutex> lock(usage_mutex);
        dir_usage_t &u = usage()[dir];
        if (u.writes_since_scan >= 0 && u.writes_since_scan < writes_per_scan
                && u.bytes + bytes <= limit) {
            u.bytes += bytes; // an overwrite counts twice: the estimate only errs high
            ++u.writes_since_scan;
            return;
        }
    }
    const uint64_t total = evict(dir, limit);
    std::lock_guard<std::mutex> lock(usage_mutex);
    usage()[dir] = {total, 0};
}

bool read_whole(const std::string &path, std::vector<unsigned char> &bytes) {
    // One sized read: warm primitive creation reads a binary per program.
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    if (!f) return false;
    const std::streamoff size = f.tellg();
    if (size <= 0) return false;
    bytes.resize(static_cast<size_t>(size));
    f.seekg(0);
    f.read(reinterpret_cast<char *>(bytes.data()), size);
    return static_cast<bool>(f);
}

bool ends_with(const std::string &s, const std::string &suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

std::string hash_key(const std::string &all) { return hash_hex(all); }

std::string disk_dir() {
    const std::string dir = configured_dir();
    if (dir.empty()) return {};
    std::lock_guard<std::mutex> lock(dirs_mutex);
    auto it = usable_dirs().find(dir);
    if (it != usable_dirs().end()) return it->second ? dir : std::string();
    std::string why;
    const bool ok = probe(dir, why);
    usable_dirs()[dir] = ok;
    if (!ok) warn_disabled(dir, why);
    return ok ? dir : std::string();
}

bool load_entry(const std::string &name, std::vector<unsigned char> &payload) {
    const std::string dir = disk_dir();
    if (dir.empty()) return false;
    const std::string path = dir + "/" + name + entry_ext;
    std::vector<unsigned char> bytes;
    if (!read_whole(path, bytes)) return false;
    const uint8_t *body = nullptr;
    size_t body_size = 0;
    const sealed::verdict_t v = sealed::open(bytes.data(), bytes.size(), name, &body, &body_size);
    if (v != sealed::verdict_t::ok) {
        if (verbose_on(verbose_flag::check))
            verbose_print("common,check",
                    "kernel disk cache entry " + path + " ignored: " + sealed::verdict_text(v));
        return false;
    }
    payload.assign(body, body + body_size);
    ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0); // recently used, for eviction
    return true;
}

void store_entry(const std::string &name, const std::vector<unsigned char> &payload) {
    const std::string dir = disk_dir();
    if (dir.empty() || payload.empty()) return;
    std::string why;
    const std::string entry = sealed::seal(name, payload.data(), payload.size());
    if (!write_atomically(dir, dir + "/" + name + entry_ext, entry, why)) {
        disable(dir, why);
        return;
    }
    account_write(dir, entry.size());
}

uint64_t size_limit() {
    const char *env = std::getenv("ONEDNN_KERNEL_CACHE_MAX_SIZE");
    if (!env || !*env) return default_limit;
    char *end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(env, &end, 10);
    if (errno || end == env || env[0] == '-') return default_limit;
    uint64_t scale = 1;
    switch (*end) {
        case '\0': break;
        case 'k': case 'K': scale = uint64_t(1) << 10; ++end; break;
        case 'm': case 'M': scale = uint64_t(1) << 20; ++end; break;
        case 'g': case 'G': scale = uint64_t(1) << 30; ++end; break;
        default: return default_limit;
    }
    if (*end != '\0' || v > UINT64_MAX / scale) return default_limit;
    return v * scale;
}

uint64_t evict(const std::string &dir, uint64_t limit) {
    struct entry_t {
        fs::path path;
        fs::file_time_type used;
        uint64_t size;
    };
    std::vector<entry_t> entries;
    uint64_t total = 0;
    const auto now = fs::file_time_type::clock::now();
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code e;
        if (!it->is_regular_file(e)) continue;
        const std::string file = it->path().filename().string();
        const auto used = it->last_write_time(e);
        if (e) continue;
        if (ends_with(file, entry_ext)) {
            const uint64_t size = it->file_size(e);
            if (e) continue;
            entries.push_back({it->path(), used, size});
            total += size;
        } else if (file.find(std::string(entry_ext) + ".") != std::string::npos
                && now - used > stale_temporary_age) {
            fs::remove(it->path(), e);
        }
    }
    if (total <= limit) return total;
    std::sort(entries.begin(), entries.end(),
            [](const entry_t &a, const entry_t &b) { return a.used < b.used; });
    for (const entry_t &e : entries) {
        if (total <= limit) break;
        std::error_code rm;
        fs::remove(e.path, rm); // gone already when another process evicted it: as good
        total -= e.size;
    }
    return total;
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
