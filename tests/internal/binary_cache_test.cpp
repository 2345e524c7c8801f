// The hash, the sealed envelope and the kernel disk cache: corrupt entries are misses,
// writes are atomic under concurrent writers, an unusable directory turns the cache off,
// and eviction keeps the entries under the size limit, least recently used first.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "core/hash.hpp"
#include "core/sealed.hpp"
#include "core/verbose.hpp"
#include "runtime/binary_cache.hpp"

namespace {

namespace fs = std::filesystem;
using namespace anydnn;

std::vector<unsigned char> pattern(size_t n, unsigned seed) {
    std::vector<unsigned char> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = static_cast<unsigned char>((i * 131 + seed * 7 + (i >> 8)) & 0xff);
    return v;
}

std::string read_all(const fs::path &p) {
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

void write_all(const fs::path &p, const std::string &bytes) {
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A fresh cache directory for each test, named by ONEDNN_KERNEL_CACHE_DIR.
class disk_cache : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/anydnn-cache-test-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        dir = tmpl;
        ::setenv("ONEDNN_KERNEL_CACHE_DIR", dir.c_str(), 1);
        ::unsetenv("ONEDNN_KERNEL_CACHE_MAX_SIZE");
    }
    void TearDown() override {
        ::unsetenv("ONEDNN_KERNEL_CACHE_DIR");
        ::unsetenv("ONEDNN_KERNEL_CACHE_MAX_SIZE");
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    fs::path entry(const std::string &name) const { return fs::path(dir) / (name + ".bin"); }
    uint64_t entries_size() const {
        uint64_t total = 0;
        for (const auto &e : fs::directory_iterator(dir))
            if (e.path().extension() == ".bin") total += e.file_size();
        return total;
    }
    std::string dir;
};

TEST(hash, xxh3_128_matches_the_published_value_and_spreads_one_bit) {
    // XXH3-128 of the empty input, as xxHash's own sanity tests give it.
    const hash128_t empty = hash128("", 0);
    EXPECT_EQ(empty.high, 0x99aa06d3014798d8ull);
    EXPECT_EQ(empty.low, 0x6001c324468d497full);
    EXPECT_EQ(hash_hex(""), "99aa06d3014798d86001c324468d497f");
    std::string a(1000, 'x'), b = a;
    b[999] ^= 1;
    EXPECT_NE(hash128(a).low, hash128(b).low);
    EXPECT_NE(hash128(a).high, hash128(b).high);
    EXPECT_EQ(hash_bytes(a), hash128(a).low);
}

TEST(sealed_blob, opens_what_it_sealed_and_nothing_damaged) {
    const std::vector<unsigned char> payload = pattern(257, 1);
    const std::string key = "some-key";
    const std::string blob = sealed::seal(key, payload.data(), payload.size());
    const auto *data = reinterpret_cast<const uint8_t *>(blob.data());
    const uint8_t *body = nullptr;
    size_t body_size = 0;
    ASSERT_EQ(sealed::open(data, blob.size(), key, &body, &body_size), sealed::verdict_t::ok);
    ASSERT_EQ(body_size, payload.size());
    EXPECT_EQ(std::memcmp(body, payload.data(), payload.size()), 0);

    // Every shorter length, every single flipped bit, another key: never ok.
    for (size_t len = 0; len < blob.size(); ++len)
        EXPECT_NE(sealed::open(data, len, key, &body, &body_size), sealed::verdict_t::ok)
                << "length " << len;
    for (size_t i = 0; i < blob.size(); ++i)
        for (int bit = 0; bit < 8; ++bit) {
            std::string bad = blob;
            bad[i] = static_cast<char>(bad[i] ^ (1 << bit));
            EXPECT_NE(sealed::open(reinterpret_cast<const uint8_t *>(bad.data()), bad.size(),
                              key, &body, &body_size),
                    sealed::verdict_t::ok)
                    << "byte " << i << " bit " << bit;
        }
    EXPECT_EQ(sealed::open(data, blob.size(), "other-key", &body, &body_size),
            sealed::verdict_t::wrong_key);
    EXPECT_EQ(sealed::open(data, blob.size(), "some-ke", &body, &body_size),
            sealed::verdict_t::wrong_key);
    EXPECT_EQ(sealed::open(nullptr, 0, key, &body, &body_size), sealed::verdict_t::truncated);

    // The version field follows the 8-byte magic; a trailing byte is refused too.
    std::string old = blob;
    old[8] = static_cast<char>(sealed::format_version + 1);
    EXPECT_EQ(sealed::open(reinterpret_cast<const uint8_t *>(old.data()), old.size(), key, &body,
                      &body_size),
            sealed::verdict_t::bad_version);
    std::string longer = blob + "x";
    EXPECT_EQ(sealed::open(reinterpret_cast<const uint8_t *>(longer.data()), longer.size(), key,
                      &body, &body_size),
            sealed::verdict_t::bad_length);
    std::string magic = blob;
    magic[0] = 'A';
    EXPECT_EQ(sealed::open(reinterpret_cast<const uint8_t *>(magic.data()), magic.size(), key,
                      &body, &body_size),
            sealed::verdict_t::bad_magic);

    // An empty payload (primitive cache blobs) seals and opens.
    const std::string empty = sealed::seal(key, std::string());
    EXPECT_EQ(sealed::open(reinterpret_cast<const uint8_t *>(empty.data()), empty.size(), key,
                      &body, &body_size),
            sealed::verdict_t::ok);
    EXPECT_EQ(body_size, 0u);
}

TEST_F(disk_cache, round_trip_and_every_kind_of_damage_is_a_miss) {
    const std::vector<unsigned char> payload = pattern(5000, 2);
    binary_cache::store_entry("k1", payload);
    std::vector<unsigned char> got;
    ASSERT_TRUE(binary_cache::load_entry("k1", got));
    EXPECT_EQ(got, payload);
    EXPECT_FALSE(binary_cache::load_entry("absent", got));
    const std::string good = read_all(entry("k1"));

    struct damage_t {
        const char *what;
        std::string bytes;
    };
    std::string flipped = good;
    flipped[good.size() - 100] ^= 0x10;
    std::string version = good;
    version[8] ^= 0x7f;
    std::vector<damage_t> damages = {{"half", good.substr(0, good.size() / 2)},
            {"zero-length", ""}, {"one byte short", good.substr(0, good.size() - 1)},
            {"bit flipped", flipped}, {"other version", version},
            {"raw driver binary (older layout)",
                    std::string(payload.begin(), payload.end())}};
    // The entry of another key copied over this one's file.
    binary_cache::store_entry("k2", pattern(5000, 3));
    damages.push_back({"stored under another key", read_all(entry("k2"))});

    for (const auto &d : damages) {
        write_all(entry("k1"), d.bytes);
        got.clear();
        EXPECT_FALSE(binary_cache::load_entry("k1", got)) << d.what;
        // The caller rebuilds and stores again: the entry is good afterwards.
        binary_cache::store_entry("k1", payload);
        ASSERT_TRUE(binary_cache::load_entry("k1", got)) << d.what;
        EXPECT_EQ(got, payload) << d.what;
    }
    // No temporaries are left behind.
    for (const auto &e : fs::directory_iterator(dir))
        EXPECT_EQ(e.path().extension(), ".bin") << e.path();
}

TEST_F(disk_cache, eviction_keeps_the_size_under_the_limit_least_recently_used_first) {
    const size_t entry_bytes = 4000;
    ::setenv("ONEDNN_KERNEL_CACHE_MAX_SIZE", "20000", 1);
    EXPECT_EQ(binary_cache::size_limit(), 20000u);
    std::vector<unsigned char> got;
    for (unsigned i = 0; i < 12; ++i) {
        binary_cache::store_entry("e" + std::to_string(i), pattern(entry_bytes, i));
        EXPECT_LE(entries_size(), 20000u) << "after entry " << i;
        // e0 is used after every write: it stays while others go.
        ASSERT_TRUE(binary_cache::load_entry("e0", got)) << "after entry " << i;
        std::this_thread::sleep_for(std::chrono::milliseconds(15)); // distinct file times
    }
    EXPECT_EQ(got, pattern(entry_bytes, 0));
    EXPECT_TRUE(binary_cache::load_entry("e11", got)); // the newest
    EXPECT_FALSE(binary_cache::load_entry("e1", got)); // the oldest unused
    EXPECT_GT(entries_size(), 20000u - 2 * (entry_bytes + 100)); // not emptied either

    // Entries another process wrote are counted at the latest 64 writes later.
    write_all(entry("foreign"), std::string(30000, 'f'));
    for (int i = 0; i < 65; ++i)
        binary_cache::store_entry("small", pattern(10, 8));
    EXPECT_LE(entries_size(), 20000u);

    // A limit below one entry keeps nothing, and says so.
    EXPECT_EQ(binary_cache::evict(dir, 50), 0u); // the smallest entry takes 55
    EXPECT_EQ(entries_size(), 0u);
}

TEST(kernel_cache_limit, parses_sizes_and_falls_back_to_the_default) {
    const uint64_t def = uint64_t(1) << 30;
    struct {
        const char *env;
        uint64_t expected;
    } cases[] = {{"123", 123}, {"4K", 4096}, {"2m", 2u << 20}, {"3G", uint64_t(3) << 30},
            {"0", 0}, {"", def}, {"-5", def}, {"12X", def}, {"5KB", def}, {"lots", def},
            {"99999999999999999999G", def}};
    for (const auto &c : cases) {
        ::setenv("ONEDNN_KERNEL_CACHE_MAX_SIZE", c.env, 1);
        EXPECT_EQ(binary_cache::size_limit(), c.expected) << "'" << c.env << "'";
    }
    ::unsetenv("ONEDNN_KERNEL_CACHE_MAX_SIZE");
    EXPECT_EQ(binary_cache::size_limit(), def);
}

TEST_F(disk_cache, a_directory_that_cannot_be_made_turns_the_cache_off) {
    // Under a regular file no directory can be made, root or not.
    const std::string file = dir + "/plain-file";
    write_all(file, "x");
    const std::string under = file + "/kernels";
    ::setenv("ONEDNN_KERNEL_CACHE_DIR", under.c_str(), 1);
    EXPECT_EQ(binary_cache::disk_dir(), "");
    binary_cache::store_entry("k", pattern(100, 4)); // quietly nothing
    std::vector<unsigned char> got;
    EXPECT_FALSE(binary_cache::load_entry("k", got));
    EXPECT_FALSE(fs::exists(under));
}

// Writes into `ro` fail; the cache is off, with exactly one verbose warning.
void expect_off_with_one_warning(const std::string &ro) {
    ::setenv("ONEDNN_KERNEL_CACHE_DIR", ro.c_str(), 1);
    ASSERT_EQ(set_verbose_level(1), dnnl_success);
    ::testing::internal::CaptureStdout();
    EXPECT_EQ(binary_cache::disk_dir(), "");
    std::vector<unsigned char> got;
    for (int i = 0; i < 3; ++i) {
        binary_cache::store_entry("k", pattern(100, 5));
        EXPECT_FALSE(binary_cache::load_entry("k", got));
    }
    const std::string out = ::testing::internal::GetCapturedStdout();
    set_verbose_level(0);
    size_t warnings = 0;
    for (size_t at = out.find("kernel disk cache off"); at != std::string::npos;
            at = out.find("kernel disk cache off", at + 1))
        ++warnings;
    EXPECT_EQ(warnings, 1u) << out;
    EXPECT_NE(out.find("common,warning"), std::string::npos) << out;
}

TEST_F(disk_cache, a_read_only_directory_turns_the_cache_off) {
    // /proc/self is a directory nobody can add files to, root included.
    expect_off_with_one_warning("/proc/self");
    if (::geteuid() != 0) { // permissions bind only others
        const std::string ro = dir + "/read-only";
        ASSERT_EQ(::mkdir(ro.c_str(), 0555), 0);
        expect_off_with_one_warning(ro);
        EXPECT_TRUE(fs::is_empty(ro));
        ::chmod(ro.c_str(), 0755);
    }
}

TEST_F(disk_cache, concurrent_writers_and_readers_see_whole_entries) {
    // Writers of one key store one of two payloads; a reader gets one of them or a miss.
    const std::vector<unsigned char> a = pattern(64 * 1024, 6), b = pattern(64 * 1024, 7);
    std::vector<std::thread> threads;
    std::atomic<int> bad {0}, hits {0};
    for (int t = 0; t < 6; ++t)
        threads.emplace_back([&, t] {
            std::vector<unsigned char> got;
            for (int i = 0; i < 40; ++i) {
                if (t % 2 == 0) binary_cache::store_entry("shared", (i + t) % 4 < 2 ? a : b);
                if (binary_cache::load_entry("shared", got)) {
                    ++hits;
                    if (got != a && got != b) ++bad;
                }
            }
        });
    for (auto &t : threads)
        t.join();
    EXPECT_EQ(bad.load(), 0);
    EXPECT_GT(hits.load(), 0);
    for (const auto &e : fs::directory_iterator(dir))
        EXPECT_EQ(e.path().filename(), "shared.bin");
}

TEST_F(disk_cache, processes_filling_one_cache_at_once_see_whole_entries) {
    // Children store their own payload under one key and read it back in a loop; a reader
    // must see one of the payloads whole, never a mix or half a file.
    const int children = 4;
    std::vector<pid_t> pids;
    for (int c = 0; c < children; ++c) {
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            int bad = 0;
            std::vector<unsigned char> got;
            for (int i = 0; i < 40; ++i) {
                binary_cache::store_entry("shared", pattern(32 * 1024, 10 + c));
                if (binary_cache::load_entry("shared", got)) {
                    bool known = false;
                    for (int k = 0; k < children; ++k)
                        known = known || got == pattern(32 * 1024, 10 + k);
                    bad += !known;
                }
            }
            ::_exit(bad == 0 ? 0 : 1);
        }
        pids.push_back(pid);
    }
    for (const pid_t pid : pids) {
        int status = 0;
        ASSERT_EQ(::waitpid(pid, &status, 0), pid);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child " << pid;
    }
    std::vector<unsigned char> got;
    ASSERT_TRUE(binary_cache::load_entry("shared", got));
    for (const auto &e : fs::directory_iterator(dir))
        EXPECT_EQ(e.path().filename(), "shared.bin");
}

} // namespace
