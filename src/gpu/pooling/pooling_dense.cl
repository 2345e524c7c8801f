// Pooling over dense tensors in one of two orders, channels first (N C D H W) or channels
// last (N D H W C): forward one work-item per dst element in memory order, so neighbouring
// work-items read neighbouring sources (along W, or along C); backward (BWD) one work-item
// per diff_src element in memory order, gathering the diff_dst elements whose windows read
// it (no atomics; max: those whose workspace names this tap). Every size, stride and
// padding is a build constant: index arithmetic is 32-bit divisions by constants, and the
// window loops unroll. Build options: CHANNELS_LAST, MB C ID IH IW OD OH OW KD KH KW SD SH SW
// DD DH DW (dilation + 1) PD PH PW (left padding), ALG (0 max, 1 avg with padding, 2 avg
// without), SRC_OFF DST_OFF WS_OFF (offset0 of each; backward: diff_src's, diff_dst's),
// WITH_WS, SRC_LOWEST, and the tensors' types (SRC, DST, WS; backward DIFF_SRC, DIFF_DST, WS).
#include "cl/common.h"

// Element i of a dense tensor of spatial extent D x H x W in memory order: its spatial
// position, and `base`, where its (n, c) starts in the other tensor of the pair, of
// `other_sp` spatial elements (forward: the src a dst element reads; backward: the diff_dst
// a diff_src element gathers). Both directions share this and AT.
typedef struct {
    uint d, h, w, base;
} dense_pos_t;

static dense_pos_t dense_pos(uint i, uint D, uint H, uint W, uint other_sp) {
    dense_pos_t p;
#ifdef CHANNELS_LAST
    const uint c = i % C;
    i /= C;
#endif
    p.w = i % W;
    i /= W;
    p.h = i % H;
    i /= H;
    p.d = i % D;
    i /= D; // channels first: n * C + c; channels last: n
#ifdef CHANNELS_LAST
    p.base = i * other_sp * C + c;
#else
    p.base = i * other_sp;
#endif
    return p;
}

// Offset of spatial position (d, h, w) of that (n, c) in the other tensor (extent _ x H x W).
#ifdef CHANNELS_LAST
#define AT(base, d, h, w, H, W) ((base) + ((((d) * (H)) + (h)) * (W) + (w)) * C)
#else
#define AT(base, d, h, w, H, W) ((base) + (((d) * (H)) + (h)) * (W) + (w))
#endif

#ifndef BWD

kernel void pooling_dense_fwd(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        global WS_DATA_T *ws) {
    const uint i = get_global_id(0);
    if (i >= MB * C * OD * OH * OW) return;
    const dense_pos_t o = dense_pos(i, OD, OH, OW, ID * IH * IW);
#define SRC_AT(id, ih, iw) AT(o.base, id, ih, iw, IH, IW)
    const uint od = o.d, oh = o.h, ow = o.w;
    const int d0 = (int)(od * SD) - PD, h0 = (int)(oh * SH) - PH, w0 = (int)(ow * SW) - PW;
    float acc = ALG == 0 ? -INFINITY : 0.f;
    int arg = 0, count = 0;
#pragma unroll
    for (int kd = 0; kd < KD; ++kd) {
        const int id = d0 + kd * DD;
        if (id < 0 || id >= ID) continue;
#pragma unroll
        for (int kh = 0; kh < KH; ++kh) {
            const int ih = h0 + kh * DH;
            if (ih < 0 || ih >= IH) continue;
#pragma unroll
            for (int kw = 0; kw < KW; ++kw) {
                const int iw = w0 + kw * DW;
                if (iw < 0 || iw >= IW) continue;
                const float v = LOAD_SRC(src, SRC_OFF + SRC_AT(id, ih, iw));
                ++count;
#if ALG == 0
                if (v > acc || (count == 1 && !(v <= acc))) { // the first tap wins NaN
                    acc = v;
                    arg = (kd * KH + kh) * KW + kw;
                }
#else
                acc += v;
#endif
            }
        }
    }
#if ALG == 0
    if (count == 0) acc = SRC_LOWEST; // a dilated window of padding only
#elif ALG == 1
    acc /= (float)(KD * KH * KW);
#else
    if (count) acc /= (float)count;
#endif
    STORE_DST(dst, DST_OFF + i, acc);
#ifdef WITH_WS
    STORE_WS(ws, WS_OFF + i, (float)arg);
#endif
}
#endif

#ifdef BWD
// Taps of the window of output o along one dimension that land inside the input.
static int taps_inside(int o, int S, int P, int DL, int K, int IN) {
    int n = 0;
    for (int k = 0; k < K; ++k) {
        const int p = o * S - P + k * DL;
        n += p >= 0 && p < IN;
    }
    return n;
}

// The output along one dimension whose tap k reads input position i, or -1.
static int reader(int i, int k, int P, int DL, int S, int OUT) {
    const int p = i + P - k * DL;
    return p >= 0 && p % S == 0 && p / S < OUT ? p / S : -1;
}

kernel void pooling_dense_bwd(global DIFF_SRC_DATA_T *diff_src,
        const global DIFF_DST_DATA_T *diff_dst, const global WS_DATA_T *ws) {
    const uint i = get_global_id(0);
    if (i >= MB * C * ID * IH * IW) return;
    const dense_pos_t p = dense_pos(i, ID, IH, IW, OD * OH * OW);
#define DST_AT(od, oh, ow) AT(p.base, od, oh, ow, OH, OW)
    const int id = p.d, ih = p.h, iw = p.w;
    float acc = 0.f;
#pragma unroll
    for (int kd = 0; kd < KD; ++kd) {
        const int od = reader(id, kd, PD, DD, SD, OD);
        if (od < 0) continue;
#pragma unroll
        for (int kh = 0; kh < KH; ++kh) {
            const int oh = reader(ih, kh, PH, DH, SH, OH);
            if (oh < 0) continue;
#pragma unroll
            for (int kw = 0; kw < KW; ++kw) {
                const int ow = reader(iw, kw, PW, DW, SW, OW);
                if (ow < 0) continue;
                const uint o = DST_AT(od, oh, ow);
#if ALG == 0
                if ((int)LOAD_WS(ws, WS_OFF + o) == (kd * KH + kh) * KW + kw)
                    acc += LOAD_DIFF_DST(diff_dst, DST_OFF + o);
#elif ALG == 1
                acc += LOAD_DIFF_DST(diff_dst, DST_OFF + o) / (float)(KD * KH * KW);
#else
                const int taps = taps_inside(od, SD, PD, DD, KD, ID)
                        * taps_inside(oh, SH, PH, DH, KH, IH) * taps_inside(ow, SW, PW, DW, KW, IW);
                acc += LOAD_DIFF_DST(diff_dst, DST_OFF + o) / (float)taps;
#endif
            }
        }
    }
    STORE_DIFF_SRC(diff_src, SRC_OFF + i, acc);
}
#endif
