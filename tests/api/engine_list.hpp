// Engines a conformance test runs on (the CPU engine, and the first GPU engine when one is
// present: PoCL or Intel's runtime here) and memory filled through map_data as programs do.
#pragma once

#include <cstring>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"

namespace engine_list {

inline std::vector<dnnl::engine> engines() {
    std::vector<dnnl::engine> out = {dnnl::engine(dnnl::engine::kind::cpu, 0)};
    if (dnnl::engine::get_count(dnnl::engine::kind::gpu) > 0)
        out.emplace_back(dnnl::engine::kind::gpu, 0);
    return out;
}

inline const char *where(const dnnl::engine &e) {
    return e.get_kind() == dnnl::engine::kind::gpu ? "gpu" : "cpu";
}

// New f32 memory of md on eng holding v (v.size() elements in the descriptor's order).
inline dnnl::memory filled(
        const dnnl::memory::desc &md, const dnnl::engine &eng, const std::vector<float> &v) {
    dnnl::memory m(md, eng);
    float *p = m.map_data<float>();
    std::memcpy(p, v.data(), v.size() * sizeof(float));
    m.unmap_data(p);
    return m;
}

} // namespace engine_list
