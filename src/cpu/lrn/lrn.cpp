// Local response normalization, forward and backward (recomputed, no workspace):
//   across channels: dst = src * (k + alpha / ls * sum over c' in [c - h, c + h] src^2)^-beta
//   within a channel: the sum runs over a ls^nsp box of spatial neighbours, divided by ls^nsp,
// with h = (ls - 1) / 2 and windows clipped at the edges. Window sums come from prefix sums
// (in double) along each channel line or, within a channel, from separable box passes over
// each spatial plane. `plain` addresses tensors by strides; `ref` through logical positions
// (any blocked layout).
#include <algorithm>
#include <cmath>

#include "core/data_types.hpp"
#include "core/ops/eltwise/layout.hpp"
#include "core/ops/lrn/common.hpp"
#include "core/parallel.hpp"
#include "core/primitive.hpp"
#include "cpu/impl_entries.hpp"

namespace anydnn {
namespace cpu {

namespace {

const lrn_desc_t &lrn_of(const primitive_desc_t &pd) { return lrn::desc_of(pd); }
using lrn::is_fwd;

// N, C and up to three spatial extents (missing ones are 1).
struct geom_t {
    dim_t N, C, D = 1, H = 1, W = 1;
    int nsp;
    explicit geom_t(const memory_desc_t &md) : N(md.dims[0]), C(md.dims[1]), nsp(md.ndims - 2) {
        if (nsp >= 1) W = md.dims[md.ndims - 1];
        if (nsp >= 2) H = md.dims[md.ndims - 2];
        if (nsp >= 3) D = md.dims[2];
    }
    dim_t sp() const { return D * H * W; }
};

// Element offset of (n, c, d, h, w): strides for plain layouts, else the logical mapping.
struct addr_t {
    const memory_desc_t *md;
    bool plain;
    dim_t off(dim_t n, dim_t c, dim_t d, dim_t h, dim_t w) const {
        const int nd = md->ndims;
        dim_t pos[max_ndims] = {n, c};
        if (nd >= 3) pos[nd - 1] = w;
        if (nd >= 4) pos[nd - 2] = h;
        if (nd >= 5) pos[2] = d;
        if (!plain) return off_logical(*md, pos);
        const dim_t *s = md->blocking.strides;
        dim_t o = md->offset0;
        for (int k = 0; k < nd; ++k)
            o += pos[k] * s[k];
        return o;
    }
};

// In place: a[i] = sum of a[j] for |j - i| <= h, along a line of n elements `stride` apart.
void box_line(double *a, dim_t n, dim_t stride, dim_t h, double *pre) {
    pre[0] = 0;
    for (dim_t i = 0; i < n; ++i)
        pre[i + 1] = pre[i] + a[i * stride];
    for (dim_t i = 0; i < n; ++i) {
        const dim_t lo = std::max<dim_t>(0, i - h), hi = std::min<dim_t>(n - 1, i + h);
        a[i * stride] = pre[hi + 1] - pre[lo];
    }
}

// Box sums over a D x H x W plane (row-major), separable along each spatial dim.
void box_plane(double *a, const geom_t &g, dim_t h, double *pre) {
    const dim_t D = g.D, H = g.H, W = g.W;
    for (dim_t i = 0; i < D * H; ++i)
        box_line(a + i * W, W, 1, h, pre);
    if (g.nsp >= 2)
        for (dim_t d = 0; d < D; ++d)
            for (dim_t w = 0; w < W; ++w)
                box_line(a + d * H * W + w, H, W, h, pre);
    if (g.nsp >= 3)
        for (dim_t i = 0; i < H * W; ++i)
            box_line(a + i, D, H * W, h, pre);
}

// s^-beta in f32, with the usual beta = 0.75 as two square roots.
inline float pow_neg(float s, float beta) {
    if (beta == 0.75f) {
        const float r = 1.f / std::sqrt(s);
        return r * std::sqrt(r);
    }
    if (beta == 0.5f) return 1.f / std::sqrt(s);
    if (beta == 1.f) return 1.f / s;
    return std::pow(s, -beta);
}

// Whether the spatial dims of md collapse into one contiguous index (nchw-like).
bool spatial_contiguous(const memory_desc_t &md) {
    const int nd = md.ndims;
    if (!is_plain(md) || nd < 3) return false;
    dim_t expect = 1;
    for (int k = nd - 1; k >= 2; --k) {
        if (md.dims[k] > 1 && md.blocking.strides[k] != expect) return false;
        expect *= md.dims[k];
    }
    return true;
}

// Forward across channels, f32, spatial points contiguous: blocks of points move together
// through the channels, the window sum recomputed from ls planes (vectorizes along points).
void fwd_across_rows(const lrn_desc_t &d, const memory_desc_t &smd, const memory_desc_t &dmd,
        const float *src, float *dst, double a) {
    const dim_t N = smd.dims[0], C = smd.dims[1];
    dim_t SP = 1;
    for (int k = 2; k < smd.ndims; ++k)
        SP *= smd.dims[k];
    const dim_t sN = smd.blocking.strides[0], sC = smd.blocking.strides[1];
    const dim_t h = (d.local_size - 1) / 2;
    constexpr dim_t B = 512;
    const dim_t nblk = (SP + B - 1) / B;
    const float k = d.k, af = static_cast<float>(a), beta = d.beta;
    const float *x0 = src + smd.offset0;
    float *y0 = dst + dmd.offset0;
    parallel_range(N * nblk, [&](dim_t start, dim_t end) {
        float acc[B];
        for (dim_t t = start; t < end; ++t) {
            const dim_t n = t / nblk, s0 = (t % nblk) * B, len = std::min(B, SP - s0);
            const float *x = x0 + n * sN + s0;
            float *y = y0 + n * sN + s0;
            for (dim_t c = 0; c < C; ++c) {
                const dim_t lo = std::max<dim_t>(0, c - h), hi = std::min<dim_t>(C - 1, c + h);
                for (dim_t i = 0; i < len; ++i)
                    acc[i] = 0.f;
                for (dim_t cc = lo; cc <= hi; ++cc) {
                    const float *xc = x + cc * sC;
                    for (dim_t i = 0; i < len; ++i)
                        acc[i] += xc[i] * xc[i];
                }
                const float *xc = x + c * sC;
                float *yc = y + c * sC;
                if (beta == 0.75f) {
                    for (dim_t i = 0; i < len; ++i) {
                        const float r = 1.f / std::sqrt(k + af * acc[i]);
                        yc[i] = xc[i] * r * std::sqrt(r);
                    }
                } else {
                    for (dim_t i = 0; i < len; ++i)
                        yc[i] = xc[i] * pow_neg(k + af * acc[i], beta);
                }
            }
        }
    }, 1);
}

// Backward across channels, same layouts as fwd_across_rows: per block of points, S and
// t = dy x S^(-beta-1) for every channel, then diff_src from window sums of t. `buf` holds
// 2 * C * B floats.
void bwd_across_rows(const lrn_desc_t &d, const memory_desc_t &smd, const float *src,
        const float *dd, float *ds, double a, float *buf, dim_t C, dim_t SP, dim_t B,
        dim_t n, dim_t s0, dim_t len) {
    const dim_t sN = smd.blocking.strides[0], sC = smd.blocking.strides[1];
    const dim_t h = (d.local_size - 1) / 2;
    const float k = d.k, af = static_cast<float>(a), beta = d.beta;
    const float coef = static_cast<float>(2 * a * d.beta);
    const dim_t base = smd.offset0 + n * sN + s0;
    const float *x = src + base, *g = dd + base;
    float *o = ds + base;
    float *P = buf, *T = buf + C * B; // S^-beta and t per channel
    for (dim_t c = 0; c < C; ++c) {
        const dim_t lo = std::max<dim_t>(0, c - h), hi = std::min<dim_t>(C - 1, c + h);
        float *pc = P + c * B, *tc = T + c * B;
        for (dim_t i = 0; i < len; ++i)
            pc[i] = 0.f;
        for (dim_t cc = lo; cc <= hi; ++cc) {
            const float *xc = x + cc * sC;
            for (dim_t i = 0; i < len; ++i)
                pc[i] += xc[i] * xc[i];
        }
        const float *xc = x + c * sC, *gc = g + c * sC;
        for (dim_t i = 0; i < len; ++i) {
            const float S = k + af * pc[i];
            const float p = pow_neg(S, beta);
            pc[i] = p;
            tc[i] = gc[i] * xc[i] * p / S;
        }
    }
    for (dim_t c = 0; c < C; ++c) {
        const dim_t lo = std::max<dim_t>(0, c - h), hi = std::min<dim_t>(C - 1, c + h);
        const float *xc = x + c * sC, *gc = g + c * sC, *pc = P + c * B;
        float *oc = o + c * sC;
        for (dim_t i = 0; i < len; ++i)
            oc[i] = gc[i] * pc[i];
        for (dim_t cc = lo; cc <= hi; ++cc) {
            const float *tc = T + cc * B;
            for (dim_t i = 0; i < len; ++i)
                oc[i] -= coef * xc[i] * tc[i];
        }
    }
    (void)SP;
}

// Across channels with channels contiguous (channels last), f32: one line of C values per
// point; `buf` holds 2 C floats. Forward when dd is null.
void across_line(const lrn_desc_t &d, const float *x, const float *g, float *o, dim_t C,
        double a, float *buf) {
    const dim_t h = (d.local_size - 1) / 2;
    const float k = d.k, af = static_cast<float>(a), beta = d.beta;
    float *P = buf, *T = buf + C;
    for (dim_t c = 0; c < C; ++c) {
        const dim_t lo = std::max<dim_t>(0, c - h), hi = std::min<dim_t>(C - 1, c + h);
        float sum = 0.f;
        for (dim_t cc = lo; cc <= hi; ++cc)
            sum += x[cc] * x[cc];
        const float S = k + af * sum;
        const float p = pow_neg(S, beta);
        if (!g) {
            o[c] = x[c] * p;
            continue;
        }
        P[c] = p;
        T[c] = g[c] * x[c] * p / S;
    }
    if (!g) return;
    const float coef = static_cast<float>(2 * a * d.beta);
    for (dim_t c = 0; c < C; ++c) {
        const dim_t lo = std::max<dim_t>(0, c - h), hi = std::min<dim_t>(C - 1, c + h);
        float t = 0.f;
        for (dim_t cc = lo; cc <= hi; ++cc)
            t += T[cc];
        o[c] = g[c] * P[c] - coef * x[c] * t;
    }
}

constexpr dim_t rows_block = 256; // points per block of the backward rows kernel

template <bool plain_only>
struct lrn_t;

template <bool plain_only>
struct lrn_pd_t : public primitive_desc_impl_t<lrn_pd_t<plain_only>, lrn_t<plain_only>> {
    using base = primitive_desc_impl_t<lrn_pd_t<plain_only>, lrn_t<plain_only>>;
    using base::base;
    const char *name() const override { return plain_only ? "cpu:lrn:plain" : "cpu:lrn:ref"; }

    int nthr = 1;
    dim_t per_thread = 0; // doubles of scratch per thread

    static status_t init(lrn_pd_t &pd) {
        const auto &d = lrn_of(pd);
        ANYDNN_CHECK(lrn::resolve(pd));
        if (plain_only)
            for (const auto &a : pd.args)
                ANYDNN_REQUIRE(is_plain(a.second), dnnl_unimplemented,
                        "a tensor has a blocked (not plain) layout");
        const memory_desc_t &src = pd.args[DNNL_ARG_SRC];
        const geom_t g(src);
        pd.nthr = max_threads();
        const dim_t len = d.alg_kind == dnnl_lrn_across_channels
                ? std::max(4 * g.C + 1, g.C * rows_block) // doubles: 2 C B floats fit
                : 3 * g.sp() + std::max({g.D, g.H, g.W}) + 1;
        pd.per_thread = len;
        pd.scratchpad_size = size_t(pd.nthr) * len * sizeof(double);
        return dnnl_success;
    }
};

template <bool plain_only>
struct lrn_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const lrn_pd_t<plain_only> &>(this->pd());
        const auto &d = lrn_of(pd);
        const memory_desc_t &smd = pd.arg_md(DNNL_ARG_SRC);
        if (nelems(smd) == 0) return dnnl_success;
        const bool fwd = is_fwd(d);
        const memory_desc_t &omd = pd.arg_md(fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC);
        const memory_desc_t &gmd = pd.arg_md(fwd ? DNNL_ARG_SRC : DNNL_ARG_DIFF_DST);
        const bool plain = is_plain(smd) && is_plain(omd) && is_plain(gmd);
        const addr_t sa {&smd, plain}, oa {&omd, plain}, ga {&gmd, plain};
        const void *s = ctx.host_ptr(DNNL_ARG_SRC);
        const void *gp = fwd ? nullptr : ctx.host_ptr(DNNL_ARG_DIFF_DST);
        void *o = ctx.host_ptr(fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC);
        const auto sdt = smd.data_type, gdt = gmd.data_type, odt = omd.data_type;
        const geom_t g(smd);
        const dim_t h = (d.local_size - 1) / 2;
        const bool across = d.alg_kind == dnnl_lrn_across_channels;
        double summands = 1;
        for (int i = 0; i < (across ? 1 : g.nsp); ++i)
            summands *= double(d.local_size);
        const double k = d.k, a = d.alpha / summands, beta = d.beta;
        if (plain_only && fwd && across && sdt == dnnl_f32 && odt == dnnl_f32 && same_layout(smd, omd)
                && spatial_contiguous(smd)) {
            fwd_across_rows(d, smd, omd, static_cast<const float *>(s), static_cast<float *>(o), a);
            return dnnl_success;
        }
        double *scratch = static_cast<double *>(ctx.scratchpad);
        if (plain_only && across && sdt == dnnl_f32 && gdt == dnnl_f32 && odt == dnnl_f32
                && same_layout(smd, omd) && same_layout(smd, gmd) && smd.ndims >= 3
                && smd.blocking.strides[1] == 1 && is_plain(smd)) {
            // Channels last: every point's channels are one contiguous line.
            const dim_t total = g.N * g.sp();
            const dim_t *st = smd.blocking.strides;
            const int nd = smd.ndims;
            parallel(std::min<dim_t>(pd.nthr, total), [&](int ithr, int nt) {
                float *buf = reinterpret_cast<float *>(scratch + size_t(ithr) * pd.per_thread);
                dim_t start, end;
                balance211(total, nt, ithr, start, end);
                for (dim_t t = start; t < end; ++t) {
                    // Offset of point t: mb, then spatial dims row-major.
                    dim_t r = t, off = smd.offset0;
                    for (int k2 = nd - 1; k2 >= 2; --k2) {
                        off += (r % smd.dims[k2]) * st[k2];
                        r /= smd.dims[k2];
                    }
                    off += r * st[0];
                    across_line(d, static_cast<const float *>(s) + off,
                            fwd ? nullptr : static_cast<const float *>(gp) + off,
                            static_cast<float *>(o) + off, g.C, a, buf);
                }
            });
            return dnnl_success;
        }
        if (plain_only && !fwd && across && sdt == dnnl_f32 && gdt == dnnl_f32 && odt == dnnl_f32
                && same_layout(smd, omd) && same_layout(smd, gmd) && spatial_contiguous(smd)) {
            const dim_t B = rows_block, nblk = (g.sp() + B - 1) / B;
            const dim_t total = g.N * nblk;
            parallel(std::min<dim_t>(pd.nthr, total), [&](int ithr, int nt) {
                float *buf = reinterpret_cast<float *>(scratch + size_t(ithr) * pd.per_thread);
                dim_t start, end;
                balance211(total, nt, ithr, start, end);
                for (dim_t t = start; t < end; ++t) {
                    const dim_t n = t / nblk, s0 = (t % nblk) * B;
                    bwd_across_rows(d, smd, static_cast<const float *>(s),
                            static_cast<const float *>(gp), static_cast<float *>(o), a, buf, g.C,
                            g.sp(), B, n, s0, std::min(B, g.sp() - s0));
                }
            });
            return dnnl_success;
        }
        const dim_t nwork = across ? g.N * g.sp() : g.N * g.C;
        const dim_t len = across ? g.C : g.sp();

        parallel(std::min<dim_t>(pd.nthr, nwork), [&](int ithr, int nt) {
            double *x = scratch + size_t(ithr) * pd.per_thread;
            double *sum = x + len, *t = sum + len, *pre = t + len;
            dim_t start, end;
            balance211(nwork, nt, ithr, start, end);
            for (dim_t wi = start; wi < end; ++wi) {
                // The elements of this line (across) or plane (within), in order.
                const dim_t n = wi / (across ? g.sp() : g.C);
                const dim_t r = wi % (across ? g.sp() : g.C);
                auto coords = [&](dim_t i, dim_t &c, dim_t &dd, dim_t &hh, dim_t &ww) {
                    const dim_t sp = across ? r : i;
                    c = across ? i : r;
                    dd = sp / (g.H * g.W);
                    hh = (sp / g.W) % g.H;
                    ww = sp % g.W;
                };
                for (dim_t i = 0; i < len; ++i) {
                    dim_t c, dd, hh, ww;
                    coords(i, c, dd, hh, ww);
                    x[i] = load_as_f32(sdt, s, sa.off(n, c, dd, hh, ww));
                    sum[i] = x[i] * x[i];
                }
                if (across) box_line(sum, len, 1, h, pre);
                else box_plane(sum, g, h, pre);
                for (dim_t i = 0; i < len; ++i)
                    sum[i] = k + a * sum[i];
                if (fwd) {
                    for (dim_t i = 0; i < len; ++i) {
                        dim_t c, dd, hh, ww;
                        coords(i, c, dd, hh, ww);
                        store_from_f32(odt, o, oa.off(n, c, dd, hh, ww),
                                static_cast<float>(x[i] * pow_neg(float(sum[i]), float(beta))));
                    }
                    continue;
                }
                // diff_src = dy S^-b - 2ab x * (window sum of dy x S^(-b-1)).
                for (dim_t i = 0; i < len; ++i) {
                    dim_t c, dd, hh, ww;
                    coords(i, c, dd, hh, ww);
                    const double gy = load_as_f32(gdt, gp, ga.off(n, c, dd, hh, ww));
                    const double p = pow_neg(float(sum[i]), float(beta));
                    t[i] = gy * x[i] * p / sum[i];
                    sum[i] = gy * p; // first term kept in place of S
                }
                if (across) box_line(t, len, 1, h, pre);
                else box_plane(t, g, h, pre);
                for (dim_t i = 0; i < len; ++i) {
                    dim_t c, dd, hh, ww;
                    coords(i, c, dd, hh, ww);
                    store_from_f32(odt, o, oa.off(n, c, dd, hh, ww),
                            static_cast<float>(sum[i] - 2 * a * beta * x[i] * t[i]));
                }
            }
        });
        zero_padding(omd, o);
        return dnnl_success;
    }
};

} // namespace

impl_entry_t lrn_plain_entry() {
    return make_impl_entry<lrn_pd_t<true>>("cpu:lrn:plain");
}
impl_entry_t lrn_ref_entry() {
    return make_impl_entry<lrn_pd_t<false>>("cpu:lrn:ref");
}

} // namespace cpu
} // namespace anydnn
