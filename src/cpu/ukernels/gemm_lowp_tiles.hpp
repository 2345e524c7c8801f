// The tile microkernels of the low-precision GEMMs, for callers that drive them directly
// (the brgemm ukernel): one call computes rows x 64 columns of C from one B panel.
// B panel: `group` consecutive k of a column side by side (2 for bf16, 4 for int8), the
// groups b_pitch elements apart (lowp_panel_cols * group in the GEMMs' own panels).
#pragma once

#include <cstdint>

#include "core/memory_desc.hpp"

namespace anydnn {
namespace cpu {
namespace ukernels {

struct bf16_tile_t {
    const uint16_t *a; // row 0 of the tile: pairs of k contiguous
    dim_t lda;
    const uint16_t *b; // one packed panel
    dim_t groups; // pairs of k
    void *out;
    dim_t ldo;
    bool out_bf16;
    int nvalid; // columns to store
    dim_t b_pitch = 128; // elements from one pair of B rows to the next
    bool accumulate = false; // f32 out: add to what out holds instead of overwriting it
    int b_cols = 64; // partial-B kernels read only this many columns of B
};
using bf16_tile_fn = void (*)(const bf16_tile_t &);
// fn[rows] for rows 1..6; partial_b: the kernels that honour b_cols.
const bf16_tile_fn *bf16_tiles(bool partial_b);

struct int8_tile_t {
    const uint8_t *a; // row 0 of the tile: quads of k contiguous
    dim_t lda;
    const uint8_t *b; // one packed panel
    dim_t groups; // quads of k
    int32_t *out;
    dim_t ldo;
    int nvalid; // columns to store
    const int32_t *col_comp; // 64 values added to every row, or null
    const int32_t *row_comp; // one value per row, or null
    dim_t b_pitch = 256; // bytes from one quad of B rows to the next
    bool accumulate = false; // add to what out holds instead of overwriting it
    int b_cols = 64; // partial-B kernels read only this many columns of B
};
using int8_tile_fn = void (*)(const int8_tile_t &);
// fn[rows] for rows 1..6. a_unsigned: A is the u8 side of vpdpbusd (else B is). flip_a: A's
// bytes are read with their top bit flipped (s8 a as u8 a + 128, u8 a as s8 a - 128).
const int8_tile_fn *int8_tiles(bool a_unsigned, bool partial_b, bool flip_a = false);
// sums[j] = sum over k of column j of a packed int8 panel (64 columns, b_cols of them read,
// groups of 4 k b_pitch bytes apart), B read as u8 or s8.
void int8_panel_col_sums(const uint8_t *b, dim_t groups, dim_t b_pitch, int b_cols,
        bool b_unsigned, int32_t *sums);

// Rows of one tile call.
constexpr int lowp_tile_rows = 6;

} // namespace ukernels
} // namespace cpu
} // namespace anydnn
