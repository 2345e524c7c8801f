// Concat of tensors that are rows: each source `cols` elements wide per row, placed at column
// `col0` of dst rows `dst_cols` wide (n source elements in all; one launch per source). COPY:
// same types, no scale, elements moved as their bits (BITS_T); otherwise through f32 (SRC /
// DST types, SCALE). VEC 4 (widths, column and offsets multiples of 4): GROUPS groups of four
// elements per work-item, a global size apart, all loaded before any is stored; VEC 1: one
// element per work-item.
#include "cl/common.h"
#include "cl/vec_io.h"

#ifdef COPY
#define VALUE4_T VEC_TYPE(BITS_T, 4)
#define LOAD4(p, i) vload4(0, (p) + (i))
#define STORE4(p, i, v) vstore4(v, 0, (p) + (i))
#define LOAD1(p, i) (p)[i]
#define STORE1(p, i, v) ((p)[i] = (v))
#define VALUE_T BITS_T
#else
#define VALUE4_T float4
#ifdef SCALE
#define SCALED(v) ((v) * scale[0])
#else
#define SCALED(v) (v)
#endif
#define LOAD4(p, i) SCALED(X4(LOAD_SRC)(p, i))
#define STORE4(p, i, v) X4(STORE_DST)(p, i, v)
#define LOAD1(p, i) SCALED(LOAD_SRC(p, i))
#define STORE1(p, i, v) STORE_DST(p, i, v)
#define VALUE_T float
#endif
#define VEC_TYPE_(t, n) t##n
#define VEC_TYPE(t, n) VEC_TYPE_(t, n)

// dst's index of source element i.
static long dst_index(long i, long cols, long dst_cols, long col0) {
    return i / cols * dst_cols + col0 + i % cols;
}

kernel void concat_rows(const global SRC_DATA_T *src, global DST_DATA_T *dst, long src_off,
        long dst_off, long n, long cols, long dst_cols, long col0, const global float *scale) {
#if VEC == 4
    const long groups = n / 4;
    VALUE4_T v[GROUPS];
    FOR_ITEM_GROUPS(g, j, groups) v[g] = LOAD4(src, src_off + j * 4);
    FOR_ITEM_GROUPS(g, j, groups)
        STORE4(dst, dst_off + dst_index(j * 4, cols, dst_cols, col0), v[g]);
    // n is a multiple of 4 here (cols is): no tail.
#else
    const long i = get_global_id(0);
    if (i >= n) return;
    const VALUE_T v = LOAD1(src, src_off + i);
    STORE1(dst, dst_off + dst_index(i, cols, dst_cols, col0), v);
#endif
}
