// Matmul with packed sparse weights on the CPU (core/sparse_packed.hpp): dst(M, N) =
// src(M, K) x weights(K, N), src and dst dense. The weights descriptor the user passes is a
// request; the primitive resolves it (weights_desc() gives the layout, a reorder from dense
// weights fills it). Each dst row accumulates, for every non-zero src element, the set bits
// of its weights row: f32 for f32/f16/bf16 values, s32 (exact) for int8.
#include <cstring>

#include "core/data_types.hpp"
#include "core/parallel.hpp"
#include "core/primitive.hpp"
#include "core/primitive_attr.hpp"
#include "core/sparse_packed.hpp"
#include "cpu/impl_entries.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

namespace anydnn {
namespace cpu {

namespace {

using sparse_packed::chunk_cols;

bool is_value_type(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_f16 || dt == dnnl_bf16;
}

// oneDNN's int8 combination (u8/s8 src, s8 weights; f32, s32, s8 or u8 dst), and the
// floating-point ones of the CSR/COO matmul (same type, dst of that type or f32).
bool types_supported(dnnl_data_type_t s, dnnl_data_type_t w, dnnl_data_type_t d) {
    if (is_value_type(s)) return w == s && (d == s || d == dnnl_f32);
    return (s == dnnl_u8 || s == dnnl_s8) && w == dnnl_s8
            && (d == dnnl_f32 || d == dnnl_s32 || d == dnnl_s8 || d == dnnl_u8);
}

status_t resolve_dense(memory_desc_t &md, const char *name) {
    if (md.format_kind == dnnl_format_kind_any)
        return md_init_with_strides(md, md.ndims, md.dims, md.data_type, nullptr);
    ANYDNN_REQUIRE(is_plain(md) && !has_runtime_dims_or_strides(md), dnnl_unimplemented,
            "packed sparse matmul: %s must be a plain dense layout with fixed dimensions",
            name);
    return dnnl_success;
}

struct sparse_packed_t;

struct sparse_packed_pd_t : public primitive_desc_impl_t<sparse_packed_pd_t, sparse_packed_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:matmul:sparse_packed"; }
    dim_t M = 0, K = 0, N = 0;
    bool int8 = false;

    static status_t init(sparse_packed_pd_t &pd) {
        const auto &d = std::get<matmul_desc_t>(pd.desc);
        memory_desc_t src = d.src_md, wei = d.weights_md, dst = d.dst_md;
        ANYDNN_REQUIRE(!sparse_packed::is_packed(src), dnnl_unimplemented,
                "packed sparse matmul: only the weights may be packed (as in oneDNN)");
        ANYDNN_REQUIRE(sparse_packed::is_packed(wei), dnnl_unimplemented,
                "the weights are not packed sparse");
        ANYDNN_REQUIRE(src.format_kind != dnnl_format_kind_sparse
                        && dst.format_kind != dnnl_format_kind_sparse,
                dnnl_unimplemented, "packed sparse matmul: src and dst must be dense");
        ANYDNN_REQUIRE(sparse_packed::is_request(wei) || sparse_packed::is_resolved(wei),
                dnnl_invalid_arguments, "packed sparse matmul: weights metadata types %s/%s "
                "are not a packed layout", dnnl_dt2str(wei.sparse.metadata_types[0]),
                dnnl_dt2str(wei.sparse.metadata_types[1]));
        ANYDNN_REQUIRE(dst.ndims == 2, dnnl_unimplemented,
                "packed sparse matmul takes 2D tensors only (got %d dimensions)", dst.ndims);
        ANYDNN_REQUIRE(types_supported(src.data_type, wei.data_type, dst.data_type),
                dnnl_unimplemented,
                "packed sparse matmul: %s:%s:%s is not supported (u8/s8:s8:f32/s32/s8/u8, "
                "or f32, f16, bf16 values with dst of that type or f32)",
                dnnl_dt2str(src.data_type), dnnl_dt2str(wei.data_type),
                dnnl_dt2str(dst.data_type));
        ANYDNN_REQUIRE(is_zero_md(d.bias_md), dnnl_unimplemented,
                "packed sparse matmul takes no bias");
        ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::scratchpad | attr_skip::deterministic),
                dnnl_unimplemented,
                "packed sparse matmul takes no scales, zero points or post-ops");
        ANYDNN_CHECK(resolve_dense(src, "src"));
        ANYDNN_CHECK(resolve_dense(dst, "dst"));
        pd.M = dst.dims[0];
        pd.N = dst.dims[1];
        pd.K = src.dims[1];
        pd.int8 = !is_value_type(src.data_type);
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_WEIGHTS] = sparse_packed::resolve(wei);
        pd.args[DNNL_ARG_DST] = dst;
        // One accumulator row (f32 or s32) per dst row.
        pd.scratchpad_size = static_cast<size_t>(pd.M * pd.N) * sizeof(float);
        return dnnl_success;
    }
};

// The weights' metadata and values; rows of K, chunks of 64 columns of N.
struct packed_view_t {
    const void *values;
    dnnl_data_type_t dt;
    const int64_t *offsets;
    const uint64_t *masks;
    dim_t chunks_per_row;
};

// acc[0, N) += s * weights row k, for the set bits of each chunk of that row.
template <typename Acc, typename Load>
void add_row(Acc *acc, Acc s, const packed_view_t &w, dim_t k, Load load) {
    for (dim_t c = 0; c < w.chunks_per_row; ++c) {
        const dim_t chunk = k * w.chunks_per_row + c;
        uint64_t bits = w.masks[chunk];
        int64_t p = w.offsets[chunk];
        Acc *a = acc + c * chunk_cols;
        while (bits) {
            a[__builtin_ctzll(bits)] += s * load(p++);
            bits &= bits - 1;
        }
    }
}

struct sparse_packed_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const sparse_packed_pd_t &>(this->pd());
        const dim_t M = pd.M, K = pd.K, N = pd.N;
        if (M == 0 || N == 0) return dnnl_success;
        const memory_t *wm = ctx.arg(DNNL_ARG_WEIGHTS);
        const memory_desc_t &wmd = pd.arg_md(DNNL_ARG_WEIGHTS);
        const sparse_packed::geometry_t g = sparse_packed::geometry(wmd);
        packed_view_t w {wm->host_ptr(0), wmd.data_type,
                static_cast<const int64_t *>(wm->host_ptr(1)),
                static_cast<const uint64_t *>(wm->host_ptr(2)), g.chunks_per_row};
        dim_t count = 0;
        ANYDNN_CHECK(sparse_packed::check_metadata(wmd, w.offsets, w.masks, count));
        ANYDNN_REQUIRE(w.values || count == 0, dnnl_invalid_arguments,
                "packed sparse matmul: the weights' values are missing");
        void *accp = ctx.scratchpad;
        ANYDNN_REQUIRE(accp, dnnl_invalid_arguments,
                "packed sparse matmul: the scratchpad is missing");

        const memory_desc_t &smd = ctx.md(DNNL_ARG_SRC), &dmd = ctx.md(DNNL_ARG_DST);
        const void *src = ctx.host_ptr(DNNL_ARG_SRC);
        void *dst = ctx.host_ptr(DNNL_ARG_DST);
        const dim_t ss0 = smd.blocking.strides[0], ss1 = smd.blocking.strides[1];
        const dim_t ds0 = dmd.blocking.strides[0], ds1 = dmd.blocking.strides[1];
        const dnnl_data_type_t sdt = smd.data_type, ddt = dmd.data_type;
        parallel_range(M, [&](dim_t m0, dim_t m1) {
            for (dim_t m = m0; m < m1; ++m) {
                const dim_t srow = smd.offset0 + m * ss0, drow = dmd.offset0 + m * ds0;
                if (pd.int8) {
                    int32_t *acc = static_cast<int32_t *>(accp) + m * N;
                    std::memset(acc, 0, sizeof(int32_t) * N);
                    const int8_t *wv = static_cast<const int8_t *>(w.values);
                    for (dim_t k = 0; k < K; ++k) {
                        const int32_t s = static_cast<int32_t>(
                                load_as_f32(sdt, src, srow + k * ss1));
                        if (s) add_row(acc, s, w, k, [&](int64_t p) { return int32_t(wv[p]); });
                    }
                    for (dim_t n = 0; n < N; ++n)
                        if (ddt == dnnl_s32)
                            static_cast<int32_t *>(dst)[drow + n * ds1] = acc[n];
                        else
                            store_from_f32(ddt, dst, drow + n * ds1, float(acc[n]));
                } else {
                    float *acc = static_cast<float *>(accp) + m * N;
                    std::memset(acc, 0, sizeof(float) * N);
                    for (dim_t k = 0; k < K; ++k) {
                        const float s = load_as_f32(sdt, src, srow + k * ss1);
                        if (s == 0.f) continue;
                        if (w.dt == dnnl_f32) {
                            const float *wv = static_cast<const float *>(w.values);
                            add_row(acc, s, w, k, [&](int64_t p) { return wv[p]; });
                        } else {
                            add_row(acc, s, w, k,
                                    [&](int64_t p) { return load_as_f32(w.dt, w.values, p); });
                        }
                    }
                    for (dim_t n = 0; n < N; ++n)
                        store_from_f32(ddt, dst, drow + n * ds1, acc[n]);
                }
            }
        }, 1);
        return dnnl_success;
    }
};

} // namespace

impl_entry_t matmul_sparse_packed_entry() {
    return make_impl_entry<sparse_packed_pd_t>("cpu:matmul:sparse_packed");
}

} // namespace cpu
} // namespace anydnn
