// Pooling forward over dense tensors in one of two orders, channels first (N C D H W) or
// channels last (N D H W C): one work-item per dst element in memory order, so neighbouring
// work-items read neighbouring sources (along W, or along C). Every size, stride and
// padding is a build constant: index arithmetic is 32-bit divisions by constants, and the
// window loops unroll. Build options: CHANNELS_LAST, MB C ID IH IW OD OH OW KD KH KW SD SH SW
// DD DH DW (dilation + 1) PD PH PW (left padding), ALG (0 max, 1 avg with padding, 2 avg
// without), SRC_OFF DST_OFF WS_OFF (offset0 of each), WITH_WS, SRC_LOWEST, and the
// tensors' types (SRC, DST, WS).
#include "cl/common.h"

kernel void pooling_dense_fwd(const global SRC_DATA_T *src, global DST_DATA_T *dst,
        global WS_DATA_T *ws) {
    const uint i = get_global_id(0);
    if (i >= MB * C * OD * OH * OW) return;
#ifdef CHANNELS_LAST
    const uint c = i % C;
    uint t = i / C;
    const uint ow = t % OW;
    t /= OW;
    const uint oh = t % OH;
    t /= OH;
    const uint od = t % OD;
    const uint n = t / OD;
    const uint base = n * (ID * IH * IW * C) + c;
#define SRC_AT(id, ih, iw) (base + (((id) * IH + (ih)) * IW + (iw)) * C)
#else
    const uint ow = i % OW;
    uint t = i / OW;
    const uint oh = t % OH;
    t /= OH;
    const uint od = t % OD;
    const uint nc = t / OD;
    const uint base = nc * (ID * IH * IW);
#define SRC_AT(id, ih, iw) (base + ((id) * IH + (ih)) * IW + (iw))
#endif
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
