// The reorder between a plain layout and its channel-blocked form (nchw <-> nChw16c): when it
// applies, its kernel's build options and its launch (reorder/blocked.cl).
#pragma once

#include <string>

#include "core/compute/compute.hpp"

namespace anydnn {
namespace gpu {
namespace reorder {

struct blocked_shape_t {
    bool to_blocked = true; // plain src, blocked dst
    bool regs = false; // the f32 CPU kernel, else the local-memory one
    bool stream_stores = false; // regs: dst's rows bypass the caches
    int block = 0;
    int64_t plain_off = 0, blocked_off = 0, plain_n_stride = 0, blocked_n_stride = 0;
    int64_t blocked_cb_stride = 0, channels = 0, sp = 0, n = 0, nblocks = 0;
};

// Whether src -> dst is such a pair (any ranks >= 3, blocks of 2 to 16 channels, channel
// padding on the blocked side) that the device runs well; fills `shape` when it is.
bool blocked_shape(engine_t *engine, const memory_desc_t &src, const memory_desc_t &dst,
        blocked_shape_t &shape);

std::string blocked_options(const blocked_shape_t &shape);
const char *blocked_kernel_name(const blocked_shape_t &shape);
// Adds the shape's arguments after src and dst and returns the launch range.
nd_range_t blocked_args(engine_t *engine, const blocked_shape_t &shape, kernel_args_t &args);

} // namespace reorder
} // namespace gpu
} // namespace anydnn
