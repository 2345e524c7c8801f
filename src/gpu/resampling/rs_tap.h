// Where resampling's dst position o along a dimension reads the src: its coordinate
// (o + 0.5) * in / out - 0.5, rounded (nearest) or split between its two neighbours (linear),
// clamped at the edges. Shared by the generic and the dense kernels, so both round alike.
#ifndef ANYDNN_GPU_RESAMPLING_RS_TAP_H
#define ANYDNN_GPU_RESAMPLING_RS_TAP_H

typedef struct {
    long i0, i1;
    float w0, w1;
} rs_tap_t;

static rs_tap_t rs_tap(bool linear, long o, long in, long out) {
    const float s = ((float)o + 0.5f) * (float)in / (float)out - 0.5f;
    rs_tap_t t;
    if (!linear) {
        t.i0 = clamp((long)round(s), 0L, in - 1);
        t.i1 = 0;
        t.w0 = 1.f;
        t.w1 = 0.f;
        return t;
    }
    const float f = floor(s);
    const long l = (long)f;
    t.i0 = clamp(l, 0L, in - 1);
    t.i1 = clamp(l + 1, 0L, in - 1);
    t.w1 = s - f;
    t.w0 = 1.f - t.w1;
    return t;
}

// The weight with which dst position o along a dim reads src position i.
static float rs_weight(bool linear, long o, long i, long in, long out) {
    const rs_tap_t t = rs_tap(linear, o, in, out);
    return (t.i0 == i ? t.w0 : 0.f) + (linear && t.i1 == i ? t.w1 : 0.f);
}

// dst positions that may read src position i: those whose coordinate lies within i +- 1.5.
static void rs_readers(long i, long in, long out, long *lo, long *hi) {
    *lo = max((i - 2) * out / in - 2, 0L);
    *hi = min((i + 3) * out / in + 2, out);
}

#endif
