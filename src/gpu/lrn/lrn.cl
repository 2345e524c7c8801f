// Local response normalization, forward and backward (recomputed, no workspace), across
// channels or within a channel (a box over up to 3 spatial dims), windows clipped at the
// edges. One work-item per padded output element (padding zeroed), any blocked layouts.
// Build options: FWD or BWD and the tensors' types (SRC, DST or DIFF_DST/DIFF_SRC).
#include "cl/group_reduce.h"

// The window around `at`: ranges over the channel (across) or the spatial dims (within),
// as lo/hi of the dims 1..4 (dims a tensor lacks stay at 0..0).
void window(const long *at, const long *dims, int nd, int across, long h, long *lo, long *hi) {
    for (int d = 1; d <= 4; ++d) {
        const bool exists = d < nd, slides = across ? d == 1 : d >= 2;
        const long p = exists ? at[d] : 0;
        lo[d - 1] = slides && exists ? max(p - h, 0L) : p;
        hi[d - 1] = slides && exists ? min(p + h, dims[d] - 1) : p;
    }
}

// Points of the window: w runs over its lo..hi box row-major; sets the dims 1..4 that exist.
long window_points(const long *lo, const long *hi) {
    long n = 1;
    for (int d = 0; d < 4; ++d) n *= hi[d] - lo[d] + 1;
    return n;
}
void window_point(const long *lo, const long *hi, long w, int nd, long *idx) {
    for (int d = 3; d >= 0; --d) {
        const long len = hi[d] - lo[d] + 1;
        if (d + 1 < nd) idx[d + 1] = lo[d] + w % len;
        w /= len;
    }
}

// Whether no sliding dim of l is split into inner blocks: window points are then a stride
// step apart.
bool window_strided(const tensor_layout_t *l, int nd, int across) {
    bool ok = true;
    for (int d = 1; d < nd && d <= 4; ++d)
        if (across ? d == 1 : d >= 2) ok = ok && l->outer_div[d] == 1;
    return ok;
}

// k + a * (sum of src^2 over the window around at).
float norm_sum(const global SRC_DATA_T *src, const tensor_layout_t *l, const long *at,
        const long *dims, int nd, int across, long h, float k, float a) {
    long lo[4], hi[4], idx[MAX_NDIMS];
    window(at, dims, nd, across, h, lo, hi);
    for (int d = 0; d < nd; ++d) idx[d] = at[d];
    float s = 0.f;
    if (window_strided(l, nd, across)) {
        long st[4], p0[4];
        for (int d = 0; d < 4; ++d) {
            st[d] = d + 1 < nd ? l->strides[d + 1] : 0;
            p0[d] = d + 1 < nd ? at[d + 1] : 0;
        }
        const long base = layout_offset(l, at);
        for (long i1 = lo[0]; i1 <= hi[0]; ++i1)
            for (long i2 = lo[1]; i2 <= hi[1]; ++i2)
                for (long i3 = lo[2]; i3 <= hi[2]; ++i3)
                    for (long i4 = lo[3]; i4 <= hi[3]; ++i4) {
                        const float x = LOAD_SRC(src,
                                base + (i1 - p0[0]) * st[0] + (i2 - p0[1]) * st[1]
                                        + (i3 - p0[2]) * st[2] + (i4 - p0[3]) * st[3]);
                        s += x * x;
                    }
        return k + a * s;
    }
    const long n = window_points(lo, hi);
    for (long w = 0; w < n; ++w) {
        window_point(lo, hi, w, nd, idx);
        const float x = LOAD_SRC(src, layout_offset(l, idx));
        s += x * x;
    }
    return k + a * s;
}

// s^-beta, with the usual beta = 0.75 as two square roots (as the CPU engine does).
float pow_neg(float s, float beta) {
    if (beta == 0.75f) {
        const float r = 1.f / sqrt(s);
        return r * sqrt(r);
    }
    if (beta == 0.5f) return 1.f / sqrt(s);
    if (beta == 1.f) return 1.f / s;
    return pow(s, -beta);
}

bool padded_index(const tensor_layout_t *l, long i, const long *dims, long *idx) {
    layout_index(l, i, idx);
    bool pad = false;
    for (int d = 0; d < l->ndims; ++d) pad = pad || idx[d] >= dims[d];
    return pad;
}

#ifdef FWD
kernel void lrn_fwd(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        tensor_layout_t src_l, tensor_layout_t dst_l, long n, long8 logical_dims, int across,
        long h, float k, float a, float beta) {
    const long i = get_global_id(0);
    if (i >= n) return;
    long dims[8], idx[MAX_NDIMS];
    dims_of(logical_dims, dims);
    const int nd = dst_l.ndims;
    float y = 0.f;
    if (!padded_index(&dst_l, i, dims, idx)) {
        const float s = norm_sum(src, &src_l, idx, dims, nd, across, h, k, a);
        y = LOAD_SRC(src, layout_offset(&src_l, idx)) * pow_neg(s, beta);
    }
    STORE_DST(dst, layout_offset(&dst_l, idx), y);
}
#endif

#ifdef BWD
// diff_src = dy S^-beta - 2 a beta x * (sum over the window of dy' x' S'^(-beta-1)): the
// window is symmetric, so the elements whose windows hold this one are its own window.
kernel void lrn_bwd(const global SRC_DATA_T *src, const global DIFF_DST_DATA_T *diff_dst,
        global DIFF_SRC_DATA_T *diff_src, tensor_layout_t src_l, tensor_layout_t dd_l,
        tensor_layout_t ds_l, long n, long8 logical_dims, int across, long h, float k,
        float a, float beta) {
    const long i = get_global_id(0);
    if (i >= n) return;
    long dims[8], idx[MAX_NDIMS], j[MAX_NDIMS], lo[4], hi[4];
    dims_of(logical_dims, dims);
    const int nd = ds_l.ndims;
    float v = 0.f;
    if (!padded_index(&ds_l, i, dims, idx)) {
        window(idx, dims, nd, across, h, lo, hi);
        for (int d = 0; d < nd; ++d) j[d] = idx[d];
        float t = 0.f;
        const long np = window_points(lo, hi);
        for (long w = 0; w < np; ++w) {
            window_point(lo, hi, w, nd, j);
            const float s = norm_sum(src, &src_l, j, dims, nd, across, h, k, a);
            t += LOAD_DIFF_DST(diff_dst, layout_offset(&dd_l, j))
                    * LOAD_SRC(src, layout_offset(&src_l, j)) * pow_neg(s, beta) / s;
        }
        const float s = norm_sum(src, &src_l, idx, dims, nd, across, h, k, a);
        const float x = LOAD_SRC(src, layout_offset(&src_l, idx));
        v = LOAD_DIFF_DST(diff_dst, layout_offset(&dd_l, idx)) * pow_neg(s, beta)
                - 2.f * a * beta * x * t;
    }
    STORE_DIFF_SRC(diff_src, layout_offset(&ds_l, idx), v);
}
#endif
