// What the 4-bit reorder tests (s4/u4 and f4, both engines) share: nibble access on a host
// tensor (two elements a byte, the even one in the low half) and the walk that checks dst
// element by element in logical order, then its padding nibbles.
#pragma once

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "primitives/c_tensor.hpp"

namespace reorder_nibbles_ref {

inline unsigned get_nibble(const c_tensor::tensor_t &t, const int64_t *pos) {
    const int64_t off = t.lay.offset(pos);
    const uint8_t b = static_cast<const uint8_t *>(t.data())[off / 2];
    return off % 2 ? b >> 4 : b & 0xfu;
}

inline void set_nibble(c_tensor::tensor_t &t, const int64_t *pos, unsigned v) {
    const int64_t off = t.lay.offset(pos);
    uint8_t &b = static_cast<uint8_t *>(t.data())[off / 2];
    b = static_cast<uint8_t>(off % 2 ? (b & 0x0fu) | (v << 4) : (b & 0xf0u) | v);
}

// check(i, pos) for every element of dst, i counting them in logical order (src was filled in
// the same order), stopping at the first fatal failure; then, for a 4-bit dst, every nibble
// of its padding must read zero.
template <typename Check>
void check_elements(const c_tensor::tensor_t &dst, bool four_bit_dst, const std::string &what,
        Check check) {
    int64_t pos[DNNL_MAX_NDIMS] = {};
    int64_t i = 0;
    do {
        check(i++, static_cast<const int64_t *>(pos));
        if (::testing::Test::HasFatalFailure()) return;
    } while (c_tensor::next_pos(pos, dst.lay.dims, dst.lay.ndims));
    if (!four_bit_dst) return;
    int64_t ppos[DNNL_MAX_NDIMS] = {};
    do {
        bool pad = false;
        for (int d = 0; d < dst.lay.ndims; ++d)
            pad = pad || ppos[d] >= dst.lay.dims[d];
        if (pad) ASSERT_EQ(get_nibble(dst, ppos), 0u) << what << " padding";
    } while (c_tensor::next_pos(ppos, dst.lay.padded, dst.lay.ndims));
}

} // namespace reorder_nibbles_ref
