// dnnl_memory_desc_* entry points: creation, derived descriptors, queries, sizes, blobs.
// Descriptors made here are heap objects registered as live until dnnl_memory_desc_destroy;
// every other entry point also accepts descriptors owned by memory objects and primitive
// descriptors (const_dnnl_memory_desc_t), so those only need to be non-null.
#include <cstring>
#include <memory>

#include "api/api.hpp"
#include "core/memory_desc.hpp"
#include "core/memory_desc_ops.hpp"
#include "core/sparse_packed.hpp"

using namespace anydnn;

namespace {

// Publishes a finished descriptor through the output handle.
status_t publish(dnnl_memory_desc_t *out, const memory_desc_t &md) {
    auto p = std::make_unique<dnnl_memory_desc>(md);
    registry_add(object_kind::memory_desc, p.get());
    *out = p.release();
    return dnnl_success;
}

// Builds a descriptor with `init` and publishes it; *out is untouched on failure.
template <typename F>
status_t create(dnnl_memory_desc_t *out, F &&init) {
    ANYDNN_REQUIRE(out != nullptr, dnnl_invalid_arguments, "memory_desc is null");
    memory_desc_t md = zero_md();
    ANYDNN_CHECK(init(md));
    return publish(out, md);
}

bool is_sparse(const memory_desc_t &md) {
    return md.format_kind == dnnl_format_kind_sparse;
}

// Descriptor fields every query answers (dnnl_memory_desc_query and _v2 at index 0).
status_t query_field(const memory_desc_t &md, dnnl_query_t what, void *result) {
    const bool blocked = md.format_kind == dnnl_blocked;
    switch (what) {
        case dnnl_query_ndims_s32: *static_cast<int32_t *>(result) = md.ndims; break;
        case dnnl_query_dims: *static_cast<const dnnl_dims_t **>(result) = &md.dims; break;
        case dnnl_query_data_type:
            *static_cast<dnnl_data_type_t *>(result) = md.data_type;
            break;
        case dnnl_query_submemory_offset_s64:
            *static_cast<dnnl_dim_t *>(result) = md.offset0;
            break;
        case dnnl_query_padded_dims:
            *static_cast<const dnnl_dims_t **>(result) = &md.padded_dims;
            break;
        case dnnl_query_padded_offsets:
            *static_cast<const dnnl_dims_t **>(result) = &md.padded_offsets;
            break;
        case dnnl_query_format_kind:
            *static_cast<dnnl_format_kind_t *>(result) = md.format_kind;
            break;
        case dnnl_query_strides:
            ANYDNN_REQUIRE(blocked, dnnl_invalid_arguments,
                    "strides are defined for blocked descriptors only");
            *static_cast<const dnnl_dims_t **>(result) = &md.blocking.strides;
            break;
        case dnnl_query_inner_nblks_s32:
            ANYDNN_REQUIRE(blocked, dnnl_invalid_arguments,
                    "inner blocks are defined for blocked descriptors only");
            *static_cast<int32_t *>(result) = md.blocking.inner_nblks;
            break;
        case dnnl_query_inner_blks:
            ANYDNN_REQUIRE(blocked, dnnl_invalid_arguments,
                    "inner blocks are defined for blocked descriptors only");
            *static_cast<const dnnl_dims_t **>(result) = &md.blocking.inner_blks;
            break;
        case dnnl_query_inner_idxs:
            ANYDNN_REQUIRE(blocked, dnnl_invalid_arguments,
                    "inner blocks are defined for blocked descriptors only");
            *static_cast<const dnnl_dims_t **>(result) = &md.blocking.inner_idxs;
            break;
        case dnnl_query_sparse_encoding:
            ANYDNN_REQUIRE(is_sparse(md), dnnl_invalid_arguments,
                    "sparse encoding is defined for sparse descriptors only");
            *static_cast<dnnl_sparse_encoding_t *>(result) = md.sparse.encoding;
            break;
        case dnnl_query_nnz_s64:
            ANYDNN_REQUIRE(is_sparse(md), dnnl_invalid_arguments,
                    "nnz is defined for sparse descriptors only");
            *static_cast<dnnl_dim_t *>(result) = md.sparse.nnz;
            break;
        case dnnl_query_num_handles_s32:
            *static_cast<int32_t *>(result) = num_handles(md);
            break;
        default:
            return fail(dnnl_unimplemented, "dnnl_memory_desc_query",
                    "query %d does not apply to memory descriptors", static_cast<int>(what));
    }
    return dnnl_success;
}

// Data type of buffer `index`: 0 the values, then the sparse metadata buffers
// (CSR: 1 indices, 2 pointers; COO: 1..ndims the indices of each dimension).
status_t query_data_type(const memory_desc_t &md, int index, dnnl_data_type_t *result) {
    if (index == 0) {
        *result = md.data_type;
        return dnnl_success;
    }
    ANYDNN_REQUIRE(index > 0 && index < num_handles(md) && is_sparse(md)
                    && !sparse_packed::is_request(md),
            dnnl_invalid_arguments, "buffer %d of this descriptor has no data type", index);
    *result = md.sparse.encoding == dnnl_csr ? md.sparse.metadata_types[index - 1]
                                             : md.sparse.metadata_types[0];
    return dnnl_success;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_memory_desc_destroy(dnnl_memory_desc_t memory_desc) {
    return guarded(__func__, [&]() -> status_t {
        if (!memory_desc) return dnnl_success;
        ANYDNN_REQUIRE_LIVE(memory_desc, memory_desc);
        registry_remove(object_kind::memory_desc, memory_desc);
        delete memory_desc;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_memory_desc_clone(
        dnnl_memory_desc_t *memory_desc, const_dnnl_memory_desc_t existing_memory_desc) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(existing_memory_desc);
        return create(memory_desc, [&](memory_desc_t &md) {
            md = *existing_memory_desc;
            return dnnl_success;
        });
    });
}

DNNL_API dnnl_status_t dnnl_memory_desc_get_blob(
        uint8_t *blob, size_t *size, const_dnnl_memory_desc_t memory_desc) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(memory_desc);
        ANYDNN_REQUIRE_NOT_NULL(size);
        const size_t need = md_blob_size();
        if (!blob) {
            *size = need;
            return dnnl_success;
        }
        ANYDNN_REQUIRE(*size >= need, dnnl_invalid_arguments,
                "blob buffer holds %zu bytes, the descriptor needs %zu", *size, need);
        md_to_blob(*memory_desc, blob);
        *size = need;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_memory_desc_create_with_blob(
        dnnl_memory_desc_t *memory_desc, const uint8_t *blob) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(blob);
        return create(memory_desc, [&](memory_desc_t &md) { return md_from_blob(md, blob); });
    });
}

DNNL_API dnnl_status_t dnnl_memory_desc_create_with_strides(dnnl_memory_desc_t *memory_desc,
        int ndims, const dnnl_dims_t dims, dnnl_data_type_t data_type,
        const dnnl_dims_t strides) {
    return guarded(__func__, [&] {
        return create(memory_desc, [&](memory_desc_t &md) {
            return md_init_with_strides(md, ndims, dims, data_type, strides);
        });
    });
}

DNNL_API dnnl_status_t dnnl_memory_desc_create_with_tag(dnnl_memory_desc_t *memory_desc,
        int ndims, const dnnl_dims_t dims, dnnl_data_type_t data_type,
        dnnl_format_tag_t tag) {
    return guarded(__func__, [&] {
        return create(memory_desc, [&](memory_desc_t &md) -> status_t {
            // oneDNN gives a zero descriptor for the undef tag (dnnl::memory::desc() relies
            // on it); internally an undef tag is an error.
            if (tag == dnnl_format_tag_undef) {
                ANYDNN_REQUIRE(ndims >= 0 && ndims <= DNNL_MAX_NDIMS, dnnl_invalid_arguments,
                        "ndims %d is outside [0, %d]", ndims, DNNL_MAX_NDIMS);
                md = zero_md();
                return dnnl_success;
            }
            return md_init_with_tag(md, ndims, dims, data_type, tag);
        });
    });
}

DNNL_API dnnl_status_t dnnl_memory_desc_create_with_csr_encoding(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t data_type, dnnl_dim_t nnz, dnnl_data_type_t indices_dt,
        dnnl_data_type_t pointers_dt) {
    return guarded(__func__, [&] {
        return create(memory_desc, [&](memory_desc_t &md) {
            return md_init_csr(md, ndims, dims, data_type, nnz, indices_dt, pointers_dt);
        });
    });
}

DNNL_API dnnl_status_t dnnl_memory_desc_create_with_coo_encoding(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t data_type, dnnl_dim_t nnz, dnnl_data_type_t indices_dt) {
    return guarded(__func__, [&] {
        return create(memory_desc, [&](memory_desc_t &md) {
            return md_init_coo(md, ndims, dims, data_type, nnz, indices_dt);
        });
    });
}

DNNL_API dnnl_status_t dnnl_memory_desc_create_with_packed_encoding(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t data_type, dnnl_dim_t nnz) {
    return guarded(__func__, [&] {
        return create(memory_desc, [&](memory_desc_t &md) {
            return md_init_packed(md, ndims, dims, data_type, nnz);
        });
    });
}

// Experimental in oneDNN (DNNL_EXPERIMENTAL_GROUPED_MEMORY); the symbol exists in every
// build so binaries built against either configuration link, and it says it is not there.
DNNL_API dnnl_status_t dnnl_memory_desc_create_with_grouped_encoding(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t data_type, int variable_dim_idx, dnnl_dim_t group_count,
        dnnl_data_type_t offsets_dt) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(memory_desc);
        return fail(dnnl_unimplemented, __func__,
                "grouped memory encoding is not supported by this build");
    });
}

DNNL_API dnnl_status_t dnnl_memory_desc_create_host_scalar(
        dnnl_memory_desc_t *memory_desc, dnnl_data_type_t data_type) {
    return guarded(__func__, [&] {
        return create(memory_desc,
                [&](memory_desc_t &md) { return md_init_host_scalar(md, data_type); });
    });
}

DNNL_API dnnl_status_t dnnl_memory_desc_create_submemory(dnnl_memory_desc_t *memory_desc,
        const_dnnl_memory_desc_t parent_memory_desc, const dnnl_dims_t dims,
        const dnnl_dims_t offsets) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(parent_memory_desc);
        return create(memory_desc, [&](memory_desc_t &md) {
            return md_init_submemory(md, *parent_memory_desc, dims, offsets);
        });
    });
}

DNNL_API dnnl_status_t dnnl_memory_desc_reshape(dnnl_memory_desc_t *out_memory_desc,
        const_dnnl_memory_desc_t in_memory_desc, int ndims, const dnnl_dims_t dims) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(in_memory_desc);
        return create(out_memory_desc, [&](memory_desc_t &md) {
            return md_reshape(md, *in_memory_desc, ndims, dims);
        });
    });
}

DNNL_API dnnl_status_t dnnl_memory_desc_permute_axes(dnnl_memory_desc_t *out_memory_desc,
        const_dnnl_memory_desc_t in_memory_desc, const int *permutation) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(in_memory_desc);
        return create(out_memory_desc, [&](memory_desc_t &md) {
            return md_permute_axes(md, *in_memory_desc, permutation);
        });
    });
}

DNNL_API dnnl_status_t dnnl_memory_desc_query(
        const_dnnl_memory_desc_t memory_desc, dnnl_query_t what, void *result) {
    return guarded(__func__, [&] {
        ANYDNN_REQUIRE_NOT_NULL(memory_desc);
        ANYDNN_REQUIRE_NOT_NULL(result);
        return query_field(*memory_desc, what, result);
    });
}

DNNL_API dnnl_status_t dnnl_memory_desc_query_v2(const_dnnl_memory_desc_t memory_desc,
        dnnl_query_t what, int index, void *result) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(memory_desc);
        ANYDNN_REQUIRE_NOT_NULL(result);
        if (what == dnnl_query_data_type)
            return query_data_type(
                    *memory_desc, index, static_cast<dnnl_data_type_t *>(result));
        ANYDNN_REQUIRE(index == 0, dnnl_invalid_arguments,
                "query %d takes index 0, not %d", static_cast<int>(what), index);
        return query_field(*memory_desc, what, result);
    });
}

DNNL_API int dnnl_memory_desc_equal(
        const_dnnl_memory_desc_t lhs, const_dnnl_memory_desc_t rhs) {
    if (lhs == rhs) return 1;
    if (!lhs || !rhs) return 0;
    return md_equal(*lhs, *rhs) ? 1 : 0;
}

DNNL_API size_t dnnl_memory_desc_get_size(const_dnnl_memory_desc_t memory_desc) {
    return memory_desc ? size_in_bytes(*memory_desc) : 0;
}

DNNL_API size_t dnnl_memory_desc_get_size_v2(
        const_dnnl_memory_desc_t memory_desc, int index) {
    return memory_desc ? size_in_bytes(*memory_desc, index) : 0;
}

DNNL_API size_t dnnl_data_type_size(dnnl_data_type_t data_type) {
    return data_type_size(data_type);
}

} // extern "C"
