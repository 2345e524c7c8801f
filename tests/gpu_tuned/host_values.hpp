// Host-side helpers of the tuned-kernel tests: dense f32/bf16 (and u8, read only) tensors
// filled from and read into float vectors through map_data, bf16 inputs by truncation,
// element-wise comparison against a double reference, and the implementation that ran.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "dnnl.hpp"

namespace host_values {

#define SKIP_WITHOUT_GPU()                                                                         \
    if (dnnl::engine::get_count(dnnl::engine::kind::gpu) == 0) GTEST_SKIP() << "no OpenCL device"

// Truncation: the inputs need only be bf16 values. Kept out of line: g++ 12.2 at -O1 and -O2
// (x86-64) drops the mask when this is inlined into `bf16 ? bf16_round(x) : x` (the and on
// x's own register becomes a 16-bit store into a copy), so the reference would see the
// untruncated values the device never gets.
__attribute__((noinline)) inline float bf16_round(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u &= 0xffff0000u;
    std::memcpy(&f, &u, 4);
    return f;
}

inline void fill(const dnnl::memory &m, const std::vector<float> &v) {
    using dt = dnnl::memory::data_type;
    const dnnl::memory::desc d = m.get_desc();
    if (!d.get_size()) return;
    void *p = m.map_data();
    for (size_t i = 0; i < v.size(); ++i) {
        if (d.get_data_type() == dt::f32) static_cast<float *>(p)[i] = v[i];
        if (d.get_data_type() == dt::bf16) {
            uint32_t u;
            std::memcpy(&u, &v[i], 4);
            static_cast<uint16_t *>(p)[i] = uint16_t(u >> 16);
        }
    }
    m.unmap_data(p);
}

inline dnnl::memory make(
        const dnnl::engine &e, const dnnl::memory::desc &d, const std::vector<float> &v) {
    dnnl::memory m(d, e);
    fill(m, v);
    return m;
}

inline std::vector<float> read(const dnnl::memory &m) {
    using dt = dnnl::memory::data_type;
    const dnnl::memory::desc d = m.get_desc();
    const size_t n = d.get_size() / dnnl::memory::data_type_size(d.get_data_type());
    std::vector<float> v(n);
    if (!n) return v;
    const void *p = m.map_data();
    for (size_t i = 0; i < n; ++i) {
        if (d.get_data_type() == dt::f32) v[i] = static_cast<const float *>(p)[i];
        if (d.get_data_type() == dt::bf16) {
            const uint32_t u = uint32_t(static_cast<const uint16_t *>(p)[i]) << 16;
            std::memcpy(&v[i], &u, 4);
        }
        if (d.get_data_type() == dt::u8) v[i] = static_cast<const uint8_t *>(p)[i];
    }
    m.unmap_data(const_cast<void *>(p));
    return v;
}

inline void expect_near(const std::vector<float> &got, const std::vector<double> &want,
        double tol, const char *what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[i], tol * std::max(1.0, std::fabs(want[i])))
                << what << " at " << i << " of " << got.size();
}

template <typename PD>
void expect_impl(const PD &pd, const char *name) {
    EXPECT_NE(std::string(pd.impl_info_str()).find(name), std::string::npos)
            << "ran " << pd.impl_info_str() << ", not " << name;
}

} // namespace host_values
