// Reorder between a plain layout (n, c, spatial...) and the same with the channels blocked by
// BLOCK (nchw <-> nChw16c): per (n, channel block) a BLOCK x spatial transpose, both sides
// read and written contiguously. Build options: the types (SRC, DST), BLOCK, TO_BLOCKED
// (plain -> blocked; else blocked -> plain), and either REGS (the f32 kernel for CPU devices;
// STREAM_STORES: write dst's rows around the caches) or TILE (spatial points per
// work-group of the local-memory kernel).
#include "cl/common.h"

// Element offsets of (n, channel block, first spatial point) in both tensors.
#define TILE_BASES(n, cb, s0) \
    const long plain = plain_off + (n) * plain_n_stride + (cb) * BLOCK * sp + (s0); \
    const long blocked = blocked_off + (n) * blocked_n_stride + (cb) * blocked_cb_stride \
            + (s0) * BLOCK;

#define BLOCKED_PARAMS \
    long plain_off, long blocked_off, long plain_n_stride, long blocked_n_stride, \
            long blocked_cb_stride, long channels, long sp

#ifdef REGS
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define VEC_T CAT(float, BLOCK)
#define VLOAD CAT(vload, BLOCK)
#define VSTORE CAT(vstore, BLOCK)

// A reorder that moves more than the cache holds leaves none of dst there for its reader:
// non-temporal stores skip each line's read for ownership, a third of the memory traffic
// (PoCL: 16x256x56x56 from 0.7x to 1.1x the time ratio of a plain copy, which has it).
// Where the compiler has them and a store fence (x86): the fence makes the rows visible
// before the kernel is seen to complete.
#if defined(STREAM_STORES) && defined(__has_builtin)
#if __has_builtin(__builtin_nontemporal_store) && __has_builtin(__builtin_ia32_sfence)
#define STREAM_ROWS
#endif
#endif

// Transposes BLOCK vectors of BLOCK floats in place: log2(BLOCK) rounds, each building row i
// from the even elements of rows 2i and 2i + 1 and row i + BLOCK / 2 from their odd ones.
static void transpose(VEC_T *r) {
    VEC_T t[BLOCK];
#pragma unroll
    for (int w = 1; w < BLOCK; w *= 2) {
#pragma unroll
        for (int i = 0; i < BLOCK / 2; ++i) {
            t[i] = (VEC_T)(r[2 * i].even, r[2 * i + 1].even);
            t[i + BLOCK / 2] = (VEC_T)(r[2 * i].odd, r[2 * i + 1].odd);
        }
#pragma unroll
        for (int i = 0; i < BLOCK; ++i) r[i] = t[i];
    }
}

// CPU devices, f32: one work-item per `tile` spatial points (a multiple of BLOCK) of one
// channel block, as BLOCK x BLOCK squares transposed in vector registers; global size (tiles,
// channel blocks, n), one work-item per group. Long tiles keep each row's reads sequential,
// which the prefetchers need.
kernel void reorder_blocked_regs(
        const global float *src, global float *dst, BLOCKED_PARAMS, long tile) {
    const long s0 = get_global_id(0) * tile, cb = get_global_id(1), n = get_global_id(2);
    if (s0 >= sp) return;
    TILE_BASES(n, cb, s0)
    const long nc = min((long)BLOCK, channels - cb * BLOCK);
    const long ns = min(tile, sp - s0);
    long done = 0;
#ifdef STREAM_ROWS
    // Every row written is aligned for VEC_T: blocked rows are sizeof(VEC_T) apart, plain
    // ones sp elements apart.
#ifdef TO_BLOCKED
    const bool aligned = (size_t)(dst + blocked) % sizeof(VEC_T) == 0;
#else
    const bool aligned = (size_t)(dst + plain) % sizeof(VEC_T) == 0 && sp % BLOCK == 0;
#endif
    if (nc == BLOCK && aligned) {
        for (; done + BLOCK <= ns; done += BLOCK) {
            VEC_T r[BLOCK]; // unrolled: kept in registers, not on the stack
#ifdef TO_BLOCKED
#pragma unroll
            for (int c = 0; c < BLOCK; ++c) r[c] = VLOAD(0, src + plain + c * sp + done);
            transpose(r);
            global VEC_T *row = (global VEC_T *)(dst + blocked + done * BLOCK);
#pragma unroll
            for (int s = 0; s < BLOCK; ++s) __builtin_nontemporal_store(r[s], row + s);
#else
#pragma unroll
            for (int s = 0; s < BLOCK; ++s) r[s] = VLOAD(0, src + blocked + (done + s) * BLOCK);
            transpose(r);
#pragma unroll
            for (int c = 0; c < BLOCK; ++c)
                __builtin_nontemporal_store(r[c], (global VEC_T *)(dst + plain + c * sp + done));
#endif
        }
        __builtin_ia32_sfence();
    }
#endif
    if (nc == BLOCK) {
        for (; done + BLOCK <= ns; done += BLOCK) {
            VEC_T r[BLOCK];
#ifdef TO_BLOCKED
            for (int c = 0; c < BLOCK; ++c) r[c] = VLOAD(0, src + plain + c * sp + done);
            transpose(r);
            for (int s = 0; s < BLOCK; ++s) VSTORE(r[s], 0, dst + blocked + (done + s) * BLOCK);
#else
            for (int s = 0; s < BLOCK; ++s) r[s] = VLOAD(0, src + blocked + (done + s) * BLOCK);
            transpose(r);
            for (int c = 0; c < BLOCK; ++c) VSTORE(r[c], 0, dst + plain + c * sp + done);
#endif
        }
    }
    // The spatial end of the tile, or a channel block reaching into the padding.
    for (long s = done; s < ns; ++s)
        for (int c = 0; c < BLOCK; ++c) {
#ifdef TO_BLOCKED
            dst[blocked + s * BLOCK + c] = c < nc ? src[plain + c * sp + s] : 0.f;
#else
            if (c < nc) dst[plain + c * sp + s] = src[blocked + s * BLOCK + c];
#endif
        }
}
#else

// Other devices: work-groups of (TILE, BLOCK) work-items move one tile through local memory:
// work-item (x, y) reads or writes the plain side at spatial point x of channel y, and the
// linear work-item number walks the blocked side, so both sides are coalesced. Global size
// (tiles * TILE, channel blocks * BLOCK, n).
kernel void reorder_blocked_local(
        const global SRC_DATA_T *src, global DST_DATA_T *dst, BLOCKED_PARAMS) {
    local float tile[BLOCK][TILE + 1]; // +1: the transposed walk avoids bank conflicts
    const int x = get_local_id(0), y = get_local_id(1);
    const long s0 = get_group_id(0) * TILE, cb = get_group_id(1), n = get_global_id(2);
    TILE_BASES(n, cb, s0)
    const int l = y * TILE + x; // linear number: blocked element (l / BLOCK, l % BLOCK)
    const int bs = l / BLOCK, bc = l % BLOCK;
    const long nc = min((long)BLOCK, channels - cb * BLOCK);
    const bool plain_in = s0 + x < sp && y < nc, blocked_in = s0 + bs < sp;
#ifdef TO_BLOCKED
    if (plain_in) tile[y][x] = LOAD_SRC(src, plain + (long)y * sp + x);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (blocked_in) STORE_DST(dst, blocked + l, bc < nc ? tile[bc][bs] : 0.f);
#else
    if (blocked_in && bc < nc) tile[bc][bs] = LOAD_SRC(src, blocked + l);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (plain_in) STORE_DST(dst, plain + (long)y * sp + x, tile[y][x]);
#endif
}
#endif
