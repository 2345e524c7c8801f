// Reading and writing runs of tensor elements as f32: n elements of one data type at a
// constant stride, or along one logical axis of any blocked layout (with broadcast).
#pragma once

#include <cstdint>

#include "core/data_types.hpp"
#include "core/memory_desc.hpp"
#include "core/ops/layout.hpp"

namespace anydnn {
namespace cpu {

namespace run_detail {
template <typename T, typename F>
inline void load(const void *base, dim_t off, dim_t stride, dim_t n, float *out, F cvt) {
    const T *p = static_cast<const T *>(base) + off;
    if (stride == 1)
        for (dim_t k = 0; k < n; ++k)
            out[k] = cvt(p[k]);
    else
        for (dim_t k = 0; k < n; ++k)
            out[k] = cvt(p[k * stride]);
}
template <typename T, typename F>
inline void store(void *base, dim_t off, dim_t stride, dim_t n, const float *in, F cvt) {
    T *p = static_cast<T *>(base) + off;
    if (stride == 1)
        for (dim_t k = 0; k < n; ++k)
            p[k] = cvt(in[k]);
    else
        for (dim_t k = 0; k < n; ++k)
            p[k * stride] = cvt(in[k]);
}
} // namespace run_detail

// out[k] = element off + k * stride of a buffer of type dt, as f32.
inline void load_f32(dnnl_data_type_t dt, const void *base, dim_t off, dim_t stride, dim_t n,
        float *out) {
    using namespace run_detail;
    switch (dt) {
        case dnnl_f32: load<float>(base, off, stride, n, out, [](float v) { return v; }); break;
        case dnnl_bf16: load<uint16_t>(base, off, stride, n, out, bf16_to_f32); break;
        case dnnl_f16: load<uint16_t>(base, off, stride, n, out, f16_to_f32); break;
        case dnnl_s32:
            load<int32_t>(base, off, stride, n, out,
                    [](int32_t v) { return static_cast<float>(v); });
            break;
        case dnnl_s8:
            load<int8_t>(base, off, stride, n, out, [](int8_t v) { return float(v); });
            break;
        case dnnl_u8:
            load<uint8_t>(base, off, stride, n, out, [](uint8_t v) { return float(v); });
            break;
        default:
            for (dim_t k = 0; k < n; ++k)
                out[k] = load_as_f32(dt, base, off + k * stride);
    }
}

// Element off + k * stride of a buffer of type dt = in[k], rounded and saturated.
inline void store_f32(dnnl_data_type_t dt, void *base, dim_t off, dim_t stride, dim_t n,
        const float *in) {
    using namespace run_detail;
    switch (dt) {
        case dnnl_f32: store<float>(base, off, stride, n, in, [](float v) { return v; }); break;
        case dnnl_bf16: store<uint16_t>(base, off, stride, n, in, f32_to_bf16); break;
        case dnnl_f16: store<uint16_t>(base, off, stride, n, in, f32_to_f16); break;
        case dnnl_s32: store<int32_t>(base, off, stride, n, in, saturate_round<int32_t>); break;
        case dnnl_s8: store<int8_t>(base, off, stride, n, in, saturate_round<int8_t>); break;
        case dnnl_u8: store<uint8_t>(base, off, stride, n, in, saturate_round<uint8_t>); break;
        default:
            for (dim_t k = 0; k < n; ++k)
                store_from_f32(dt, base, off + k * stride, in[k]);
    }
}

// out[k] = md's element at pos + k * e_axis, where dimensions set in `bcast` read index 0.
inline void load_run(const memory_desc_t &md, const void *base, unsigned bcast,
        const dim_t *pos, int axis, dim_t n, float *out) {
    dim_t p[max_ndims];
    for (int d = 0; d < md.ndims; ++d)
        p[d] = (bcast >> d) & 1u ? 0 : pos[d];
    const dim_t off = off_logical(md, p);
    if ((bcast >> axis) & 1u) {
        const float v = load_as_f32(md.data_type, base, off);
        for (dim_t k = 0; k < n; ++k)
            out[k] = v;
        return;
    }
    const dim_t stride = run_stride(md, axis, p[axis], n);
    if (stride >= 0) {
        load_f32(md.data_type, base, off, stride, n, out);
        return;
    }
    for (dim_t k = 0; k < n; ++k, ++p[axis])
        out[k] = load_as_f32(md.data_type, base, off_logical(md, p));
}

// md's elements at pos + k * e_axis = in[k].
inline void store_run(const memory_desc_t &md, void *base, const dim_t *pos, int axis,
        dim_t n, const float *in) {
    dim_t p[max_ndims];
    for (int d = 0; d < md.ndims; ++d)
        p[d] = pos[d];
    const dim_t stride = run_stride(md, axis, p[axis], n);
    if (stride >= 0) {
        store_f32(md.data_type, base, off_logical(md, p), stride, n, in);
        return;
    }
    for (dim_t k = 0; k < n; ++k, ++p[axis])
        store_from_f32(md.data_type, base, off_logical(md, p), in[k]);
}

} // namespace cpu
} // namespace anydnn
