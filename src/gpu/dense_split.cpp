#include "gpu/dense_split.hpp"

#include <algorithm>

namespace anydnn {
namespace gpu {

bool split_dense(const memory_desc_t &md, const bool *keep, dense_split_t &s) {
    s = dense_split_t();
    if (md.format_kind != dnnl_blocked || md.blocking.inner_nblks != 0) return false;
    int order[DNNL_MAX_NDIMS], n = 0;
    for (int d = 0; d < md.ndims; ++d) {
        if (md.padded_dims[d] != md.dims[d]) return false;
        if (md.dims[d] == 0) return false; // empty tensors take the generic kernel
        if (md.dims[d] != 1) order[n++] = d;
    }
    // Outermost first; a stride tie (only between size-1 dims, skipped) keeps dim order.
    std::stable_sort(order, order + n, [&](int a, int b) {
        return md.blocking.strides[a] > md.blocking.strides[b];
    });
    int64_t stride = 1;
    for (int i = n - 1; i >= 0; --i) {
        if (md.blocking.strides[order[i]] != stride) return false;
        stride *= md.dims[order[i]];
    }
    // From the innermost: inner dims (not kept), kept ones, outer ones (not kept), batch
    // ones (kept).
    int part = 0;
    int64_t kstride = 1;
    for (int i = n - 1; i >= 0; --i) {
        const int d = order[i];
        const bool k = keep[d];
        if (part == 0 && k) part = 1;
        if (part == 1 && !k) part = 2;
        if (part == 2 && k) part = 3;
        if (part == 3 && !k) return false;
        if (k) {
            s.kept_stride[d] = kstride;
            kstride *= md.dims[d];
        }
        if (part == 0) s.inner *= md.dims[d];
        if (part == 1) s.kept *= md.dims[d];
        if (part == 2) s.outer *= md.dims[d];
        if (part == 3) s.batch *= md.dims[d];
    }
    return true;
}

void add_kept_strides(kernel_args_t &args, const dense_split_t &s) {
    int64_t v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int d = 0; d < DNNL_MAX_NDIMS && d < 8; ++d)
        v[d] = s.kept_stride[d];
    args.add_value(v);
}

} // namespace gpu
} // namespace anydnn
