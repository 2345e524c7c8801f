// The 4-bit floats written for the reorder tests of both engines (tests/primitives and
// tests/gpu): f4_e2m1 (sign, 2 exponent bits of bias 1, 1 mantissa bit) and f4_e3m0 (sign,
// 3 exponent bits of bias 3) from their bit fields, rounding by trying every code, and the
// cases: src filled, the expected dst of each element, the result checked nibble by nibble.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl_debug.h"
#include "primitives/c_tensor.hpp"
#include "primitives/reorder_nibbles_ref.hpp"

namespace reorder_f4_ref {

inline bool is_f4(dnnl_data_type_t dt) {
    return dt == dnnl_f4_e2m1 || dt == dnnl_f4_e3m0;
}

// The value of a 4-bit code: (-1)^s * 2^(e - bias) * (1 + m / 2^mbits), subnormal at e = 0.
inline double decode(dnnl_data_type_t dt, unsigned code) {
    const int mbits = dt == dnnl_f4_e2m1 ? 1 : 0, bias = dt == dnnl_f4_e2m1 ? 1 : 3;
    const int e = int(code & 7u) >> mbits, m = int(code) & ((1 << mbits) - 1);
    const double mag = e == 0 ? std::ldexp(double(m), 1 - bias - mbits)
                              : std::ldexp(1.0 + std::ldexp(double(m), -mbits), e - bias);
    return (code & 8u) ? -mag : mag;
}

// The code nearest v (a tie to the even code; beyond the largest: the largest), sign kept.
inline unsigned encode(dnnl_data_type_t dt, double v) {
    const unsigned sign = std::signbit(v) ? 8u : 0u;
    if (std::fabs(v) >= decode(dt, 7)) return sign | 7u;
    unsigned best = 0;
    for (unsigned c = 1; c < 8; ++c) {
        const double dc = std::fabs(decode(dt, c) - std::fabs(v));
        const double db = std::fabs(decode(dt, best) - std::fabs(v));
        if (dc < db || (dc == db && c % 2 == 0)) best = c;
    }
    return sign | best;
}

inline double round_to(dnnl_data_type_t dt, double v) {
    return decode(dt, encode(dt, v));
}

using reorder_nibbles_ref::get_nibble;
using reorder_nibbles_ref::set_nibble;

// One reorder problem: dims, the two sides, and the scales it carries (mask 0 or 2, the
// channel's scale 0.5 + c % 3 * 0.25).
struct case_t {
    std::vector<int64_t> dims;
    dnnl_data_type_t sdt, ddt;
    dnnl_format_tag_t stag, dtag;
    int src_scale_mask = -1, dst_scale_mask = -1; // -1: none
    std::string name() const {
        return std::string(dnnl_dt2str(sdt)) + "->" + dnnl_dt2str(ddt) + " "
                + dnnl_fmt_tag2str(stag) + "->" + dnnl_fmt_tag2str(dtag) + " scales "
                + std::to_string(src_scale_mask) + "/" + std::to_string(dst_scale_mask);
    }
};

inline float scale_of(int mask, const int64_t *pos) {
    if (mask < 0) return 1.f;
    return mask == 0 ? 1.5f : 0.5f + float(pos[1] % 3) * 0.25f;
}

inline int64_t scale_count(int mask, const std::vector<int64_t> &dims) {
    return mask == 2 ? dims[1] : 1;
}

// The attributes of c (null without scales).
inline dnnl_primitive_attr_t make_attr(const case_t &c) {
    if (c.src_scale_mask < 0 && c.dst_scale_mask < 0) return nullptr;
    dnnl_primitive_attr_t attr = nullptr;
    EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    if (c.src_scale_mask >= 0) {
        EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, c.src_scale_mask),
                dnnl_success);
    }
    if (c.dst_scale_mask >= 0) {
        EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_DST, c.dst_scale_mask),
                dnnl_success);
    }
    return attr;
}

// The scales array of one mask (f32 host values, one per channel or one).
inline std::vector<float> scales_of(int mask, const std::vector<int64_t> &dims) {
    std::vector<float> s(static_cast<size_t>(scale_count(mask, dims)));
    for (size_t i = 0; i < s.size(); ++i) {
        int64_t pos[DNNL_MAX_NDIMS] = {0, int64_t(i)};
        s[i] = scale_of(mask, pos);
    }
    return s;
}

// src's value at element i of the logical order: every f4 code in turn (including -0),
// every s4/u4 value, or for other types quarter steps over [-20, 20] that hit ties and
// saturate.
inline double src_value(dnnl_data_type_t sdt, int64_t i) {
    if (is_f4(sdt)) return decode(sdt, unsigned(i * 7 % 16));
    if (sdt == dnnl_s4 || sdt == dnnl_u4) return double(i * 7 % 16 - (sdt == dnnl_s4 ? 8 : 0));
    return double((i * 37) % 161 - 80) / 4.0;
}

// Writes src (its padding left as the tensor was made) and dst's bytes as 0xff.
inline void fill(const case_t &c, c_tensor::tensor_t &src, c_tensor::tensor_t &dst) {
    std::memset(dst.data(), 0xff, dnnl_memory_desc_get_size(dst.md));
    int64_t pos[DNNL_MAX_NDIMS] = {};
    int64_t i = 0;
    if (src.lay.nelems() == 0) return;
    do {
        const double v = src_value(c.sdt, i++);
        if (is_f4(c.sdt))
            set_nibble(src, pos, encode(c.sdt, v));
        else
            src.set(pos, float(v));
    } while (c_tensor::next_pos(pos, src.lay.dims, src.lay.ndims));
}

// Every element of dst against src's value times its scale, divided by dst's, rounded to
// dst's type; f4 padding of dst must read zero.
inline void check(const case_t &c, const c_tensor::tensor_t &dst) {
    const bool int4 = c.ddt == dnnl_s4 || c.ddt == dnnl_u4;
    reorder_nibbles_ref::check_elements(
            dst, is_f4(c.ddt) || int4, c.name(), [&](int64_t i, const int64_t *pos) {
                const double x = src_value(c.sdt, i);
                // The library computes in f32: the scaled value as f32 before rounding to dst.
                const float f = float(x) * scale_of(c.src_scale_mask, pos)
                        / scale_of(c.dst_scale_mask, pos);
                double want = f, got = 0;
                if (is_f4(c.ddt)) {
                    want = round_to(c.ddt, f);
                    got = decode(c.ddt, get_nibble(dst, pos));
                } else if (int4) {
                    got = dst.get(pos);
                    const double lo = c.ddt == dnnl_s4 ? -8 : 0;
                    want = std::nearbyint(std::min(lo + 15, std::max(lo, double(f))));
                } else {
                    got = dst.get(pos);
                    if (c.ddt == dnnl_bf16) want = c_tensor::from_bf16(c_tensor::to_bf16(f));
                    if (c.ddt == dnnl_f16) want = c_tensor::from_f16(c_tensor::to_f16(f));
                }
                ASSERT_EQ(got, want) << c.name() << " element " << i << " of value " << x;
            });
}

// The cases both engines run: each f4 type to and from f32, bf16 and f16, plain and
// permuted, channel-blocked with a tail (padding), odd sizes (a half-used last byte), one
// element, scales common and per channel on either side, and f4 to f4 across layouts.
inline std::vector<case_t> cases() {
    std::vector<case_t> v;
    for (auto f4 : {dnnl_f4_e2m1, dnnl_f4_e3m0}) {
        for (auto other : {dnnl_f32, dnnl_bf16, dnnl_f16}) {
            v.push_back({{2, 3, 5, 7}, other, f4, dnnl_abcd, dnnl_abcd});
            v.push_back({{2, 3, 5, 7}, f4, other, dnnl_abcd, dnnl_abcd});
            v.push_back({{3, 5, 2, 3}, other, f4, dnnl_acdb, dnnl_abcd});
            v.push_back({{3, 5, 2, 3}, f4, other, dnnl_abcd, dnnl_acdb});
        }
        v.push_back({{2, 20, 3, 3}, dnnl_f32, f4, dnnl_abcd, dnnl_aBcd16b});
        v.push_back({{2, 20, 3, 3}, f4, dnnl_f32, dnnl_aBcd16b, dnnl_acdb});
        v.push_back({{1, 1, 1, 1}, dnnl_f32, f4, dnnl_abcd, dnnl_abcd});
        v.push_back({{2, 4, 3, 5}, dnnl_f32, f4, dnnl_abcd, dnnl_acdb, 0, 2});
        v.push_back({{2, 4, 3, 5}, dnnl_f32, f4, dnnl_acdb, dnnl_abcd, 2, -1});
        v.push_back({{2, 4, 3, 5}, f4, dnnl_f32, dnnl_abcd, dnnl_abcd, 2, 0});
        v.push_back({{2, 5, 3, 3}, f4, f4, dnnl_abcd, dnnl_aBcd16b});
        v.push_back({{2, 5, 3, 3}, f4, f4, dnnl_acdb, dnnl_abcd});
    }
    v.push_back({{3, 4, 2, 2}, dnnl_f4_e2m1, dnnl_f4_e3m0, dnnl_abcd, dnnl_acdb});
    return v;
}

// Fewer cases, each kind of kernel and layout once per type (GPU programs build per case).
inline std::vector<case_t> short_cases() {
    std::vector<case_t> v;
    for (auto f4 : {dnnl_f4_e2m1, dnnl_f4_e3m0}) {
        v.push_back({{2, 3, 5, 7}, dnnl_f32, f4, dnnl_abcd, dnnl_abcd});
        v.push_back({{3, 5, 2, 3}, f4, dnnl_f16, dnnl_abcd, dnnl_acdb});
        v.push_back({{2, 20, 3, 3}, dnnl_bf16, f4, dnnl_abcd, dnnl_aBcd16b});
        v.push_back({{2, 20, 3, 3}, f4, dnnl_f32, dnnl_aBcd16b, dnnl_acdb});
        v.push_back({{2, 4, 3, 5}, dnnl_f32, f4, dnnl_acdb, dnnl_abcd, 2, 0});
        v.push_back({{2, 5, 3, 3}, f4, f4, dnnl_acdb, dnnl_aBcd16b});
    }
    return v;
}

} // namespace reorder_f4_ref
