// The kernel disk cache and engine cache blobs on a real OpenCL device: damaged cache files
// are rebuilt and rewritten (the driver never sees them), damaged blobs are refused with a
// status, and a directory that cannot be written leaves the library working without the cache.
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "interop/ocl_fixture.hpp"

namespace interop_test {
namespace {

namespace fs = std::filesystem;

constexpr int len = 1001; // odd: a tail in every vectorized loop
constexpr char sealed_magic[] = "anydnnSB";
constexpr size_t sealed_header = 40; // magic 8, version 4, key length 4, length 8, hash 16

float input(int i) { return static_cast<float>(i % 29) - 14.5f; }
float leaky_relu(float x) { return x > 0 ? x : 0.25f * x; }

std::string read_all(const fs::path &p) {
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

void write_all(const fs::path &p, const std::string &bytes) {
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

class ocl_kernel_cache : public ocl_app_t {
protected:
    void SetUp() override {
        ocl_app_t::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        char tmpl[] = "/tmp/anydnn-kernel-cache-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        dir = tmpl;
        ::setenv("ONEDNN_KERNEL_CACHE_DIR", dir.c_str(), 1);
    }
    void TearDown() override {
        ::unsetenv("ONEDNN_KERNEL_CACHE_DIR");
        if (!dir.empty()) {
            std::error_code ec;
            fs::remove_all(dir, ec);
        }
        ocl_app_t::TearDown();
    }

    // Leaky relu on a fresh engine (so programs come from disk, not memory), checked.
    void run_relu_on_a_fresh_engine() {
        dnnl_engine_t e = nullptr;
        ASSERT_EQ(dnnl_ocl_interop_engine_create(&e, device, context), dnnl_success);
        dnnl_memory_desc_t md = vector_md(len);
        dnnl_primitive_t prim = make_leaky_relu(e, md, 0.25f);
        ASSERT_NE(prim, nullptr);
        cl_mem x = buffer(len * sizeof(float)), y = buffer(len * sizeof(float));
        std::vector<float> host(len);
        for (int i = 0; i < len; ++i) host[i] = input(i);
        ASSERT_EQ(clEnqueueWriteBuffer(queue, x, CL_TRUE, 0, len * 4, host.data(), 0, nullptr,
                          nullptr),
                CL_SUCCESS);
        dnnl_memory_t mx = nullptr, my = nullptr;
        ASSERT_EQ(dnnl_ocl_interop_memory_create(&mx, md, e, dnnl_ocl_interop_buffer, x),
                dnnl_success);
        ASSERT_EQ(dnnl_ocl_interop_memory_create(&my, md, e, dnnl_ocl_interop_buffer, y),
                dnnl_success);
        dnnl_stream_t s = nullptr;
        ASSERT_EQ(dnnl_ocl_interop_stream_create(&s, e, queue), dnnl_success);
        dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, mx}, {DNNL_ARG_DST, my}};
        ASSERT_EQ(dnnl_primitive_execute(prim, s, 2, args), dnnl_success);
        ASSERT_EQ(dnnl_stream_wait(s), dnnl_success);
        std::vector<float> out(len, -1000.f);
        ASSERT_EQ(clEnqueueReadBuffer(queue, y, CL_TRUE, 0, len * 4, out.data(), 0, nullptr,
                          nullptr),
                CL_SUCCESS);
        for (int i = 0; i < len; ++i)
            ASSERT_EQ(out[i], leaky_relu(input(i))) << i;
        dnnl_stream_destroy(s);
        dnnl_memory_destroy(mx);
        dnnl_memory_destroy(my);
        clReleaseMemObject(x);
        clReleaseMemObject(y);
        dnnl_primitive_destroy(prim);
        dnnl_memory_desc_destroy(md);
        EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
    }

    // The cache entries: file -> contents.
    std::map<fs::path, std::string> entries() const {
        std::map<fs::path, std::string> m;
        for (const auto &e : fs::directory_iterator(dir))
            m[e.path()] = read_all(e.path());
        return m;
    }

    std::string dir;
};

// Each entry is a whole sealed envelope: magic, the payload's length and XXH3-128, and the
// file's own name as its key.
void expect_whole_entries(const std::map<fs::path, std::string> &files) {
    for (const auto &f : files) {
        EXPECT_EQ(f.first.extension(), ".bin") << f.first;
        const std::string name = f.first.stem().string();
        const std::string &b = f.second;
        ASSERT_GT(b.size(), sealed_header + name.size()) << f.first;
        EXPECT_EQ(b.compare(0, 8, sealed_magic), 0) << f.first;
        EXPECT_EQ(b.compare(sealed_header, name.size(), name), 0) << f.first;
        uint64_t length = 0, low = 0, high = 0;
        std::memcpy(&length, b.data() + 16, 8);
        std::memcpy(&low, b.data() + 24, 8);
        std::memcpy(&high, b.data() + 32, 8);
        const size_t at = sealed_header + name.size();
        ASSERT_EQ(length, b.size() - at) << f.first;
        const XXH128_hash_t h = XXH3_128bits(b.data() + at, length);
        EXPECT_EQ(h.low64, low) << f.first;
        EXPECT_EQ(h.high64, high) << f.first;
    }
}

TEST_F(ocl_kernel_cache, damaged_entries_are_rebuilt_and_rewritten) {
    run_relu_on_a_fresh_engine();
    const auto good = entries();
    ASSERT_FALSE(good.empty()) << "no kernel cache entry written to " << dir;
    expect_whole_entries(good);
    run_relu_on_a_fresh_engine(); // from disk
    EXPECT_EQ(entries(), good);

    struct damage_t {
        const char *what;
        std::string (*apply)(const std::string &, const std::string &);
    };
    const damage_t damages[] = {
            {"cut to half its length",
                    [](const std::string &b, const std::string &) { return b.substr(0, b.size() / 2); }},
            {"zero-length", [](const std::string &, const std::string &) { return std::string(); }},
            {"one byte short",
                    [](const std::string &b, const std::string &) { return b.substr(0, b.size() - 1); }},
            {"bits flipped in the binary",
                    [](const std::string &b, const std::string &) {
                        std::string d = b;
                        for (size_t i = b.size() / 2; i < b.size(); i += b.size() / 7 + 1)
                            d[i] = static_cast<char>(d[i] ^ 0x24);
                        return d;
                    }},
            {"stored under another key",
                    [](const std::string &b, const std::string &) {
                        std::string d = b;
                        d[sealed_header] = d[sealed_header] == 'a' ? 'b' : 'a';
                        return d;
                    }},
            {"another format version",
                    [](const std::string &b, const std::string &) {
                        std::string d = b;
                        d[8] = static_cast<char>(d[8] + 1);
                        return d;
                    }},
            {"a bare driver binary (the layout before headers)",
                    [](const std::string &b, const std::string &name) {
                        return b.substr(sealed_header + name.size());
                    }},
    };
    for (const auto &d : damages) {
        SCOPED_TRACE(d.what);
        for (const auto &f : good)
            write_all(f.first, d.apply(f.second, f.first.stem().string()));
        run_relu_on_a_fresh_engine(); // rebuilt, correct, no crash
        const auto now = entries();
        EXPECT_EQ(now.size(), good.size());
        expect_whole_entries(now);
        run_relu_on_a_fresh_engine(); // and read back from disk
    }
}

TEST_F(ocl_kernel_cache, an_unwritable_directory_leaves_the_library_working) {
    // /proc/self takes no new files, root or not; under a regular file nothing can be made.
    ::setenv("ONEDNN_KERNEL_CACHE_DIR", "/proc/self", 1);
    run_relu_on_a_fresh_engine();
    run_relu_on_a_fresh_engine();
    write_all(fs::path(dir) / "file", "x");
    const std::string under_file = dir + "/file/kernels";
    ::setenv("ONEDNN_KERNEL_CACHE_DIR", under_file.c_str(), 1);
    run_relu_on_a_fresh_engine();
    EXPECT_FALSE(fs::exists(under_file));
}

TEST_F(ocl_kernel_cache, a_size_limit_below_one_entry_keeps_nothing_and_still_works) {
    ::setenv("ONEDNN_KERNEL_CACHE_MAX_SIZE", "1", 1);
    run_relu_on_a_fresh_engine();
    run_relu_on_a_fresh_engine();
    ::unsetenv("ONEDNN_KERNEL_CACHE_MAX_SIZE");
    EXPECT_TRUE(entries().empty());
}

// Engine cache blobs: every truncation and spread bit flips are refused with a status
// before the driver sees a byte, and leave no engine behind.
TEST_F(ocl_kernel_cache, damaged_engine_cache_blobs_are_invalid_arguments) {
    ::setenv("ONEDNN_KERNEL_CACHE_DIR", "off", 1);
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_ocl_interop_engine_create(&e, device, context), dnnl_success);
    dnnl_memory_desc_t md = vector_md(len);
    dnnl_primitive_t prim = make_leaky_relu(e, md, 0.25f); // builds a program on e
    ASSERT_NE(prim, nullptr);
    size_t size = 0;
    ASSERT_EQ(dnnl_ocl_interop_engine_get_cache_blob(e, &size, nullptr), dnnl_success);
    std::vector<uint8_t> blob(size);
    ASSERT_EQ(dnnl_ocl_interop_engine_get_cache_blob(e, &size, blob.data()), dnnl_success);
    dnnl_primitive_destroy(prim);
    dnnl_memory_desc_destroy(md);
    ASSERT_EQ(dnnl_engine_destroy(e), dnnl_success);
    ASSERT_GT(size, 1000u) << "the blob should hold a program binary";

    auto refused = [&](const std::vector<uint8_t> &b, size_t n) {
        dnnl_engine_t bad = nullptr;
        const dnnl_status_t st
                = dnnl_ocl_interop_engine_create_from_cache_blob(&bad, device, context, n, b.data());
        EXPECT_EQ(bad, nullptr);
        if (bad) dnnl_engine_destroy(bad);
        return st == dnnl_invalid_arguments;
    };
    // Truncations: every length of the header, then spread through the binary.
    for (size_t n = 1; n < size; n += n < 256 ? 1 : size / 97 + 1)
        EXPECT_TRUE(refused(blob, n)) << "cut to " << n << " of " << size;
    EXPECT_TRUE(refused(blob, size - 1));
    for (size_t i = 0; i < size; i += i < 256 ? 1 : size / 97 + 1) {
        std::vector<uint8_t> bad = blob;
        bad[i] ^= static_cast<uint8_t>(1u << (i % 8));
        EXPECT_TRUE(refused(bad, size)) << "bit flipped in byte " << i;
    }
    std::vector<uint8_t> longer = blob;
    longer.push_back(0);
    EXPECT_TRUE(refused(longer, longer.size()));

    // The intact blob still gives a working engine.
    dnnl_engine_t good = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_engine_create_from_cache_blob(
                      &good, device, context, size, blob.data()),
            dnnl_success);
    if (good) dnnl_engine_destroy(good);
}

} // namespace
} // namespace interop_test
