#include "core/ops/eltwise/layout.hpp"

#include <utility>

namespace anydnn {
namespace cpu {
namespace eltwise {

dim_t dense_span(const memory_desc_t &md) {
    if (md.format_kind != dnnl_blocked) return -1;
    dim_t blk[max_ndims];
    for (int d = 0; d < md.ndims; ++d)
        blk[d] = 1;
    dim_t expected = 1;
    for (int k = 0; k < md.blocking.inner_nblks; ++k) {
        blk[md.blocking.inner_idxs[k]] *= md.blocking.inner_blks[k];
        expected *= md.blocking.inner_blks[k];
    }
    int order[max_ndims];
    int n = 0;
    for (int d = 0; d < md.ndims; ++d) {
        if (md.padded_dims[d] == 0) return 0;
        if (md.padded_dims[d] / blk[d] > 1) order[n++] = d; // extent-one dims: any stride
    }
    // Insertion sort by stride: at most DNNL_MAX_NDIMS entries.
    for (int i = 1; i < n; ++i)
        for (int j = i; j > 0 && md.blocking.strides[order[j]] < md.blocking.strides[order[j - 1]];
                --j)
            std::swap(order[j], order[j - 1]);
    for (int i = 0; i < n; ++i) {
        const int d = order[i];
        if (md.blocking.strides[d] != expected) return -1;
        expected *= md.padded_dims[d] / blk[d];
    }
    return expected;
}

bool has_padding(const memory_desc_t &md) {
    for (int d = 0; d < md.ndims; ++d)
        if (md.padded_dims[d] != md.dims[d]) return true;
    return false;
}

void resolve_any(memory_desc_t &md, const memory_desc_t &like) {
    if (md.format_kind != dnnl_format_kind_any) return;
    md = md_like(like, like.ndims, like.dims, md.data_type);
}

} // namespace eltwise
} // namespace cpu
} // namespace anydnn
