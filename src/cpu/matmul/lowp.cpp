// Matmul on the low-precision GEMMs (cpu/ukernels/gemm_lowp): bf16 x bf16 on AVX512_BF16 and
// u8/s8 x u8/s8 on AVX512_VNNI, chosen only when the ISA is enabled. Weights given as `any`
// are laid out as the kernels' packed panels; plain ones (any strides) are packed per call.
// Batched with broadcast, bias, scales, zero points and post-ops through the matmul output
// stage; plain s32 (int8) and f32/bf16 (bf16) dst are stored by the kernels directly.
#include <atomic>
#include <vector>

#include "core/data_types.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/matmul/out_stage.hpp"
#include "cpu/ukernels/gemm_lowp.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

namespace anydnn {
namespace cpu {

namespace {

using ukernels::lowp_gemm_t;

const matmul_desc_t &matmul_of(const primitive_desc_t &pd) {
    return std::get<matmul_desc_t>(pd.desc);
}

template <bool INT8>
struct lowp_t;

template <bool INT8>
struct lowp_pd_t : public primitive_desc_impl_t<lowp_pd_t<INT8>, lowp_t<INT8>> {
    using primitive_desc_impl_t<lowp_pd_t<INT8>, lowp_t<INT8>>::primitive_desc_impl_t;
    static const char *impl_name() {
        return INT8 ? "cpu:matmul:int8_vnni" : "cpu:matmul:bf16_avx512bf16";
    }
    const char *name() const override { return impl_name(); }
    post_ops_chain_t po;
    bool packed_wei = false;

    static status_t init(lowp_pd_t &pd) {
        ANYDNN_REQUIRE(INT8 ? ukernels::gemm_int8_available() : ukernels::gemm_bf16_available(),
                dnnl_unimplemented, "%s is not enabled on this CPU",
                INT8 ? "avx512_core_vnni" : "avx512_core_bf16");
        matmul_desc_t d = matmul_of(pd);
        const dnnl_data_type_t sdt = d.src_md.data_type, wdt = d.weights_md.data_type;
        if (INT8)
            ANYDNN_REQUIRE((sdt == dnnl_u8 || sdt == dnnl_s8) && (wdt == dnnl_u8 || wdt == dnnl_s8),
                    dnnl_unimplemented, "src/weights %s/%s are not int8", dnnl_dt2str(sdt),
                    dnnl_dt2str(wdt));
        else
            ANYDNN_REQUIRE(sdt == dnnl_bf16 && wdt == dnnl_bf16, dnnl_unimplemented,
                    "src/weights %s/%s are not bf16", dnnl_dt2str(sdt), dnnl_dt2str(wdt));
        memory_desc_t &w = d.weights_md;
        const int nd = d.dst_md.ndims;
        memory_desc_t packed;
        const bool can_pack = (nd == 2 || nd == 3) && w.ndims == nd
                && !has_runtime_dims_or_strides(w)
                && ukernels::lowp_packed_weights_md(packed, nd, w.dims, wdt) == dnnl_success;
        if (can_pack && w.format_kind == dnnl_format_kind_any) w = packed;
        memory_desc_t src, wei, bias, dst;
        ANYDNN_CHECK(matmul::resolve_matmul(d, src, wei, bias, dst));
        pd.packed_wei = can_pack && md_equal(wei, packed);
        ANYDNN_REQUIRE(is_plain(src) && is_plain(dst) && (is_zero_md(bias) || is_plain(bias))
                        && (pd.packed_wei || is_plain(wei)),
                dnnl_unimplemented, "a tensor has a blocked layout the kernels do not read");
        ANYDNN_REQUIRE(src.ndims == nd && wei.ndims == nd, dnnl_unimplemented,
                "src, weights and dst ranks differ");
        std::vector<int> zp_args;
        if (INT8) zp_args = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST};
        ANYDNN_CHECK(matmul::init_attr(pd.attr, dst, 1 << (nd - 1), zp_args, pd.po, pd.args));
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_WEIGHTS] = wei;
        if (!is_zero_md(bias)) pd.args[DNNL_ARG_BIAS] = bias;
        pd.args[DNNL_ARG_DST] = dst;
        return dnnl_success;
    }
};

const char *at(const void *base, const memory_desc_t &md, dim_t off) {
    return static_cast<const char *>(base) + off * data_type_size(md.data_type);
}

template <bool INT8>
struct lowp_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd_ = static_cast<const lowp_pd_t<INT8> &>(pd());
        const memory_desc_t &src = ctx.md(DNNL_ARG_SRC);
        const memory_desc_t &wei = ctx.md(DNNL_ARG_WEIGHTS);
        const memory_desc_t &dst = ctx.md(DNNL_ARG_DST);
        const bool has_bias = pd_.args.count(DNNL_ARG_BIAS) != 0;
        const memory_desc_t &bias = has_bias ? ctx.md(DNNL_ARG_BIAS) : dst;
        const int nd = dst.ndims;
        const dim_t M = dst.dims[nd - 2], N = dst.dims[nd - 1], K = src.dims[nd - 1];
        ANYDNN_REQUIRE(src.dims[nd - 2] == M && wei.dims[nd - 2] == K && wei.dims[nd - 1] == N,
                dnnl_invalid_arguments, "src, weights and dst sizes do not agree");
        if (M == 0 || N == 0 || nelems(dst) == 0) return dnnl_success;

        matmul::out_stage_t out;
        dim_t bias_sm = 0;
        ANYDNN_CHECK(out.bind_matmul(ctx, pd_.attr, pd_.po, has_bias, bias_sm));
        float za = 0.f, zb = 0.f;
        ANYDNN_CHECK(matmul::read_zero_point(ctx, pd_.attr, DNNL_ARG_SRC, za));
        ANYDNN_CHECK(matmul::read_zero_point(ctx, pd_.attr, DNNL_ARG_WEIGHTS, zb));

        // The kernels store s32 (int8) or f32/bf16 (bf16) rows themselves when nothing else
        // is to be done; everything else goes through the output stage per tile.
        const bool plain_out = !out.po && out.src_scale == 1.f && out.wei_scale == 1.f
                && out.wei_scales.empty() && out.dst_scale_inv == 1.f && out.dst_zp == 0.f
                && out.dst_zps.empty()
                && !out.bias && out.dst_stride_n == 1;
        const bool direct = plain_out
                && (INT8 ? dst.data_type == dnnl_s32
                         : (dst.data_type == dnnl_f32 || dst.data_type == dnnl_bf16));
        dim_t batch = 1;
        for (int d = 0; d < nd - 2; ++d)
            batch *= dst.dims[d];

        const void *src_base = ctx.host_ptr(DNNL_ARG_SRC);
        const void *wei_base = ctx.host_ptr(DNNL_ARG_WEIGHTS);
        const dim_t panel_stride = pd_.packed_wei ? ukernels::lowp_panel_stride(wei) : 0;
        auto run_one = [&](dim_t b, int nthr) -> status_t {
            dim_t pos[max_ndims] = {};
            dim_t rem = b;
            for (int d = nd - 3; d >= 0; --d) {
                pos[d] = rem % dst.dims[d];
                rem /= dst.dims[d];
            }
            dim_t so = src.offset0, wo = wei.offset0, dso = dst.offset0,
                  bo = has_bias ? bias.offset0 : 0;
            for (int d = 0; d < nd - 2; ++d) {
                if (src.dims[d] != 1) so += pos[d] * src.blocking.strides[d];
                if (wei.dims[d] != 1) wo += pos[d] * wei.blocking.strides[d];
                dso += pos[d] * dst.blocking.strides[d];
                if (has_bias && bias.dims[d] != 1) bo += pos[d] * bias.blocking.strides[d];
            }
            lowp_gemm_t p;
            p.M = M;
            p.N = N;
            p.K = K;
            p.a = {at(src_base, src, so), src.data_type, src.blocking.strides[nd - 2],
                    src.blocking.strides[nd - 1], 0, static_cast<int32_t>(za)};
            if (pd_.packed_wei)
                p.b = {at(wei_base, wei, wo), wei.data_type, 0, 0, panel_stride,
                        static_cast<int32_t>(zb)};
            else
                p.b = {at(wei_base, wei, wo), wei.data_type, wei.blocking.strides[nd - 2],
                        wei.blocking.strides[nd - 1], 0, static_cast<int32_t>(zb)};
            const dim_t dst_sm = dst.blocking.strides[nd - 2];
            p.nthr = nthr;
            if (direct) {
                p.c = const_cast<char *>(at(out.dst, dst, dso));
                p.c_dt = dst.data_type;
                p.ldc = dst_sm;
            } else {
                p.epilogue = [&, pos](dim_t m0, dim_t n0, dim_t mb, dim_t nb, void *v,
                                     dim_t ldv) {
                    dim_t q[max_ndims];
                    std::copy(pos, pos + max_ndims, q);
                    float row[ukernels::lowp_panel_cols];
                    for (dim_t i = 0; i < mb; ++i) {
                        const dim_t m = m0 + i;
                        q[nd - 2] = m;
                        float *x = row;
                        if (INT8) {
                            const int32_t *s = static_cast<const int32_t *>(v) + i * ldv;
                            for (dim_t j = 0; j < nb; ++j)
                                row[j] = static_cast<float>(s[j]);
                        } else {
                            x = static_cast<float *>(v) + i * ldv;
                        }
                        out.row(x, nb, q, n0, bo + m * bias_sm + n0 * out.bias_stride_n,
                                dso + m * dst_sm + n0 * out.dst_stride_n);
                    }
                };
            }
            return INT8 ? ukernels::gemm_int8(p) : ukernels::gemm_bf16(p);
        };

        const int nthr = max_threads();
        const double flops = double(M) * N * K;
        std::atomic<int> failed {0};
        if (batch >= nthr && nthr > 1 && flops < double(1 << 22)) {
            parallel(nthr, [&](int ithr, int nt) {
                dim_t b0, b1;
                balance211(batch, nt, ithr, b0, b1);
                for (dim_t b = b0; b < b1; ++b)
                    if (run_one(b, 1) != dnnl_success) failed = 1;
            });
        } else {
            for (dim_t b = 0; b < batch; ++b)
                if (run_one(b, 0) != dnnl_success) failed = 1;
        }
        ANYDNN_REQUIRE(!failed, dnnl_out_of_memory, "no memory for the GEMM scratch");
        return dnnl_success;
    }
};

} // namespace

impl_entry_t matmul_bf16_avx512bf16_entry() {
    return make_impl_entry<lowp_pd_t<false>>(lowp_pd_t<false>::impl_name());
}

impl_entry_t matmul_int8_vnni_entry() {
    return make_impl_entry<lowp_pd_t<true>>(lowp_pd_t<true>::impl_name());
}

} // namespace cpu
} // namespace anydnn
