// Checks and transformations of memory descriptors behind the dnnl_memory_desc_* entry
// points: argument validation, sparse and scalar descriptors, submemory, reshape,
// permutation and the binary blob. All return a status with a reason on failure.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/status.hpp"

#include "core/memory_desc.hpp"

namespace anydnn {

// Fills blocks[d] with the product of the inner blocks of dimension d (1 when not
// blocked) and returns the product of all inner blocks.
dim_t inner_blocks_per_dim(const memory_desc_t &md, dim_t blocks[max_ndims]);

// A data type that can describe tensor elements (not undef, not out of the enum).
bool is_valid_data_type(dnnl_data_type_t dt);

// ndims in [1, DNNL_MAX_NDIMS], dims present, each non-negative or DNNL_RUNTIME_DIM_VAL,
// a valid data type, and a tensor whose bytes fit in 64 bits.
status_t check_md_shape(int ndims, const dnnl_dims_t dims, dnnl_data_type_t dt);
// The padded tensor's bytes fit in 64 bits.
status_t check_md_volume(const memory_desc_t &md);
// Blocked strides that make no two elements share a location, with a span that fits.
status_t check_md_strides(const memory_desc_t &md);
// Every field consistent: used on descriptors from blobs and before deriving new ones.
status_t check_md_consistent(const memory_desc_t &md);

status_t md_init_csr(memory_desc_t &md, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t dt, dim_t nnz, dnnl_data_type_t indices_dt,
        dnnl_data_type_t pointers_dt);
status_t md_init_coo(memory_desc_t &md, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t dt, dim_t nnz, dnnl_data_type_t indices_dt);
status_t md_init_packed(memory_desc_t &md, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t dt, dim_t nnz);
status_t md_init_host_scalar(memory_desc_t &md, dnnl_data_type_t dt);

// A view of the region [offsets, offsets + dims) of a blocked parent: same strides,
// offset0 moved to the region's first element. Blocked dimensions must be cut on block
// boundaries (the last block may be a tail reaching the parent's end).
status_t md_init_submemory(memory_desc_t &md, const memory_desc_t &parent,
        const dnnl_dims_t dims, const dnnl_dims_t offsets);
// Same memory seen with other dims, where that needs no data movement: adding or removing
// extent-one dimensions, splitting unpadded dimensions, joining dense unblocked runs.
status_t md_reshape(memory_desc_t &out, const memory_desc_t &in, int ndims,
        const dnnl_dims_t dims);
// Logical axis d of `in` becomes axis perm[d] of `out`; the memory stays where it is.
status_t md_permute_axes(memory_desc_t &out, const memory_desc_t &in, const int *perm);

// The binary form of a descriptor: a fixed-size, versioned and checksummed record.
size_t md_blob_size();
void md_to_blob(const memory_desc_t &md, uint8_t *blob);
status_t md_from_blob(memory_desc_t &md, const uint8_t *blob);

} // namespace anydnn
