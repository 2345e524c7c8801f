// Direct convolution and deconvolution on any OpenCL device and any blocked layouts, in one
// view of both: the "big" tensor (convolution src, deconvolution dst) of spatial size I and
// the "small" one (convolution dst, deconvolution src) of size O meet where
// i = o * stride - pad_l + k * dilation; weights pair small channel s with big channel b at
// [g][s][b][k] (convolution) or [g][b][s][k] (deconvolution: swap). Kernels:
//   conv_small: each small element from big and weights (conv forward, deconv backward data)
//   conv_big:   each big element from small and weights (conv backward data, deconv forward)
//   conv_wei:   each weights element from big and small (backward weights of both)
//   conv_bias:  per-channel sums of the gradient GRAD (backward bias of both)
// Build options: BIG, SMALL, WEI, BIAS, GRAD types; ACC_INT accumulates int8 in int; the
// forward post-op chain (cl/post_ops.h). Forward output stage: acc * src_scale *
// wei_scale[oc] + bias[oc], post-ops, then / dst_scale + dst_zp.
#include "cl/common.h"
#include "cl/post_ops.h"

typedef struct {
    long mb, g, icv, ocv; // big channels per group (icv), small channels per group (ocv)
    long i[3], o[3], k[3], s[3], dl[3], p[3]; // spatial d, h, w (leading ones are 1 / 0)
    long ns, grouped, swap; // spatial dims; weights have a group dim; deconvolution order
    long has_bias, scale_oc; // scale_oc: one weights scale per output channel
    long zp_src_c, zp_dst_c; // one src (dst) zero point per src (dst) channel
    long bias_off, bias_s; // the (diff) bias vector's offset and stride
} conv_geom_t;

#ifdef ACC_INT
#define ACC_T int
#define READ(p, i) ((int)(p)[i])
#define READ_BIG READ
#define READ_SMALL READ
#define READ_WEI READ
#else
#define ACC_T float
#define READ_BIG LOAD_BIG
#define READ_SMALL LOAD_SMALL
#define READ_WEI LOAD_WEI
#endif

long act_off(const tensor_layout_t *l, long ns, long n, long c, long d, long h, long w) {
    long idx[MAX_NDIMS] = {n, c, 0, 0, 0, 0};
    const long sp[3] = {d, h, w};
    for (int j = 0; j < ns; ++j) idx[2 + j] = sp[3 - ns + j];
    if (l->nblks == 0) { // plain: strides only, no divisions
        long off = l->offset0;
        for (int j = 0; j < 2 + ns; ++j) off += idx[j] * l->strides[j];
        return off;
    }
    return layout_offset(l, idx);
}

// Weights offset of (group g, small channel sc, big channel bc, taps kd, kh, kw).
long wei_off(const tensor_layout_t *l, const conv_geom_t *q, long g, long sc, long bc, long kd,
        long kh, long kw) {
    long idx[MAX_NDIMS] = {0, 0, 0, 0, 0, 0};
    const long kk[3] = {kd, kh, kw};
    int d = 0;
    if (q->grouped) idx[d++] = g;
    idx[d++] = q->swap ? bc : sc;
    idx[d++] = q->swap ? sc : bc;
    for (int j = 0; j < q->ns; ++j) idx[d + j] = kk[3 - q->ns + j];
    return layout_offset(l, idx);
}

// Splits a linear position over (n, c, d, h, w) with channel count nc and spatial sizes sp.
void split_act(long e, long nc, const long *sp, long *n, long *c, long *x) {
    x[2] = e % sp[2];
    e /= sp[2];
    x[1] = e % sp[1];
    e /= sp[1];
    x[0] = e % sp[0];
    e /= sp[0];
    *c = e % nc;
    *n = e / nc;
}

#define QUANT_ARGS                                                                            \
    const global BIAS_DATA_T *bias, const global float *scale_src,                           \
            const global float *scale_wei, const global float *scale_dst,                    \
            const global int *zp_src, const global int *zp_dst

float scaled_acc(ACC_T acc, long oc, const conv_geom_t *q, QUANT_ARGS) {
    float v = (float)acc;
    if (scale_src) v *= scale_src[0];
    if (scale_wei) v *= scale_wei[q->scale_oc ? oc : 0];
    if (q->has_bias) v += LOAD_BIAS(bias, q->bias_off + oc * q->bias_s);
    return v;
}

float dst_quant(float v, long c, const conv_geom_t *q, const global float *scale_dst,
        const global int *zp_dst) {
    if (scale_dst) v /= scale_dst[0];
    if (zp_dst) v += (float)zp_dst[q->zp_dst_c ? c : 0];
    return v;
}

// Logical index of activation (n, c, x) (x: d, h, w with leading ones unused).
void act_index(long ns, long n, long c, const long *x, long *idx) {
    idx[0] = n;
    idx[1] = c;
    for (int j = 0; j < ns; ++j) idx[2 + j] = x[3 - ns + j];
}

kernel void conv_small(const global BIG_DATA_T *big, const global WEI_DATA_T *wei,
        global SMALL_DATA_T *small, QUANT_ARGS, tensor_layout_t big_l, tensor_layout_t wei_l,
        tensor_layout_t small_l, conv_geom_t q, long n_elems POST_OP_PARAMS) {
    const long e = get_global_id(0);
    if (e >= n_elems) return;
    long n, c, o[3];
    split_act(e, q.g * q.ocv, q.o, &n, &c, o);
    const long g = c / q.ocv, sc = c % q.ocv;
    ACC_T acc = 0;
    for (long bc = 0; bc < q.icv; ++bc) {
        const ACC_T zp = zp_src ? (ACC_T)zp_src[q.zp_src_c ? g * q.icv + bc : 0] : (ACC_T)0;
        for (long kd = 0; kd < q.k[0]; ++kd) {
            const long id = o[0] * q.s[0] - q.p[0] + kd * q.dl[0];
            if (id < 0 || id >= q.i[0]) continue;
            for (long kh = 0; kh < q.k[1]; ++kh) {
                const long ih = o[1] * q.s[1] - q.p[1] + kh * q.dl[1];
                if (ih < 0 || ih >= q.i[1]) continue;
                for (long kw = 0; kw < q.k[2]; ++kw) {
                    const long iw = o[2] * q.s[2] - q.p[2] + kw * q.dl[2];
                    if (iw < 0 || iw >= q.i[2]) continue;
                    const ACC_T x = READ_BIG(big,
                                            act_off(&big_l, q.ns, n, g * q.icv + bc, id, ih, iw))
                            - zp;
                    const ACC_T w = READ_WEI(wei, wei_off(&wei_l, &q, g, sc, bc, kd, kh, kw));
                    acc += x * w;
                }
            }
        }
    }
    const long off = act_off(&small_l, q.ns, n, c, o[0], o[1], o[2]);
    float v = scaled_acc(acc, c, &q, bias, scale_src, scale_wei, scale_dst, zp_src, zp_dst);
    long idx[MAX_NDIMS];
    act_index(q.ns, n, c, o, idx);
    v = POST_OPS_AT(v, idx, LOAD_SMALL, small, off);
    STORE_SMALL(small, off, dst_quant(v, c, &q, scale_dst, zp_dst));
}

// Tap k of output position o reaches i when i + pad - k * dil is a multiple of the stride.
bool tap_source(long i, long k, long s, long dl, long p, long n_out, long *o) {
    const long t = i + p - k * dl;
    if (t < 0 || t % s != 0) return false;
    *o = t / s;
    return *o < n_out;
}

kernel void conv_big(const global SMALL_DATA_T *small, const global WEI_DATA_T *wei,
        global BIG_DATA_T *big, QUANT_ARGS, tensor_layout_t small_l, tensor_layout_t wei_l,
        tensor_layout_t big_l, conv_geom_t q, long n_elems POST_OP_PARAMS) {
    const long e = get_global_id(0);
    if (e >= n_elems) return;
    long n, c, x[3];
    split_act(e, q.g * q.icv, q.i, &n, &c, x);
    const long g = c / q.icv, bc = c % q.icv;
    ACC_T acc = 0;
    for (long sc = 0; sc < q.ocv; ++sc) {
        const ACC_T zp = zp_src ? (ACC_T)zp_src[q.zp_src_c ? g * q.ocv + sc : 0] : (ACC_T)0;
        for (long kd = 0; kd < q.k[0]; ++kd) {
            long od, oh, ow;
            if (!tap_source(x[0], kd, q.s[0], q.dl[0], q.p[0], q.o[0], &od)) continue;
            for (long kh = 0; kh < q.k[1]; ++kh) {
                if (!tap_source(x[1], kh, q.s[1], q.dl[1], q.p[1], q.o[1], &oh)) continue;
                for (long kw = 0; kw < q.k[2]; ++kw) {
                    if (!tap_source(x[2], kw, q.s[2], q.dl[2], q.p[2], q.o[2], &ow)) continue;
                    const ACC_T y = READ_SMALL(small,
                                            act_off(&small_l, q.ns, n, g * q.ocv + sc, od, oh, ow))
                            - zp;
                    const ACC_T w = READ_WEI(wei, wei_off(&wei_l, &q, g, sc, bc, kd, kh, kw));
                    acc += y * w;
                }
            }
        }
    }
    const long off = act_off(&big_l, q.ns, n, c, x[0], x[1], x[2]);
    float v = scaled_acc(acc, c, &q, bias, scale_src, scale_wei, scale_dst, zp_src, zp_dst);
    long idx[MAX_NDIMS];
    act_index(q.ns, n, c, x, idx);
    v = POST_OPS_AT(v, idx, LOAD_BIG, big, off);
    STORE_BIG(big, off, dst_quant(v, c, &q, scale_dst, zp_dst));
}

#ifndef ACC_INT
// One work-item per weights element (g, sc, bc, kd, kh, kw), over the canonical order.
kernel void conv_wei(const global BIG_DATA_T *big, const global SMALL_DATA_T *small,
        global WEI_DATA_T *wei, tensor_layout_t big_l, tensor_layout_t small_l,
        tensor_layout_t wei_l, conv_geom_t q, long n_elems) {
    long rest = get_global_id(0);
    if (rest >= n_elems) return;
    long k[3];
    k[2] = rest % q.k[2];
    rest /= q.k[2];
    k[1] = rest % q.k[1];
    rest /= q.k[1];
    k[0] = rest % q.k[0];
    rest /= q.k[0];
    const long bc = rest % q.icv;
    rest /= q.icv;
    const long sc = rest % q.ocv, g = rest / q.ocv;
    float acc = 0.f;
    for (long n = 0; n < q.mb; ++n)
        for (long od = 0; od < q.o[0]; ++od) {
            const long id = od * q.s[0] - q.p[0] + k[0] * q.dl[0];
            if (id < 0 || id >= q.i[0]) continue;
            for (long oh = 0; oh < q.o[1]; ++oh) {
                const long ih = oh * q.s[1] - q.p[1] + k[1] * q.dl[1];
                if (ih < 0 || ih >= q.i[1]) continue;
                for (long ow = 0; ow < q.o[2]; ++ow) {
                    const long iw = ow * q.s[2] - q.p[2] + k[2] * q.dl[2];
                    if (iw < 0 || iw >= q.i[2]) continue;
                    acc += LOAD_BIG(big, act_off(&big_l, q.ns, n, g * q.icv + bc, id, ih, iw))
                            * LOAD_SMALL(small,
                                    act_off(&small_l, q.ns, n, g * q.ocv + sc, od, oh, ow));
                }
            }
        }
    STORE_WEI(wei, wei_off(&wei_l, &q, g, sc, bc, k[0], k[1], k[2]), acc);
}

// diff_bias[c] = sum over n and spatial positions sp of the gradient.
kernel void conv_bias(const global GRAD_DATA_T *grad, global BIAS_DATA_T *diff_bias,
        tensor_layout_t grad_l, conv_geom_t q, long channels, long8 sp) {
    const long c = get_global_id(0);
    if (c >= channels) return;
    float acc = 0.f;
    for (long n = 0; n < q.mb; ++n)
        for (long d = 0; d < sp.s0; ++d)
            for (long h = 0; h < sp.s1; ++h)
                for (long w = 0; w < sp.s2; ++w)
                    acc += LOAD_GRAD(grad, act_off(&grad_l, q.ns, n, c, d, h, w));
    STORE_BIAS(diff_bias, q.bias_off + c * q.bias_s, acc);
}
#endif

// Columns for forward convolution as a GEMM: col[n][g][bc][kd][kh][kw][od][oh][ow], zero
// where a tap falls into padding. One work-item per (n, g, bc, kd, kh, kw, od, oh) row of ow.
kernel void conv_im2col(const global BIG_DATA_T *big, global BIG_DATA_T *col,
        tensor_layout_t big_l, conv_geom_t q, long n_rows) {
    const long row = get_global_id(0);
    if (row >= n_rows) return;
    long e = row;
    const long oh = e % q.o[1];
    e /= q.o[1];
    const long od = e % q.o[0];
    e /= q.o[0];
    long k[3];
    for (int j = 2; j >= 0; --j) {
        k[j] = e % q.k[j];
        e /= q.k[j];
    }
    const long bc = e % q.icv;
    e /= q.icv;
    const long g = e % q.g, n = e / q.g;
    const long id = od * q.s[0] - q.p[0] + k[0] * q.dl[0];
    const long ih = oh * q.s[1] - q.p[1] + k[1] * q.dl[1];
    const bool row_inside = id >= 0 && id < q.i[0] && ih >= 0 && ih < q.i[1];
    global BIG_DATA_T *dst = col + row * q.o[2];
    const long c = g * q.icv + bc;
    for (long ow = 0; ow < q.o[2]; ++ow) {
        const long iw = ow * q.s[2] - q.p[2] + k[2] * q.dl[2];
        const float v = row_inside && iw >= 0 && iw < q.i[2]
                ? LOAD_BIG(big, act_off(&big_l, q.ns, n, c, id, ih, iw))
                : 0.f;
        STORE_BIG(dst, ow, v);
    }
}
