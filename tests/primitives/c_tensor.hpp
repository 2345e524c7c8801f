// Helpers for C-API primitive tests: a tensor (descriptor + memory) whose elements are read
// and written by logical position, with the physical offset computed here from the queried
// layout (not by the library), plus test-side data type conversions and an engine fixture.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_debug.h"

namespace c_tensor {

using dims_t = std::vector<int64_t>;

// Round to nearest even, as the library's conversions promise.
inline uint16_t to_bf16(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    if (std::isnan(f)) return static_cast<uint16_t>((b >> 16) | 0x40);
    b += 0x7fff + ((b >> 16) & 1);
    return static_cast<uint16_t>(b >> 16);
}
inline float from_bf16(uint16_t h) {
    uint32_t b = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}
inline uint16_t to_f16(float f) {
    _Float16 h = static_cast<_Float16>(f);
    uint16_t r;
    std::memcpy(&r, &h, 2);
    return r;
}
inline float from_f16(uint16_t v) {
    _Float16 h;
    std::memcpy(&h, &v, 2);
    return static_cast<float>(h);
}
template <typename T>
T saturate(float f) {
    if (std::isnan(f)) return 0;
    const double r = std::nearbyint(static_cast<double>(f));
    const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
    const double hi = static_cast<double>(std::numeric_limits<T>::max());
    return static_cast<T>(r < lo ? lo : r > hi ? hi : r);
}

// The value an f32 result becomes once stored as dt and read back.
inline float round_to(dnnl_data_type_t dt, float f) {
    switch (dt) {
        case dnnl_bf16: return from_bf16(to_bf16(f));
        case dnnl_f16: return from_f16(to_f16(f));
        case dnnl_s32: return static_cast<float>(saturate<int32_t>(f));
        case dnnl_s8: return saturate<int8_t>(f);
        case dnnl_u8: return saturate<uint8_t>(f);
        default: return f;
    }
}

inline size_t dt_size(dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_f32:
        case dnnl_s32: return 4;
        case dnnl_bf16:
        case dnnl_f16: return 2;
        default: return 1;
    }
}

// A descriptor request: dims, type and a tag, or explicit strides (tag undef).
struct spec_t {
    spec_t() = default;
    spec_t(dims_t dims, dnnl_data_type_t dt, dnnl_format_tag_t tag, dims_t strides = {})
        : dims(std::move(dims)), dt(dt), tag(tag), strides(std::move(strides)) {}
    dims_t dims;
    dnnl_data_type_t dt = dnnl_f32;
    dnnl_format_tag_t tag = dnnl_format_tag_undef;
    dims_t strides;
};

inline dnnl_memory_desc_t make_md(const spec_t &s) {
    dnnl_memory_desc_t md = nullptr;
    dnnl_dims_t d = {};
    for (size_t i = 0; i < s.dims.size(); ++i)
        d[i] = s.dims[i];
    const int nd = static_cast<int>(s.dims.size());
    dnnl_status_t st;
    if (s.tag == dnnl_format_tag_undef) {
        dnnl_dims_t str = {};
        for (size_t i = 0; i < s.strides.size(); ++i)
            str[i] = s.strides[i];
        st = dnnl_memory_desc_create_with_strides(&md, nd, d, s.dt, s.strides.empty() ? nullptr : str);
    } else {
        st = dnnl_memory_desc_create_with_tag(&md, nd, d, s.dt, s.tag);
    }
    EXPECT_EQ(st, dnnl_success);
    return md;
}

// Layout fields read through dnnl_memory_desc_query.
struct layout_t {
    int ndims = 0;
    dnnl_data_type_t dt = dnnl_f32;
    int64_t dims[DNNL_MAX_NDIMS] = {}, padded[DNNL_MAX_NDIMS] = {}, poff[DNNL_MAX_NDIMS] = {},
            strides[DNNL_MAX_NDIMS] = {}, blks[DNNL_MAX_NDIMS] = {}, idxs[DNNL_MAX_NDIMS] = {};
    int nblks = 0;
    int64_t offset0 = 0;

    layout_t() = default;
    explicit layout_t(const_dnnl_memory_desc_t md) {
        const dnnl_dims_t *p;
        dnnl_memory_desc_query(md, dnnl_query_ndims_s32, &ndims);
        dnnl_memory_desc_query(md, dnnl_query_data_type, &dt);
        dnnl_memory_desc_query(md, dnnl_query_dims, &p);
        std::memcpy(dims, *p, sizeof(dims));
        dnnl_memory_desc_query(md, dnnl_query_padded_dims, &p);
        std::memcpy(padded, *p, sizeof(padded));
        dnnl_memory_desc_query(md, dnnl_query_padded_offsets, &p);
        std::memcpy(poff, *p, sizeof(poff));
        dnnl_memory_desc_query(md, dnnl_query_submemory_offset_s64, &offset0);
        if (dnnl_memory_desc_query(md, dnnl_query_strides, &p) == dnnl_success)
            std::memcpy(strides, *p, sizeof(strides));
        dnnl_memory_desc_query(md, dnnl_query_inner_nblks_s32, &nblks);
        if (nblks > 0) {
            dnnl_memory_desc_query(md, dnnl_query_inner_blks, &p);
            std::memcpy(blks, *p, sizeof(blks));
            dnnl_memory_desc_query(md, dnnl_query_inner_idxs, &p);
            std::memcpy(idxs, *p, sizeof(idxs));
        }
    }
    // Physical element offset of a logical position (padding positions allowed).
    int64_t offset(const int64_t *pos) const {
        int64_t p[DNNL_MAX_NDIMS];
        for (int d = 0; d < ndims; ++d)
            p[d] = pos[d] + poff[d];
        int64_t block_off = 0, block_size = 1;
        for (int i = nblks - 1; i >= 0; --i) {
            const int d = static_cast<int>(idxs[i]);
            block_off += (p[d] % blks[i]) * block_size;
            p[d] /= blks[i];
            block_size *= blks[i];
        }
        int64_t off = offset0 + block_off;
        for (int d = 0; d < ndims; ++d)
            off += p[d] * strides[d];
        return off;
    }
    int64_t nelems() const {
        int64_t n = 1;
        for (int d = 0; d < ndims; ++d)
            n *= dims[d];
        return n;
    }
};

// Next logical position in row-major order; false after the last.
inline bool next_pos(int64_t *pos, const int64_t *dims, int ndims) {
    for (int d = ndims - 1; d >= 0; --d) {
        if (++pos[d] < dims[d]) return true;
        pos[d] = 0;
    }
    return false;
}

// The position of a broadcast operand (dims of 1 where it broadcasts) at position pos.
inline void bcast_pos(const layout_t &l, const int64_t *pos, int64_t *out) {
    for (int d = 0; d < l.ndims; ++d)
        out[d] = l.dims[d] == 1 ? 0 : pos[d];
}

struct tensor_t {
    tensor_t(dnnl_engine_t engine, const_dnnl_memory_desc_t desc, unsigned char fill = 0) {
        init(engine, desc, fill);
    }
    tensor_t(dnnl_engine_t engine, const spec_t &s, unsigned char fill = 0) {
        dnnl_memory_desc_t m = make_md(s);
        init(engine, m, fill);
        dnnl_memory_desc_destroy(m);
    }
    tensor_t(const tensor_t &) = delete;
    tensor_t &operator=(const tensor_t &) = delete;
    ~tensor_t() {
        dnnl_memory_destroy(mem);
        dnnl_memory_desc_destroy(md);
    }

    void *data() const {
        void *p = nullptr;
        dnnl_memory_get_data_handle(mem, &p);
        return p;
    }
    float get(const int64_t *pos) const {
        const int64_t off = lay.offset(pos);
        const char *base = static_cast<const char *>(data());
        switch (lay.dt) {
            case dnnl_f32: return reinterpret_cast<const float *>(base)[off];
            case dnnl_bf16: return from_bf16(reinterpret_cast<const uint16_t *>(base)[off]);
            case dnnl_f16: return from_f16(reinterpret_cast<const uint16_t *>(base)[off]);
            case dnnl_s32: return static_cast<float>(reinterpret_cast<const int32_t *>(base)[off]);
            case dnnl_s8: return reinterpret_cast<const int8_t *>(base)[off];
            case dnnl_u8: return reinterpret_cast<const uint8_t *>(base)[off];
            case dnnl_s4:
            case dnnl_u4: { // two a byte, the even element in the low half
                const uint8_t b = reinterpret_cast<const uint8_t *>(base)[off / 2];
                const int v = off % 2 ? b >> 4 : b & 0xf;
                return static_cast<float>(lay.dt == dnnl_s4 && v > 7 ? v - 16 : v);
            }
            default: return 0.f;
        }
    }
    int32_t get_s32(const int64_t *pos) const {
        return reinterpret_cast<const int32_t *>(data())[lay.offset(pos)];
    }
    void set(const int64_t *pos, float v) {
        const int64_t off = lay.offset(pos);
        char *base = static_cast<char *>(data());
        switch (lay.dt) {
            case dnnl_f32: reinterpret_cast<float *>(base)[off] = v; break;
            case dnnl_bf16: reinterpret_cast<uint16_t *>(base)[off] = to_bf16(v); break;
            case dnnl_f16: reinterpret_cast<uint16_t *>(base)[off] = to_f16(v); break;
            case dnnl_s32: reinterpret_cast<int32_t *>(base)[off] = saturate<int32_t>(v); break;
            case dnnl_s8: reinterpret_cast<int8_t *>(base)[off] = saturate<int8_t>(v); break;
            case dnnl_u8: reinterpret_cast<uint8_t *>(base)[off] = saturate<uint8_t>(v); break;
            case dnnl_s4:
            case dnnl_u4: {
                uint8_t &b = reinterpret_cast<uint8_t *>(base)[off / 2];
                const int lo = lay.dt == dnnl_s4 ? -8 : 0;
                const int n = std::min(lo + 15, std::max(lo, static_cast<int>(std::lround(v))));
                const uint8_t nib = static_cast<uint8_t>(n & 0xf);
                b = off % 2 ? static_cast<uint8_t>((b & 0x0f) | nib << 4)
                            : static_cast<uint8_t>((b & 0xf0) | nib);
                break;
            }
            default: break;
        }
    }
    // Values exactly representable in every type the tests use.
    void fill_random(uint32_t seed, bool nonzero = false) {
        std::mt19937 gen(seed);
        int lo = -16, hi = 16;
        if (lay.dt == dnnl_u8) lo = 0, hi = 40;
        std::uniform_int_distribution<int> dist(lo, hi);
        int64_t pos[DNNL_MAX_NDIMS] = {};
        if (lay.nelems() == 0) return;
        do {
            int v = dist(gen);
            if (nonzero && v == 0) v = 3;
            const bool fp = lay.dt == dnnl_f32 || lay.dt == dnnl_bf16 || lay.dt == dnnl_f16;
            set(pos, fp ? v / 4.f : static_cast<float>(v));
        } while (next_pos(pos, lay.dims, lay.ndims));
    }
    // Whether every padded element (positions beyond dims) reads as zero bytes.
    bool padding_is_zero() const {
        const size_t esz = dt_size(lay.dt);
        int64_t pos[DNNL_MAX_NDIMS] = {};
        bool any_pad = false;
        for (int d = 0; d < lay.ndims; ++d)
            any_pad = any_pad || lay.padded[d] > lay.dims[d];
        if (!any_pad) return true;
        for (int d = 0; d < lay.ndims; ++d)
            if (lay.padded[d] == 0) return true;
        do {
            bool in = true;
            for (int d = 0; d < lay.ndims; ++d)
                in = in && pos[d] < lay.dims[d];
            if (in) continue;
            const char *p = static_cast<const char *>(data()) + lay.offset(pos) * esz;
            for (size_t b = 0; b < esz; ++b)
                if (p[b] != 0) return false;
        } while (next_pos(pos, lay.padded, lay.ndims));
        return true;
    }

    dnnl_memory_desc_t md = nullptr;
    dnnl_memory_t mem = nullptr;
    layout_t lay;
    size_t bytes = 0;

private:
    void init(dnnl_engine_t engine, const_dnnl_memory_desc_t desc, unsigned char fill) {
        lay = layout_t(desc);
        EXPECT_EQ(dnnl_memory_desc_clone(&md, desc), dnnl_success);
        EXPECT_EQ(dnnl_memory_create(&mem, md, engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
        bytes = dnnl_memory_desc_get_size(md);
        if (bytes) std::memset(data(), fill, bytes);
    }
};

// Loose enough for one rounding of the destination type.
inline float tolerance(dnnl_data_type_t dt, float expected) {
    const float mag = std::fabs(expected);
    switch (dt) {
        case dnnl_bf16: return 1e-2f * mag + 1e-6f;
        case dnnl_f16: return 2e-3f * mag + 1e-4f;
        case dnnl_f32: return 1e-5f * mag + 1e-6f;
        default: return 1.f;
    }
}

inline bool close(dnnl_data_type_t dt, float expected, float got) {
    if (std::isnan(expected)) return std::isnan(got);
    if (std::isinf(expected)) return expected == got;
    return std::fabs(expected - got) <= tolerance(dt, expected);
}

inline bool is_integer(dnnl_data_type_t dt) {
    return dt == dnnl_s32 || dt == dnnl_s8 || dt == dnnl_u8;
}

// A tensor's values in row-major order of its logical dims.
inline std::vector<double> values(const tensor_t &t) {
    std::vector<double> v;
    int64_t pos[DNNL_MAX_NDIMS] = {};
    if (t.lay.nelems() > 0) do
            v.push_back(t.get(pos));
        while (next_pos(pos, t.lay.dims, t.lay.ndims));
    return v;
}

// Every element of t against `want` (row-major order of t's dims) within t's type's
// tolerance plus `slack` (per element, where the computation's own error exceeds one
// rounding of t's type; integer types exact, or within the slack rounded up), the first five
// misses reported with their position; t's padding zero.
inline void expect_values(const std::vector<float> &want, const tensor_t &t,
        const std::vector<double> &slack = {}) {
    ASSERT_EQ(static_cast<int64_t>(want.size()), t.lay.nelems());
    const bool integer = is_integer(t.lay.dt);
    int64_t pos[DNNL_MAX_NDIMS] = {};
    size_t k = 0, bad = 0;
    if (t.lay.nelems() > 0) do {
            const float got = t.get(pos);
            const double extra = k < slack.size() ? slack[k] : 0.0;
            // Integers are exact unless the computation's error reaches a rounding boundary.
            const double tol = integer ? std::ceil(extra) : tolerance(t.lay.dt, want[k]) + extra;
            const bool ok = integer ? std::fabs(double(got) - want[k]) <= tol
                                       : close(t.lay.dt, want[k], got)
                            || std::fabs(double(got) - want[k]) <= tol;
            if (!ok && bad++ < 5) {
                std::string where;
                for (int d = 0; d < t.lay.ndims; ++d)
                    where += std::to_string(pos[d]) + " ";
                ADD_FAILURE() << "at [" << where << "] expected " << want[k] << " got " << got;
            }
            ++k;
        } while (next_pos(pos, t.lay.dims, t.lay.ndims));
    EXPECT_EQ(bad, 0u);
    EXPECT_TRUE(t.padding_is_zero());
}

struct engine_fixture : public ::testing::Test {
    void SetUp() override {
        ASSERT_EQ(dnnl_engine_create(&engine, dnnl_cpu, 0), dnnl_success);
        ASSERT_EQ(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags), dnnl_success);
    }
    void TearDown() override {
        dnnl_stream_destroy(stream);
        dnnl_engine_destroy(engine);
    }
    std::string impl_name(const_dnnl_primitive_desc_t pd) {
        const char *s = nullptr;
        dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &s);
        return s ? s : "";
    }
    // Runs `check(pd)` on every implementation the library offers for the descriptor
    // `create(&pd)` makes, in the order dnnl_primitive_desc_next_impl walks them; returns how
    // many ran.
    template <typename Create, typename Check>
    int on_every_impl(Create create, Check check) {
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(create(&pd), dnnl_success);
        int ran = 0;
        while (pd) {
            SCOPED_TRACE(impl_name(pd));
            check(pd);
            ++ran;
            if (dnnl_primitive_desc_next_impl(pd) != dnnl_success) break;
        }
        if (pd) dnnl_primitive_desc_destroy(pd);
        return ran;
    }
    // Creates the primitive and runs it once with these arguments.
    dnnl_status_t execute(const_dnnl_primitive_desc_t pd, const std::vector<dnnl_exec_arg_t> &args) {
        dnnl_primitive_t prim = nullptr;
        dnnl_status_t st = dnnl_primitive_create(&prim, pd);
        if (st != dnnl_success) return st;
        st = dnnl_primitive_execute(prim, stream, static_cast<int>(args.size()), args.data());
        if (st == dnnl_success) st = dnnl_stream_wait(stream);
        dnnl_primitive_destroy(prim);
        return st;
    }
    dnnl_engine_t engine = nullptr;
    dnnl_stream_t stream = nullptr;
};

} // namespace c_tensor
