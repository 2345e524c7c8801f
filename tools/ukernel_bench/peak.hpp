// Single-core arithmetic peak, measured: independent chains of the multiply-add instruction
// the kernels use, in registers only. GFLOP/s (a multiply-add counts 2).
#pragma once

double peak_f32_gflops(); // vfmadd231ps zmm
double peak_bf16_gflops(); // vdpbf16ps zmm (0 where the CPU lacks AVX512_BF16)
