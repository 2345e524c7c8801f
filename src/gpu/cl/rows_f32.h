// Contiguous f32 rows walked by one work-item in float16 steps (CPU devices: PoCL then runs
// each work-item's row with vector instructions instead of gathering across work-items).
#ifndef ANYDNN_GPU_CL_ROWS_F32_H
#define ANYDNN_GPU_CL_ROWS_F32_H

static float hsum16(float16 v) {
    const float8 a = v.lo + v.hi;
    const float4 b = a.lo + a.hi;
    const float2 c = b.lo + b.hi;
    return c.x + c.y;
}

static float hmax16(float16 v) {
    const float8 a = fmax(v.lo, v.hi);
    const float4 b = fmax(a.lo, a.hi);
    const float2 c = fmax(b.lo, b.hi);
    return fmax(c.x, c.y);
}

#endif
