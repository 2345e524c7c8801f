// Matmul on the shared packed GEMM (cpu/ukernels/gemm): plain layouts with any strides
// (transposed operands included), batch broadcast, runtime dimensions; the output stage runs
// on each finished block of C while it is in cache.
#include <cstdlib>
#include <memory>

#include "core/data_types_narrow.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/matmul/out_stage.hpp"
#include "cpu/matmul/woq_args.hpp"
#include "cpu/ukernels/gemm.hpp"

namespace anydnn {
namespace cpu {

namespace {

const matmul_desc_t &matmul_of(const primitive_desc_t &pd) {
    return std::get<matmul_desc_t>(pd.desc);
}

struct gemm_t;

struct gemm_pd_t : public primitive_desc_impl_t<gemm_pd_t, gemm_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:matmul:gemm"; }
    post_ops_chain_t po;
    bool packed_wei = false; // f32 weights in the GEMM's panel layout, read in place
    // Weights decompression: integer weights turned into f32 while the GEMM packs them; the
    // output stage sees stage_attr (the attribute without the weights' parameters).
    matmul::matmul_quant_t quant;

    static status_t init(gemm_pd_t &pd) {
        matmul_desc_t d = matmul_of(pd);
        memory_desc_t &w = d.weights_md;
        const int nd = d.dst_md.ndims;
        memory_desc_t packed;
        const bool can_pack = d.src_md.data_type == dnnl_f32 && w.ndims == nd
                && !has_runtime_dims_or_strides(w)
                && ukernels::gemm_packed_b_md(packed, nd, w.dims, w.data_type) == dnnl_success;
        if (can_pack && w.format_kind == dnnl_format_kind_any) w = packed;
        memory_desc_t src, wei, bias, dst;
        ANYDNN_CHECK(matmul::resolve_matmul(d, src, wei, bias, dst, true));
        pd.packed_wei = can_pack && md_equal(wei, packed);
        ANYDNN_REQUIRE(is_plain(src) && (pd.packed_wei || is_plain(wei)) && is_plain(dst)
                        && (is_zero_md(bias) || is_plain(bias)),
                dnnl_unimplemented, "a tensor has a blocked layout the GEMM does not read");
        ANYDNN_REQUIRE(src.ndims == dst.ndims && wei.ndims == dst.ndims, dnnl_unimplemented,
                "src, weights and dst ranks differ");
        ANYDNN_CHECK(
                matmul::init_matmul_quant(pd.attr, src, wei, dst, pd.quant, pd.po, pd.args));
        ANYDNN_REQUIRE(!pd.quant.src_zps.present, dnnl_unimplemented,
                "src zero points along K are taken by the reference matmul");
        ANYDNN_REQUIRE(!pd.quant.int8_grouped, dnnl_unimplemented,
                "int8 with scales or zero points along K is taken by the reference matmul");
        for (const memory_desc_t *md : {&src, &wei, &dst})
            ANYDNN_REQUIRE(!is_f4(md->data_type), dnnl_unimplemented,
                    "4-bit float tensors are taken by the reference matmul");
        const bool int4_wei = wei.data_type == dnnl_s4 || wei.data_type == dnnl_u4;
        ANYDNN_REQUIRE(!int4_wei || pd.quant.woq, dnnl_unimplemented,
                "4-bit weights with int8 src are taken by the reference matmul");
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_WEIGHTS] = wei;
        if (!is_zero_md(bias)) pd.args[DNNL_ARG_BIAS] = bias;
        pd.args[DNNL_ARG_DST] = dst;
        return dnnl_success;
    }
};

struct free_deleter {
    void operator()(float *p) const { std::free(p); }
};

const char *at(const void *base, const memory_desc_t &md, dim_t off) {
    return static_cast<const char *>(base) + off * data_type_size(md.data_type);
}

struct gemm_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd_ = static_cast<const gemm_pd_t &>(pd());
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
        ANYDNN_CHECK(out.bind_matmul(ctx, pd_.quant.stage_attr, pd_.po, has_bias, bias_sm));
        float za = 0.f, zb = 0.f;
        const primitive_attr_t &stage = pd_.quant.stage_attr;
        ANYDNN_CHECK(matmul::read_zero_point(ctx, stage, DNNL_ARG_SRC, za));
        ANYDNN_CHECK(matmul::read_zero_point(ctx, stage, DNNL_ARG_WEIGHTS, zb));
        matmul::woq_args_t woq;
        ANYDNN_CHECK(woq.bind(ctx, pd_.quant));

        const bool in_place = dst.data_type == dnnl_f32 && out.dst_stride_n == 1
                && !pd_.po.has_sum();
        const bool need_epilogue = !in_place || !out.trivial();
        dim_t batch = 1;
        for (int d = 0; d < nd - 2; ++d)
            batch *= dst.dims[d];

        const void *src_base = ctx.host_ptr(DNNL_ARG_SRC);
        const void *wei_base = ctx.host_ptr(DNNL_ARG_WEIGHTS);
        // One product per batch index; small ones go one per thread, big ones use them all.
        auto run_one = [&](dim_t b, int nthr, float *cbuf) {
            dim_t pos[max_ndims] = {};
            dim_t rem = b;
            for (int d = nd - 3; d >= 0; --d) {
                pos[d] = rem % dst.dims[d];
                rem /= dst.dims[d];
            }
            dim_t so = src.offset0, wo = wei.offset0, dso = dst.offset0,
                  bo = has_bias ? bias.offset0 : 0;
            dim_t wpos[max_ndims] = {}; // the weights' own position (their broadcast applied)
            for (int d = 0; d < nd - 2; ++d) {
                if (src.dims[d] != 1) so += pos[d] * src.blocking.strides[d];
                if (wei.dims[d] != 1) wo += pos[d] * wei.blocking.strides[d];
                if (wei.dims[d] != 1) wpos[d] = pos[d];
                dso += pos[d] * dst.blocking.strides[d];
                if (has_bias && bias.dims[d] != 1) bo += pos[d] * bias.blocking.strides[d];
            }
            ukernels::gemm_problem_t p;
            p.M = M;
            p.N = N;
            p.K = K;
            p.a = {at(src_base, src, so), src.data_type, src.blocking.strides[nd - 2],
                    src.blocking.strides[nd - 1], za};
            ukernels::gemm_dequant_t dq;
            if (pd_.packed_wei)
                p.b = {at(wei_base, wei, wo), wei.data_type, 0, 0, 0.f,
                        ukernels::gemm_packed_b_panel_stride(wei)};
            else if (pd_.quant.woq) { // sub-byte weights: the element offset travels separately
                dq = woq.for_batch(wpos, wo);
                p.b = {wei_base, wei.data_type, wei.blocking.strides[nd - 2],
                        wei.blocking.strides[nd - 1], 0.f, 0, &dq};
            } else
                p.b = {at(wei_base, wei, wo), wei.data_type, wei.blocking.strides[nd - 2],
                        wei.blocking.strides[nd - 1], zb};
            const dim_t dst_sm = dst.blocking.strides[nd - 2];
            p.c = in_place ? static_cast<float *>(out.dst) + dso : cbuf;
            p.ldc = in_place ? dst_sm : N;
            p.nthr = nthr;
            if (need_epilogue)
                p.epilogue = [&, pos](dim_t m0, dim_t n0, dim_t mb, dim_t nb) {
                    dim_t q[max_ndims];
                    std::copy(pos, pos + max_ndims, q);
                    for (dim_t i = 0; i < mb; ++i) {
                        const dim_t m = m0 + i;
                        q[nd - 2] = m;
                        out.row(p.c + m * p.ldc + n0, nb, q, n0,
                                bo + m * bias_sm + n0 * out.bias_stride_n,
                                dso + m * dst_sm + n0 * out.dst_stride_n);
                    }
                };
            ukernels::gemm(p);
        };

        const int nthr = max_threads();
        const double flops = double(M) * N * K;
        auto alloc_c = [&]() {
            return std::unique_ptr<float, free_deleter>(in_place
                            ? nullptr
                            : static_cast<float *>(std::aligned_alloc(
                                    64, ((M * N * sizeof(float)) + 63) / 64 * 64)));
        };
        if (batch >= nthr && nthr > 1 && flops < double(1 << 22)) {
            parallel(nthr, [&](int ithr, int nt) {
                dim_t b0, b1;
                balance211(batch, nt, ithr, b0, b1);
                auto c = alloc_c();
                for (dim_t b = b0; b < b1; ++b)
                    run_one(b, 1, c.get());
            });
        } else {
            auto c = alloc_c();
            for (dim_t b = 0; b < batch; ++b)
                run_one(b, 0, c.get());
        }
        return dnnl_success;
    }
};

} // namespace

impl_entry_t matmul_gemm_entry() {
    return make_impl_entry<gemm_pd_t>("cpu:matmul:gemm");
}

} // namespace cpu
} // namespace anydnn
