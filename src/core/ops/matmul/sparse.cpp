#include "core/ops/matmul/sparse.hpp"

#include "oneapi/dnnl/dnnl_debug.h"

#include "core/primitive_attr.hpp"

namespace anydnn {
namespace matmul_sparse {

namespace {

long long ll(dim_t v) {
    return static_cast<long long>(v);
}

bool is_value_type(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_f16 || dt == dnnl_bf16;
}

// `any` becomes row-major; otherwise a plain 2D layout (strides of any order) is taken.
status_t resolve_dense(memory_desc_t &md, const char *name) {
    if (md.format_kind == dnnl_format_kind_any)
        return md_init_with_strides(md, md.ndims, md.dims, md.data_type, nullptr);
    ANYDNN_REQUIRE(is_plain(md) && !has_runtime_dims_or_strides(md), dnnl_unimplemented,
            "sparse matmul: %s must be a plain dense layout with fixed dimensions", name);
    return dnnl_success;
}

} // namespace

bool is_sparse(const memory_desc_t &md) {
    return md.format_kind == dnnl_format_kind_sparse;
}

status_t init_conf(const matmul_desc_t &d, const primitive_attr_t &attr, conf_t &conf,
        std::map<int, memory_desc_t> &args) {
    memory_desc_t src = d.src_md, wei = d.weights_md, dst = d.dst_md;
    const bool ss = is_sparse(src), ws = is_sparse(wei);
    ANYDNN_REQUIRE(ss || ws, dnnl_unimplemented, "neither src nor weights is sparse");
    ANYDNN_REQUIRE(!(ss && ws), dnnl_unimplemented,
            "sparse matmul: only one of src and weights may be sparse");
    ANYDNN_REQUIRE(!is_sparse(dst), dnnl_unimplemented, "sparse matmul: dst must be dense");
    const memory_desc_t &sp = ss ? src : wei;
    ANYDNN_REQUIRE(sp.sparse.encoding == dnnl_csr || sp.sparse.encoding == dnnl_coo,
            dnnl_unimplemented, "sparse matmul: the %s encoding is not taken here (CSR and "
            "COO are; packed weights have their own CPU implementation)",
            dnnl_sparse_encoding2str(sp.sparse.encoding));
    ANYDNN_REQUIRE(dst.ndims == 2, dnnl_unimplemented,
            "sparse matmul takes 2D tensors only (got %d dimensions)", dst.ndims);
    ANYDNN_REQUIRE(sp.sparse.metadata_types[0] == dnnl_s32
                    && (sp.sparse.encoding == dnnl_coo
                            || sp.sparse.metadata_types[1] == dnnl_s32),
            dnnl_unimplemented, "sparse matmul: indices and pointers must be s32 (got %s/%s)",
            dnnl_dt2str(sp.sparse.metadata_types[0]), dnnl_dt2str(sp.sparse.metadata_types[1]));
    ANYDNN_REQUIRE(is_value_type(src.data_type) && src.data_type == wei.data_type,
            dnnl_unimplemented,
            "sparse matmul: src and weights must both be f32, f16 or bf16 (got %s/%s)",
            dnnl_dt2str(src.data_type), dnnl_dt2str(wei.data_type));
    ANYDNN_REQUIRE(dst.data_type == src.data_type || dst.data_type == dnnl_f32,
            dnnl_unimplemented, "sparse matmul: dst must be %s or f32 (got %s)",
            dnnl_dt2str(src.data_type), dnnl_dt2str(dst.data_type));
    ANYDNN_REQUIRE(is_zero_md(d.bias_md), dnnl_unimplemented, "sparse matmul takes no bias");
    ANYDNN_REQUIRE(attr.has_default_values(attr_skip::scratchpad | attr_skip::deterministic),
            dnnl_unimplemented, "sparse matmul takes no scales, zero points or post-ops");
    if (!ss) ANYDNN_CHECK(resolve_dense(src, "src"));
    if (!ws) ANYDNN_CHECK(resolve_dense(wei, "weights"));
    ANYDNN_CHECK(resolve_dense(dst, "dst"));
    ANYDNN_REQUIRE(dst.blocking.strides[1] == 1 || dst.dims[1] <= 1, dnnl_unimplemented,
            "sparse matmul: dst rows must be contiguous (ab)");

    conf.src_sparse = ss;
    conf.encoding = sp.sparse.encoding;
    conf.M = dst.dims[0];
    conf.N = dst.dims[1];
    conf.K = src.dims[1];
    conf.nnz = sp.sparse.nnz;
    conf.dt = src.data_type;
    conf.dst_dt = dst.data_type;
    args[DNNL_ARG_SRC] = src;
    args[DNNL_ARG_WEIGHTS] = wei;
    args[DNNL_ARG_DST] = dst;
    return dnnl_success;
}

status_t check_metadata(const conf_t &c, const int32_t *const meta[2]) {
    const dim_t rows = c.rows(), cols = c.cols();
    if (c.nnz > 0)
        ANYDNN_REQUIRE(meta[0] && meta[1], dnnl_invalid_arguments,
                "sparse matmul: a metadata buffer of the sparse operand is missing");
    if (c.encoding == dnnl_csr) {
        const int32_t *idx = meta[0], *ptr = meta[1];
        ANYDNN_REQUIRE(ptr, dnnl_invalid_arguments, "sparse matmul: CSR pointers are missing");
        ANYDNN_REQUIRE(ptr[0] == 0 && ptr[rows] == c.nnz, dnnl_invalid_arguments,
                "sparse matmul: CSR pointers run from %d to %d, not from 0 to nnz %lld",
                ptr[0], ptr[rows], ll(c.nnz));
        for (dim_t r = 0; r < rows; ++r)
            ANYDNN_REQUIRE(ptr[r] <= ptr[r + 1], dnnl_invalid_arguments,
                    "sparse matmul: CSR pointer of row %lld decreases", ll(r + 1));
        for (dim_t i = 0; i < c.nnz; ++i)
            ANYDNN_REQUIRE(idx[i] >= 0 && idx[i] < cols, dnnl_invalid_arguments,
                    "sparse matmul: CSR column index %d (entry %lld) is outside [0, %lld)",
                    idx[i], ll(i), ll(cols));
        return dnnl_success;
    }
    const dim_t extent[2] = {rows, cols};
    for (int d = 0; d < 2; ++d)
        for (dim_t i = 0; i < c.nnz; ++i)
            ANYDNN_REQUIRE(meta[d][i] >= 0 && meta[d][i] < extent[d], dnnl_invalid_arguments,
                    "sparse matmul: COO index %d of dimension %d (entry %lld) is outside "
                    "[0, %lld)",
                    meta[d][i], d, ll(i), ll(extent[d]));
    return dnnl_success;
}

} // namespace matmul_sparse
} // namespace anydnn
