// How the dense reduction kernels (reduction/reduction_dense.cl, prelu/prelu_dense.cl) cut a
// tensor seen as [R1, B, R2] (gpu/dense_split.hpp) into work: a work-group per (slice, b)
// striding along rows of R2 (rows mode), or a work-item per (slice, VEC columns) walking down
// R1 rows of B * R2 columns (columns mode, R2 short); slices sized so that about the tuning
// table's reduce_groups work-groups run, their partial results joined by a last kernel.
#pragma once

#include <cstdint>
#include <string>

#include "core/compute/compute.hpp"
#include "gpu/dense_split.hpp"

namespace anydnn {
namespace gpu {

struct dense_reduce_plan_t {
    bool rows = true;
    int vec = 1, unroll = 1;
    size_t local = 0; // rows mode: work-items per group (0: one per (slice, b))
    int64_t A = 1, R1 = 1, B = 1, R2 = 1; // [A, R1, B, R2], A * B positions kept
    int64_t rows1 = 1; // rows of R1 per slice
    int64_t len2 = 1, S2 = 1; // rows mode: R2 cut into S2 pieces of len2
    int64_t S = 1; // slices per kept position
    int64_t K = 1; // partial results per (slice, b): R2 in columns mode, else 1

    // `elem_bytes`: the widest tensor's element; `aligned`: every tensor's offset0 a multiple
    // of 8 elements; `lanes_share_b`: a columns-mode access must not span two kept positions
    // unless R2 == 1 (kernels that load per-position data). False where B == 0.
    bool init(engine_t *engine, const dense_split_t &s, size_t elem_bytes, bool aligned,
            bool lanes_share_b = false);
    // Build options ROWS or COLS, VEC, GROUPS.
    std::string options() const;
    // f32 partial results the scratchpad holds.
    size_t partials() const { return size_t(S * A * B * K); }
    // The first kernel's launch (rows: S * A * B groups; columns: a work-item per VEC columns
    // of each batch and slice) for a kernel allowing `limit` work-items per group.
    nd_range_t range(size_t limit, size_t &local_out) const;
    int64_t col_items() const { return S * A * (B * R2 / vec); }
    // Whether the last kernel joins each dst element's S * K partials with a work-group (many
    // of them) or with one work-item (few: a group each would idle).
    bool join_in_groups(engine_t *engine) const;
    // That kernel's launch over the A * B dst elements, for a kernel allowing `limit` work-items
    // per group.
    nd_range_t join_range(engine_t *engine, size_t limit, size_t &local_out) const;
};

} // namespace gpu
} // namespace anydnn
