// Level Zero modules of programs whose build options are made at run time (no build-time
// SPIR-V): built by OpenCL on the OpenCL device of the same name and created as native modules,
// which the validation layer's parameter checks let through, and cached on disk like any
// module. ctest ze_test_driver.modules_without_opencl runs these again with OpenCL hidden from
// the library (ANYDNN_OPENCL_LIBRARY=none): then the driver is offered the last fallback,
// OpenCL C source (format 3), which those checks refuse, and primitive creation says so.
#include <stdlib.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_ze.h"
#include "ze/ze_app.hpp"

namespace ze_test {
namespace {

namespace fs = std::filesystem;

bool env_is(const char *name, const char *value) {
    const char *v = std::getenv(name);
    return v && std::strcmp(v, value) == 0;
}

// Whether the library can reach OpenCL to build native modules.
bool library_has_opencl() {
    return !env_is("ANYDNN_OPENCL_LIBRARY", "none");
}

std::vector<fs::path> module_files(const fs::path &dir) {
    std::vector<fs::path> files;
    for (const auto &e : fs::directory_iterator(dir))
        if (e.path().filename().string().rfind("ze-", 0) == 0) files.push_back(e.path());
    return files;
}

class ze_module_build : public ze_app_t {
protected:
    void SetUp() override {
        ze_app_t::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        const auto &d = drivers[0];
        ASSERT_EQ(dnnl_ze_interop_engine_create(&eng, d.driver, d.device, d.context),
                dnnl_success);
        ASSERT_EQ(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags), dnnl_success);
    }
    void TearDown() override {
        if (strm) {
            EXPECT_EQ(dnnl_stream_destroy(strm), dnnl_success);
        }
        if (eng) {
            EXPECT_EQ(dnnl_engine_destroy(eng), dnnl_success);
        }
        unsetenv("ONEDNN_KERNEL_CACHE_DIR");
        ze_app_t::TearDown();
    }

    // A tanh forward in f32 on 3 x 37 elements: its program options are made at run time (no
    // line in src/gpu/spirv_programs.txt). Returns the status of primitive creation, where
    // the module is built; `prim` is null unless it succeeds.
    dnnl_status_t create_tanh(dnnl_engine_t engine, dnnl_primitive_t *prim) {
        dnnl_memory_desc_t md = nullptr;
        const dnnl_dims_t dims = {3, 37};
        EXPECT_EQ(dnnl_memory_desc_create_with_tag(&md, 2, dims, dnnl_f32, dnnl_ab), dnnl_success);
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, engine, dnnl_forward_inference,
                          dnnl_eltwise_tanh, md, md, 0.f, 0.f, nullptr),
                dnnl_success);
        *prim = nullptr;
        const dnnl_status_t st = dnnl_primitive_create(prim, pd);
        dnnl_primitive_desc_destroy(pd);
        dnnl_memory_desc_destroy(md);
        return st;
    }

    // Runs `prim` (a tanh from create_tanh on `eng`) and checks it against std::tanh.
    void expect_tanh(dnnl_primitive_t prim) {
        dnnl_memory_desc_t md = nullptr;
        const dnnl_dims_t dims = {3, 37};
        ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md, 2, dims, dnnl_f32, dnnl_ab), dnnl_success);
        dnnl_memory_t src = nullptr, dst = nullptr;
        ASSERT_EQ(dnnl_memory_create(&src, md, eng, DNNL_MEMORY_ALLOCATE), dnnl_success);
        ASSERT_EQ(dnnl_memory_create(&dst, md, eng, DNNL_MEMORY_ALLOCATE), dnnl_success);
        dnnl_memory_desc_destroy(md);
        void *p = nullptr;
        ASSERT_EQ(dnnl_memory_map_data(src, &p), dnnl_success);
        for (int i = 0; i < 3 * 37; ++i) static_cast<float *>(p)[i] = float(i % 17) / 4.f - 2.f;
        ASSERT_EQ(dnnl_memory_unmap_data(src, p), dnnl_success);
        dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
        ASSERT_EQ(dnnl_primitive_execute(prim, strm, 2, args), dnnl_success);
        ASSERT_EQ(dnnl_stream_wait(strm), dnnl_success);
        ASSERT_EQ(dnnl_memory_map_data(dst, &p), dnnl_success);
        for (int i = 0; i < 3 * 37; ++i)
            EXPECT_NEAR(static_cast<float *>(p)[i], std::tanh(double(i % 17) / 4. - 2.), 1e-5)
                    << i;
        ASSERT_EQ(dnnl_memory_unmap_data(dst, p), dnnl_success);
        dnnl_memory_destroy(src);
        dnnl_memory_destroy(dst);
    }

    dnnl_engine_t eng = nullptr;
    dnnl_stream_t strm = nullptr;
};

TEST_F(ze_module_build, run_time_options_program_is_a_native_module_under_parameter_checks) {
    setenv("ONEDNN_KERNEL_CACHE_DIR", "off", 1); // built now, not loaded from an earlier run
    dnnl_primitive_t tanh = nullptr;
    const dnnl_status_t st = create_tanh(eng, &tanh);
    if (!library_has_opencl() && env_is("ZE_ENABLE_PARAMETER_VALIDATION", "1")) {
        // No OpenCL device to build a native binary: OpenCL C source, which the checks refuse.
        EXPECT_EQ(st, dnnl_runtime_error);
        EXPECT_EQ(tanh, nullptr);
        return;
    }
    // With the checks on, the module can only be native: no SPIR-V, and source is refused.
    ASSERT_EQ(st, dnnl_success);
    expect_tanh(tanh);
    dnnl_primitive_destroy(tanh);
}

TEST_F(ze_module_build, native_modules_go_to_the_disk_cache_and_come_back) {
    if (!library_has_opencl())
        GTEST_SKIP() << "OpenCL is hidden from the library: no native modules to cache";
    char tmpl[] = "/tmp/anydnn_ze_module_cache_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    const fs::path dir = tmpl;
    setenv("ONEDNN_KERNEL_CACHE_DIR", tmpl, 1);
    dnnl_primitive_t tanh = nullptr;
    ASSERT_EQ(create_tanh(eng, &tanh), dnnl_success);
    dnnl_primitive_destroy(tanh);
    const std::vector<fs::path> files = module_files(dir);
    ASSERT_EQ(files.size(), 1u) << "one module, one file";
    EXPECT_GT(fs::file_size(files[0]), 0u);

    // Another engine loads it back; a damaged file fails its header or hash check before
    // the driver sees it, and is rebuilt and written again.
    const auto &d = drivers[0];
    std::string good;
    {
        std::ifstream f(files[0], std::ios::binary);
        good.assign(std::istreambuf_iterator<char>(f), {});
    }
    std::string flipped = good;
    flipped[good.size() / 2] ^= 0x40;
    const std::pair<const char *, std::string> damages[] = {{"intact", good},
            {"not a binary", "not a binary"}, {"cut to half", good.substr(0, good.size() / 2)},
            {"zero-length", ""}, {"a bit flipped", flipped}};
    for (const auto &damage : damages) {
        std::ofstream(files[0], std::ios::binary | std::ios::trunc) << damage.second;
        dnnl_engine_t other = nullptr;
        ASSERT_EQ(dnnl_ze_interop_engine_create(&other, d.driver, d.device, d.context),
                dnnl_success);
        ASSERT_EQ(create_tanh(other, &tanh), dnnl_success) << damage.first;
        dnnl_primitive_destroy(tanh);
        EXPECT_EQ(dnnl_engine_destroy(other), dnnl_success);
        EXPECT_EQ(fs::file_size(files[0]), good.size())
                << damage.first << ": the file is written again, whole";
    }
    // The reloaded module computes: a fresh engine's primitive, from the rewritten file.
    EXPECT_EQ(dnnl_stream_destroy(strm), dnnl_success);
    strm = nullptr;
    EXPECT_EQ(dnnl_engine_destroy(eng), dnnl_success);
    eng = nullptr;
    ASSERT_EQ(dnnl_ze_interop_engine_create(&eng, d.driver, d.device, d.context), dnnl_success);
    ASSERT_EQ(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags), dnnl_success);
    ASSERT_EQ(create_tanh(eng, &tanh), dnnl_success);
    expect_tanh(tanh);
    dnnl_primitive_destroy(tanh);
    fs::remove_all(dir);
}

} // namespace
} // namespace ze_test
