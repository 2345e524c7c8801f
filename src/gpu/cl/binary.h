// Every binary algorithm in OpenCL C, the same definitions as src/core/ops/binary/binary_math.hpp.
// `alg` is a dnnl_alg_kind_t value; kernels pass a compile-time constant so the switch folds.
#ifndef ANYDNN_GPU_CL_BINARY_H
#define ANYDNN_GPU_CL_BINARY_H

#define BINARY_ADD 0x1fff0
#define BINARY_MUL 0x1fff1
#define BINARY_MAX 0x1fff2
#define BINARY_MIN 0x1fff3
#define BINARY_DIV 0x1fff4
#define BINARY_SUB 0x1fff5
#define BINARY_GE 0x1fff6
#define BINARY_GT 0x1fff7
#define BINARY_LE 0x1fff8
#define BINARY_LT 0x1fff9
#define BINARY_EQ 0x1fffa
#define BINARY_NE 0x1fffb
#define BINARY_SELECT 0x1fffc

// a op b; comparisons give 1 or 0; select reads the condition c (c != 0 ? a : b). max/min
// return b when either operand is NaN, as the CPU engine does.
static float binary_op(int alg, float a, float b, float c) {
    switch (alg) {
        case BINARY_ADD: return a + b;
        case BINARY_MUL: return a * b;
        case BINARY_MAX: return a > b ? a : b;
        case BINARY_MIN: return a < b ? a : b;
        case BINARY_DIV: return a / b;
        case BINARY_SUB: return a - b;
        case BINARY_GE: return a >= b ? 1.f : 0.f;
        case BINARY_GT: return a > b ? 1.f : 0.f;
        case BINARY_LE: return a <= b ? 1.f : 0.f;
        case BINARY_LT: return a < b ? 1.f : 0.f;
        case BINARY_EQ: return a == b ? 1.f : 0.f;
        case BINARY_NE: return a != b ? 1.f : 0.f;
        case BINARY_SELECT: return c != 0.f ? a : b;
        default: return 0.f;
    }
}

#endif
