// The OCP 8-bit floating-point types by name (f8_e5m2: IEEE-like with infinities; f8_e4m3: no
// infinities, NaN only at S.1111.111, largest 448), over the conversions of data_types.hpp
// (f32 to f8 rounds to nearest even; beyond the largest finite: infinity (e5m2) or NaN (e4m3)).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/data_types.hpp"

namespace anydnn {

inline bool is_f8(dnnl_data_type_t dt) {
    return dt == dnnl_f8_e5m2 || dt == dnnl_f8_e4m3;
}

inline float f8_e5m2_to_f32(uint8_t v) {
    return f8_to_f32(v, 2, 15, true);
}
inline float f8_e4m3_to_f32(uint8_t v) {
    return f8_to_f32(v, 3, 7, false);
}
inline uint8_t f32_to_f8_e5m2(float f) {
    return f32_to_f8(f, 2, 15, true);
}
inline uint8_t f32_to_f8_e4m3(float f) {
    return f32_to_f8(f, 3, 7, false);
}

// Element i of an f8 buffer as f32.
inline float load_f8(dnnl_data_type_t dt, const void *base, int64_t i) {
    const uint8_t v = static_cast<const uint8_t *>(base)[i];
    return dt == dnnl_f8_e5m2 ? f8_e5m2_to_f32(v) : f8_e4m3_to_f32(v);
}

inline void store_f8(dnnl_data_type_t dt, void *base, int64_t i, float f) {
    static_cast<uint8_t *>(base)[i] = dt == dnnl_f8_e5m2 ? f32_to_f8_e5m2(f) : f32_to_f8_e4m3(f);
}

} // namespace anydnn
