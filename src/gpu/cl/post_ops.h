// A primitive's post-op chain (sum, eltwise, binary with broadcast, prelu) applied to one f32
// result at its logical dst index. The host (src/gpu/post_ops.hpp) defines PO_COUNT and per
// entry i PO<i>_KIND / PO<i>_ALG / the operand types PO<i>A, PO<i>B, and passes the arguments.
//
// In a kernel:   kernel void k(..., long8 dims POST_OP_PARAMS) {
//                    v = apply_post_ops(v, idx, old_dst POST_OP_ARGS); }
// old_dst is dst's value before the kernel writes it (read it only #ifdef PO_SUM), or, reading
// it through dst's loader only when there is a sum (and nothing at all without post-ops):
//                    v = POST_OPS_AT(v, idx, LOAD_DST, dst, off);
#ifndef ANYDNN_GPU_CL_POST_OPS_H
#define ANYDNN_GPU_CL_POST_OPS_H

#include "cl/binary.h"
#include "cl/common.h"
#include "cl/eltwise.h"

#ifndef PO_COUNT
#define PO_COUNT 0
#endif

// Results match the CPU engine bit for bit only without fused multiply-adds.
#pragma OPENCL FP_CONTRACT OFF

#define PO_KIND_SUM 1
#define PO_KIND_ELTWISE 2
#define PO_KIND_BINARY 3
#define PO_KIND_PRELU 4

// Mirrors gpu::post_op_desc_t: run-time parameters of one entry; a and b are the layouts of
// its operands (binary src1 and select's src2; prelu weights in a), with size-1 dimensions
// where they broadcast.
typedef struct {
    float alpha, beta, scale, zero_point;
    tensor_layout_t a, b;
} post_op_t;

// Offset of dst's logical index idx in an operand that broadcasts along its size-1
// dimensions (the host puts logical sizes in the layout's dims).
static long bcast_offset(const tensor_layout_t *l, const long *idx) {
    long bidx[MAX_NDIMS];
    for (int d = 0; d < l->ndims; ++d) bidx[d] = l->dims[d] == 1 ? 0 : idx[d];
    return layout_offset(l, bidx);
}

static long po_operand_offset(const global tensor_layout_t *gl, const long *idx) {
    tensor_layout_t l = *gl;
    return bcast_offset(&l, idx);
}

#define PO_STEP(i) \
    { \
        const global post_op_t *p = po_desc + i; \
        if (PO##i##_KIND == PO_KIND_SUM) { \
            v += p->scale * (old - p->zero_point); \
        } else if (PO##i##_KIND == PO_KIND_ELTWISE) { \
            v = eltwise_fwd(PO##i##_ALG, v, p->alpha, p->beta); \
        } else if (PO##i##_KIND == PO_KIND_BINARY) { \
            float b = LOAD_PO##i##A( \
                    (const global PO##i##A_DATA_T *)po##i##_a, po_operand_offset(&p->a, idx)); \
            float c = 0.f; \
            if (PO##i##_ALG == BINARY_SELECT) \
                c = LOAD_PO##i##B((const global PO##i##B_DATA_T *)po##i##_b, \
                        po_operand_offset(&p->b, idx)); \
            v = binary_op(PO##i##_ALG, v, b, c); \
        } else if (PO##i##_KIND == PO_KIND_PRELU) { \
            float w = load_f32((const global float *)po##i##_a, po_operand_offset(&p->a, idx)); \
            v = v > 0.f ? v : v * w; \
        } \
    }

#define PO_PARAM(i) , const global uchar *po##i##_a, const global uchar *po##i##_b
#define PO_ARG(i) , po##i##_a, po##i##_b

#if PO_COUNT > 0
#define PO_P0 PO_PARAM(0)
#define PO_A0 PO_ARG(0)
#else
#define PO_P0
#define PO_A0
#endif
#if PO_COUNT > 1
#define PO_P1 PO_PARAM(1)
#define PO_A1 PO_ARG(1)
#else
#define PO_P1
#define PO_A1
#endif
#if PO_COUNT > 2
#define PO_P2 PO_PARAM(2)
#define PO_A2 PO_ARG(2)
#else
#define PO_P2
#define PO_A2
#endif
#if PO_COUNT > 3
#define PO_P3 PO_PARAM(3)
#define PO_A3 PO_ARG(3)
#else
#define PO_P3
#define PO_A3
#endif
#if PO_COUNT > 4
#define PO_P4 PO_PARAM(4)
#define PO_A4 PO_ARG(4)
#else
#define PO_P4
#define PO_A4
#endif
#if PO_COUNT > 5
#define PO_P5 PO_PARAM(5)
#define PO_A5 PO_ARG(5)
#else
#define PO_P5
#define PO_A5
#endif

#if PO_COUNT > 0
#define POST_OP_PARAMS , const global post_op_t *po_desc PO_P0 PO_P1 PO_P2 PO_P3 PO_P4 PO_P5
#define POST_OP_ARGS , po_desc PO_A0 PO_A1 PO_A2 PO_A3 PO_A4 PO_A5
#else
#define POST_OP_PARAMS
#define POST_OP_ARGS
#endif

static float apply_post_ops(float v, const long *idx, float old POST_OP_PARAMS) {
#if PO_COUNT > 0
    PO_STEP(0)
#endif
#if PO_COUNT > 1
    PO_STEP(1)
#endif
#if PO_COUNT > 2
    PO_STEP(2)
#endif
#if PO_COUNT > 3
    PO_STEP(3)
#endif
#if PO_COUNT > 4
    PO_STEP(4)
#endif
#if PO_COUNT > 5
    PO_STEP(5)
#endif
    return v;
}

#if PO_COUNT == 0
#define POST_OPS_AT(v, idx, LOAD, ptr, off) (v)
#elif defined(PO_SUM)
#define POST_OPS_AT(v, idx, LOAD, ptr, off) apply_post_ops(v, idx, LOAD(ptr, off) POST_OP_ARGS)
#else
#define POST_OPS_AT(v, idx, LOAD, ptr, off) apply_post_ops(v, idx, 0.f POST_OP_ARGS)
#endif

#endif
