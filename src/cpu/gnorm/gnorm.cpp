// Group normalization, forward (training/inference, global stats, scale, shift, src/dst scales
// and post-ops in the reference) and backward (data; scale and shift gradients). Statistics per (mb, group)
// cover C/G channels and every spatial point. Work items are (mb, group) pairs; `plain`
// addresses plain layouts by strides (contiguous f32 rows get a direct loop), `ref` walks any
// blocked layout through logical positions.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/data_types.hpp"
#include "core/ops/eltwise/layout.hpp"
#include "core/ops/gnorm/common.hpp"
#include "core/ops/post_ops.hpp"
#include "core/ops/scales.hpp"
#include "core/parallel.hpp"
#include "core/primitive.hpp"
#include "cpu/impl_entries.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {

namespace {

const group_normalization_desc_t &gnorm_of(const primitive_desc_t &pd) {
    return gnorm::desc_of(pd);
}
using gnorm::is_fwd;

// Element offset of (n, c, sp) with sp the row-major index over spatial dims.
struct addr_t {
    const memory_desc_t *md;
    bool plain;
    dim_t sp_stride = 1;
    dim_t off(dim_t n, dim_t c, dim_t sp, dim_t *pos_out = nullptr) const {
        const int nd = md->ndims;
        if (plain && !pos_out)
            return md->offset0 + n * md->blocking.strides[0] + c * md->blocking.strides[1]
                    + sp * sp_stride;
        dim_t pos[max_ndims];
        dim_t *p = pos_out ? pos_out : pos;
        p[0] = n;
        p[1] = c;
        for (int k = nd - 1; k >= 2; --k) {
            p[k] = sp % md->dims[k];
            sp /= md->dims[k];
        }
        return off_logical(*md, p);
    }
};

// Whether the spatial dims of a plain layout collapse into one strided index.
bool spatial_flat(const memory_desc_t &md, dim_t &stride) {
    const int nd = md.ndims;
    stride = nd > 2 ? md.blocking.strides[nd - 1] : 1;
    for (int k = nd - 2; k >= 2; --k)
        if (md.dims[k] > 1
                && md.blocking.strides[k] != md.blocking.strides[k + 1] * md.dims[k + 1])
            return false;
    return true;
}

template <bool plain_only>
struct gnorm_t;

template <bool plain_only>
struct gnorm_pd_t : public primitive_desc_impl_t<gnorm_pd_t<plain_only>, gnorm_t<plain_only>> {
    using base = primitive_desc_impl_t<gnorm_pd_t<plain_only>, gnorm_t<plain_only>>;
    using base::base;
    const char *name() const override {
        return plain_only ? "cpu:gnorm:plain" : "cpu:gnorm:ref";
    }

    post_ops_chain_t post_ops;
    bool plain = false;
    dim_t sp_stride[3] = {1, 1, 1}; // src, dst or diff_dst, diff_src
    // f32 tensors of one plain layout: a group is contiguous runs over spatial points (rows,
    // nchw-like) or over its channels (channels last).
    bool runs = false, rows = false;

    static status_t init(gnorm_pd_t &pd) {
        const auto &d = gnorm_of(pd);
        const bool fwd = is_fwd(d);
        unsigned ignore = attr_skip::scratchpad;
        if (fwd && !plain_only) ignore |= attr_skip::post_ops | attr_skip::scales;
        ANYDNN_REQUIRE(pd.attr.has_default_values(ignore), dnnl_unimplemented,
                fwd && !plain_only ? "attributes other than scales and post-ops are not supported"
                                   : "attributes are not supported");
        ANYDNN_CHECK(gnorm::resolve(pd));
        if (fwd) ANYDNN_CHECK(init_common_scales(pd.attr, {DNNL_ARG_SRC, DNNL_ARG_DST}, pd.args));
        const memory_desc_t &src = pd.args[DNNL_ARG_SRC];
        const int tensors[3] = {DNNL_ARG_SRC, fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST,
                fwd ? 0 : DNNL_ARG_DIFF_SRC};
        const memory_desc_t *mds[3] = {};
        for (int i = 0; i < 3; ++i) {
            if (!tensors[i]) continue;
            mds[i] = &pd.args[tensors[i]];
            const bool flat = is_plain(*mds[i]) && spatial_flat(*mds[i], pd.sp_stride[i]);
            if (plain_only)
                ANYDNN_REQUIRE(flat, dnnl_unimplemented,
                        "a tensor is not plain with collapsible spatial dims");
            pd.plain = (i == 0 ? true : pd.plain) && flat;
        }
        if (fwd) {
            ANYDNN_CHECK(pd.post_ops.init(pd.attr, pd.args[DNNL_ARG_DST]));
            pd.post_ops.add_args(pd.args);
        }
        bool same = pd.plain && pd.post_ops.empty();
        for (int i = 0; i < 3; ++i)
            if (mds[i])
                same = same && mds[i]->data_type == dnnl_f32 && same_layout(*mds[i], src);
        pd.rows = pd.sp_stride[0] == 1;
        pd.runs = plain_only && same && (pd.rows || src.blocking.strides[1] == 1);
        if (pd.runs && !fwd && d.prop_kind == dnnl_backward)
            pd.scratchpad_size = size_t(2 * src.dims[0] * src.dims[1]) * sizeof(double);
        return dnnl_success;
    }
};

// Sums over one contiguous f32 run: x, (x - m)^2, and for backward dy * (x - m) with dy.
// AVX-512 versions keep 16 partial sums; the portable ones are plain loops.
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"))) void run_sums_avx512(
        const float *x, const float *g, float m, dim_t n, float &s1, float &s2) {
    __m512 a = _mm512_setzero_ps(), b = _mm512_setzero_ps();
    const __m512 mv = _mm512_set1_ps(m);
    for (dim_t i = 0; i < n; i += 16) {
        const __mmask16 k = n - i >= 16 ? __mmask16(0xffff)
                                        : static_cast<__mmask16>((1u << (n - i)) - 1);
        const __m512 d = _mm512_maskz_sub_ps(k, _mm512_maskz_loadu_ps(k, x + i), mv);
        if (g) {
            const __m512 gv = _mm512_maskz_loadu_ps(k, g + i);
            a = _mm512_fmadd_ps(gv, d, a);
            b = _mm512_add_ps(b, gv);
        } else {
            a = _mm512_add_ps(a, d);
            b = _mm512_fmadd_ps(d, d, b);
        }
    }
    s1 = _mm512_reduce_add_ps(a);
    s2 = _mm512_reduce_add_ps(b);
}

// g null: s1 = sum (x - m), s2 = sum (x - m)^2; else s1 = sum g (x - m), s2 = sum g.
// The ISA is looked up once per process: this runs once per short run.
inline void run_sums(const float *x, const float *g, float m, dim_t n, float &s1, float &s2) {
    static const bool avx512 = isa_enabled(dnnl_cpu_isa_avx512_core);
    if (avx512 && n >= 64) return run_sums_avx512(x, g, m, n, s1, s2);
    float a = 0.f, b = 0.f;
    for (dim_t i = 0; i < n; ++i) {
        const float d = x[i] - m;
        if (g) {
            a += g[i] * d;
            b += g[i];
        } else {
            a += d;
            b += d * d;
        }
    }
    s1 = a;
    s2 = b;
}

// Calls f(offset, first channel, channel step, length) for each contiguous run of group
// (n, g): one per channel over spatial points (rows), or one per spatial point over the
// group's channels.
template <typename F>
void for_runs(const memory_desc_t &md, bool rows, dim_t sp_stride, dim_t n, dim_t c0,
        dim_t Cg, dim_t SP, F f) {
    const dim_t base = n * md.blocking.strides[0];
    if (rows) {
        for (dim_t c = c0; c < c0 + Cg; ++c)
            f(base + c * md.blocking.strides[1], c, 0, SP);
    } else {
        for (dim_t i = 0; i < SP; ++i)
            f(base + c0 + i * sp_stride, c0, 1, Cg);
    }
}

template <bool plain_only>
struct gnorm_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const gnorm_pd_t<plain_only> &>(this->pd());
        if (pd.runs) return is_fwd(gnorm_of(pd)) ? fwd_runs(pd, ctx) : bwd_runs(pd, ctx);
        return is_fwd(gnorm_of(pd)) ? fwd(pd, ctx) : bwd(pd, ctx);
    }

    static const float *f32_base(const exec_ctx_t &ctx, int arg, const memory_desc_t &md) {
        return ctx.host_ptr<const float>(arg) + md.offset0;
    }

    static status_t fwd_runs(const gnorm_pd_t<plain_only> &pd, const exec_ctx_t &ctx) {
        const auto &d = gnorm_of(pd);
        const memory_desc_t &smd = pd.arg_md(DNNL_ARG_SRC), &dmd = pd.arg_md(DNNL_ARG_DST);
        if (nelems(smd) == 0) return dnnl_success;
        const shape_t sh(smd, d.groups);
        const float *x = f32_base(ctx, DNNL_ARG_SRC, smd);
        float *y = ctx.host_ptr<float>(DNNL_ARG_DST) + dmd.offset0;
        const float *scale = ctx.host_ptr<const float>(DNNL_ARG_SCALE);
        const float *shift = ctx.host_ptr<const float>(DNNL_ARG_SHIFT);
        float *mean = ctx.host_ptr<float>(DNNL_ARG_MEAN);
        float *var = ctx.host_ptr<float>(DNNL_ARG_VARIANCE);
        const bool global = d.flags & dnnl_use_global_stats;
        const bool save = !global && mean && var;
        const double M = double(sh.Cg * sh.SP);
        parallel(std::min<dim_t>(max_threads(), sh.N * sh.G), [&](int ithr, int nt) {
            dim_t a, b;
            balance211(sh.N * sh.G, nt, ithr, a, b);
            std::vector<float> ka(sh.Cg), kb(sh.Cg); // per-channel factors of the group
            for (dim_t w = a; w < b; ++w) {
                const dim_t n = w / sh.G, c0 = (w % sh.G) * sh.Cg;
                double mu, v;
                if (global) {
                    mu = mean[w];
                    v = var[w];
                } else {
                    double sum = 0, sq = 0;
                    for_runs(smd, pd.rows, pd.sp_stride[0], n, c0, sh.Cg, sh.SP,
                            [&](dim_t off, dim_t, int, dim_t len) {
                                float p, q;
                                run_sums(x + off, nullptr, 0.f, len, p, q);
                                sum += p;
                            });
                    mu = sum / M;
                    const float m = static_cast<float>(mu);
                    for_runs(smd, pd.rows, pd.sp_stride[0], n, c0, sh.Cg, sh.SP,
                            [&](dim_t off, dim_t, int, dim_t len) {
                                float p, q;
                                run_sums(x + off, nullptr, m, len, p, q);
                                sq += q;
                            });
                    v = sq / M;
                    if (save) {
                        mean[w] = static_cast<float>(mu);
                        var[w] = static_cast<float>(v);
                    }
                }
                const double rstd = 1.0 / std::sqrt(v + d.epsilon);
                for (dim_t c = 0; c < sh.Cg; ++c) {
                    ka[c] = static_cast<float>((scale ? scale[c0 + c] : 1.f) * rstd);
                    kb[c] = static_cast<float>((shift ? shift[c0 + c] : 0.f) - mu * ka[c]);
                }
                const float *pa = ka.data(), *pb = kb.data();
                for_runs(smd, pd.rows, pd.sp_stride[0], n, c0, sh.Cg, sh.SP,
                        [&](dim_t off, dim_t c, int step, dim_t len) {
                            if (step == 0) {
                                const float sa = pa[c - c0], sb = pb[c - c0];
                                for (dim_t k = 0; k < len; ++k)
                                    y[off + k] = sa * x[off + k] + sb;
                            } else {
                                for (dim_t k = 0; k < len; ++k)
                                    y[off + k] = pa[k] * x[off + k] + pb[k];
                            }
                        });
            }
        });
        return dnnl_success;
    }

    static status_t bwd_runs(const gnorm_pd_t<plain_only> &pd, const exec_ctx_t &ctx) {
        const auto &d = gnorm_of(pd);
        const memory_desc_t &smd = pd.arg_md(DNNL_ARG_SRC);
        const shape_t sh(smd, d.groups);
        float *dscale = ctx.host_ptr<float>(DNNL_ARG_DIFF_SCALE);
        float *dshift = ctx.host_ptr<float>(DNNL_ARG_DIFF_SHIFT);
        if (nelems(smd) == 0) return bwd(pd, ctx);
        const float *x = f32_base(ctx, DNNL_ARG_SRC, smd);
        const float *g = f32_base(ctx, DNNL_ARG_DIFF_DST, pd.arg_md(DNNL_ARG_DIFF_DST));
        float *o = ctx.host_ptr<float>(DNNL_ARG_DIFF_SRC) + pd.arg_md(DNNL_ARG_DIFF_SRC).offset0;
        const float *scale = ctx.host_ptr<const float>(DNNL_ARG_SCALE);
        const float *mean = ctx.host_ptr<const float>(DNNL_ARG_MEAN);
        const float *var = ctx.host_ptr<const float>(DNNL_ARG_VARIANCE);
        const bool global = d.flags & dnnl_use_global_stats;
        const bool grads = dscale || dshift;
        // Per (mb, channel) partial sums of dy * xhat and dy, reduced over mb at the end.
        double *ps = static_cast<double *>(ctx.scratchpad);
        double *pb = grads ? ps + sh.N * sh.C : nullptr;
        const double M = double(sh.Cg * sh.SP);
        parallel(std::min<dim_t>(max_threads(), sh.N * sh.G), [&](int ithr, int nt) {
            dim_t a, b;
            balance211(sh.N * sh.G, nt, ithr, a, b);
            std::vector<float> gam(sh.Cg), k1(sh.Cg), s_dyx(sh.Cg), s_dy(sh.Cg);
            for (dim_t w = a; w < b; ++w) {
                const dim_t n = w / sh.G, c0 = (w % sh.G) * sh.Cg;
                const float mu = mean[w];
                const double r = 1.0 / std::sqrt(double(var[w]) + d.epsilon);
                for (dim_t c = 0; c < sh.Cg; ++c) {
                    gam[c] = scale ? scale[c0 + c] : 1.f;
                    s_dyx[c] = s_dy[c] = 0.f;
                }
                // Per-channel sums of dy * (x - mean) and dy over this group's elements.
                float *sx = s_dyx.data(), *sy = s_dy.data();
                for_runs(smd, pd.rows, pd.sp_stride[0], n, c0, sh.Cg, sh.SP,
                        [&](dim_t off, dim_t c, int step, dim_t len) {
                            if (step == 0) {
                                float p, q;
                                run_sums(x + off, g + off, mu, len, p, q);
                                sx[c - c0] += p;
                                sy[c - c0] += q;
                            } else {
                                for (dim_t k = 0; k < len; ++k) {
                                    sx[k] += g[off + k] * (x[off + k] - mu);
                                    sy[k] += g[off + k];
                                }
                            }
                        });
                double m1 = 0, m2 = 0;
                for (dim_t c = 0; c < sh.Cg; ++c) {
                    m1 += double(gam[c]) * sy[c];
                    m2 += double(gam[c]) * sx[c] * r;
                    if (grads) {
                        ps[n * sh.C + c0 + c] = double(sx[c]) * r;
                        pb[n * sh.C + c0 + c] = sy[c];
                    }
                }
                m1 /= M;
                m2 /= M;
                // diff_src = r * (gamma dy - m1 - xhat m2) = A_c dy + B x + C0.
                const float B = global ? 0.f : static_cast<float>(-r * r * m2);
                const float C0 = global ? 0.f : static_cast<float>(-r * m1 + r * r * m2 * mu);
                for (dim_t c = 0; c < sh.Cg; ++c)
                    k1[c] = static_cast<float>(r * gam[c]);
                const float *pk = k1.data();
                for_runs(smd, pd.rows, pd.sp_stride[0], n, c0, sh.Cg, sh.SP,
                        [&](dim_t off, dim_t c, int step, dim_t len) {
                            if (step == 0) {
                                const float A = pk[c - c0];
                                for (dim_t k = 0; k < len; ++k)
                                    o[off + k] = A * g[off + k] + B * x[off + k] + C0;
                            } else {
                                for (dim_t k = 0; k < len; ++k)
                                    o[off + k] = pk[k] * g[off + k] + B * x[off + k] + C0;
                            }
                        });
            }
        });
        if (grads)
            parallel_range(sh.C, [&](dim_t a, dim_t b) {
                for (dim_t c = a; c < b; ++c) {
                    double s1 = 0, s2 = 0;
                    for (dim_t n = 0; n < sh.N; ++n) {
                        s1 += ps[n * sh.C + c];
                        s2 += pb[n * sh.C + c];
                    }
                    if (dscale) dscale[c] = static_cast<float>(s1);
                    if (dshift) dshift[c] = static_cast<float>(s2);
                }
            }, 256);
        return dnnl_success;
    }

    struct shape_t {
        dim_t N, C, G, Cg, SP;
        explicit shape_t(const memory_desc_t &md, dim_t groups)
            : N(md.dims[0]), C(md.dims[1]), G(groups), Cg(md.dims[1] / groups), SP(1) {
            for (int k = 2; k < md.ndims; ++k)
                SP *= md.dims[k];
        }
    };

    static status_t fwd(const gnorm_pd_t<plain_only> &pd, const exec_ctx_t &ctx) {
        const auto &d = gnorm_of(pd);
        const memory_desc_t &smd = pd.arg_md(DNNL_ARG_SRC), &dmd = pd.arg_md(DNNL_ARG_DST);
        if (nelems(smd) == 0) return dnnl_success;
        const shape_t sh(smd, d.groups);
        const addr_t sa {&smd, pd.plain, pd.sp_stride[0]}, da {&dmd, pd.plain, pd.sp_stride[1]};
        const void *s = ctx.host_ptr(DNNL_ARG_SRC);
        void *t = ctx.host_ptr(DNNL_ARG_DST);
        const float *scale = ctx.host_ptr<const float>(DNNL_ARG_SCALE);
        const float *shift = ctx.host_ptr<const float>(DNNL_ARG_SHIFT);
        float *mean = ctx.host_ptr<float>(DNNL_ARG_MEAN);
        float *var = ctx.host_ptr<float>(DNNL_ARG_VARIANCE);
        const bool global = d.flags & dnnl_use_global_stats;
        const bool save = !global && mean && var;
        const auto sdt = smd.data_type, ddt = dmd.data_type;
        const auto &po = pd.post_ops;
        const auto po_args = po.bind(ctx);
        const size_t dsize = data_type_size(ddt);
        // The src scale on the normalized value, then the post-ops, then the dst scale.
        float src_scale = 1.f, dst_scale = 1.f;
        ANYDNN_CHECK(read_common_scale(ctx, pd.attr, DNNL_ARG_SRC, src_scale));
        ANYDNN_CHECK(read_common_scale(ctx, pd.attr, DNNL_ARG_DST, dst_scale));
        // Contiguous f32 rows over spatial points (nchw-like): direct pointer loops.
        const bool rows = pd.plain && sdt == dnnl_f32 && pd.sp_stride[0] == 1;
        const dim_t M = sh.Cg * sh.SP;

        parallel_range(sh.N * sh.G, [&](dim_t a, dim_t b) {
            dim_t pos[max_ndims];
            for (dim_t w = a; w < b; ++w) {
                const dim_t n = w / sh.G, g = w % sh.G, c0 = g * sh.Cg;
                double mu, v;
                if (global) {
                    mu = mean[w];
                    v = var[w];
                } else {
                    double sum = 0, sq = 0;
                    for (dim_t c = c0; c < c0 + sh.Cg; ++c) {
                        if (rows) {
                            const float *x = static_cast<const float *>(s) + sa.off(n, c, 0);
                            float fs = 0.f;
                            for (dim_t i = 0; i < sh.SP; ++i)
                                fs += x[i];
                            sum += fs;
                        } else {
                            for (dim_t i = 0; i < sh.SP; ++i)
                                sum += load_as_f32(sdt, s, sa.off(n, c, i));
                        }
                    }
                    mu = M ? sum / M : 0;
                    for (dim_t c = c0; c < c0 + sh.Cg; ++c) {
                        if (rows) {
                            const float *x = static_cast<const float *>(s) + sa.off(n, c, 0);
                            const float m = static_cast<float>(mu);
                            float fs = 0.f;
                            for (dim_t i = 0; i < sh.SP; ++i)
                                fs += (x[i] - m) * (x[i] - m);
                            sq += fs;
                        } else {
                            for (dim_t i = 0; i < sh.SP; ++i) {
                                const double x = load_as_f32(sdt, s, sa.off(n, c, i)) - mu;
                                sq += x * x;
                            }
                        }
                    }
                    v = M ? sq / M : 0;
                    if (save) {
                        mean[w] = static_cast<float>(mu);
                        var[w] = static_cast<float>(v);
                    }
                }
                const double rstd = 1.0 / std::sqrt(v + d.epsilon);
                for (dim_t c = c0; c < c0 + sh.Cg; ++c) {
                    float sc = static_cast<float>((scale ? scale[c] : 1.f) * rstd);
                    float sf = static_cast<float>((shift ? shift[c] : 0.f) - mu * sc);
                    sc *= src_scale;
                    sf *= src_scale;
                    if (po.empty()) {
                        sc /= dst_scale;
                        sf /= dst_scale;
                    }
                    if (rows && ddt == dnnl_f32 && pd.sp_stride[1] == 1 && po.empty()) {
                        const float *x = static_cast<const float *>(s) + sa.off(n, c, 0);
                        float *y = static_cast<float *>(t) + da.off(n, c, 0);
                        for (dim_t i = 0; i < sh.SP; ++i)
                            y[i] = sc * x[i] + sf;
                        continue;
                    }
                    for (dim_t i = 0; i < sh.SP; ++i) {
                        float val = sc * load_as_f32(sdt, s, sa.off(n, c, i)) + sf;
                        if (!po.empty()) {
                            const dim_t to = da.off(n, c, i, pos);
                            po.apply(po_args, &val, 1, pos, 1,
                                    static_cast<char *>(t) + to * dsize, 1);
                            store_from_f32(ddt, t, to, val / dst_scale);
                        } else {
                            store_from_f32(ddt, t, da.off(n, c, i), val);
                        }
                    }
                }
            }
        }, 1);
        zero_padding(dmd, t);
        return dnnl_success;
    }

    static status_t bwd(const gnorm_pd_t<plain_only> &pd, const exec_ctx_t &ctx) {
        const auto &d = gnorm_of(pd);
        const memory_desc_t &smd = pd.arg_md(DNNL_ARG_SRC),
                            &gmd = pd.arg_md(DNNL_ARG_DIFF_DST),
                            &omd = pd.arg_md(DNNL_ARG_DIFF_SRC);
        const shape_t sh(smd, d.groups);
        const void *s = ctx.host_ptr(DNNL_ARG_SRC);
        const void *gp = ctx.host_ptr(DNNL_ARG_DIFF_DST);
        void *o = ctx.host_ptr(DNNL_ARG_DIFF_SRC);
        const float *scale = ctx.host_ptr<const float>(DNNL_ARG_SCALE);
        const float *mean = ctx.host_ptr<const float>(DNNL_ARG_MEAN);
        const float *var = ctx.host_ptr<const float>(DNNL_ARG_VARIANCE);
        float *dscale = ctx.host_ptr<float>(DNNL_ARG_DIFF_SCALE);
        float *dshift = ctx.host_ptr<float>(DNNL_ARG_DIFF_SHIFT);
        if (nelems(smd) == 0) {
            // Gradients of an empty batch are zero.
            for (dim_t c = 0; c < sh.C; ++c) {
                if (dscale) dscale[c] = 0.f;
                if (dshift) dshift[c] = 0.f;
            }
            return dnnl_success;
        }
        const addr_t sa {&smd, pd.plain, pd.sp_stride[0]}, ga {&gmd, pd.plain, pd.sp_stride[1]},
                oa {&omd, pd.plain, pd.sp_stride[2]};
        const auto sdt = smd.data_type, gdt = gmd.data_type, odt = omd.data_type;
        const bool global = d.flags & dnnl_use_global_stats;
        const dim_t M = sh.Cg * sh.SP;
        auto rstd_of = [&](dim_t w) { return 1.0 / std::sqrt(double(var[w]) + d.epsilon); };

        // Scale and shift gradients: per channel, over mb and spatial points.
        if (dscale || dshift) {
            parallel_range(sh.C, [&](dim_t a, dim_t b) {
                for (dim_t c = a; c < b; ++c) {
                    double ds = 0, db = 0;
                    for (dim_t n = 0; n < sh.N; ++n) {
                        const dim_t w = n * sh.G + c / sh.Cg;
                        const double mu = mean[w], r = rstd_of(w);
                        for (dim_t i = 0; i < sh.SP; ++i) {
                            const double dy = load_as_f32(gdt, gp, ga.off(n, c, i));
                            ds += dy * (load_as_f32(sdt, s, sa.off(n, c, i)) - mu) * r;
                            db += dy;
                        }
                    }
                    if (dscale) dscale[c] = static_cast<float>(ds);
                    if (dshift) dshift[c] = static_cast<float>(db);
                }
            }, 1);
        }
        parallel_range(sh.N * sh.G, [&](dim_t a, dim_t b) {
            for (dim_t w = a; w < b; ++w) {
                const dim_t n = w / sh.G, g = w % sh.G, c0 = g * sh.Cg;
                const double mu = mean[w], r = rstd_of(w);
                // Group means of dy*gamma and of dy*gamma*xhat.
                double m1 = 0, m2 = 0;
                if (!global) {
                    for (dim_t c = c0; c < c0 + sh.Cg; ++c) {
                        const double gam = scale ? scale[c] : 1.0;
                        for (dim_t i = 0; i < sh.SP; ++i) {
                            const double dy = gam * load_as_f32(gdt, gp, ga.off(n, c, i));
                            m1 += dy;
                            m2 += dy * (load_as_f32(sdt, s, sa.off(n, c, i)) - mu) * r;
                        }
                    }
                    m1 /= M;
                    m2 /= M;
                }
                for (dim_t c = c0; c < c0 + sh.Cg; ++c) {
                    const double gam = scale ? scale[c] : 1.0;
                    for (dim_t i = 0; i < sh.SP; ++i) {
                        const double dy = gam * load_as_f32(gdt, gp, ga.off(n, c, i));
                        double v = dy;
                        if (!global) {
                            const double xh = (load_as_f32(sdt, s, sa.off(n, c, i)) - mu) * r;
                            v = dy - m1 - xh * m2;
                        }
                        store_from_f32(odt, o, oa.off(n, c, i), static_cast<float>(v * r));
                    }
                }
            }
        }, 1);
        zero_padding(omd, o);
        return dnnl_success;
    }
};

} // namespace

impl_entry_t gnorm_plain_entry() {
    return make_impl_entry<gnorm_pd_t<true>>("cpu:gnorm:plain");
}
impl_entry_t gnorm_ref_entry() {
    return make_impl_entry<gnorm_pd_t<false>>("cpu:gnorm:ref");
}

} // namespace cpu
} // namespace anydnn
