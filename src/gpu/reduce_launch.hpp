// Launch shapes of the reduction-shaped kernels: one work-group per row (channel, group of
// channels, output element) whose work-items stride over the row and reduce in local memory.
#pragma once

#include <algorithm>
#include <cstdlib>

#include "core/compute/compute.hpp"
#include "gpu/tuning/op_tuning.hpp"

namespace anydnn {
namespace gpu {

// Whether row kernels reduce a row with a work-group (local-memory trees) or with one
// work-item: CPU devices take the latter (PoCL compiles barrier loops very slowly and runs
// one work-item per row as well as a group).
// ANYDNN_OCL_GROUP_REDUCE=1 forces work-groups on CPU devices too (to test that path).
inline bool group_reduce(engine_t *engine) {
    static const bool forced = [] {
        const char *v = std::getenv("ANYDNN_OCL_GROUP_REDUCE");
        return v && v[0] == '1';
    }();
    return forced || op_tuning(engine_caps(engine)).reduce_in_groups;
}

// Build options that select the kernels' row reduction.
inline std::string row_options(engine_t *engine) {
    return group_reduce(engine) ? " -DGROUP_REDUCE" : "";
}

// The power-of-two work-group size of a row kernel (0: one work-item per row): one per
// kernel and device, whatever the row length, because some runtimes compile a kernel again
// for each new local size.
inline size_t row_group_size(const kernel_t &kernel, engine_t *engine) {
    if (!group_reduce(engine)) return 0;
    const size_t limit = std::min(kernel.max_work_group_size(), size_t(256));
    size_t l = 1;
    while (l * 2 <= limit)
        l *= 2;
    return l;
}

// Whether `md` is plain row-major and dense (rows along the last dim follow each other).
inline bool row_major_dense(const memory_desc_t &md) {
    if (md.format_kind != dnnl_blocked || md.blocking.inner_nblks != 0) return false;
    int64_t stride = 1;
    for (int d = md.ndims - 1; d >= 0; --d) {
        if (md.dims[d] != 1 && md.blocking.strides[d] != stride) return false;
        stride *= md.dims[d];
    }
    return true;
}

// One row per work-group of `local` work-items, or per work-item when local is 0.
inline nd_range_t rows_range(size_t rows, size_t local) {
    nd_range_t r;
    r.ndims = 1;
    r.global[0] = rows * (local ? local : 1);
    r.local[0] = local;
    return r;
}

// The local buffer the row kernels take (one float per work-item).
inline void add_row_buffer(kernel_args_t &args, size_t local) {
    args.add_local((local ? local : 1) * sizeof(float));
}

} // namespace gpu
} // namespace anydnn
