// The application's side of the SYCL interop tests: a device, its context and queues from
// Intel's SYCL runtime (its OpenCL backend over Intel's CPU OpenCL device), USM and buffer
// helpers, and the relu / add primitives with their plain references.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_sycl.hpp"

namespace sycl_test {

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

inline std::vector<float> random_floats(size_t n, unsigned seed) {
    std::vector<float> v(n);
    unsigned s = seed * 2654435761u + 1;
    for (auto &x : v) {
        s = s * 1664525u + 1013904223u;
        x = static_cast<float>((s >> 8) % 2001) / 100.f - 10.f; // [-10, 10], exact in f32
    }
    return v;
}

inline std::vector<float> relu_ref(const std::vector<float> &x) {
    std::vector<float> y(x.size());
    for (size_t i = 0; i < x.size(); ++i)
        y[i] = x[i] > 0.f ? x[i] : 0.f;
    return y;
}

inline memory::desc vec_md(int64_t n) { return memory::desc({n}, dt::f32, tag::a); }

inline dnnl::eltwise_forward relu(const dnnl::engine &eng, int64_t n) {
    return dnnl::eltwise_forward(dnnl::eltwise_forward::primitive_desc(eng,
            dnnl::prop_kind::forward_inference, dnnl::algorithm::eltwise_relu, vec_md(n),
            vec_md(n), 0.f));
}

inline dnnl::binary add(const dnnl::engine &eng, int64_t n) {
    return dnnl::binary(dnnl::binary::primitive_desc(
            eng, dnnl::algorithm::binary_add, vec_md(n), vec_md(n), vec_md(n)));
}

// Results of relu/add are exact: compare bit for bit.
inline void expect_equal(const std::vector<float> &got, const std::vector<float> &want) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
        ASSERT_EQ(got[i], want[i]) << "element " << i;
}

// A pause inside the application's tasks, so that work started too early would read the
// data before it is written.
inline void pause_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

class sycl_app_t : public ::testing::Test {
protected:
    void SetUp() override {
        try {
            device = sycl::device(sycl::cpu_selector_v);
        } catch (const sycl::exception &e) {
            const char *req = std::getenv("ANYDNN_SYCL_TEST_REQUIRE_DEVICE");
            if (req && std::string(req) == "1") FAIL() << "no SYCL CPU device: " << e.what();
            GTEST_SKIP() << "no SYCL CPU device: " << e.what();
        }
        context = sycl::context(device);
        queue = sycl::queue(context, device, sycl::property::queue::in_order {});
        eng = dnnl::sycl_interop::make_engine(device, context);
        strm = dnnl::sycl_interop::make_stream(eng, queue);
    }

    template <typename T = float>
    T *usm(size_t n, sycl::usm::alloc kind = sycl::usm::alloc::shared) {
        T *p = static_cast<T *>(sycl::malloc(std::max<size_t>(n, 1) * sizeof(T), device, context,
                kind));
        owned.push_back(p);
        return p;
    }
    void TearDown() override {
        for (void *p : owned)
            sycl::free(p, context);
    }
    std::vector<float> read(const float *p, size_t n) {
        std::vector<float> v(n);
        if (n) queue.memcpy(v.data(), p, n * sizeof(float)).wait();
        return v;
    }
    void write(float *p, const std::vector<float> &v) {
        if (!v.empty()) queue.memcpy(p, v.data(), v.size() * sizeof(float)).wait();
    }

    sycl::device device;
    sycl::context context;
    sycl::queue queue;
    dnnl::engine eng;
    dnnl::stream strm;
    std::vector<void *> owned;
};

} // namespace sycl_test
