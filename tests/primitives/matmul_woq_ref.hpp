// Weight-only quantization reference, shared by the CPU engine's tests (tests/primitives) and
// the GPU engine's (tests/gpu): a weights quantization parameter (scales or zero points) is a
// dense array over the masked weights dims, K and N divided by their group sizes; the weight
// the product uses is (w - zp) * scale.
#pragma once

#include <cstdint>
#include <vector>

#include "oneapi/dnnl/dnnl.h"

namespace matmul_ref {

struct wei_param_t {
    bool present = false;
    int mask = 0;
    int64_t gk = 1, gn = 1; // groups along K and N
    std::vector<float> values;

    // Number of values for weights of dims wd (nd of them).
    static int64_t count(int mask, const int64_t *wd, int nd, int64_t gk, int64_t gn) {
        int64_t c = 1;
        for (int d = 0; d < nd; ++d)
            if (mask >> d & 1) c *= wd[d] / (d == nd - 2 ? gk : d == nd - 1 ? gn : 1);
        return c;
    }
    // The value at weights position wp (row-major over the masked dims).
    float at(const int64_t *wp, const int64_t *wd, int nd, float none) const {
        if (!present) return none;
        int64_t i = 0;
        for (int d = 0; d < nd; ++d) {
            if (!(mask >> d & 1)) continue;
            const int64_t g = d == nd - 2 ? gk : d == nd - 1 ? gn : 1;
            i = i * (wd[d] / g) + wp[d] / g;
        }
        return values[static_cast<size_t>(i)];
    }
};

inline double dequant(float w, const wei_param_t &scale, const wei_param_t &zp,
        const int64_t *wp, const int64_t *wd, int nd) {
    return (double(w) - zp.at(wp, wd, nd, 0.f)) * scale.at(wp, wd, nd, 1.f);
}

} // namespace matmul_ref
