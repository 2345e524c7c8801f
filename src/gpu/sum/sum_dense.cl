// Dense sum: every source and dst in one dense layout without padding, up to 8 sources in one
// launch (NSRC), accumulated in f32 in source order like the CPU engine, so each element is
// read once per source and written once. VEC 4: GROUPS groups of four elements per work-item,
// a global size apart (coalesced accesses), the n % 4 tail the first work-item's; VEC 1: one
// element per work-item. Sources past NSRC are declared float and never read.
#include "cl/common.h"
#include "cl/vec_io.h"

#define SUM_SOURCES \
    const global SRC0_DATA_T *s0, const global SRC1_DATA_T *s1, const global SRC2_DATA_T *s2, \
            const global SRC3_DATA_T *s3, const global SRC4_DATA_T *s4, \
            const global SRC5_DATA_T *s5, const global SRC6_DATA_T *s6, \
            const global SRC7_DATA_T *s7, long8 off, float8 scale

// Source k's term, when there is a source k: T(k) expands to the one load a form needs.
#define ADD_TERMS(T) \
    T(0, s0, off.s0, scale.s0) \
    if (NSRC > 1) T(1, s1, off.s1, scale.s1) \
    if (NSRC > 2) T(2, s2, off.s2, scale.s2) \
    if (NSRC > 3) T(3, s3, off.s3, scale.s3) \
    if (NSRC > 4) T(4, s4, off.s4, scale.s4) \
    if (NSRC > 5) T(5, s5, off.s5, scale.s5) \
    if (NSRC > 6) T(6, s6, off.s6, scale.s6) \
    if (NSRC > 7) T(7, s7, off.s7, scale.s7)

static float sum_one(long i, SUM_SOURCES) {
    float v = 0.f;
#define TERM1(k, p, o, s) { v += (s) * LOAD_SRC##k(p, (o) + i); }
    ADD_TERMS(TERM1)
#undef TERM1
    return v;
}

#if VEC == 4
static float4 sum_four(long i, SUM_SOURCES) {
    float4 v = 0.f;
#define TERM4(k, p, o, s) { v += (s) * X4(LOAD_SRC##k)(p, (o) + i); }
    ADD_TERMS(TERM4)
#undef TERM4
    return v;
}
#endif

kernel void sum_dense(global DST_DATA_T *dst, long dst_off, long n, SUM_SOURCES) {
#if VEC == 4
    const long groups = n / 4;
    float4 v[GROUPS];
    FOR_ITEM_GROUPS(g, j, groups) v[g] = sum_four(j * 4, s0, s1, s2, s3, s4, s5, s6, s7, off, scale);
    FOR_ITEM_GROUPS(g, j, groups) X4(STORE_DST)(dst, dst_off + j * 4, v[g]);
    if (get_global_id(0) != 0) return;
    for (long i = groups * 4; i < n; ++i)
        STORE_DST(dst, dst_off + i, sum_one(i, s0, s1, s2, s3, s4, s5, s6, s7, off, scale));
#else
    const long i = get_global_id(0);
    if (i < n) STORE_DST(dst, dst_off + i, sum_one(i, s0, s1, s2, s3, s4, s5, s6, s7, off, scale));
#endif
}
