// The packed weights layout the low-precision GEMMs read in place: oneDNN's BA16a64b2a (bf16)
// and BA16a64b4a (int8) for K x N, aCB16b64c2b / aCB16b64c4b with a batch dimension.
#include "cpu/ukernels/gemm_lowp.hpp"

namespace anydnn {
namespace cpu {
namespace ukernels {

status_t lowp_packed_weights_md(memory_desc_t &md, int ndims, const dim_t *dims,
        dnnl_data_type_t dt) {
    const bool pairs = dt == dnnl_bf16;
    ANYDNN_REQUIRE(pairs || dt == dnnl_s8 || dt == dnnl_u8, dnnl_unimplemented,
            "no packed weights layout for %s", dnnl_dt2str(dt));
    ANYDNN_REQUIRE(ndims == 2 || ndims == 3, dnnl_unimplemented,
            "packed weights take 2 or 3 dimensions (got %d)", ndims);
    const dnnl_format_tag_t tag = ndims == 2 ? (pairs ? dnnl_BA16a64b2a : dnnl_BA16a64b4a)
                                             : (pairs ? dnnl_aCB16b64c2b : dnnl_aCB16b64c4b);
    dnnl_dims_t d = {};
    for (int i = 0; i < ndims; ++i)
        d[i] = dims[i];
    return md_init_with_tag(md, ndims, d, dt, tag);
}

dim_t lowp_panel_stride(const memory_desc_t &packed_md) {
    // One panel: K padded to the 16-row block, times 64 columns.
    return packed_md.padded_dims[packed_md.ndims - 2] * lowp_panel_cols;
}

} // namespace ukernels
} // namespace cpu
} // namespace anydnn
