// Convolution as GEMMs on a column matrix (im2col / col2im) over dense channels-first buffers:
// per image and group, rows (ic, kd, kh, kw), columns the small side's positions.
#include <algorithm>
#include <cstring>

#include "core/parallel.hpp"
#include "cpu/convolution/dense_geom.hpp"
#include "cpu/convolution/tap_range.hpp"
#include "cpu/ukernels/gemm.hpp"

namespace anydnn {
namespace cpu {
namespace conv {

namespace {

// Calls f(row r of col, kd, kh, kw, ic) for every row, threaded over rows.
template <typename F>
void for_col_rows(const dense_geom_t &q, F f) {
    const dim_t ksz = q.ksize();
    parallel_range(q.icv * ksz, [&](dim_t start, dim_t end) {
        for (dim_t r = start; r < end; ++r) {
            const dim_t ic = r / ksz, t = r % ksz;
            f(r, t / (q.k[1] * q.k[2]), t / q.k[2] % q.k[1], t % q.k[2], ic);
        }
    }, 1);
}

// Walks the valid (o, i) pairs of one col row: g(o_row_offset, i_row_offset, ow_lo, ow_hi,
// iw_first) per output row, where i = iw_first + (ow - ow_lo) * s.
template <typename G>
void walk_row(const dense_geom_t &q, dim_t kd, dim_t kh, dim_t kw, G g) {
    const dim_t cd = kd * q.dl[0] - q.p[0], ch = kh * q.dl[1] - q.p[1],
                cw = kw * q.dl[2] - q.p[2];
    for (dim_t od = 0; od < q.o[0]; ++od) {
        const dim_t id = od * q.s[0] + cd;
        if (id < 0 || id >= q.i[0]) continue;
        for (dim_t oh = 0; oh < q.o[1]; ++oh) {
            const dim_t ih = oh * q.s[1] + ch;
            if (ih < 0 || ih >= q.i[1]) continue;
            dim_t lo, hi; // ow with 0 <= ow * s + cw < iw
            lo = cw >= 0 ? 0 : (-cw + q.s[2] - 1) / q.s[2];
            hi = q.i[2] - 1 - cw < 0 ? 0 : std::min(q.o[2], (q.i[2] - 1 - cw) / q.s[2] + 1);
            if (hi < lo) hi = lo;
            g((od * q.o[1] + oh) * q.o[2], (id * q.i[1] + ih) * q.i[2], lo, hi,
                    lo * q.s[2] + cw);
        }
    }
}

void im2col(const dense_geom_t &q, const float *big, float *col) {
    const dim_t ospat = q.ospat(), ispat = q.ispat(), sw = q.s[2];
    for_col_rows(q, [&](dim_t r, dim_t kd, dim_t kh, dim_t kw, dim_t ic) {
        float *c = col + r * ospat;
        std::fill(c, c + ospat, 0.f);
        const float *b = big + ic * ispat;
        walk_row(q, kd, kh, kw, [&](dim_t orow, dim_t irow, dim_t lo, dim_t hi, dim_t iw) {
            const float *src = b + irow + iw;
            float *dst = c + orow;
            if (sw == 1)
                std::memcpy(dst + lo, src, (hi - lo) * sizeof(float));
            else
                for (dim_t ow = lo; ow < hi; ++ow)
                    dst[ow] = src[(ow - lo) * sw];
        });
    });
}

// big += col scattered back; rows of one input channel stay on one thread.
void col2im(const dense_geom_t &q, const float *col, float *big) {
    const dim_t ospat = q.ospat(), ispat = q.ispat(), sw = q.s[2], ksz = q.ksize();
    parallel_range(q.icv, [&](dim_t start, dim_t end) {
        for (dim_t ic = start; ic < end; ++ic) {
            float *b = big + ic * ispat;
            for (dim_t t = 0; t < ksz; ++t) {
                const float *c = col + (ic * ksz + t) * ospat;
                walk_row(q, t / (q.k[1] * q.k[2]), t / q.k[2] % q.k[1], t % q.k[2],
                        [&](dim_t orow, dim_t irow, dim_t lo, dim_t hi, dim_t iw) {
                            float *dst = b + irow + iw;
                            const float *src = c + orow;
                            for (dim_t ow = lo; ow < hi; ++ow)
                                dst[(ow - lo) * sw] += src[ow];
                        });
            }
        }
    }, 1);
}

} // namespace

void gemm_fwd(const dense_geom_t &q, const float *big, const float *wei, float *small,
        float *col) {
    const dim_t ospat = q.ospat(), ispat = q.ispat(), ck = q.icv * q.ksize();
    for (dim_t n = 0; n < q.mb; ++n)
        for (dim_t g = 0; g < q.g; ++g) {
            im2col(q, big + (n * q.g + g) * q.icv * ispat, col);
            ukernels::gemm_problem_t p;
            p.M = q.ocv;
            p.N = ospat;
            p.K = ck;
            p.a = {wei + g * q.ocv * ck, dnnl_f32, ck, 1};
            p.b = {col, dnnl_f32, ospat, 1};
            p.c = small + (n * q.g + g) * q.ocv * ospat;
            p.ldc = ospat;
            ukernels::gemm(p);
        }
}

void gemm_bwd_data(const dense_geom_t &q, const float *small, const float *wei, float *big,
        float *col) {
    const dim_t ospat = q.ospat(), ispat = q.ispat(), ck = q.icv * q.ksize();
    std::fill(big, big + q.big_size(), 0.f);
    for (dim_t n = 0; n < q.mb; ++n)
        for (dim_t g = 0; g < q.g; ++g) {
            ukernels::gemm_problem_t p;
            p.M = ck;
            p.N = ospat;
            p.K = q.ocv;
            p.a = {wei + g * q.ocv * ck, dnnl_f32, 1, ck};
            p.b = {small + (n * q.g + g) * q.ocv * ospat, dnnl_f32, ospat, 1};
            p.c = col;
            p.ldc = ospat;
            ukernels::gemm(p);
            col2im(q, col, big + (n * q.g + g) * q.icv * ispat);
        }
}

void gemm_bwd_weights(const dense_geom_t &q, const float *big, const float *small, float *wei,
        float *col) {
    const dim_t ospat = q.ospat(), ispat = q.ispat(), ck = q.icv * q.ksize();
    for (dim_t g = 0; g < q.g; ++g)
        for (dim_t n = 0; n < q.mb; ++n) {
            im2col(q, big + (n * q.g + g) * q.icv * ispat, col);
            ukernels::gemm_problem_t p;
            p.M = q.ocv;
            p.N = ck;
            p.K = ospat;
            p.a = {small + (n * q.g + g) * q.ocv * ospat, dnnl_f32, ospat, 1};
            p.b = {col, dnnl_f32, 1, ospat};
            p.c = wei + g * q.ocv * ck;
            p.ldc = ck;
            p.beta = n == 0 ? 0.f : 1.f;
            ukernels::gemm(p);
        }
    if (q.mb == 0) std::fill(wei, wei + q.wei_size(), 0.f);
}

} // namespace conv
} // namespace cpu
} // namespace anydnn
