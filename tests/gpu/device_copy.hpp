// Moves tests/primitives' host tensors (c_tensor, on the CPU engine) to and from GPU memory of
// the same descriptor, byte for byte, and runs GPU implementations on them, so GPU results
// are checked by the same references (tests/primitives/<op>_ref.hpp). Also what every GPU test
// needs: a skip without a device, a descriptor in one call.
#pragma once

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "primitives/c_tensor.hpp"

namespace gpu_test {

#define SKIP_WITHOUT_GPU()                                                                     \
    if (dnnl_engine_get_count(dnnl_gpu) == 0) GTEST_SKIP() << "no OpenCL device"

// A descriptor of dims, type and tag.
inline dnnl_memory_desc_t md(std::vector<int64_t> dims, dnnl_data_type_t dt,
        dnnl_format_tag_t tag) {
    return c_tensor::make_md({std::move(dims), dt, tag});
}

// GPU memory of one descriptor, freed with its owner.
struct device_memory_t {
    device_memory_t(dnnl_engine_t gpu, const_dnnl_memory_desc_t md) {
        EXPECT_EQ(dnnl_memory_create(&mem, md, gpu, DNNL_MEMORY_ALLOCATE), dnnl_success);
        size = dnnl_memory_desc_get_size(md);
    }
    device_memory_t(const device_memory_t &) = delete;
    device_memory_t &operator=(const device_memory_t &) = delete;
    ~device_memory_t() {
        dnnl_memory_destroy(mem);
    }

    // Every byte set to `byte` (padding included, so untouched padding shows).
    void fill(unsigned char byte) {
        if (!size) return;
        void *p = nullptr;
        ASSERT_EQ(dnnl_memory_map_data(mem, &p), dnnl_success);
        std::memset(p, byte, size);
        ASSERT_EQ(dnnl_memory_unmap_data(mem, p), dnnl_success);
    }
    // The host tensor's bytes (same descriptor) copied in.
    void upload(const c_tensor::tensor_t &host) {
        ASSERT_EQ(dnnl_memory_desc_get_size(host.md), size);
        if (!size) return;
        void *p = nullptr;
        ASSERT_EQ(dnnl_memory_map_data(mem, &p), dnnl_success);
        std::memcpy(p, host.data(), size);
        ASSERT_EQ(dnnl_memory_unmap_data(mem, p), dnnl_success);
    }
    // These bytes copied into the host tensor (same descriptor).
    void download(c_tensor::tensor_t &host) const {
        ASSERT_EQ(dnnl_memory_desc_get_size(host.md), size);
        if (!size) return;
        void *p = nullptr;
        ASSERT_EQ(dnnl_memory_map_data(mem, &p), dnnl_success);
        std::memcpy(host.data(), p, size);
        ASSERT_EQ(dnnl_memory_unmap_data(mem, p), dnnl_success);
    }

    dnnl_memory_t mem = nullptr;
    size_t size = 0;
};

// How an input's host tensor is filled before it goes to the device.
using fill_t = std::function<void(int arg, c_tensor::tensor_t &t, uint32_t seed)>;

// Random small values (fill_random), except where the argument needs a range of its own:
// scales positive and exact (0.5, 0.75, 1), variances positive.
inline void default_fill(int arg, c_tensor::tensor_t &t, uint32_t seed) {
    t.fill_random(seed);
    const bool scale = (arg & DNNL_ARG_ATTR_SCALES) != 0;
    if (!scale && arg != DNNL_ARG_VARIANCE) return;
    int64_t pos[DNNL_MAX_NDIMS] = {};
    int k = 0;
    if (t.lay.nelems() > 0) do {
            t.set(pos, scale ? 0.5f + 0.25f * static_cast<float>(k++ % 3)
                             : 0.25f + std::fabs(t.get(pos)));
        } while (c_tensor::next_pos(pos, t.lay.dims, t.lay.ndims));
}

// Runs every GPU implementation of pd on host tensors made for `ins` (filled by `fill` with
// seeds 1, 2, ...) and `outs` (device memory pre-filled with 0x33), then calls check with the
// host tensors in the order ins then outs. An argument in both lists (dst under a sum
// post-op) is filled as an input and read back as an output: check sees it before and after.
// Returns how many implementations ran (at most max_impls, the first ones in pd's order).
inline int run_each_impl(dnnl_engine_t cpu, dnnl_engine_t gpu, dnnl_primitive_desc_t pd,
        const std::vector<int> &ins, const std::vector<int> &outs,
        const std::function<void(const std::vector<c_tensor::tensor_t *> &)> &check,
        const fill_t &fill = default_fill, int max_impls = INT_MAX) {
    dnnl_stream_t stream = nullptr;
    EXPECT_EQ(dnnl_stream_create(&stream, gpu, dnnl_stream_default_flags), dnnl_success);
    int impls = 0;
    do {
        ++impls;
        const char *name = nullptr;
        dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
        SCOPED_TRACE(name ? name : "");
        std::vector<std::unique_ptr<c_tensor::tensor_t>> host;
        std::vector<std::unique_ptr<device_memory_t>> dev;
        std::vector<device_memory_t *> out_dev;
        std::vector<dnnl_exec_arg_t> args;
        for (int arg : ins) {
            const_dnnl_memory_desc_t m =
                    dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
            host.emplace_back(new c_tensor::tensor_t(cpu, m));
            fill(arg, *host.back(), static_cast<uint32_t>(host.size()));
            dev.emplace_back(new device_memory_t(gpu, m));
            dev.back()->upload(*host.back());
            args.push_back({arg, dev.back()->mem});
        }
        for (int arg : outs) {
            const_dnnl_memory_desc_t m =
                    dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
            host.emplace_back(new c_tensor::tensor_t(cpu, m));
            const auto in = std::find(ins.begin(), ins.end(), arg);
            if (in != ins.end()) {
                out_dev.push_back(dev[static_cast<size_t>(in - ins.begin())].get());
                continue;
            }
            dev.emplace_back(new device_memory_t(gpu, m));
            dev.back()->fill(0x33);
            out_dev.push_back(dev.back().get());
            args.push_back({arg, dev.back()->mem});
        }
        dnnl_primitive_t prim = nullptr;
        EXPECT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
        EXPECT_EQ(dnnl_primitive_execute(prim, stream, static_cast<int>(args.size()), args.data()),
                dnnl_success);
        EXPECT_EQ(dnnl_stream_wait(stream), dnnl_success);
        dnnl_primitive_destroy(prim);
        std::vector<c_tensor::tensor_t *> all;
        for (size_t i = 0; i < host.size(); ++i) {
            if (i >= ins.size()) out_dev[i - ins.size()]->download(*host[i]);
            all.push_back(host[i].get());
        }
        check(all);
    } while (impls < max_impls && dnnl_primitive_desc_next_impl(pd) == dnnl_success);
    dnnl_stream_destroy(stream);
    return impls;
}

// The host tensor of an argument among a run's tensors (null when the run has none).
struct lookup_t {
    const std::vector<int> &args;
    const std::vector<c_tensor::tensor_t *> &t;
    const c_tensor::tensor_t *operator()(int arg) const {
        const auto i = std::find(args.begin(), args.end(), arg);
        return i == args.end() ? nullptr : t[size_t(i - args.begin())];
    }
    // A one-element attribute's value, or `none` without the argument.
    double common(int arg, double none) const {
        const int64_t zero = 0;
        return (*this)(arg) ? double((*this)(arg)->get(&zero)) : none;
    }
};

// An output against values in row-major order, with `roundings` f32 roundings (2^-24) of
// (|v| + 1) as slack beyond one rounding of its type.
inline void expect_near(
        const c_tensor::tensor_t &out, const std::vector<double> &want, double roundings) {
    std::vector<float> w;
    std::vector<double> slack;
    for (double v : want) {
        w.push_back(c_tensor::round_to(out.lay.dt, float(v)));
        slack.push_back(roundings / (1 << 24) * (std::fabs(v) + 1));
    }
    c_tensor::expect_values(w, out, slack);
}

// Creates pd's primitive and runs it once on a stream of `gpu` with these arguments.
inline void execute(dnnl_engine_t gpu, const_dnnl_primitive_desc_t pd,
        const std::vector<dnnl_exec_arg_t> &args) {
    dnnl_stream_t s = nullptr;
    ASSERT_EQ(dnnl_stream_create(&s, gpu, dnnl_stream_default_flags), dnnl_success);
    dnnl_primitive_t prim = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
    EXPECT_EQ(dnnl_primitive_execute(prim, s, int(args.size()), args.data()), dnnl_success);
    EXPECT_EQ(dnnl_stream_wait(s), dnnl_success);
    dnnl_primitive_destroy(prim);
    dnnl_stream_destroy(s);
}

} // namespace gpu_test
