// The packed sparse layout (dnnl_packed): our own storage for weights with unstructured
// sparsity. A descriptor the user makes with the packed encoding is a request, like format
// `any` (its metadata types are undef, it has no buffers); a primitive resolves it into this
// layout (metadata types s64, s64), which memories are made of:
//   rows = the product of every dimension but the last, cols = the last one; each row is cut
//   into chunks of 64 columns (the last chunk of a row may be shorter);
//   handle 0: the non-zero values, row by row and chunk by chunk in column order (at most
//             nnz of them; nnz is the capacity the descriptor was made with);
//   handle 1: one s64 per chunk, the index in handle 0 of the chunk's first value;
//   handle 2: one 64-bit mask per chunk, bit j set where column 64 * chunk + j holds a value.
#pragma once

#include <cstdint>

#include "core/memory_desc.hpp"

namespace anydnn {
namespace sparse_packed {

constexpr dim_t chunk_cols = 64;

bool is_packed(const memory_desc_t &md); // request or resolved
bool is_request(const memory_desc_t &md);
bool is_resolved(const memory_desc_t &md);

// The resolved layout of a request (or of a resolved descriptor: itself).
memory_desc_t resolve(const memory_desc_t &md);

struct geometry_t {
    dim_t rows = 0, cols = 0, chunks_per_row = 0;
    dim_t chunks() const { return rows * chunks_per_row; }
};
geometry_t geometry(const memory_desc_t &md);

// Bytes of handle `index` of a resolved descriptor (0 for a request: it has no buffers).
size_t handle_bytes(const memory_desc_t &md, int index);

// Whether a packed memory's metadata is consistent: each chunk's offset is the previous one
// plus the bits of the previous mask, starting at 0 and ending at or below nnz; no bit past
// the last column. dnnl_invalid_arguments with the first offending chunk otherwise: the
// kernels then never read outside the buffers. `count` gets the number of values marked.
status_t check_metadata(const memory_desc_t &md, const int64_t *offsets, const uint64_t *masks,
        dim_t &count);

} // namespace sparse_packed
} // namespace anydnn
