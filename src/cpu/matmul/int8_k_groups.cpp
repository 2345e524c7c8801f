// int8 matmul with quantization along K (src scales along K, weights scales and zero points
// grouped along K; core/ops/matmul/woq.hpp's is_int8_grouped): K splits into runs over which
// the src and weights scale groups stay the same. Per panel of N columns, each run's weights
// are unpacked once as integers minus their zero points; every row sums its products over
// the run in s32, and the sum is scaled into the row's f32 result (src scale x weights
// scale). The output stage runs on each finished panel. Plain layouts with any strides,
// batches with broadcast, s8/u8/s4/u4 weights; src zero points along K go to the reference.
#include <algorithm>
#include <vector>

#include "core/data_types_narrow.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/matmul/out_stage.hpp"
#include "cpu/matmul/woq_args.hpp"

namespace anydnn {
namespace cpu {

namespace {

using matmul::woq_args_t;

constexpr dim_t panel_cols = 64;

const matmul_desc_t &matmul_of(const primitive_desc_t &pd) {
    return std::get<matmul_desc_t>(pd.desc);
}

struct int8_k_groups_t;

struct int8_k_groups_pd_t : public primitive_desc_impl_t<int8_k_groups_pd_t, int8_k_groups_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:matmul:int8_k_groups"; }
    post_ops_chain_t po;
    matmul::matmul_quant_t quant;

    static status_t init(int8_k_groups_pd_t &pd) {
        memory_desc_t src, wei, bias, dst;
        ANYDNN_CHECK(matmul::resolve_matmul(matmul_of(pd), src, wei, bias, dst, true));
        ANYDNN_REQUIRE(matmul::is_int8(src), dnnl_unimplemented, "src is not int8");
        const bool with_bias = !is_zero_md(bias);
        ANYDNN_REQUIRE(is_plain(src) && is_plain(wei) && is_plain(dst)
                        && (!with_bias || is_plain(bias)),
                dnnl_unimplemented, "a tensor has a blocked layout");
        for (const memory_desc_t *md : {&src, &wei, &dst, &bias})
            ANYDNN_REQUIRE(!has_runtime_dims_or_strides(*md), dnnl_unimplemented,
                    "runtime dimensions run on the reference matmul");
        ANYDNN_REQUIRE(src.ndims == dst.ndims && wei.ndims == dst.ndims, dnnl_unimplemented,
                "src, weights and dst ranks differ");
        ANYDNN_CHECK(
                matmul::init_matmul_quant(pd.attr, src, wei, dst, pd.quant, pd.po, pd.args));
        ANYDNN_REQUIRE(pd.quant.int8_grouped, dnnl_unimplemented,
                "no quantization along K (the int8 GEMMs take the problem)");
        ANYDNN_REQUIRE(!pd.quant.src_zps.present, dnnl_unimplemented,
                "src zero points along K are taken by the reference matmul");
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_WEIGHTS] = wei;
        if (with_bias) pd.args[DNNL_ARG_BIAS] = bias;
        pd.args[DNNL_ARG_DST] = dst;
        return dnnl_success;
    }
};

// The K extent over which a parameter keeps one value (K when it does not vary along K).
dim_t k_group(const matmul::grouped_quant_t *q, int k_dim, dim_t K) {
    return q && q->stride[k_dim] != 0 ? q->group[k_dim] : K;
}

struct int8_k_groups_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd_ = static_cast<const int8_k_groups_pd_t &>(pd());
        const memory_desc_t &src = ctx.md(DNNL_ARG_SRC);
        const memory_desc_t &wei = ctx.md(DNNL_ARG_WEIGHTS);
        const memory_desc_t &dst = ctx.md(DNNL_ARG_DST);
        const bool has_bias = pd_.args.count(DNNL_ARG_BIAS) != 0;
        const memory_desc_t &bias = has_bias ? ctx.md(DNNL_ARG_BIAS) : dst;
        const int nd = dst.ndims;
        const dim_t M = dst.dims[nd - 2], N = dst.dims[nd - 1], K = src.dims[nd - 1];
        if (nelems(dst) == 0) return dnnl_success;

        matmul::out_stage_t out;
        dim_t bias_sm = 0;
        const primitive_attr_t &stage = pd_.quant.stage_attr;
        ANYDNN_CHECK(out.bind_matmul(ctx, stage, pd_.po, has_bias, bias_sm));
        float za_f = 0.f;
        ANYDNN_CHECK(matmul::read_zero_point(ctx, stage, DNNL_ARG_SRC, za_f));
        const int32_t za = static_cast<int32_t>(za_f);
        woq_args_t q;
        ANYDNN_CHECK(q.bind(ctx, pd_.quant));

        // Runs of K: a new one wherever a src or weights scale group starts.
        const dim_t gs = k_group(q.src_scale_q, nd - 1, K), gw = k_group(q.scale_q, nd - 2, K);
        std::vector<dim_t> run_start = {0};
        dim_t max_run = 0;
        while (run_start.back() < K) {
            const dim_t k0 = run_start.back();
            const dim_t k1 = std::min({(k0 / gs + 1) * gs, (k0 / gw + 1) * gw, K});
            max_run = std::max(max_run, k1 - k0);
            run_start.push_back(k1);
        }
        dim_t batch = 1;
        for (int d = 0; d < nd - 2; ++d)
            batch *= dst.dims[d];
        const dim_t panels = (N + panel_cols - 1) / panel_cols;
        const void *sb = ctx.host_ptr(DNNL_ARG_SRC), *wb = ctx.host_ptr(DNNL_ARG_WEIGHTS);
        const bool s8 = src.data_type == dnnl_s8;
        const dim_t *ss = src.blocking.strides, *ws = wei.blocking.strides,
                    *ds = dst.blocking.strides;

        parallel(max_threads(), [&](int ithr, int nthr) {
            dim_t t0, t1;
            balance211(batch * panels, nthr, ithr, t0, t1);
            std::vector<int32_t> wslab(static_cast<size_t>(max_run * panel_cols));
            std::vector<int32_t> acc(panel_cols);
            std::vector<float> wscale(panel_cols), res(static_cast<size_t>(M * panel_cols));
            for (dim_t t = t0; t < t1; ++t) {
                const dim_t b = t / panels, n0 = t % panels * panel_cols;
                const dim_t nb = std::min(panel_cols, N - n0);
                dim_t pos[max_ndims] = {}, sp[max_ndims] = {}, wp[max_ndims] = {};
                dim_t rem = b, so = src.offset0, wo = wei.offset0, dso = dst.offset0,
                      bo = has_bias ? bias.offset0 : 0;
                for (int d = nd - 3; d >= 0; --d) {
                    pos[d] = rem % dst.dims[d];
                    rem /= dst.dims[d];
                }
                for (int d = 0; d < nd - 2; ++d) {
                    sp[d] = src.dims[d] == 1 ? 0 : pos[d];
                    wp[d] = wei.dims[d] == 1 ? 0 : pos[d];
                    so += sp[d] * ss[d];
                    wo += wp[d] * ws[d];
                    dso += pos[d] * ds[d];
                    if (has_bias && bias.dims[d] != 1) bo += pos[d] * bias.blocking.strides[d];
                }
                std::fill(res.begin(), res.end(), 0.f);
                for (size_t r = 0; r + 1 < run_start.size(); ++r) {
                    const dim_t k0 = run_start[r], k1 = run_start[r + 1];
                    // The run's weights minus their zero points, and each column's scale.
                    for (dim_t k = k0; k < k1; ++k) {
                        wp[nd - 2] = k;
                        int32_t *row = wslab.data() + (k - k0) * nb;
                        for (dim_t j = 0; j < nb; ++j) {
                            wp[nd - 1] = n0 + j;
                            const float w = load_any_as_f32(wei.data_type, wb,
                                    wo + k * ws[nd - 2] + (n0 + j) * ws[nd - 1]);
                            const float z = woq_args_t::value(
                                    q.zp, woq_args_t::index(q.zp, q.zp_q, wp), 0.f);
                            row[j] = static_cast<int32_t>(w - z);
                        }
                    }
                    wp[nd - 2] = k0;
                    for (dim_t j = 0; j < nb; ++j) {
                        wp[nd - 1] = n0 + j;
                        wscale[j] = woq_args_t::value(
                                q.scale, woq_args_t::index(q.scale, q.scale_q, wp), 1.f);
                    }
                    sp[nd - 1] = k0;
                    for (dim_t m = 0; m < M; ++m) {
                        std::fill(acc.begin(), acc.begin() + nb, 0);
                        const dim_t a0 = so + m * ss[nd - 2];
                        for (dim_t k = k0; k < k1; ++k) {
                            const dim_t e = a0 + k * ss[nd - 1];
                            const int32_t a = (s8 ? int32_t(static_cast<const int8_t *>(sb)[e])
                                                  : int32_t(static_cast<const uint8_t *>(sb)[e]))
                                    - za;
                            const int32_t *row = wslab.data() + (k - k0) * nb;
                            for (dim_t j = 0; j < nb; ++j)
                                acc[j] += a * row[j];
                        }
                        sp[nd - 2] = m;
                        const float s = woq_args_t::value(q.src_scale,
                                woq_args_t::index(q.src_scale, q.src_scale_q, sp), 1.f);
                        float *o = res.data() + m * nb;
                        for (dim_t j = 0; j < nb; ++j)
                            o[j] += static_cast<float>(acc[j]) * (s * wscale[j]);
                    }
                }
                for (dim_t m = 0; m < M; ++m) {
                    pos[nd - 2] = m;
                    out.row(res.data() + m * nb, nb, pos, n0,
                            bo + m * bias_sm + n0 * out.bias_stride_n,
                            dso + m * ds[nd - 2] + n0 * out.dst_stride_n);
                }
            }
        });
        return dnnl_success;
    }
};

} // namespace

impl_entry_t matmul_int8_k_groups_entry() {
    return make_impl_entry<int8_k_groups_pd_t>("cpu:matmul:int8_k_groups");
}

} // namespace cpu
} // namespace anydnn
