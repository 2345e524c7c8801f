// Validation, sparse/scalar construction, submemory, reshape, axis permutation and the
// binary blob of memory descriptors.
#include "core/memory_desc_ops.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "oneapi/dnnl/dnnl_debug.h"

#include "core/serializer.hpp"

namespace anydnn {

namespace {

constexpr dim_t runtime_dim = DNNL_RUNTIME_DIM_VAL;
constexpr dim_t dim_max = std::numeric_limits<dim_t>::max();

long long ll(dim_t v) {
    return static_cast<long long>(v);
}

// Product of max(1, v[i]) times the element size stays within 64 bits: then every
// stride and byte count derived from these extents does too.
bool volume_fits(const dim_t *v, int n, dnnl_data_type_t dt) {
    dim_t p = std::max<dim_t>(1, static_cast<dim_t>(data_type_size(dt)));
    for (int i = 0; i < n; ++i) {
        if (v[i] == runtime_dim) continue;
        if (__builtin_mul_overflow(p, std::max<dim_t>(1, v[i]), &p)) return false;
    }
    return true;
}

bool is_sparse_encoding(dnnl_sparse_encoding_t e) {
    return e == dnnl_csr || e == dnnl_coo || e == dnnl_packed;
}

status_t init_sparse(memory_desc_t &md, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t dt, dim_t nnz, dnnl_sparse_encoding_t encoding,
        dnnl_data_type_t meta0, dnnl_data_type_t meta1) {
    ANYDNN_CHECK(check_md_shape(ndims, dims, dt));
    ANYDNN_REQUIRE(nnz >= 0, dnnl_invalid_arguments, "nnz is negative (%lld)", ll(nnz));
    for (int d = 0; d < ndims; ++d)
        ANYDNN_REQUIRE(dims[d] != runtime_dim, dnnl_unimplemented,
                "sparse descriptors take no runtime dimensions");
    memory_desc_t r = zero_md();
    r.ndims = ndims;
    r.data_type = dt;
    r.format_kind = dnnl_format_kind_sparse;
    for (int d = 0; d < ndims; ++d)
        r.dims[d] = r.padded_dims[d] = dims[d];
    r.sparse.encoding = encoding;
    r.sparse.nnz = nnz;
    r.sparse.metadata_types[0] = meta0;
    r.sparse.metadata_types[1] = meta1;
    md = r;
    return dnnl_success;
}

// Fixed-layout little record writer/reader for the blob.
struct blob_writer_t {
    uint8_t *p;
    template <typename T>
    void put(const T &v) {
        std::memcpy(p, &v, sizeof(v));
        p += sizeof(v);
    }
    void put_dims(const dim_t *v) {
        for (int i = 0; i < max_ndims; ++i)
            put<int64_t>(v[i]);
    }
};

struct blob_reader_t {
    const uint8_t *p;
    template <typename T>
    T get() {
        T v;
        std::memcpy(&v, p, sizeof(v));
        p += sizeof(v);
        return v;
    }
    void get_dims(dim_t *v) {
        for (int i = 0; i < max_ndims; ++i)
            v[i] = get<int64_t>();
    }
};

constexpr char blob_magic[8] = {'a', 'n', 'y', 'd', 'n', 'n', 'M', 'D'};
constexpr uint32_t blob_version = 2; // 2: checksum is XXH3 (core/hash.hpp)
constexpr size_t blob_header_size = sizeof(blob_magic) + 4 + 4 + 8;
constexpr size_t blob_payload_size = 3 * 4 + 3 * max_ndims * 8 + 8 + max_ndims * 8 + 4
        + 2 * max_ndims * 8 + 4 + 8 + 2 * 4 + 8 + 8;

uint64_t blob_checksum(const uint8_t *payload) {
    return hash_bytes(std::string(reinterpret_cast<const char *>(payload), blob_payload_size));
}

} // namespace

dim_t inner_blocks_per_dim(const memory_desc_t &md, dim_t blocks[max_ndims]) {
    for (int d = 0; d < max_ndims; ++d)
        blocks[d] = 1;
    dim_t all = 1;
    if (md.format_kind != dnnl_blocked) return all;
    const auto &b = md.blocking;
    for (int i = 0; i < b.inner_nblks; ++i) {
        blocks[b.inner_idxs[i]] *= b.inner_blks[i];
        all *= b.inner_blks[i];
    }
    return all;
}

bool is_valid_data_type(dnnl_data_type_t dt) {
    return dt != dnnl_data_type_undef && data_type_size(dt) != 0;
}

status_t check_md_shape(int ndims, const dnnl_dims_t dims, dnnl_data_type_t dt) {
    ANYDNN_REQUIRE(ndims >= 1 && ndims <= max_ndims, dnnl_invalid_arguments,
            "ndims %d is outside [1, %d]", ndims, max_ndims);
    ANYDNN_REQUIRE(dims != nullptr, dnnl_invalid_arguments, "dims is null for ndims %d",
            ndims);
    ANYDNN_REQUIRE(is_valid_data_type(dt), dnnl_invalid_arguments,
            "data type %d (%s) cannot describe tensor elements", static_cast<int>(dt),
            dnnl_dt2str(dt));
    for (int d = 0; d < ndims; ++d)
        ANYDNN_REQUIRE(dims[d] >= 0 || dims[d] == runtime_dim, dnnl_invalid_arguments,
                "dimension %d is negative (%lld)", d, ll(dims[d]));
    ANYDNN_REQUIRE(volume_fits(dims, ndims, dt), dnnl_invalid_arguments,
            "the tensor's size overflows 64 bits");
    return dnnl_success;
}

status_t check_md_volume(const memory_desc_t &md) {
    ANYDNN_REQUIRE(volume_fits(md.padded_dims, md.ndims, md.data_type), dnnl_invalid_arguments,
            "the padded tensor's size overflows 64 bits");
    return dnnl_success;
}

status_t check_md_strides(const memory_desc_t &md) {
    if (md.format_kind != dnnl_blocked || md.ndims == 0) return dnnl_success;
    const auto &b = md.blocking;
    for (int d = 0; d < md.ndims; ++d) {
        // Empty tensors and runtime shapes cannot overlap anything we can check now.
        if (md.padded_dims[d] == 0) return dnnl_success;
        if (md.padded_dims[d] == runtime_dim || b.strides[d] == runtime_dim)
            return dnnl_success;
    }
    dim_t blocks[max_ndims];
    const dim_t inner = inner_blocks_per_dim(md, blocks);
    int idx[max_ndims], n = 0;
    for (int d = 0; d < md.ndims; ++d)
        if (md.padded_dims[d] / blocks[d] > 1) idx[n++] = d;
    auto before = [&](int x, int y) {
        if (b.strides[x] != b.strides[y]) return b.strides[x] < b.strides[y];
        return md.padded_dims[x] / blocks[x] < md.padded_dims[y] / blocks[y];
    };
    // Insertion sort: at most DNNL_MAX_NDIMS entries.
    for (int k = 1; k < n; ++k)
        for (int j = k; j > 0 && before(idx[j], idx[j - 1]); --j)
            std::swap(idx[j], idx[j - 1]);
    // Walking outward, each dimension must step over everything inside it.
    dim_t need = inner;
    for (int k = 0; k < n; ++k) {
        const int d = idx[k];
        ANYDNN_REQUIRE(b.strides[d] >= need, dnnl_invalid_arguments,
                "strides overlap: dimension %d has stride %lld, needs at least %lld", d,
                ll(b.strides[d]), ll(need));
        ANYDNN_REQUIRE(!__builtin_mul_overflow(b.strides[d], md.padded_dims[d] / blocks[d], &need),
                dnnl_invalid_arguments, "strides overflow 64 bits");
    }
    const dim_t elem = std::max<dim_t>(1, static_cast<dim_t>(data_type_size(md.data_type)));
    ANYDNN_REQUIRE(need <= dim_max / elem, dnnl_invalid_arguments,
            "the strided tensor's size overflows 64 bits");
    return dnnl_success;
}

status_t check_md_consistent(const memory_desc_t &md) {
    ANYDNN_REQUIRE(md.ndims >= 0 && md.ndims <= max_ndims, dnnl_invalid_arguments,
            "descriptor ndims %d is outside [0, %d]", md.ndims, max_ndims);
    if (md.ndims == 0) return dnnl_success;
    ANYDNN_REQUIRE(is_valid_data_type(md.data_type), dnnl_invalid_arguments,
            "descriptor data type %d is not valid", static_cast<int>(md.data_type));
    switch (md.format_kind) {
        case dnnl_format_kind_any:
        case dnnl_blocked:
        case dnnl_format_kind_opaque:
        case dnnl_format_kind_sparse:
        case dnnl_format_kind_host_scalar: break;
        default:
            return fail(dnnl_invalid_arguments, __func__, "descriptor format kind %d is not valid",
                    static_cast<int>(md.format_kind));
    }
    for (int d = 0; d < md.ndims; ++d) {
        const dim_t n = md.dims[d], p = md.padded_dims[d], o = md.padded_offsets[d];
        if (n == runtime_dim) {
            ANYDNN_REQUIRE(p == runtime_dim, dnnl_invalid_arguments,
                    "runtime dimension %d has a fixed padded size", d);
            continue;
        }
        ANYDNN_REQUIRE(n >= 0 && p >= n && o >= 0 && o <= p - n, dnnl_invalid_arguments,
                "dimension %d: extent %lld, padded %lld, padding offset %lld disagree", d,
                ll(n), ll(p), ll(o));
    }
    ANYDNN_REQUIRE(md.offset0 >= 0, dnnl_invalid_arguments, "offset0 is negative");
    ANYDNN_CHECK(check_md_volume(md));
    switch (md.format_kind) {
        case dnnl_blocked: {
            const auto &b = md.blocking;
            ANYDNN_REQUIRE(b.inner_nblks >= 0 && b.inner_nblks <= max_ndims,
                    dnnl_invalid_arguments, "inner_nblks %d is outside [0, %d]", b.inner_nblks,
                    max_ndims);
            for (int i = 0; i < b.inner_nblks; ++i)
                ANYDNN_REQUIRE(b.inner_blks[i] >= 1 && b.inner_blks[i] <= (1 << 16)
                                && b.inner_idxs[i] >= 0 && b.inner_idxs[i] < md.ndims,
                        dnnl_invalid_arguments, "inner block %d (%lld of dimension %lld) is invalid",
                        i, ll(b.inner_blks[i]), ll(b.inner_idxs[i]));
            dim_t blocks[max_ndims];
            inner_blocks_per_dim(md, blocks);
            for (int d = 0; d < md.ndims; ++d) {
                ANYDNN_REQUIRE(b.strides[d] >= 0 || b.strides[d] == runtime_dim,
                        dnnl_invalid_arguments, "stride %d is negative", d);
                ANYDNN_REQUIRE(md.padded_dims[d] == runtime_dim
                                || md.padded_dims[d] % blocks[d] == 0,
                        dnnl_invalid_arguments,
                        "padded dimension %d (%lld) is not a multiple of its block %lld", d,
                        ll(md.padded_dims[d]), ll(blocks[d]));
            }
            return check_md_strides(md);
        }
        case dnnl_format_kind_sparse:
            ANYDNN_REQUIRE(is_sparse_encoding(md.sparse.encoding), dnnl_invalid_arguments,
                    "sparse encoding %d is not valid", static_cast<int>(md.sparse.encoding));
            ANYDNN_REQUIRE(md.sparse.nnz >= 0, dnnl_invalid_arguments, "nnz is negative");
            if (md.sparse.encoding != dnnl_packed)
                ANYDNN_REQUIRE(is_valid_data_type(md.sparse.metadata_types[0]),
                        dnnl_invalid_arguments, "sparse index data type is not valid");
            if (md.sparse.encoding == dnnl_csr)
                ANYDNN_REQUIRE(is_valid_data_type(md.sparse.metadata_types[1]),
                        dnnl_invalid_arguments, "sparse pointer data type is not valid");
            return dnnl_success;
        case dnnl_format_kind_opaque:
            ANYDNN_REQUIRE(md.opaque_size >= 0, dnnl_invalid_arguments,
                    "opaque size is negative");
            return dnnl_success;
        case dnnl_format_kind_host_scalar:
            ANYDNN_REQUIRE(md.ndims == 1 && md.dims[0] == 1, dnnl_invalid_arguments,
                    "a host scalar has one dimension of extent 1");
            return dnnl_success;
        default: return dnnl_success;
    }
}

status_t md_init_csr(memory_desc_t &md, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t dt, dim_t nnz, dnnl_data_type_t indices_dt,
        dnnl_data_type_t pointers_dt) {
    if (ndims == 0) {
        md = zero_md();
        return dnnl_success;
    }
    ANYDNN_REQUIRE(ndims <= 2, dnnl_unimplemented,
            "CSR encoding describes matrices (ndims <= 2), not ndims %d", ndims);
    ANYDNN_REQUIRE(is_valid_data_type(indices_dt) && is_valid_data_type(pointers_dt),
            dnnl_invalid_arguments, "CSR index/pointer data types %s/%s are not valid",
            dnnl_dt2str(indices_dt), dnnl_dt2str(pointers_dt));
    return init_sparse(md, ndims, dims, dt, nnz, dnnl_csr, indices_dt, pointers_dt);
}

status_t md_init_coo(memory_desc_t &md, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t dt, dim_t nnz, dnnl_data_type_t indices_dt) {
    if (ndims == 0) {
        md = zero_md();
        return dnnl_success;
    }
    ANYDNN_REQUIRE(is_valid_data_type(indices_dt), dnnl_invalid_arguments,
            "COO index data type %s is not valid", dnnl_dt2str(indices_dt));
    return init_sparse(
            md, ndims, dims, dt, nnz, dnnl_coo, indices_dt, dnnl_data_type_undef);
}

status_t md_init_packed(memory_desc_t &md, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t dt, dim_t nnz) {
    if (ndims == 0) {
        md = zero_md();
        return dnnl_success;
    }
    return init_sparse(md, ndims, dims, dt, nnz, dnnl_packed, dnnl_data_type_undef,
            dnnl_data_type_undef);
}

status_t md_init_host_scalar(memory_desc_t &md, dnnl_data_type_t dt) {
    ANYDNN_REQUIRE(is_valid_data_type(dt), dnnl_invalid_arguments,
            "data type %d (%s) cannot describe a scalar", static_cast<int>(dt),
            dnnl_dt2str(dt));
    memory_desc_t r = zero_md();
    r.ndims = 1;
    r.dims[0] = r.padded_dims[0] = 1;
    r.data_type = dt;
    r.format_kind = dnnl_format_kind_host_scalar;
    md = r;
    return dnnl_success;
}

status_t md_init_submemory(memory_desc_t &md, const memory_desc_t &parent,
        const dnnl_dims_t dims, const dnnl_dims_t offsets) {
    ANYDNN_REQUIRE(!is_zero_md(parent), dnnl_invalid_arguments,
            "the parent is a zero memory descriptor");
    ANYDNN_CHECK(check_md_consistent(parent));
    ANYDNN_REQUIRE(dims != nullptr && offsets != nullptr, dnnl_invalid_arguments,
            "dims or offsets is null");
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(parent), dnnl_unimplemented,
            "the parent has runtime dimensions or strides");
    for (int d = 0; d < parent.ndims; ++d) {
        ANYDNN_REQUIRE(dims[d] != runtime_dim && offsets[d] != runtime_dim, dnnl_unimplemented,
                "submemory dims and offsets must be known (dimension %d)", d);
        ANYDNN_REQUIRE(dims[d] >= 0 && offsets[d] >= 0 && offsets[d] <= parent.dims[d] - dims[d],
                dnnl_invalid_arguments,
                "region [%lld, %lld + %lld) of dimension %d does not fit in extent %lld",
                ll(offsets[d]), ll(offsets[d]), ll(dims[d]), d, ll(parent.dims[d]));
    }
    ANYDNN_REQUIRE(parent.format_kind == dnnl_blocked, dnnl_unimplemented,
            "submemory needs a blocked parent, not format kind %s",
            dnnl_fmt_kind2str(parent.format_kind));

    dim_t blocks[max_ndims];
    inner_blocks_per_dim(parent, blocks);
    memory_desc_t r = parent;
    for (int d = 0; d < parent.ndims; ++d) {
        const bool reaches_end = offsets[d] + dims[d] == parent.dims[d];
        ANYDNN_REQUIRE(parent.padded_offsets[d] == 0, dnnl_unimplemented,
                "dimension %d of the parent has a padding offset", d);
        ANYDNN_REQUIRE(offsets[d] % blocks[d] == 0 && (reaches_end || dims[d] % blocks[d] == 0),
                dnnl_unimplemented,
                "dimension %d is blocked by %lld: region [%lld, +%lld) must start on a block "
                "and end on one or at the parent's end",
                d, ll(blocks[d]), ll(offsets[d]), ll(dims[d]));
        r.dims[d] = dims[d];
        // A region reaching the end keeps the parent's padding tail.
        r.padded_dims[d] = reaches_end ? parent.padded_dims[d] - offsets[d] : dims[d];
        r.offset0 += offsets[d] / blocks[d] * parent.blocking.strides[d];
    }
    md = r;
    return dnnl_success;
}

status_t md_reshape(memory_desc_t &out, const memory_desc_t &in, int ndims,
        const dnnl_dims_t dims) {
    ANYDNN_REQUIRE(!is_zero_md(in), dnnl_invalid_arguments,
            "a zero memory descriptor cannot be reshaped");
    ANYDNN_CHECK(check_md_consistent(in));
    ANYDNN_REQUIRE(in.format_kind == dnnl_blocked || in.format_kind == dnnl_format_kind_any,
            dnnl_invalid_arguments, "only blocked or any descriptors reshape, not %s",
            dnnl_fmt_kind2str(in.format_kind));
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(in), dnnl_invalid_arguments,
            "descriptors with runtime dimensions or strides do not reshape");
    ANYDNN_CHECK(check_md_shape(ndims, dims, in.data_type));
    for (int d = 0; d < ndims; ++d)
        ANYDNN_REQUIRE(dims[d] != runtime_dim, dnnl_invalid_arguments,
                "reshape to runtime dimension %d", d);
    dim_t out_elems = 1;
    for (int d = 0; d < ndims; ++d)
        out_elems *= dims[d];
    ANYDNN_REQUIRE(out_elems == nelems(in), dnnl_invalid_arguments,
            "reshape changes the number of elements (%lld to %lld)", ll(nelems(in)),
            ll(out_elems));
    if (in.format_kind == dnnl_format_kind_any)
        return md_init_with_tag(out, ndims, dims, in.data_type, dnnl_format_tag_any);

    const auto &ib = in.blocking;
    dim_t blocks[max_ndims];
    const dim_t inner = inner_blocks_per_dim(in, blocks);

    memory_desc_t r = zero_md();
    r.ndims = ndims;
    r.data_type = in.data_type;
    r.format_kind = dnnl_blocked;
    r.offset0 = in.offset0;
    r.blocking.inner_nblks = ib.inner_nblks;
    for (int k = 0; k < ib.inner_nblks; ++k)
        r.blocking.inner_blks[k] = ib.inner_blks[k];
    for (int d = 0; d < ndims; ++d)
        r.dims[d] = dims[d];

    int new_axis[max_ndims];
    std::fill(new_axis, new_axis + max_ndims, -1);
    auto keep = [&](int id, int od) {
        r.padded_dims[od] = in.padded_dims[id];
        r.padded_offsets[od] = in.padded_offsets[id];
        r.blocking.strides[od] = ib.strides[id];
        new_axis[id] = od;
    };

    // Match dimensions from the innermost outward: each step consumes an extent-one
    // dimension on either side, or the smallest runs of both sides with equal volume.
    int i = in.ndims, o = ndims;
    while (i > 0 || o > 0) {
        if (i > 0 && in.dims[i - 1] == 1) {
            if (in.padded_dims[i - 1] != 1) {
                ANYDNN_REQUIRE(o > 0 && dims[o - 1] == 1, dnnl_invalid_arguments,
                        "dimension %d has extent 1 but is padded to %lld: it cannot be "
                        "removed or merged", i - 1, ll(in.padded_dims[i - 1]));
                keep(i - 1, o - 1);
                --o;
            }
            --i;
            continue;
        }
        if (o > 0 && dims[o - 1] == 1) {
            // A new axis of extent one; its stride is never used, give the natural one.
            r.padded_dims[o - 1] = 1;
            r.blocking.strides[o - 1] = i < in.ndims
                    ? ib.strides[i] * std::max<dim_t>(1, in.padded_dims[i] / blocks[i])
                    : inner;
            --o;
            continue;
        }
        ANYDNN_REQUIRE(i > 0 && o > 0, dnnl_invalid_arguments,
                "dimensions do not correspond");
        int i0 = i - 1, o0 = o - 1;
        dim_t vi = in.dims[i0], vo = dims[o0];
        while (vi != vo) {
            if (vi < vo) {
                ANYDNN_REQUIRE(i0 > 0, dnnl_invalid_arguments, "dimensions do not correspond");
                vi *= in.dims[--i0];
            } else {
                ANYDNN_REQUIRE(o0 > 0, dnnl_invalid_arguments, "dimensions do not correspond");
                vo *= dims[--o0];
            }
            ANYDNN_REQUIRE(vi != 0 && vo != 0, dnnl_invalid_arguments,
                    "a zero extent cannot be merged with other dimensions");
        }
        if (i0 == i - 1 && o0 == o - 1) {
            keep(i0, o0);
        } else {
            // Split or join: the input run must be unblocked, unpadded and dense in order.
            int inner_d = -1;
            for (int d = i - 1; d >= i0; --d) {
                ANYDNN_REQUIRE(blocks[d] == 1 && in.padded_dims[d] == in.dims[d]
                                && in.padded_offsets[d] == 0,
                        dnnl_invalid_arguments,
                        "dimension %d is blocked or padded: it cannot be split or merged", d);
                if (in.dims[d] == 1) continue;
                ANYDNN_REQUIRE(inner_d < 0 || ib.strides[d] == ib.strides[inner_d] * in.dims[inner_d],
                        dnnl_invalid_arguments,
                        "dimensions %d and %d are not dense in logical order: they cannot be "
                        "merged", d, inner_d);
                inner_d = d;
            }
            dim_t stride = ib.strides[i - 1];
            for (int d = o - 1; d >= o0; --d) {
                r.padded_dims[d] = dims[d];
                r.blocking.strides[d] = stride;
                stride *= dims[d];
            }
        }
        i = i0;
        o = o0;
    }

    for (int k = 0; k < ib.inner_nblks; ++k) {
        const int od = new_axis[ib.inner_idxs[k]];
        ANYDNN_REQUIRE(od >= 0, dnnl_invalid_arguments,
                "blocked dimension %lld does not survive the reshape", ll(ib.inner_idxs[k]));
        r.blocking.inner_idxs[k] = od;
    }
    out = r;
    return dnnl_success;
}

status_t md_permute_axes(memory_desc_t &out, const memory_desc_t &in, const int *perm) {
    ANYDNN_REQUIRE(!is_zero_md(in), dnnl_invalid_arguments,
            "a zero memory descriptor has no axes to permute");
    ANYDNN_CHECK(check_md_consistent(in));
    ANYDNN_REQUIRE(in.format_kind == dnnl_blocked || in.format_kind == dnnl_format_kind_any,
            dnnl_invalid_arguments, "only blocked or any descriptors permute, not %s",
            dnnl_fmt_kind2str(in.format_kind));
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(in), dnnl_invalid_arguments,
            "descriptors with runtime dimensions or strides do not permute");
    ANYDNN_REQUIRE(perm != nullptr, dnnl_invalid_arguments, "permutation is null");
    unsigned seen = 0;
    for (int d = 0; d < in.ndims; ++d) {
        ANYDNN_REQUIRE(perm[d] >= 0 && perm[d] < in.ndims && !(seen & (1u << perm[d])),
                dnnl_invalid_arguments,
                "permutation[%d] = %d is out of [0, %d) or repeated", d, perm[d], in.ndims);
        seen |= 1u << perm[d];
    }
    memory_desc_t r = in;
    for (int d = 0; d < in.ndims; ++d) {
        r.dims[perm[d]] = in.dims[d];
        r.padded_dims[perm[d]] = in.padded_dims[d];
        r.padded_offsets[perm[d]] = in.padded_offsets[d];
        if (in.format_kind == dnnl_blocked) r.blocking.strides[perm[d]] = in.blocking.strides[d];
    }
    if (in.format_kind == dnnl_blocked)
        for (int k = 0; k < in.blocking.inner_nblks; ++k)
            r.blocking.inner_idxs[k] = perm[in.blocking.inner_idxs[k]];
    out = r;
    return dnnl_success;
}

size_t md_blob_size() {
    return blob_header_size + blob_payload_size;
}

void md_to_blob(const memory_desc_t &md, uint8_t *blob) {
    blob_writer_t w {blob + blob_header_size};
    w.put<int32_t>(md.ndims);
    w.put<int32_t>(md.data_type);
    w.put<int32_t>(md.format_kind);
    w.put_dims(md.dims);
    w.put_dims(md.padded_dims);
    w.put_dims(md.padded_offsets);
    w.put<int64_t>(md.offset0);
    w.put_dims(md.blocking.strides);
    w.put<int32_t>(md.blocking.inner_nblks);
    w.put_dims(md.blocking.inner_blks);
    w.put_dims(md.blocking.inner_idxs);
    w.put<int32_t>(md.sparse.encoding);
    w.put<int64_t>(md.sparse.nnz);
    w.put<int32_t>(md.sparse.metadata_types[0]);
    w.put<int32_t>(md.sparse.metadata_types[1]);
    w.put<uint64_t>(md.opaque_id);
    w.put<int64_t>(md.opaque_size);

    blob_writer_t h {blob};
    for (char c : blob_magic)
        h.put(c);
    h.put<uint32_t>(blob_version);
    h.put<uint32_t>(static_cast<uint32_t>(blob_payload_size));
    h.put<uint64_t>(blob_checksum(blob + blob_header_size));
}

status_t md_from_blob(memory_desc_t &md, const uint8_t *blob) {
    ANYDNN_REQUIRE(std::memcmp(blob, blob_magic, sizeof(blob_magic)) == 0,
            dnnl_invalid_arguments, "not a memory descriptor blob");
    blob_reader_t h {blob + sizeof(blob_magic)};
    const auto version = h.get<uint32_t>();
    ANYDNN_REQUIRE(version == blob_version, dnnl_invalid_arguments,
            "memory descriptor blob version %u, this library reads %u", version, blob_version);
    const auto payload = h.get<uint32_t>();
    ANYDNN_REQUIRE(payload == blob_payload_size, dnnl_invalid_arguments,
            "memory descriptor blob payload is %u bytes, expected %zu", payload,
            blob_payload_size);
    const auto checksum = h.get<uint64_t>();
    ANYDNN_REQUIRE(checksum == blob_checksum(blob + blob_header_size), dnnl_invalid_arguments,
            "memory descriptor blob is corrupt (checksum mismatch)");

    memory_desc_t r = zero_md();
    blob_reader_t rd {blob + blob_header_size};
    r.ndims = rd.get<int32_t>();
    r.data_type = static_cast<dnnl_data_type_t>(rd.get<int32_t>());
    r.format_kind = static_cast<dnnl_format_kind_t>(rd.get<int32_t>());
    rd.get_dims(r.dims);
    rd.get_dims(r.padded_dims);
    rd.get_dims(r.padded_offsets);
    r.offset0 = rd.get<int64_t>();
    rd.get_dims(r.blocking.strides);
    r.blocking.inner_nblks = rd.get<int32_t>();
    rd.get_dims(r.blocking.inner_blks);
    rd.get_dims(r.blocking.inner_idxs);
    r.sparse.encoding = static_cast<dnnl_sparse_encoding_t>(rd.get<int32_t>());
    r.sparse.nnz = rd.get<int64_t>();
    r.sparse.metadata_types[0] = static_cast<dnnl_data_type_t>(rd.get<int32_t>());
    r.sparse.metadata_types[1] = static_cast<dnnl_data_type_t>(rd.get<int32_t>());
    r.opaque_id = rd.get<uint64_t>();
    r.opaque_size = rd.get<int64_t>();
    ANYDNN_CHECK(check_md_consistent(r));
    md = r;
    return dnnl_success;
}

} // namespace anydnn
