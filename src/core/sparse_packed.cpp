#include "core/sparse_packed.hpp"

#include "core/data_types.hpp"

namespace anydnn {
namespace sparse_packed {

bool is_packed(const memory_desc_t &md) {
    return md.format_kind == dnnl_format_kind_sparse && md.sparse.encoding == dnnl_packed;
}

bool is_request(const memory_desc_t &md) {
    return is_packed(md) && md.sparse.metadata_types[0] == dnnl_data_type_undef;
}

bool is_resolved(const memory_desc_t &md) {
    return is_packed(md) && md.sparse.metadata_types[0] == dnnl_s64
            && md.sparse.metadata_types[1] == dnnl_s64;
}

memory_desc_t resolve(const memory_desc_t &md) {
    memory_desc_t r = md;
    r.sparse.metadata_types[0] = dnnl_s64;
    r.sparse.metadata_types[1] = dnnl_s64;
    return r;
}

geometry_t geometry(const memory_desc_t &md) {
    geometry_t g;
    if (md.ndims == 0) return g;
    g.rows = 1;
    for (int d = 0; d + 1 < md.ndims; ++d)
        g.rows *= md.dims[d];
    g.cols = md.dims[md.ndims - 1];
    g.chunks_per_row = (g.cols + chunk_cols - 1) / chunk_cols;
    return g;
}

size_t handle_bytes(const memory_desc_t &md, int index) {
    if (!is_resolved(md)) return 0;
    if (index == 0)
        return static_cast<size_t>(md.sparse.nnz) * data_type_size(md.data_type);
    return static_cast<size_t>(geometry(md).chunks()) * sizeof(int64_t);
}

status_t check_metadata(const memory_desc_t &md, const int64_t *offsets, const uint64_t *masks,
        dim_t &count) {
    const geometry_t g = geometry(md);
    count = 0;
    if (g.chunks() == 0) return dnnl_success;
    ANYDNN_REQUIRE(offsets && masks, dnnl_invalid_arguments,
            "packed sparse memory: the offsets or masks buffer is missing");
    const dim_t tail = g.cols - (g.chunks_per_row - 1) * chunk_cols; // columns of a last chunk
    const uint64_t tail_bits = tail == 64 ? ~uint64_t(0) : (uint64_t(1) << tail) - 1;
    int64_t next = 0;
    for (dim_t c = 0; c < g.chunks(); ++c) {
        ANYDNN_REQUIRE(offsets[c] == next, dnnl_invalid_arguments,
                "packed sparse memory: chunk %lld starts at value %lld, not %lld",
                static_cast<long long>(c), static_cast<long long>(offsets[c]),
                static_cast<long long>(next));
        const bool last = c % g.chunks_per_row == g.chunks_per_row - 1;
        ANYDNN_REQUIRE(!last || (masks[c] & ~tail_bits) == 0, dnnl_invalid_arguments,
                "packed sparse memory: chunk %lld marks columns past the last one",
                static_cast<long long>(c));
        next += __builtin_popcountll(masks[c]);
    }
    ANYDNN_REQUIRE(next <= md.sparse.nnz, dnnl_invalid_arguments,
            "packed sparse memory: its masks mark %lld values, the descriptor holds %lld",
            static_cast<long long>(next), static_cast<long long>(md.sparse.nnz));
    count = next;
    return dnnl_success;
}

} // namespace sparse_packed
} // namespace anydnn
