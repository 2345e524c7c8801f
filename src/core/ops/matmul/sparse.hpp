// Sparse matmul rules every engine shares: which operand is sparse (CSR or COO, s32 metadata),
// the combinations taken, and the host check of an operand's metadata before it is used.
#pragma once

#include <map>

#include "core/op_desc.hpp"
#include "core/primitive_attr.hpp"

namespace anydnn {
namespace matmul_sparse {

bool is_sparse(const memory_desc_t &md);

// A 2D matmul dst(M, N) = src(M, K) x weights(K, N) whose src or weights (one of them) is
// CSR or COO encoded; the other operand and dst are dense and plain.
struct conf_t {
    bool src_sparse = false; // else the weights are
    dnnl_sparse_encoding_t encoding = dnnl_sparse_encoding_undef;
    dim_t M = 0, N = 0, K = 0;
    dim_t nnz = 0;
    dnnl_data_type_t dt = dnnl_f32; // values of both operands
    dnnl_data_type_t dst_dt = dnnl_f32;
    // Sparse operand's rows and columns (src: M x K, weights: K x N).
    dim_t rows() const { return src_sparse ? M : K; }
    dim_t cols() const { return src_sparse ? K : N; }
};

// Checks the descriptor and attributes (what oneDNN documents: f32 or f16 values, with bf16
// as well here; s32 metadata; no bias, no attributes; `any` resolves to row-major) and fills
// args with the resolved descriptors. dnnl_unimplemented with a reason otherwise.
status_t init_conf(const matmul_desc_t &d, const primitive_attr_t &attr, conf_t &conf,
        std::map<int, memory_desc_t> &args);

// Whether the sparse operand's metadata describes a matrix of conf's shape: CSR pointers
// start at 0, never decrease and end at nnz; every index lies inside the matrix.
// dnnl_invalid_arguments with the first offending entry otherwise. `meta` are the host
// pointers of handles 1.. of the sparse memory.
status_t check_metadata(const conf_t &conf, const int32_t *const meta[2]);

} // namespace matmul_sparse
} // namespace anydnn
