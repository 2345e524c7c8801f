// Every eltwise algorithm in OpenCL C, the same definitions as
// src/core/ops/eltwise/eltwise_math.hpp (also the CPU engine's). `alg` is a dnnl_alg_kind_t value; kernels pass a compile-time constant
// so the switch folds away.
#ifndef ANYDNN_GPU_CL_ELTWISE_H
#define ANYDNN_GPU_CL_ELTWISE_H

#define ELTWISE_RELU 0x20
#define ELTWISE_TANH 0x21
#define ELTWISE_ELU 0x22
#define ELTWISE_SQUARE 0x23
#define ELTWISE_ABS 0x24
#define ELTWISE_SQRT 0x25
#define ELTWISE_LINEAR 0x26
#define ELTWISE_SOFT_RELU 0x27
#define ELTWISE_HARDSIGMOID 0x28
#define ELTWISE_LOGISTIC 0x29
#define ELTWISE_EXP 0x2a
#define ELTWISE_GELU_TANH 0x2b
#define ELTWISE_SWISH 0x2c
#define ELTWISE_LOG 0x2d
#define ELTWISE_CLIP 0x2e
#define ELTWISE_CLIP_V2 0x2f
#define ELTWISE_POW 0x30
#define ELTWISE_GELU_ERF 0x31
#define ELTWISE_ROUND 0x32
#define ELTWISE_MISH 0x33
#define ELTWISE_HARDSWISH 0x34
#define ELTWISE_USE_DST 0x100 // the *_use_dst_for_bwd variants: 0x100 + n

#define SQRT_2_OVER_PI 0.79788456080286535588f
#define GELU_TANH_C 0.044715f
#define INV_SQRT_2 0.70710678118654752440f
#define INV_SQRT_2PI 0.39894228040143267794f

// 1 / (1 + e^-x) taking e^ only of non-positive numbers (no overflow).
static float elt_sigmoid(float x) {
    if (x >= 0.f) return 1.f / (1.f + exp(-x));
    float e = exp(x);
    return e / (1.f + e);
}

static float elt_softplus(float x) { return fmax(x, 0.f) + log1p(exp(-fabs(x))); }

// tanh(softplus(x)) and 1 - that, exact to f32 beyond x = 20.
static float elt_mish_tanh(float x, float *one_minus_t) {
    if (x > 20.f) {
        *one_minus_t = 0.f;
        return 1.f;
    }
    float n = exp(x);
    float num = n * (n + 2.f);
    float den = num + 2.f;
    *one_minus_t = 2.f / den;
    return num / den;
}

static int elt_base_alg(int alg) {
    switch (alg) {
        case ELTWISE_USE_DST + 0: return ELTWISE_RELU;
        case ELTWISE_USE_DST + 1: return ELTWISE_TANH;
        case ELTWISE_USE_DST + 2: return ELTWISE_ELU;
        case ELTWISE_USE_DST + 3: return ELTWISE_SQRT;
        case ELTWISE_USE_DST + 4: return ELTWISE_LOGISTIC;
        case ELTWISE_USE_DST + 5: return ELTWISE_EXP;
        case ELTWISE_USE_DST + 6: return ELTWISE_CLIP_V2;
        default: return alg;
    }
}

static float eltwise_fwd(int alg, float x, float alpha, float beta) {
    float unused;
    switch (elt_base_alg(alg)) {
        case ELTWISE_RELU: return fmax(x, 0.f) + alpha * fmin(x, 0.f);
        case ELTWISE_TANH: return tanh(x);
        case ELTWISE_ELU: return x > 0.f ? x : alpha * expm1(x);
        case ELTWISE_SQUARE: return x * x;
        case ELTWISE_ABS: return fabs(x);
        case ELTWISE_SQRT: return sqrt(x);
        case ELTWISE_LINEAR: return alpha * x + beta;
        case ELTWISE_SOFT_RELU: return elt_softplus(alpha * x) / alpha;
        case ELTWISE_HARDSIGMOID: return fmin(1.f, fmax(0.f, alpha * x + beta));
        case ELTWISE_LOGISTIC: return elt_sigmoid(x);
        case ELTWISE_EXP: return exp(x);
        case ELTWISE_GELU_TANH: {
            float g = SQRT_2_OVER_PI * x * (1.f + GELU_TANH_C * x * x);
            return x * elt_sigmoid(2.f * g);
        }
        case ELTWISE_SWISH: return x * elt_sigmoid(alpha * x);
        case ELTWISE_LOG: return log(x);
        case ELTWISE_CLIP:
        case ELTWISE_CLIP_V2: return x > beta ? beta : (x < alpha ? alpha : x);
        case ELTWISE_POW: return alpha * pow(x, beta);
        case ELTWISE_GELU_ERF: return 0.5f * x * erfc(-x * INV_SQRT_2);
        case ELTWISE_ROUND: return rint(x);
        case ELTWISE_MISH: return x * elt_mish_tanh(x, &unused);
        case ELTWISE_HARDSWISH: return x * fmin(1.f, fmax(0.f, alpha * x + beta));
        default: return NAN;
    }
}

// diff_src from diff_dst `dd` and `s`: the forward's src, or its dst for *_use_dst_for_bwd.
static float eltwise_bwd(int alg, float dd, float s, float alpha, float beta) {
    switch (alg) {
        case ELTWISE_USE_DST + 0: return s > 0.f ? dd : dd * alpha;
        case ELTWISE_USE_DST + 1: return dd * (1.f - s) * (1.f + s);
        case ELTWISE_USE_DST + 2: return s > 0.f ? dd : dd * (s + alpha);
        case ELTWISE_USE_DST + 3: return dd / (2.f * s);
        case ELTWISE_USE_DST + 4: return dd * s * (1.f - s);
        case ELTWISE_USE_DST + 5: return dd * s;
        case ELTWISE_USE_DST + 6: return (s > alpha && s < beta) ? dd : 0.f;
        case ELTWISE_RELU: return s > 0.f ? dd : dd * alpha;
        case ELTWISE_TANH: {
            float t = tanh(s);
            return dd * (1.f - t) * (1.f + t);
        }
        case ELTWISE_ELU: return s > 0.f ? dd : dd * alpha * exp(s);
        case ELTWISE_SQUARE: return dd * 2.f * s;
        case ELTWISE_ABS: return s > 0.f ? dd : (s < 0.f ? -dd : 0.f);
        case ELTWISE_SQRT: return dd / (2.f * sqrt(s));
        case ELTWISE_LINEAR: return dd * alpha;
        case ELTWISE_SOFT_RELU: return dd * elt_sigmoid(alpha * s);
        case ELTWISE_HARDSIGMOID: {
            float v = alpha * s + beta;
            return (v > 0.f && v < 1.f) ? dd * alpha : 0.f;
        }
        case ELTWISE_LOGISTIC: {
            float y = elt_sigmoid(s);
            return dd * y * (1.f - y);
        }
        case ELTWISE_EXP: return dd * exp(s);
        case ELTWISE_GELU_TANH: {
            float x = fmin(20.f, fmax(-20.f, s));
            float x2 = x * x;
            float y = elt_sigmoid(2.f * SQRT_2_OVER_PI * x * (1.f + GELU_TANH_C * x2));
            float dg = SQRT_2_OVER_PI * (1.f + 3.f * GELU_TANH_C * x2);
            return dd * y * (1.f + 2.f * x * (1.f - y) * dg);
        }
        case ELTWISE_SWISH: {
            float y = elt_sigmoid(alpha * s);
            return dd * y * (1.f + alpha * s * (1.f - y));
        }
        case ELTWISE_LOG: return dd / s;
        case ELTWISE_CLIP: return (s > alpha && s <= beta) ? dd : 0.f;
        case ELTWISE_CLIP_V2: return (s > alpha && s < beta) ? dd : 0.f;
        case ELTWISE_POW: return beta == 0.f ? 0.f : dd * alpha * beta * pow(s, beta - 1.f);
        case ELTWISE_GELU_ERF: {
            float cdf = 0.5f * erfc(-s * INV_SQRT_2);
            float pdf = INV_SQRT_2PI * exp(-0.5f * s * s);
            return dd * (cdf + s * pdf);
        }
        case ELTWISE_MISH: {
            float one_minus_t;
            float t = elt_mish_tanh(s, &one_minus_t);
            float sech2 = one_minus_t * (1.f + t);
            return dd * (t + (s > 20.f ? 0.f : s * sech2 * elt_sigmoid(s)));
        }
        case ELTWISE_HARDSWISH: {
            float v = alpha * s + beta;
            if (v <= 0.f) return 0.f;
            if (v >= 1.f) return dd;
            return dd * (2.f * alpha * s + beta);
        }
        default: return NAN;
    }
}

#endif
