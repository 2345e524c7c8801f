// Memory descriptors from fuzzed arguments: created with a tag (plain and blocked) or with
// strides, then reshaped, permuted, cut into submemory, queried, compared, and taken through
// a blob and back. Every call must answer with a status; what it accepts must be consistent.
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "fuzz_input.hpp"

namespace {

void check(bool ok) {
    if (!ok) std::abort(); // an inconsistency the fuzzer reports like a crash
}

// Every field query, with a result of the type each one writes.
void query_all(const_dnnl_memory_desc_t md) {
    int32_t i32 = 0;
    dnnl_dim_t i64 = 0;
    dnnl_data_type_t dt = dnnl_data_type_undef;
    const dnnl_dims_t *dims = nullptr;
    dnnl_format_kind_t fk = dnnl_format_kind_undef;
    dnnl_sparse_encoding_t enc {};
    dnnl_memory_desc_query(md, dnnl_query_ndims_s32, &i32);
    dnnl_memory_desc_query(md, dnnl_query_data_type, &dt);
    dnnl_memory_desc_query(md, dnnl_query_submemory_offset_s64, &i64);
    dnnl_memory_desc_query(md, dnnl_query_format_kind, &fk);
    dnnl_memory_desc_query(md, dnnl_query_inner_nblks_s32, &i32);
    dnnl_memory_desc_query(md, dnnl_query_sparse_encoding, &enc);
    dnnl_memory_desc_query(md, dnnl_query_nnz_s64, &i64);
    dnnl_memory_desc_query(md, dnnl_query_num_handles_s32, &i32);
    for (dnnl_query_t q : {dnnl_query_dims, dnnl_query_padded_dims, dnnl_query_padded_offsets,
                 dnnl_query_strides, dnnl_query_inner_blks, dnnl_query_inner_idxs}) {
        if (dnnl_memory_desc_query(md, q, &dims) == dnnl_success) {
            volatile dnnl_dim_t sink = (*dims)[DNNL_MAX_NDIMS - 1];
            (void)sink;
        }
    }
    for (int index = -1; index < 4; ++index) {
        dnnl_memory_desc_query_v2(md, dnnl_query_data_type, index, &dt);
        dnnl_memory_desc_get_size_v2(md, index);
    }
    dnnl_memory_desc_get_size(md);
    dnnl_memory_desc_query(md, static_cast<dnnl_query_t>(0), &i64);
}

// A blob round trip gives an equal descriptor.
void blob_round_trip(const_dnnl_memory_desc_t md) {
    size_t size = 0;
    if (dnnl_memory_desc_get_blob(nullptr, &size, md) != dnnl_success) return;
    std::vector<uint8_t> blob(size);
    check(dnnl_memory_desc_get_blob(blob.data(), &size, md) == dnnl_success);
    fuzz::md_t back;
    check(dnnl_memory_desc_create_with_blob(back.out(), blob.data()) == dnnl_success);
    check(dnnl_memory_desc_equal(md, back.md) == 1);
}

// Reshape, permute and submemory of one descriptor, each derived result used again.
void derive(fuzz::input_t &in, const_dnnl_memory_desc_t md, int depth) {
    query_all(md);
    blob_round_trip(md);
    if (depth > 2 || in.remaining_bytes() == 0) return;
    fuzz::md_t out;
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
        case 0: {
            int nd = in.ndims();
            dnnl_dims_t d;
            in.dims(d, nd, 64);
            if (dnnl_memory_desc_reshape(out.out(), md, nd, d) == dnnl_success)
                check(dnnl_memory_desc_get_size(out.md) == dnnl_memory_desc_get_size(md));
            break;
        }
        case 1: {
            int perm[DNNL_MAX_NDIMS];
            for (int &p : perm) p = in.ConsumeIntegralInRange<int>(-1, DNNL_MAX_NDIMS);
            if (in.ConsumeBool()) { // a real permutation: identity with two axes swapped
                for (int i = 0; i < DNNL_MAX_NDIMS; ++i) perm[i] = i;
                std::swap(perm[in.ConsumeIntegralInRange<int>(0, 5)],
                        perm[in.ConsumeIntegralInRange<int>(0, 5)]);
            }
            dnnl_memory_desc_permute_axes(out.out(), md, perm);
            break;
        }
        case 2: {
            int nd = 0;
            dnnl_memory_desc_query(md, dnnl_query_ndims_s32, &nd);
            dnnl_dims_t d, off;
            in.dims(d, nd, 8);
            in.dims(off, nd, 8);
            dnnl_memory_desc_create_submemory(out.out(), md, d, off);
            break;
        }
        default: {
            fuzz::md_t clone;
            check(dnnl_memory_desc_clone(clone.out(), md) == dnnl_success);
            check(dnnl_memory_desc_equal(clone.md, md) == 1);
            return;
        }
    }
    if (out.md) derive(in, out.md, depth + 1);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz::input_t in(data, size);
    fuzz::md_t md;
    const int nd = in.ndims();
    dnnl_dims_t dims;
    in.dims(dims, nd);
    const dnnl_data_type_t dt = in.data_type();
    dnnl_status_t st = dnnl_invalid_arguments;
    switch (in.ConsumeIntegralInRange<int>(0, 5)) {
        case 0: case 1: case 2: {
            auto tag = in.enum_in<dnnl_format_tag_t>(0, dnnl_format_tag_last + 1);
            st = dnnl_memory_desc_create_with_tag(md.out(), nd, dims, dt, tag);
            break;
        }
        case 3: {
            dnnl_dims_t strides;
            for (dnnl_dim_t &s : strides) s = in.dim(200);
            st = dnnl_memory_desc_create_with_strides(md.out(), nd, dims, dt,
                    in.ConsumeBool() ? strides : nullptr);
            break;
        }
        case 4: {
            dnnl_dim_t nnz = in.dim(50);
            switch (in.ConsumeIntegralInRange<int>(0, 2)) {
                case 0: st = dnnl_memory_desc_create_with_csr_encoding(md.out(), nd, dims, dt,
                                nnz, in.data_type(), in.data_type()); break;
                case 1: st = dnnl_memory_desc_create_with_coo_encoding(md.out(), nd, dims, dt,
                                nnz, in.data_type()); break;
                default: st = dnnl_memory_desc_create_with_packed_encoding(md.out(), nd, dims,
                                 dt, nnz); break;
            }
            break;
        }
        default: {
            // A blob from the input itself: the library must not trust its contents. The
            // buffer is as long as any blob, since the call takes no length.
            std::vector<uint8_t> blob = in.ConsumeBytes<uint8_t>(4096);
            blob.resize(4096);
            st = dnnl_memory_desc_create_with_blob(md.out(), blob.data());
            break;
        }
    }
    if (st != dnnl_success) return 0;
    derive(in, md.md, 0);
    return 0;
}
