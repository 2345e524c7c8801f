// The f32 weights layout the shared GEMM reads as packed B in place: oneDNN's BA16a32b for
// K x N (32-column panels, K padded to 16), aCB16b32c with a leading batch dimension.
#include "cpu/ukernels/gemm.hpp"

namespace anydnn {
namespace cpu {
namespace ukernels {

status_t gemm_packed_b_md(memory_desc_t &md, int ndims, const dim_t *dims, dnnl_data_type_t dt) {
    ANYDNN_REQUIRE(
            dt == dnnl_f32, dnnl_unimplemented, "no packed f32 layout for %s", dnnl_dt2str(dt));
    ANYDNN_REQUIRE(ndims == 2 || ndims == 3, dnnl_unimplemented,
            "packed weights take 2 or 3 dimensions (got %d)", ndims);
    dnnl_dims_t d = {};
    for (int i = 0; i < ndims; ++i)
        d[i] = dims[i];
    return md_init_with_tag(md, ndims, d, dt, ndims == 2 ? dnnl_BA16a32b : dnnl_aCB16b32c);
}

dim_t gemm_packed_b_panel_stride(const memory_desc_t &packed_md) {
    return packed_md.padded_dims[packed_md.ndims - 2] * 32;
}

} // namespace ukernels
} // namespace cpu
} // namespace anydnn
