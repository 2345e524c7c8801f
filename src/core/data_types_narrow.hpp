// The narrow types beside data_types.hpp read as f32: packed 4-bit integers (s4/u4: two a
// byte, the even element in the low half) and the 8-bit floats (data_types_f8.hpp).
#pragma once

#include "core/data_types.hpp"
#include "core/data_types_f8.hpp"

namespace anydnn {

inline float load_int4(dnnl_data_type_t dt, const void *base, int64_t i) {
    const uint8_t byte = static_cast<const uint8_t *>(base)[i >> 1];
    const int v = (i & 1) ? byte >> 4 : byte & 0xf;
    return static_cast<float>(dt == dnnl_s4 ? (v ^ 8) - 8 : v);
}

// load_as_f32 with s4/u4 and f8 as well (`i` counts elements, not bytes).
inline float load_any_as_f32(dnnl_data_type_t dt, const void *base, int64_t i) {
    if (dt == dnnl_s4 || dt == dnnl_u4) return load_int4(dt, base, i);
    if (is_f8(dt)) return load_f8(dt, base, i);
    return load_as_f32(dt, base, i);
}

} // namespace anydnn
