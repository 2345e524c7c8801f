// Test helpers for the graph API: a runner that executes every partition of a graph in
// order (fusion or debug policy) over buffers kept by logical tensor id.
#pragma once

#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl_graph.hpp"

namespace graph_test {

using namespace dnnl::graph;
using dt = logical_tensor::data_type;
using lt_dims = logical_tensor::dims;

inline logical_tensor lt(size_t id, const lt_dims &dims, dt type = dt::f32) {
    return logical_tensor(id, type, dims, logical_tensor::layout_type::strided);
}

inline logical_tensor lt_any(size_t id, dt type = dt::f32) {
    return logical_tensor(id, type, -1, logical_tensor::layout_type::any);
}

inline size_t nelems(const lt_dims &dims) {
    size_t n = 1;
    for (auto d : dims)
        n *= static_cast<size_t>(d);
    return n;
}

inline std::vector<float> random_floats(size_t n, unsigned seed, float lo = -1.f, float hi = 1.f) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (auto &x : v)
        x = dist(gen);
    return v;
}

struct runner_t {
    dnnl::engine eng;
    dnnl::stream strm;
    std::map<size_t, std::vector<uint8_t>> buffers;
    size_t partitions_run = 0;

    explicit runner_t(const dnnl::engine &e) : eng(e), strm(e) {}

    template <typename T>
    void set(size_t id, const std::vector<T> &v) {
        buffers[id].resize(v.size() * sizeof(T));
        std::memcpy(buffers[id].data(), v.data(), v.size() * sizeof(T));
    }
    template <typename T>
    std::vector<T> get(size_t id) const {
        const auto &b = buffers.at(id);
        std::vector<T> v(b.size() / sizeof(T));
        std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
        return v;
    }

    // Compiles and executes every partition; returns the partition count.
    size_t run(graph &g, partition::policy policy) {
        auto parts = g.get_partitions(policy);
        for (auto &p : parts) {
            EXPECT_TRUE(p.is_supported());
            if (!p.is_supported()) continue;
            auto ins = p.get_input_ports();
            auto outs = p.get_output_ports();
            std::vector<logical_tensor> outs_any;
            for (auto &o : outs)
                outs_any.emplace_back(o.get_id(), o.get_data_type(), -1,
                        logical_tensor::layout_type::any);
            compiled_partition cp = p.compile(ins, outs_any, eng);
            std::vector<tensor> in_ts, out_ts;
            for (auto &i : ins) {
                if (i.get_property_type() == logical_tensor::property_type::host_scalar) {
                    in_ts.push_back(tensor::make_scalar_tensor(i, buffers.at(i.get_id()).data()));
                    continue;
                }
                EXPECT_GE(buffers[i.get_id()].size(), i.get_mem_size()) << "input " << i.get_id();
                in_ts.emplace_back(i, eng, buffers[i.get_id()].data());
            }
            for (auto &o : outs) {
                logical_tensor r = cp.query_logical_tensor(o.get_id());
                buffers[o.get_id()].assign(r.get_mem_size(), 0);
                out_ts.emplace_back(r, eng, buffers[o.get_id()].data());
            }
            cp.execute(strm, in_ts, out_ts);
            ++partitions_run;
        }
        strm.wait();
        return parts.size();
    }
};

inline void expect_close(const std::vector<float> &got, const std::vector<float> &want,
        float tol, const char *what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[i], tol * (1.f + std::fabs(want[i]))) << what << " at " << i;
}

} // namespace graph_test
