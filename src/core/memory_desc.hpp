// The memory descriptor object behind dnnl_memory_desc_t, and the queries every
// implementation uses to read it (sizes, strides, physical offsets).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/status.hpp"

namespace anydnn {

using dim_t = dnnl_dim_t;
constexpr int max_ndims = DNNL_MAX_NDIMS;

struct blocking_desc_t {
    dnnl_dims_t strides; // outer strides, in elements, one per logical dimension
    int inner_nblks; // number of inner blocks, outermost first
    dnnl_dims_t inner_blks;
    dnnl_dims_t inner_idxs; // logical dimension each inner block splits
};

// Sparse layouts keep their encoding and number of non-zeros.
struct sparse_desc_t {
    dnnl_sparse_encoding_t encoding;
    dim_t nnz;
    dnnl_data_type_t metadata_types[2]; // indices, pointers
};

} // namespace anydnn

// Plain value type: copied into op descriptors and compared field by field.
struct dnnl_memory_desc {
    int ndims;
    dnnl_dims_t dims;
    dnnl_data_type_t data_type;
    dnnl_dims_t padded_dims;
    dnnl_dims_t padded_offsets;
    dnnl_dim_t offset0;
    dnnl_format_kind_t format_kind;
    anydnn::blocking_desc_t blocking; // valid for dnnl_blocked
    anydnn::sparse_desc_t sparse; // valid for dnnl_format_kind_sparse
    // Opaque (packed) layouts are identified by the implementation that chose them.
    uint64_t opaque_id;
    dnnl_dim_t opaque_size;
};

namespace anydnn {

using memory_desc_t = dnnl_memory_desc;

// A zero memory descriptor (ndims 0): "no tensor".
memory_desc_t zero_md();
bool is_zero_md(const memory_desc_t &md);

size_t data_type_size(dnnl_data_type_t dt); // 0 for undef; sub-byte types round up per tensor
bool has_runtime_dims_or_strides(const memory_desc_t &md);
dim_t nelems(const memory_desc_t &md, bool with_padding = false);
size_t size_in_bytes(const memory_desc_t &md); // the buffer size the layout needs
// Bytes from the handle up to the end of the last element a blocked layout addresses (its
// offset included): a submemory's span is its window, tighter than the parent's layout size.
size_t reach_in_bytes(const memory_desc_t &md);
// Handles a memory object of this layout has (dense: 1; CSR: values, indices, pointers...),
// and the bytes of handle `index` (dnnl_memory_desc_get_size_v2).
int num_handles(const memory_desc_t &md);
size_t size_in_bytes(const memory_desc_t &md, int index);
bool is_blocked(const memory_desc_t &md);
bool is_plain(const memory_desc_t &md); // blocked with no inner blocks
// Dense: no gaps between elements (padding aside).
bool is_dense(const memory_desc_t &md, bool with_padding = false);
bool md_equal(const memory_desc_t &a, const memory_desc_t &b);
uint64_t md_hash(const memory_desc_t &md);

// Fills a blocked descriptor from dims, type and a format tag (dnnl_format_tag_any gives
// format_kind any). Returns invalid_arguments for mismatched ndims or a bad tag.
status_t md_init_with_tag(memory_desc_t &md, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t dt, dnnl_format_tag_t tag);
status_t md_init_with_strides(memory_desc_t &md, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t dt, const dnnl_dims_t strides /* nullptr: dense row-major */);

// Physical offset, in elements, of the element at logical position `pos` (ndims entries);
// includes offset0. Works for every blocked layout.
dim_t off_logical(const memory_desc_t &md, const dim_t *pos);
// Same, from a flat row-major logical index over md.dims.
dim_t off_linear(const memory_desc_t &md, dim_t linear_index);

// "f32::blocked:abcd::f0"-style text for verbose output; returns written length.
int md_to_string(const memory_desc_t &md, char *buf, size_t len);
// "2x3x4"-style dims text.
int dims_to_string(const memory_desc_t &md, char *buf, size_t len);

} // namespace anydnn
