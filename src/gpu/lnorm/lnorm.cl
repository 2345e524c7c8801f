// Layer normalization over the last dimension (optionally RMS): one work-group per row, mean
// and variance reduced in local memory; the backward's diff scale/shift take one work-item
// per channel. Build options: FWD or BWD, the tensors' types (SRC, DST or DIFF_DST/DIFF_SRC,
// SS for scale/shift).
#include "cl/group_reduce.h"
#include "cl/scales.h"
#ifdef FWD
#include "cl/post_ops.h"
#endif

// Flags (an int argument): which tensors take part.
#define LN_SCALE 1
#define LN_SHIFT 2
#define LN_GLOBAL 4 // statistics are inputs
#define LN_STATS_OUT 8 // forward writes the statistics
#define LN_RMS 16
#define LN_DIFF_SCALE 32 // backward writes diff scale / diff shift
#define LN_DIFF_SHIFT 64

// A work-item's sum of its elements of a row in chunks of 64 terms, the chunks then joined:
// where one work-item walks a whole row (CPU devices: rows of 32768 in one f32 sum lost
// ~5e-6 of the variance, relative) the rounding stays that of short sums.
typedef struct {
    float sum, chunk;
    int n;
} chunked_sum_t;

static void chunked_add(chunked_sum_t *s, float v) {
    s->chunk += v;
    if (++s->n == 64) {
        s->sum += s->chunk;
        s->chunk = 0.f;
        s->n = 0;
    }
}

static float chunked_total(const chunked_sum_t *s) { return s->sum + s->chunk; }

#define CHUNKED_SUM_INIT {0.f, 0.f, 0}

#ifdef FWD
kernel void lnorm_fwd(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        global float *mean, global float *var, const global SS_DATA_T *scale,
        const global SS_DATA_T *shift, tensor_layout_t src_l, tensor_layout_t dst_l,
        tensor_layout_t stat_l, long8 logical_dims, int flags, float eps,
        const global SRC_SCALE_DATA_T *src_scale, const global DST_SCALE_DATA_T *dst_scale,
        local float *buf POST_OP_PARAMS) {
    long dims[8], si[MAX_NDIMS], di[MAX_NDIMS];
    dims_of(logical_dims, dims);
    const int axis = src_l.ndims - 1;
    const long r = ROW_ID, C = dims[axis];
    const long lid = ROW_LID, L = ROW_L;
    row_index(dims, src_l.ndims, axis, r, si);
    row_index(dims, src_l.ndims, axis, r, di);
    const long sbase = layout_offset(&src_l, si), dbase = layout_offset(&dst_l, di);
    const bool rms = flags & LN_RMS;
    float m = 0.f, v = 0.f;
    if (flags & LN_GLOBAL) {
        const long so = layout_offset(&stat_l, si);
        if (!rms) m = mean[so];
        v = var[so];
    } else {
        if (!rms) {
            chunked_sum_t s = CHUNKED_SUM_INIT;
            for (long c = lid; c < C; c += L)
                chunked_add(&s, LOAD_SRC(src, axis_offset(&src_l, si, axis, sbase, c)));
            m = group_sum(buf, chunked_total(&s)) / C;
        }
        chunked_sum_t s = CHUNKED_SUM_INIT;
        for (long c = lid; c < C; c += L) {
            const float x = LOAD_SRC(src, axis_offset(&src_l, si, axis, sbase, c)) - m;
            chunked_add(&s, x * x);
        }
        v = group_sum(buf, chunked_total(&s)) / C;
        if ((flags & LN_STATS_OUT) && lid == 0) {
            const long so = layout_offset(&stat_l, si);
            if (!rms) mean[so] = m;
            var[so] = v;
        }
    }
    const float inv = rsqrt(v + eps);
    // Quantization attributes: the src scale on the normalized result, then the post-ops
    // (eltwise, binary: no sum), then the dst scale.
    const float s_scale = src_scale ? LOAD_SRC_SCALE(src_scale, 0) : 1.f;
    const float d_scale = dst_scale ? LOAD_DST_SCALE(dst_scale, 0) : 1.f;
    for (long c = lid; c < C; c += L) {
        float y = (LOAD_SRC(src, axis_offset(&src_l, si, axis, sbase, c)) - m) * inv;
        if (flags & LN_SCALE) y *= LOAD_SS(scale, c);
        if (flags & LN_SHIFT) y += LOAD_SS(shift, c);
        y *= s_scale;
#if PO_COUNT > 0
        long idx[MAX_NDIMS];
        for (int d = 0; d < src_l.ndims; ++d)
            idx[d] = si[d];
        idx[axis] = c;
        y = apply_post_ops(y, idx, 0.f POST_OP_ARGS);
#endif
        STORE_DST(dst, axis_offset(&dst_l, di, axis, dbase, c), y / d_scale);
    }
}
#endif

#ifdef BWD
// g = diff_dst * scale, xh = (x - mean) * inv:
// diff_src = inv * (g - mean(g) - xh * mean(g * xh))   (RMS: without the mean(g) term).
kernel void lnorm_bwd(const global SRC_DATA_T *src, const global DIFF_DST_DATA_T *diff_dst,
        global DIFF_SRC_DATA_T *diff_src, const global float *mean, const global float *var,
        const global SS_DATA_T *scale, tensor_layout_t src_l, tensor_layout_t dd_l,
        tensor_layout_t ds_l, tensor_layout_t stat_l, long8 logical_dims, int flags, float eps,
        local float *buf) {
    long dims[8], xi[MAX_NDIMS], gi[MAX_NDIMS], si[MAX_NDIMS];
    dims_of(logical_dims, dims);
    const int axis = src_l.ndims - 1;
    const long r = ROW_ID, C = dims[axis];
    const long lid = ROW_LID, L = ROW_L;
    row_index(dims, src_l.ndims, axis, r, xi);
    row_index(dims, src_l.ndims, axis, r, gi);
    row_index(dims, src_l.ndims, axis, r, si);
    const long xbase = layout_offset(&src_l, xi), gbase = layout_offset(&dd_l, gi),
               sbase = layout_offset(&ds_l, si);
    const bool rms = flags & LN_RMS;
    const long so = layout_offset(&stat_l, xi);
    const float m = rms ? 0.f : mean[so], inv = rsqrt(var[so] + eps);
    chunked_sum_t csg = CHUNKED_SUM_INIT, csgx = CHUNKED_SUM_INIT;
    for (long c = lid; c < C; c += L) {
        float g = LOAD_DIFF_DST(diff_dst, axis_offset(&dd_l, gi, axis, gbase, c));
        if (flags & LN_SCALE) g *= LOAD_SS(scale, c);
        const float xh = (LOAD_SRC(src, axis_offset(&src_l, xi, axis, xbase, c)) - m) * inv;
        chunked_add(&csg, g);
        chunked_add(&csgx, g * xh);
    }
    float sg = rms ? 0.f : group_sum(buf, chunked_total(&csg)) / C;
    float sgx = group_sum(buf, chunked_total(&csgx)) / C;
    if (flags & LN_GLOBAL) sg = sgx = 0.f; // constant statistics: no terms through them
    for (long c = lid; c < C; c += L) {
        float g = LOAD_DIFF_DST(diff_dst, axis_offset(&dd_l, gi, axis, gbase, c));
        if (flags & LN_SCALE) g *= LOAD_SS(scale, c);
        const float xh = (LOAD_SRC(src, axis_offset(&src_l, xi, axis, xbase, c)) - m) * inv;
        STORE_DIFF_SRC(diff_src, axis_offset(&ds_l, si, axis, sbase, c), inv * (g - sg - xh * sgx));
    }
}

// Channel c: diff_scale = sum over rows of diff_dst * xh, diff_shift = sum of diff_dst.
kernel void lnorm_bwd_scaleshift(const global SRC_DATA_T *src,
        const global DIFF_DST_DATA_T *diff_dst, const global float *mean,
        const global float *var, global DIFF_SS_DATA_T *diff_scale,
        global DIFF_SS_DATA_T *diff_shift, tensor_layout_t src_l, tensor_layout_t dd_l,
        tensor_layout_t stat_l, long8 logical_dims, int flags, float eps) {
    long dims[8], idx[MAX_NDIMS];
    dims_of(logical_dims, dims);
    const int axis = src_l.ndims - 1;
    const long C = dims[axis], c = get_global_id(0);
    if (c >= C) return;
    long rows = 1;
    for (int d = 0; d < axis; ++d) rows *= dims[d];
    const bool rms = flags & LN_RMS;
    chunked_sum_t ds = CHUNKED_SUM_INIT, db = CHUNKED_SUM_INIT;
    for (long r = 0; r < rows; ++r) {
        row_index(dims, src_l.ndims, axis, r, idx);
        const long so = layout_offset(&stat_l, idx);
        idx[axis] = c;
        const float g = LOAD_DIFF_DST(diff_dst, layout_offset(&dd_l, idx));
        const float m = rms ? 0.f : mean[so];
        const float xh = (LOAD_SRC(src, layout_offset(&src_l, idx)) - m) * rsqrt(var[so] + eps);
        chunked_add(&ds, g * xh);
        chunked_add(&db, g);
    }
    if (flags & LN_DIFF_SCALE) STORE_DIFF_SS(diff_scale, c, chunked_total(&ds));
    if (flags & LN_DIFF_SHIFT) STORE_DIFF_SS(diff_shift, c, chunked_total(&db));
}
#endif

#ifdef ROWS_F32
#include "cl/rows_f32.h"
// f32 rows and statistics contiguous in memory (plain row-major), f32 scale/shift: one
// work-item per row in float16 steps.
kernel void lnorm_fwd_rows_f32(const global float *src, global float *dst, global float *mean,
        global float *var, const global float *scale, const global float *shift, long src_off,
        long dst_off, long stat_off, long C, int flags, float eps) {
    const long r = get_global_id(0);
    const global float *x = src + src_off + r * C;
    global float *y = dst + dst_off + r * C;
    const long C16 = C & ~15L;
    const bool rms = flags & LN_RMS;
    float m = 0.f, v = 0.f;
    if (flags & LN_GLOBAL) {
        if (!rms) m = mean[stat_off + r];
        v = var[stat_off + r];
    } else {
        if (!rms) {
            float16 s16 = (float16)(0.f);
            for (long c = 0; c < C16; c += 16) s16 += vload16(0, x + c);
            float s = hsum16(s16);
            for (long c = C16; c < C; ++c) s += x[c];
            m = s / C;
        }
        float16 s16 = (float16)(0.f);
        for (long c = 0; c < C16; c += 16) {
            const float16 d = vload16(0, x + c) - m;
            s16 += d * d;
        }
        float s = hsum16(s16);
        for (long c = C16; c < C; ++c) s += (x[c] - m) * (x[c] - m);
        v = s / C;
        if (flags & LN_STATS_OUT) {
            if (!rms) mean[stat_off + r] = m;
            var[stat_off + r] = v;
        }
    }
    const float inv = rsqrt(v + eps);
    const bool sc = flags & LN_SCALE, sh = flags & LN_SHIFT;
    for (long c = 0; c < C16; c += 16) {
        float16 o = (vload16(0, x + c) - m) * inv;
        if (sc) o *= vload16(0, scale + c);
        if (sh) o += vload16(0, shift + c);
        vstore16(o, 0, y + c);
    }
    for (long c = C16; c < C; ++c) {
        float o = (x[c] - m) * inv;
        if (sc) o *= scale[c];
        if (sh) o += shift[c];
        y[c] = o;
    }
}
#endif
