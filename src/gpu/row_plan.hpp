// The shape of a rows-in-registers kernel (cl/row_segments.h): how many work-items share a
// row (T), how many element groups of VEC each keeps (NREG), how many work-items a group holds.
#pragma once

#include <string>

#include "core/compute/compute.hpp"

namespace anydnn {
namespace gpu {

struct row_plan_t {
    int vec = 1, t = 1, nreg = 1;
    size_t group = 1; // work-items per group: group / t rows each
    bool streamed = false; // the row is read in passes, not kept (nreg unused)

    // Build options VEC, T, NREG or STREAMED.
    std::string options() const;
    // The launch for `rows` rows and the kernel's limit on work-items per group; a kernel
    // whose registers allow fewer than planned gets one row per group (false: not even that).
    bool range(size_t rows, size_t kernel_limit, nd_range_t &r, size_t &local) const;
};

// False where the engine's tuning keeps rows to one work-item each, or the row (C elements,
// `aligned`: every tensor's row starts on a multiple of 4 elements) is too wide for registers
// (`backward`: kernels keeping five arrays per work-item, half the elements). `max_vec` 8:
// groups of eight where C is a multiple of 8 (the caller's tensors start on one).
bool plan_rows(engine_t *engine, int64_t C, bool aligned, row_plan_t &plan, bool backward = false,
        int max_vec = 4);

// Rows too wide for registers, read in passes by as many work-items per row as a group takes
// (false where the engine's tuning keeps rows to one work-item each).
bool plan_streamed_rows(engine_t *engine, int64_t C, bool aligned, row_plan_t &plan);

} // namespace gpu
} // namespace anydnn
