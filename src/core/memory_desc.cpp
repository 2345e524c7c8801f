// Memory descriptors: construction from tags and strides, sizes, physical offsets,
// equality, hashing and verbose text.
#include "core/status.hpp"

#include "core/memory_desc.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "oneapi/dnnl/dnnl_debug.h"

#include "core/format_tag.hpp"
#include "core/memory_desc_ops.hpp"
#include "core/serializer.hpp"
#include "core/sparse_packed.hpp"

namespace anydnn {

namespace {

constexpr dim_t runtime_dim = DNNL_RUNTIME_DIM_VAL;

bool is_sub_byte(dnnl_data_type_t dt) {
    return dt == dnnl_s4 || dt == dnnl_u4 || dt == dnnl_f4_e2m1 || dt == dnnl_f4_e3m0;
}

// Bytes taken by n elements (sub-byte types pack two to a byte, the last one rounded up).
size_t bytes_of(dim_t n, dnnl_data_type_t dt) {
    if (n <= 0) return 0;
    if (is_sub_byte(dt)) return (static_cast<size_t>(n) + 1) / 2;
    return static_cast<size_t>(n) * data_type_size(dt);
}

// The elements a blocked layout spans from its base, padding included and offset0 not:
// the largest outer extent times its stride, or one full inner block when every
// dimension has a single outer block.
dim_t blocked_span(const memory_desc_t &md) {
    const auto &b = md.blocking;
    dim_t blocks[max_ndims];
    dim_t inner = inner_blocks_per_dim(md, blocks);
    dim_t span = inner;
    for (int d = 0; d < md.ndims; ++d) {
        dim_t outer = md.padded_dims[d] / blocks[d];
        if (outer > 1) span = std::max(span, outer * b.strides[d]);
    }
    return span;
}

bool dims_have_zero(const memory_desc_t &md) {
    for (int d = 0; d < md.ndims; ++d)
        if (md.dims[d] == 0) return true;
    return false;
}

void append_dims(std::string &s, const dim_t *v, int n, char sep) {
    char num[24];
    for (int i = 0; i < n; ++i) {
        if (i) s += sep;
        if (v[i] == runtime_dim) {
            s += '*';
        } else {
            std::snprintf(num, sizeof(num), "%lld", static_cast<long long>(v[i]));
            s += num;
        }
    }
}

int copy_out(const std::string &s, char *buf, size_t len) {
    if (!buf || len == 0) return 0;
    size_t n = std::min(s.size(), len - 1);
    std::memcpy(buf, s.data(), n);
    buf[n] = '\0';
    return static_cast<int>(n);
}

// Tag letters of a blocked layout (outer dimensions by decreasing stride, then the inner
// blocks) and, where the strides are not the dense ones for that order, the strides.
void blocked_format_text(const memory_desc_t &md, std::string &tag, std::string &strides) {
    const auto &b = md.blocking;
    dim_t blocks[max_ndims];
    dim_t inner = inner_blocks_per_dim(md, blocks);
    int order[max_ndims];
    for (int d = 0; d < md.ndims; ++d)
        order[d] = d;
    std::stable_sort(order, order + md.ndims,
            [&](int x, int y) { return b.strides[x] > b.strides[y]; });
    for (int k = 0; k < md.ndims; ++k) {
        int d = order[k];
        tag += static_cast<char>((blocks[d] > 1 ? 'A' : 'a') + d);
    }
    char num[24];
    for (int i = 0; i < b.inner_nblks; ++i) {
        std::snprintf(num, sizeof(num), "%lld", static_cast<long long>(b.inner_blks[i]));
        tag += num;
        tag += static_cast<char>('a' + b.inner_idxs[i]);
    }
    bool dense = true;
    dim_t expect = inner;
    for (int k = md.ndims - 1; k >= 0 && dense; --k) {
        int d = order[k];
        if (md.padded_dims[d] == runtime_dim || b.strides[d] == runtime_dim) {
            dense = false;
            break;
        }
        dim_t outer = md.padded_dims[d] / blocks[d];
        if (outer > 1 && b.strides[d] != expect) dense = false;
        expect *= std::max<dim_t>(1, outer);
    }
    if (!dense) {
        strides = "s";
        append_dims(strides, b.strides, md.ndims, 'x');
    }
}

} // namespace

memory_desc_t zero_md() {
    memory_desc_t md;
    std::memset(&md, 0, sizeof(md));
    return md;
}

bool is_zero_md(const memory_desc_t &md) {
    return md.ndims == 0;
}

size_t data_type_size(dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_f16:
        case dnnl_bf16: return 2;
        case dnnl_f32:
        case dnnl_s32: return 4;
        case dnnl_f64:
        case dnnl_s64: return 8;
        case dnnl_s8:
        case dnnl_u8:
        case dnnl_boolean:
        case dnnl_f8_e5m2:
        case dnnl_f8_e4m3:
        case dnnl_e8m0:
        // Sub-byte types report one byte, as oneDNN does; tensor sizes pack them.
        case dnnl_s4:
        case dnnl_u4:
        case dnnl_f4_e2m1:
        case dnnl_f4_e3m0: return 1;
        default: return 0;
    }
}

bool has_runtime_dims_or_strides(const memory_desc_t &md) {
    for (int d = 0; d < md.ndims; ++d) {
        if (md.dims[d] == runtime_dim || md.padded_dims[d] == runtime_dim) return true;
        if (md.format_kind == dnnl_blocked && md.blocking.strides[d] == runtime_dim)
            return true;
    }
    return false;
}

dim_t nelems(const memory_desc_t &md, bool with_padding) {
    if (md.ndims == 0) return 0;
    const dim_t *v = with_padding ? md.padded_dims : md.dims;
    dim_t n = 1;
    for (int d = 0; d < md.ndims; ++d) {
        if (v[d] == runtime_dim) return runtime_dim;
        n *= v[d];
    }
    return n;
}

int num_handles(const memory_desc_t &md) {
    if (md.format_kind != dnnl_format_kind_sparse) return 1;
    switch (md.sparse.encoding) {
        case dnnl_csr:
        case dnnl_packed: return 3;
        case dnnl_coo: return 1 + md.ndims;
        default: return 1;
    }
}

size_t size_in_bytes(const memory_desc_t &md) {
    return size_in_bytes(md, 0);
}

size_t reach_in_bytes(const memory_desc_t &md) {
    if (nelems(md, true) == 0) return 0;
    const auto &b = md.blocking;
    dim_t inner = 1, blocks[max_ndims];
    for (int d = 0; d < md.ndims; ++d)
        blocks[d] = 1;
    for (int i = 0; i < b.inner_nblks; ++i) {
        inner *= b.inner_blks[i];
        blocks[b.inner_idxs[i]] *= b.inner_blks[i];
    }
    dim_t last = md.offset0 + inner - 1;
    for (int d = 0; d < md.ndims; ++d)
        last += (md.padded_dims[d] / blocks[d] - 1) * b.strides[d];
    return bytes_of(last + 1, md.data_type); // 4-bit types: two elements a byte
}

size_t size_in_bytes(const memory_desc_t &md, int index) {
    if (index < 0 || index >= num_handles(md)) return 0;
    switch (md.format_kind) {
        case dnnl_blocked:
            if (md.ndims == 0 || dims_have_zero(md)) return 0;
            if (has_runtime_dims_or_strides(md)) return DNNL_RUNTIME_SIZE_VAL;
            return bytes_of(blocked_span(md), md.data_type);
        case dnnl_format_kind_host_scalar: return data_type_size(md.data_type);
        case dnnl_format_kind_opaque: return static_cast<size_t>(md.opaque_size);
        case dnnl_format_kind_sparse: {
            if (dims_have_zero(md)) return 0;
            if (has_runtime_dims_or_strides(md) || md.sparse.nnz == runtime_dim)
                return DNNL_RUNTIME_SIZE_VAL;
            const dim_t nnz = md.sparse.nnz;
            switch (md.sparse.encoding) {
                case dnnl_csr:
                    if (index == 0) return bytes_of(nnz, md.data_type);
                    if (index == 1) return bytes_of(nnz, md.sparse.metadata_types[0]);
                    return bytes_of(md.dims[0] + 1, md.sparse.metadata_types[1]);
                case dnnl_coo:
                    return bytes_of(nnz,
                            index == 0 ? md.data_type : md.sparse.metadata_types[0]);
                // A user's packed descriptor is a request, like format any: no buffer yet;
                // the layout a primitive resolves it to has three (core/sparse_packed.hpp).
                case dnnl_packed: return sparse_packed::handle_bytes(md, index);
                default: return 0;
            }
        }
        default: return 0;
    }
}

bool is_blocked(const memory_desc_t &md) {
    return md.format_kind == dnnl_blocked;
}

bool is_plain(const memory_desc_t &md) {
    return is_blocked(md) && md.blocking.inner_nblks == 0;
}

bool is_dense(const memory_desc_t &md, bool with_padding) {
    if (!is_blocked(md) || md.ndims == 0 || has_runtime_dims_or_strides(md)) return false;
    if (dims_have_zero(md)) return true;
    return nelems(md, with_padding) == blocked_span(md);
}

bool md_equal(const memory_desc_t &a, const memory_desc_t &b) {
    if (a.ndims != b.ndims) return false;
    if (a.ndims == 0) return true;
    if (a.data_type != b.data_type || a.format_kind != b.format_kind || a.offset0 != b.offset0)
        return false;
    for (int d = 0; d < a.ndims; ++d) {
        if (a.dims[d] != b.dims[d] || a.padded_dims[d] != b.padded_dims[d]
                || a.padded_offsets[d] != b.padded_offsets[d])
            return false;
    }
    switch (a.format_kind) {
        case dnnl_blocked: {
            const auto &x = a.blocking, &y = b.blocking;
            if (x.inner_nblks != y.inner_nblks) return false;
            for (int i = 0; i < x.inner_nblks; ++i)
                if (x.inner_blks[i] != y.inner_blks[i] || x.inner_idxs[i] != y.inner_idxs[i])
                    return false;
            // A dimension of extent one is never stepped over: its stride is irrelevant.
            for (int d = 0; d < a.ndims; ++d) {
                if (a.dims[d] == 1 && a.padded_dims[d] == 1) continue;
                if (x.strides[d] != y.strides[d]) return false;
            }
            return true;
        }
        case dnnl_format_kind_sparse:
            return a.sparse.encoding == b.sparse.encoding && a.sparse.nnz == b.sparse.nnz
                    && a.sparse.metadata_types[0] == b.sparse.metadata_types[0]
                    && a.sparse.metadata_types[1] == b.sparse.metadata_types[1];
        case dnnl_format_kind_opaque:
            return a.opaque_id == b.opaque_id && a.opaque_size == b.opaque_size;
        default: return true;
    }
}

uint64_t md_hash(const memory_desc_t &md) {
    // Hash what md_equal compares: strides of extent-one dimensions do not count.
    memory_desc_t norm = md;
    if (norm.format_kind == dnnl_blocked)
        for (int d = 0; d < norm.ndims; ++d)
            if (norm.dims[d] == 1 && norm.padded_dims[d] == 1) norm.blocking.strides[d] = 0;
    serializer_t s;
    s.write(norm);
    return hash_bytes(s.bytes());
}

status_t md_init_with_tag(memory_desc_t &md, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t dt, dnnl_format_tag_t tag) {
    if (ndims == 0) {
        md = zero_md();
        return dnnl_success;
    }
    ANYDNN_CHECK(check_md_shape(ndims, dims, dt));
    ANYDNN_REQUIRE(tag != dnnl_format_tag_undef, dnnl_invalid_arguments,
            "format tag is undef");

    memory_desc_t r = zero_md();
    r.ndims = ndims;
    r.data_type = dt;
    for (int d = 0; d < ndims; ++d)
        r.dims[d] = r.padded_dims[d] = dims[d];
    if (tag == dnnl_format_tag_any) {
        r.format_kind = dnnl_format_kind_any;
        md = r;
        return dnnl_success;
    }

    int tag_ndims = 0, n_inner = 0, order[max_ndims], inner_idx[max_ndims];
    long inner_blk[max_ndims];
    ANYDNN_REQUIRE(core::format_tag_layout(tag, &tag_ndims, order, &n_inner, inner_idx,
                           inner_blk),
            dnnl_invalid_arguments, "%d is not a format tag with a layout",
            static_cast<int>(tag));
    ANYDNN_REQUIRE(tag_ndims == ndims, dnnl_invalid_arguments,
            "format tag %s has %d dimensions, the tensor %d", core::format_tag_name(tag),
            tag_ndims, ndims);

    r.format_kind = dnnl_blocked;
    auto &b = r.blocking;
    b.inner_nblks = n_inner;
    for (int i = 0; i < n_inner; ++i) {
        b.inner_blks[i] = inner_blk[i];
        b.inner_idxs[i] = inner_idx[i];
    }
    dim_t blocks[max_ndims];
    dim_t inner = inner_blocks_per_dim(r, blocks);
    for (int d = 0; d < ndims; ++d) {
        if (dims[d] == runtime_dim) {
            ANYDNN_REQUIRE(blocks[d] == 1, dnnl_invalid_arguments,
                    "runtime dimension %d cannot be blocked (%s)", d,
                    core::format_tag_name(tag));
            continue;
        }
        dim_t padded = 0;
        ANYDNN_REQUIRE(!__builtin_add_overflow(dims[d], blocks[d] - 1, &padded),
                dnnl_invalid_arguments, "dimension %d overflows when padded", d);
        r.padded_dims[d] = padded / blocks[d] * blocks[d];
    }
    ANYDNN_CHECK(check_md_volume(r));

    // Dense strides, from the innermost outer dimension outward.
    dim_t stride = inner;
    for (int k = ndims - 1; k >= 0; --k) {
        int d = order[k];
        b.strides[d] = stride;
        if (stride == runtime_dim) continue;
        if (r.padded_dims[d] == runtime_dim)
            stride = runtime_dim;
        else // a runtime dimension elsewhere leaves the volume check blind to this product
            ANYDNN_REQUIRE(!__builtin_mul_overflow(
                                   stride, std::max<dim_t>(1, r.padded_dims[d] / blocks[d]), &stride),
                    dnnl_invalid_arguments, "the strides of %s overflow 64 bits",
                    core::format_tag_name(tag));
    }
    md = r;
    return dnnl_success;
}

status_t md_init_with_strides(memory_desc_t &md, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t dt, const dnnl_dims_t strides) {
    if (ndims == 0) {
        md = zero_md();
        return dnnl_success;
    }
    ANYDNN_CHECK(check_md_shape(ndims, dims, dt));

    memory_desc_t r = zero_md();
    r.ndims = ndims;
    r.data_type = dt;
    r.format_kind = dnnl_blocked;
    for (int d = 0; d < ndims; ++d)
        r.dims[d] = r.padded_dims[d] = dims[d];
    auto &b = r.blocking;
    if (!strides) {
        dim_t stride = 1;
        for (int d = ndims - 1; d >= 0; --d) {
            b.strides[d] = stride;
            if (stride == runtime_dim) continue;
            if (dims[d] == runtime_dim)
                stride = runtime_dim;
            else
                ANYDNN_REQUIRE(!__builtin_mul_overflow(stride, std::max<dim_t>(1, dims[d]), &stride),
                        dnnl_invalid_arguments, "the dense strides overflow 64 bits");
        }
        md = r;
        return dnnl_success;
    }
    for (int d = 0; d < ndims; ++d) {
        ANYDNN_REQUIRE(strides[d] >= 0 || strides[d] == runtime_dim, dnnl_invalid_arguments,
                "stride %d is negative (%lld)", d, static_cast<long long>(strides[d]));
        b.strides[d] = strides[d];
    }
    ANYDNN_CHECK(check_md_strides(r));
    md = r;
    return dnnl_success;
}

dim_t off_logical(const memory_desc_t &md, const dim_t *pos) {
    if (md.format_kind != dnnl_blocked) {
        dim_t off = 0;
        for (int d = 0; d < md.ndims; ++d)
            off = off * md.dims[d] + pos[d];
        return md.offset0 + off;
    }
    const auto &b = md.blocking;
    dim_t p[max_ndims];
    for (int d = 0; d < md.ndims; ++d)
        p[d] = pos[d] + md.padded_offsets[d];
    // Inner blocks peel the within-block index off their dimension, innermost first;
    // what is left of each position indexes the outer blocks.
    dim_t off = md.offset0, inner_stride = 1;
    for (int i = b.inner_nblks - 1; i >= 0; --i) {
        const int d = static_cast<int>(b.inner_idxs[i]);
        const dim_t blk = b.inner_blks[i];
        off += (p[d] % blk) * inner_stride;
        p[d] /= blk;
        inner_stride *= blk;
    }
    for (int d = 0; d < md.ndims; ++d)
        off += p[d] * b.strides[d];
    return off;
}

dim_t off_linear(const memory_desc_t &md, dim_t linear_index) {
    dim_t pos[max_ndims];
    for (int d = md.ndims - 1; d >= 0; --d) {
        const dim_t n = md.dims[d];
        pos[d] = n > 0 ? linear_index % n : 0;
        linear_index = n > 0 ? linear_index / n : 0;
    }
    return off_logical(md, pos);
}

int md_to_string(const memory_desc_t &md, char *buf, size_t len) {
    std::string s = dnnl_dt2str(md.data_type);
    s += ':';
    bool padded = false, padded_off = false;
    for (int d = 0; d < md.ndims; ++d) {
        padded = padded || md.dims[d] != md.padded_dims[d];
        padded_off = padded_off || md.padded_offsets[d] != 0;
    }
    if (padded) s += 'p';
    if (padded_off) s += 'o';
    if (md.offset0 != 0) s += '0';
    s += ':';
    s += dnnl_fmt_kind2str(md.format_kind);
    s += ':';
    std::string fmt, strides;
    switch (md.format_kind) {
        case dnnl_blocked: blocked_format_text(md, fmt, strides); break;
        case dnnl_format_kind_any: fmt = "any"; break;
        case dnnl_format_kind_sparse: fmt = dnnl_sparse_encoding2str(md.sparse.encoding); break;
        default: break;
    }
    s += fmt;
    s += ':';
    s += strides;
    s += ":f0";
    return copy_out(s, buf, len);
}

int dims_to_string(const memory_desc_t &md, char *buf, size_t len) {
    std::string s;
    append_dims(s, md.dims, md.ndims, 'x');
    return copy_out(s, buf, len);
}

} // namespace anydnn
