#include "cpu/pooling/channel_vectors.hpp"

namespace anydnn {
namespace cpu {
namespace pooling {

bool cv_layout(const memory_desc_t &md, cv_layout_t &l) {
    if (md.format_kind != dnnl_blocked || has_runtime_dims_or_strides(md)) return false;
    const auto &b = md.blocking;
    const int nd = md.ndims;
    if (b.inner_nblks == 1 && b.inner_idxs[0] == 1 && b.inner_blks[0] == 16) {
        l.blk = 16;
    } else if (b.inner_nblks == 0 && b.strides[1] == 1) {
        l.blk = 1;
    } else {
        return false;
    }
    // Only the channel block is inner: no other dim may have stride 1 inside it.
    for (int d = 0; d < nd; ++d)
        if (d != 1 && md.dims[d] > 1 && b.strides[d] < (l.blk == 16 ? 16 : md.dims[1]))
            return false;
    l.off0 = md.offset0;
    l.sn = b.strides[0];
    l.sc = b.strides[1];
    const dim_t sp[3] = {nd >= 5 ? b.strides[nd - 3] : 0, nd >= 4 ? b.strides[nd - 2] : 0,
            b.strides[nd - 1]};
    l.sz = sp[0];
    l.sy = sp[1];
    l.sx = sp[2];
    return true;
}

} // namespace pooling
} // namespace cpu
} // namespace anydnn
