// Reorder's reference value, shared by the CPU engine's tests (tests/primitives) and the GPU
// engine's (tests/gpu): src minus its zero point, times its scale, plus the sum post-op's
// share of the old dst, divided by dst's scale, plus dst's zero point, in f32 (rounded to dst's
// type by the caller). Scales and zero points apply per the dims their mask selects.
#pragma once

#include <cstdint>
#include <vector>

namespace reorder_ref {

// The index into a scale or zero-point array of `mask` at logical position pos.
inline int64_t quant_index(int mask, const std::vector<int64_t> &dims, const int64_t *pos) {
    int64_t idx = 0;
    for (size_t i = 0; i < dims.size(); ++i)
        if (mask >> i & 1) idx = idx * dims[i] + pos[i];
    return idx;
}

// The quantization of one element: 1 and 0 where the attribute has none.
struct quant_t {
    float src_scale = 1.f, dst_scale = 1.f;
    int32_t src_zp = 0, dst_zp = 0;
    bool sum = false;
    float sum_scale = 1.f;
    int32_t sum_zp = 0;
};

// dst's value for src value x; old is dst before the run (read by the sum).
inline float value(float x, const quant_t &q, float old = 0.f) {
    float f = x - static_cast<float>(q.src_zp);
    f *= q.src_scale;
    if (q.sum) f += q.sum_scale * (old - static_cast<float>(q.sum_zp));
    f /= q.dst_scale;
    return f + static_cast<float>(q.dst_zp);
}

} // namespace reorder_ref
