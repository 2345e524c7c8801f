// Reference matmul: one dot product per dst element, any blocked layout, every supported type
// and attribute; the fallback when the GEMM path does not apply. int8 with quantization along
// K sums its integer products over each run of K whose scales stay the same, then scales the
// run's sum into f32 (src scale x weights scale), as oneDNN's dynamic quantization does.
#include "core/data_types_narrow.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/matmul/out_stage.hpp"
#include "cpu/matmul/woq_args.hpp"

namespace anydnn {
namespace cpu {

namespace {

const matmul_desc_t &matmul_of(const primitive_desc_t &pd) {
    return std::get<matmul_desc_t>(pd.desc);
}

struct ref_t;

struct ref_pd_t : public primitive_desc_impl_t<ref_pd_t, ref_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:matmul:ref"; }
    post_ops_chain_t po;
    // Weights decompression: the weights' scales and zero points; the output stage sees
    // stage_attr (the attribute without them).
    matmul::matmul_quant_t quant;

    static status_t init(ref_pd_t &pd) {
        memory_desc_t src, wei, bias, dst;
        ANYDNN_CHECK(matmul::resolve_matmul(matmul_of(pd), src, wei, bias, dst, true));
        ANYDNN_REQUIRE(src.ndims == dst.ndims && wei.ndims == dst.ndims, dnnl_unimplemented,
                "src, weights and dst ranks differ");
        ANYDNN_CHECK(
                matmul::init_matmul_quant(pd.attr, src, wei, dst, pd.quant, pd.po, pd.args));
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_WEIGHTS] = wei;
        if (!is_zero_md(bias)) pd.args[DNNL_ARG_BIAS] = bias;
        pd.args[DNNL_ARG_DST] = dst;
        return dnnl_success;
    }
};

struct ref_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd_ = static_cast<const ref_pd_t &>(pd());
        const memory_desc_t &src = ctx.md(DNNL_ARG_SRC);
        const memory_desc_t &wei = ctx.md(DNNL_ARG_WEIGHTS);
        const memory_desc_t &dst = ctx.md(DNNL_ARG_DST);
        const bool has_bias = pd_.args.count(DNNL_ARG_BIAS) != 0;
        const memory_desc_t &bias = has_bias ? ctx.md(DNNL_ARG_BIAS) : dst;
        const int nd = dst.ndims;
        const dim_t N = dst.dims[nd - 1], K = src.dims[nd - 1];
        ANYDNN_REQUIRE(src.dims[nd - 2] == dst.dims[nd - 2] && wei.dims[nd - 2] == K
                        && wei.dims[nd - 1] == N,
                dnnl_invalid_arguments, "src, weights and dst sizes do not agree");
        const dim_t total = nelems(dst);
        if (total == 0) return dnnl_success;

        matmul::out_stage_t out;
        ANYDNN_CHECK(out.bind(ctx, pd_.quant.stage_attr, pd_.po, N));
        matmul::woq_args_t woq;
        ANYDNN_CHECK(woq.bind(ctx, pd_.quant));
        out.dst = ctx.host_ptr(DNNL_ARG_DST);
        out.dst_dt = dst.data_type;
        out.n_axis = nd - 1;
        if (has_bias) {
            out.bias = ctx.host_ptr(DNNL_ARG_BIAS);
            out.bias_dt = bias.data_type;
        }
        float za = 0.f, zb = 0.f;
        const primitive_attr_t &stage = pd_.quant.stage_attr;
        // src zero points along K (or M and K): one per src element's group.
        const matmul::grouped_quant_t &szp = pd_.quant.src_zps;
        const void *szp_base = nullptr;
        dim_t szp_off = 0;
        if (szp.present) {
            const int a = DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC;
            szp_base = ctx.host_ptr(a);
            ANYDNN_REQUIRE(szp_base, dnnl_invalid_arguments, "src zero points are missing");
            szp_off = ctx.md(a).offset0;
        } else {
            ANYDNN_CHECK(matmul::read_zero_point(ctx, stage, DNNL_ARG_SRC, za));
        }
        ANYDNN_CHECK(matmul::read_zero_point(ctx, stage, DNNL_ARG_WEIGHTS, zb));
        const void *s = ctx.host_ptr(DNNL_ARG_SRC), *w = ctx.host_ptr(DNNL_ARG_WEIGHTS);
        const bool woq_on = pd_.quant.woq, grouped = pd_.quant.int8_grouped;
        using matmul::woq_args_t;
        // The integer sum of one run of K (s32 in oneDNN; 64 bits here, so no K overflows it).
        auto int8_grouped_dot = [&](dim_t *sp, dim_t *wp) {
            float acc = 0.f, scale = 1.f;
            int64_t part = 0;
            dim_t prev_s = -2, prev_w = -2;
            for (dim_t k = 0; k < K; ++k) {
                sp[nd - 1] = k;
                wp[nd - 2] = k;
                const dim_t si = woq_args_t::index(woq.src_scale, woq.src_scale_q, sp);
                const dim_t wi = woq_args_t::index(woq.scale, woq.scale_q, wp);
                if (si != prev_s || wi != prev_w) {
                    acc += static_cast<float>(part) * scale;
                    part = 0;
                    scale = woq_args_t::value(woq.src_scale, si, 1.f)
                            * woq_args_t::value(woq.scale, wi, 1.f);
                    prev_s = si, prev_w = wi;
                }
                const float z = szp.present
                        ? load_as_f32(szp.dt, szp_base, szp_off + szp.index(sp))
                        : za;
                const int64_t a = static_cast<int64_t>(
                        load_any_as_f32(src.data_type, s, off_logical(src, sp)) - z);
                const float zw = woq_args_t::value(
                        woq.zp, woq_args_t::index(woq.zp, woq.zp_q, wp), 0.f);
                const int64_t b = static_cast<int64_t>(
                        load_any_as_f32(wei.data_type, w, off_logical(wei, wp)) - zw);
                part += a * b;
            }
            return acc + static_cast<float>(part) * scale;
        };
        // Two 4-bit dst elements share a byte: one thread writes them all.
        const dim_t grain = is_4bit(dst.data_type) ? total : 64;

        parallel_range(total, [&](dim_t start, dim_t end) {
            dim_t pos[max_ndims], sp[max_ndims], wp[max_ndims], bp[max_ndims];
            for (dim_t e = start; e < end; ++e) {
                dim_t rem = e;
                for (int d = nd - 1; d >= 0; --d) {
                    pos[d] = rem % dst.dims[d];
                    rem /= dst.dims[d];
                }
                for (int d = 0; d < nd - 2; ++d) {
                    sp[d] = src.dims[d] == 1 ? 0 : pos[d];
                    wp[d] = wei.dims[d] == 1 ? 0 : pos[d];
                }
                sp[nd - 2] = pos[nd - 2];
                wp[nd - 1] = pos[nd - 1];
                double acc = 0;
                if (grouped) acc = int8_grouped_dot(sp, wp);
                for (dim_t k = 0; !grouped && k < K; ++k) {
                    sp[nd - 1] = k;
                    wp[nd - 2] = k;
                    const float z = szp.present
                            ? load_as_f32(szp.dt, szp_base, szp_off + szp.index(sp))
                            : za;
                    const double a = load_any_as_f32(src.data_type, s, off_logical(src, sp)) - z;
                    const float wv = load_any_as_f32(wei.data_type, w, off_logical(wei, wp));
                    const double b = woq_on ? woq.dequant(wv, wp) : wv - zb;
                    acc += a * b;
                }
                dim_t boff = 0;
                if (has_bias) {
                    for (int d = 0; d < nd; ++d)
                        bp[d] = bias.dims[d] == 1 ? 0 : pos[d];
                    boff = off_logical(bias, bp);
                }
                float v = static_cast<float>(acc);
                out.row(&v, 1, pos, pos[nd - 1], boff, off_logical(dst, pos));
            }
        }, grain);
        return dnnl_success;
    }
};

} // namespace

impl_entry_t matmul_ref_entry() {
    return make_impl_entry<ref_pd_t>("cpu:matmul:ref");
}

} // namespace cpu
} // namespace anydnn
