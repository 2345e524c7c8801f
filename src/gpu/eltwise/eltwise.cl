// Eltwise forward and backward. Build options: ALG, the tensors' types (SRC, DST, DIFF_SRC,
// DIFF_DST: see gpu/kernel_layout.hpp), the post-op chain (cl/post_ops.h, forward generic
// kernel only), DENSE when every tensor has one dense layout without
// padding (then one work-item per element, no index arithmetic). A program holds only the
// kernel it is built for: smaller binaries load faster from the disk cache.
#include "cl/common.h"
#include "cl/eltwise.h"
#include "cl/post_ops.h"

#if defined(FWD) && defined(DENSE)
kernel void eltwise_fwd_dense(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        long offset_src, long offset_dst, long n, float alpha, float beta) {
    long i = get_global_id(0);
    if (i >= n) return;
    STORE_DST(dst, offset_dst + i, eltwise_fwd(ALG, LOAD_SRC(src, offset_src + i), alpha, beta));
}
#endif

#if defined(FWD) && defined(DENSE) && defined(VEC)
#include "cl/vec_io.h"
static float4 eltwise_fwd4(float4 x, float alpha, float beta) {
    return (float4)(eltwise_fwd(ALG, x.s0, alpha, beta), eltwise_fwd(ALG, x.s1, alpha, beta),
            eltwise_fwd(ALG, x.s2, alpha, beta), eltwise_fwd(ALG, x.s3, alpha, beta));
}
#if VEC == 8
static vf eltwise_fwdv(vf x, float alpha, float beta) {
    return (float8)(eltwise_fwd4(x.lo, alpha, beta), eltwise_fwd4(x.hi, alpha, beta));
}
#else
#define eltwise_fwdv eltwise_fwd4
#endif

// Dense, GROUPS groups of VEC (4 or 8) elements per work-item (16-byte f32 accesses, 8- or
// 16-byte bf16 ones), groups a global size apart so each access stays coalesced, all loaded
// before any is stored; the first work-item also takes the n % VEC tail. Offsets are
// multiples of VEC (the host's condition).
kernel void eltwise_fwd_dense_vec(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        long offset_src, long offset_dst, long n, float alpha, float beta) {
    const long groups = n / VEC;
    vf x[GROUPS];
    FOR_ITEM_GROUPS(g, j, groups) x[g] = LOADV(LOAD_SRC, src, offset_src + j * VEC);
    FOR_ITEM_GROUPS(g, j, groups)
        STOREV(STORE_DST, dst, offset_dst + j * VEC, eltwise_fwdv(x[g], alpha, beta));
    if (get_global_id(0) != 0) return;
    for (long k = groups * VEC; k < n; ++k)
        STORE_DST(dst, offset_dst + k, eltwise_fwd(ALG, LOAD_SRC(src, offset_src + k), alpha, beta));
}
#endif

#if defined(FWD) && !defined(DENSE)
// One work-item per padded element: padding of dst is written as zero.
kernel void eltwise_fwd_generic(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        tensor_layout_t src_l, tensor_layout_t dst_l, long n, float alpha, float beta,
        long8 logical_dims POST_OP_PARAMS) {
    long i = get_global_id(0);
    if (i >= n) return;
    long idx[MAX_NDIMS];
    layout_index(&dst_l, i, idx);
    const long lim[8] = {logical_dims.s0, logical_dims.s1, logical_dims.s2, logical_dims.s3,
            logical_dims.s4, logical_dims.s5, logical_dims.s6, logical_dims.s7};
    bool pad = false;
    for (int d = 0; d < dst_l.ndims; ++d) pad = pad || idx[d] >= lim[d];
    const long dst_off = layout_offset(&dst_l, idx);
    float v = 0.f;
    if (!pad) {
        v = eltwise_fwd(ALG, LOAD_SRC(src, layout_offset(&src_l, idx)), alpha, beta);
        float old = 0.f;
#ifdef PO_SUM
        old = LOAD_DST(dst, dst_off);
#endif
        v = apply_post_ops(v, idx, old POST_OP_ARGS);
    }
    STORE_DST(dst, dst_off, v);
}
#endif

#ifdef BWD
kernel void eltwise_bwd_generic(const global SRC_DATA_T *data,
        const global DIFF_DST_DATA_T *diff_dst, global DIFF_SRC_DATA_T *diff_src,
        tensor_layout_t data_l, tensor_layout_t dd_l, tensor_layout_t ds_l, long n, float alpha,
        float beta, long8 logical_dims) {
    long i = get_global_id(0);
    if (i >= n) return;
    long idx[MAX_NDIMS];
    layout_index(&ds_l, i, idx);
    const long lim[8] = {logical_dims.s0, logical_dims.s1, logical_dims.s2, logical_dims.s3,
            logical_dims.s4, logical_dims.s5, logical_dims.s6, logical_dims.s7};
    bool pad = false;
    for (int d = 0; d < ds_l.ndims; ++d) pad = pad || idx[d] >= lim[d];
    float v = 0.f;
    if (!pad)
        v = eltwise_bwd(ALG, LOAD_DIFF_DST(diff_dst, layout_offset(&dd_l, idx)),
                LOAD_SRC(data, layout_offset(&data_l, idx)), alpha, beta);
    STORE_DIFF_SRC(diff_src, layout_offset(&ds_l, idx), v);
}
#endif
