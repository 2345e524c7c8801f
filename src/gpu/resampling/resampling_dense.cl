// Resampling over dense channels-first (N C D H W) or channels-last (N D H W C) tensors, every
// size a build constant (32-bit index arithmetic by constants). The taps come from a table the
// host computed with the CPU engine's index maps (core/ops/resampling/coeffs.hpp), so no work-item
// rounds coordinates: forward, per dst position of each dim {i0, i1, w0, w1} (4 words);
// backward, per src position the dst positions that read it and their weights, as offsets
// (in + 1 words) into {o, w} pairs. Weights are float bits.
// A work-item writes VEC consecutive elements: channels last, VEC channels (every tap one
// VEC-wide access); channels first, VEC along W (taps per element, one VEC-wide store).
// Nearest forward over channels-first tensors takes a flat path of its own (NEAREST_ROWS).
// Build options: FWD or BWD, CHANNELS_LAST, NEAREST_ROWS (with TN_R TN_W), VEC, MB C ID IH IW
// OD OH OW, LINEAR, SRC_OFF DST_OFF (backward: diff_src's, diff_dst's), the table's word
// offsets TF_D TF_H TF_W (forward) or TO_D TO_H TO_W (offsets) TE_D TE_H TE_W (pairs), and
// the tensors' types.
#include "cl/vec_io.h"

// The generic kernel's order of products and sums: no contraction into fma.
#pragma OPENCL FP_CONTRACT OFF

// Taps along a dim: two where linear and the dim is not a unit one (where its second weight
// is 0).
#define TAPS(I, O) (LINEAR && !((I) == 1 && (O) == 1) ? 2 : 1)

typedef struct {
    uint i[2];
    float w[2];
} fwd_tap_t;

static fwd_tap_t fwd_tap(const global int *tab, uint off, uint o) {
    const global int *e = tab + off + 4 * o;
    fwd_tap_t t;
    t.i[0] = e[0];
    t.i[1] = e[1];
    t.w[0] = as_float(e[2]);
    t.w[1] = as_float(e[3]);
    return t;
}

#if defined(FWD) && defined(NEAREST_ROWS)
// Nearest forward, channels first: dst read as one flat run of rows (n, c, od, oh), VEC
// consecutive elements per work-item (one VEC-wide store), whether or not OW is a multiple of
// VEC (a group then runs into the next row; the last group may be short). Per element one
// load of the src row at the W map's position; per row one look-up of the src row's offset.
// Table words: TN_R (per od * OH + oh, the src row's offset within an image), TN_W (per ow,
// the src iw); TN_W is aligned to 8 words.
static uint nearest_row(const global int *tab, uint row) {
    return row / (OD * OH) * (ID * IH * IW) + (uint)tab[TN_R + row % (OD * OH)];
}

kernel void resampling_dense_fwd(
        const global SRC_DATA_T *src, global DST_DATA_T *dst, const global int *tab) {
    const uint total = MB * C * OD * OH * OW;
    const uint first = get_global_id(0) * VEC;
    if (first >= total) return;
    uint row = first / OW, ow = first % OW;
    uint base = SRC_OFF + nearest_row(tab, row);
    float x[VEC];
#if OW % VEC == 0 && VEC > 1
    // The group lies in one row and its W map entries are one aligned vector.
#if VEC == 8
    int idx[8];
    vstore8(*(const global int8 *)(tab + TN_W + ow), 0, idx);
#else
    int idx[4];
    vstore4(*(const global int4 *)(tab + TN_W + ow), 0, idx);
#endif
    for (int v = 0; v < VEC; ++v)
        x[v] = LOAD_SRC(src, base + idx[v]);
    const uint n = VEC;
#else
    const uint n = min((uint)VEC, total - first);
    for (uint v = 0; v < n; ++v) {
        if (v > 0 && ++ow == OW) {
            ow = 0;
            base = SRC_OFF + nearest_row(tab, ++row);
        }
        x[v] = LOAD_SRC(src, base + tab[TN_W + ow]);
    }
#endif
    if (n == VEC) {
#if VEC == 8
        STOREV(STORE_DST, dst, DST_OFF + first, vload8(0, x));
#elif VEC == 4
        STOREV(STORE_DST, dst, DST_OFF + first, vload4(0, x));
#else
        STOREV(STORE_DST, dst, DST_OFF + first, x[0]);
#endif
        return;
    }
    for (uint v = 0; v < n; ++v) // the short last group
        STORE_DST(dst, DST_OFF + first + v, x[v]);
}
#elif defined(FWD)
kernel void resampling_dense_fwd(
        const global SRC_DATA_T *src, global DST_DATA_T *dst, const global int *tab) {
    uint i = get_global_id(0);
    if (i >= MB * C * OD * OH * OW / VEC) return;
    const uint first = i * VEC;
#ifdef CHANNELS_LAST
    const uint c = i % (C / VEC) * VEC;
    i /= C / VEC;
    const uint ow = i % OW;
    i /= OW;
#else
    const uint ow = i % (OW / VEC) * VEC;
    i /= OW / VEC;
#endif
    const uint oh = i % OH;
    i /= OH;
    const uint od = i % OD;
    i /= OD; // channels first: n * C + c; channels last: n
    const fwd_tap_t td = fwd_tap(tab, TF_D, od), th = fwd_tap(tab, TF_H, oh);
#ifdef CHANNELS_LAST
    const uint base = i * (ID * IH * IW * C) + c;
    const fwd_tap_t tw = fwd_tap(tab, TF_W, ow);
    vf acc = 0.f;
    for (int a = 0; a < TAPS(ID, OD); ++a)
        for (int b = 0; b < TAPS(IH, OH); ++b)
            for (int e = 0; e < TAPS(IW, OW); ++e) {
                const float w = td.w[a] * th.w[b] * tw.w[e];
                const uint s = base + ((td.i[a] * IH + th.i[b]) * IW + tw.i[e]) * C;
                acc += w * LOADV(LOAD_SRC, src, SRC_OFF + s);
            }
    STOREV(STORE_DST, dst, DST_OFF + first, acc);
#else
    const uint base = i * (ID * IH * IW);
    float acc[VEC];
    for (int v = 0; v < VEC; ++v) {
        const fwd_tap_t tw = fwd_tap(tab, TF_W, ow + v);
        float sum = 0.f;
        for (int a = 0; a < TAPS(ID, OD); ++a)
            for (int b = 0; b < TAPS(IH, OH); ++b)
                for (int e = 0; e < TAPS(IW, OW); ++e) {
                    const float w = td.w[a] * th.w[b] * tw.w[e];
                    const uint s = base + (td.i[a] * IH + th.i[b]) * IW + tw.i[e];
                    sum += w * LOAD_SRC(src, SRC_OFF + s);
                }
        acc[v] = sum;
    }
#if VEC == 4
    STOREV(STORE_DST, dst, DST_OFF + first, (vf)(acc[0], acc[1], acc[2], acc[3]));
#else
    STOREV(STORE_DST, dst, DST_OFF + first, acc[0]);
#endif
#endif
}
#endif

#ifdef BWD
// The readers of src position p along a dim: pairs [*begin, *end) of the table.
static void readers(const global int *tab, uint to, uint p, uint *begin, uint *end) {
    *begin = tab[to + p];
    *end = tab[to + p + 1];
}

#define PAIR_O(te, k) ((uint)tab[(te) + 2 * (k)])
#define PAIR_W(te, k) as_float(tab[(te) + 2 * (k) + 1])

kernel void resampling_dense_bwd(global DIFF_SRC_DATA_T *diff_src,
        const global DIFF_DST_DATA_T *diff_dst, const global int *tab) {
    uint i = get_global_id(0);
    if (i >= MB * C * ID * IH * IW / VEC) return;
    const uint first = i * VEC;
#ifdef CHANNELS_LAST
    const uint c = i % (C / VEC) * VEC;
    i /= C / VEC;
    const uint iw = i % IW;
    i /= IW;
#else
    const uint iw = i % (IW / VEC) * VEC;
    i /= IW / VEC;
#endif
    const uint ih = i % IH;
    i /= IH;
    const uint id = i % ID;
    i /= ID;
    uint d0, d1, h0, h1;
    readers(tab, TO_D, id, &d0, &d1);
    readers(tab, TO_H, ih, &h0, &h1);
#ifdef CHANNELS_LAST
    const uint base = i * (OD * OH * OW * C) + c;
    uint w0, w1;
    readers(tab, TO_W, iw, &w0, &w1);
    vf acc = 0.f;
    for (uint a = d0; a < d1; ++a)
        for (uint b = h0; b < h1; ++b)
            for (uint e = w0; e < w1; ++e) {
                const float w = PAIR_W(TE_D, a) * PAIR_W(TE_H, b) * PAIR_W(TE_W, e);
                const uint o = base
                        + ((PAIR_O(TE_D, a) * OH + PAIR_O(TE_H, b)) * OW + PAIR_O(TE_W, e)) * C;
                acc += w * LOADV(LOAD_DIFF_DST, diff_dst, DST_OFF + o);
            }
    STOREV(STORE_DIFF_SRC, diff_src, SRC_OFF + first, acc);
#else
    const uint base = i * (OD * OH * OW);
    float acc[VEC];
    for (int v = 0; v < VEC; ++v) {
        uint w0, w1;
        readers(tab, TO_W, iw + v, &w0, &w1);
        float sum = 0.f;
        for (uint a = d0; a < d1; ++a)
            for (uint b = h0; b < h1; ++b)
                for (uint e = w0; e < w1; ++e) {
                    const float w = PAIR_W(TE_D, a) * PAIR_W(TE_H, b) * PAIR_W(TE_W, e);
                    const uint o = base
                            + (PAIR_O(TE_D, a) * OH + PAIR_O(TE_H, b)) * OW + PAIR_O(TE_W, e);
                    sum += w * LOAD_DIFF_DST(diff_dst, DST_OFF + o);
                }
        acc[v] = sum;
    }
#if VEC == 4
    STOREV(STORE_DIFF_SRC, diff_src, SRC_OFF + first, (vf)(acc[0], acc[1], acc[2], acc[3]));
#else
    STOREV(STORE_DIFF_SRC, diff_src, SRC_OFF + first, acc[0]);
#endif
#endif
}
#endif
