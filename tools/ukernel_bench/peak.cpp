#include "peak.hpp"

#include <chrono>

#include <immintrin.h>

namespace {

constexpr int chains = 16; // more than latency x throughput of current cores
// Short runs, many of them: on a shared machine the best one is the one nobody interrupted.
constexpr long iters = 100000;

template <typename F>
double best_seconds(F f) {
    double best = 1e30;
    for (int r = 0; r < 200; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (s < best) best = s;
    }
    return best;
}

// 16 independent accumulators in named registers (an array would live in memory).
__attribute__((target("avx512f"))) float fma_loop() {
    __m512 a0 = _mm512_set1_ps(0.f), a1 = _mm512_set1_ps(1.f), a2 = _mm512_set1_ps(2.f), a3 = _mm512_set1_ps(3.f), a4 = _mm512_set1_ps(4.f), a5 = _mm512_set1_ps(5.f), a6 = _mm512_set1_ps(6.f), a7 = _mm512_set1_ps(7.f), a8 = _mm512_set1_ps(8.f), a9 = _mm512_set1_ps(9.f), a10 = _mm512_set1_ps(10.f), a11 = _mm512_set1_ps(11.f), a12 = _mm512_set1_ps(12.f), a13 = _mm512_set1_ps(13.f), a14 = _mm512_set1_ps(14.f), a15 = _mm512_set1_ps(15.f);
    const __m512 x = _mm512_set1_ps(1.0000001f), y = _mm512_set1_ps(0.9999999f);
    for (long it = 0; it < iters; ++it) {
        asm("vfmadd231ps %2, %3, %0\n\tvfmadd231ps %2, %3, %1" : "+v"(a0), "+v"(a1) : "v"(x), "v"(y));
        asm("vfmadd231ps %2, %3, %0\n\tvfmadd231ps %2, %3, %1" : "+v"(a2), "+v"(a3) : "v"(x), "v"(y));
        asm("vfmadd231ps %2, %3, %0\n\tvfmadd231ps %2, %3, %1" : "+v"(a4), "+v"(a5) : "v"(x), "v"(y));
        asm("vfmadd231ps %2, %3, %0\n\tvfmadd231ps %2, %3, %1" : "+v"(a6), "+v"(a7) : "v"(x), "v"(y));
        asm("vfmadd231ps %2, %3, %0\n\tvfmadd231ps %2, %3, %1" : "+v"(a8), "+v"(a9) : "v"(x), "v"(y));
        asm("vfmadd231ps %2, %3, %0\n\tvfmadd231ps %2, %3, %1" : "+v"(a10), "+v"(a11) : "v"(x), "v"(y));
        asm("vfmadd231ps %2, %3, %0\n\tvfmadd231ps %2, %3, %1" : "+v"(a12), "+v"(a13) : "v"(x), "v"(y));
        asm("vfmadd231ps %2, %3, %0\n\tvfmadd231ps %2, %3, %1" : "+v"(a14), "+v"(a15) : "v"(x), "v"(y));
    }
    return _mm512_reduce_add_ps(a0) + _mm512_reduce_add_ps(a1) + _mm512_reduce_add_ps(a2) + _mm512_reduce_add_ps(a3) + _mm512_reduce_add_ps(a4) + _mm512_reduce_add_ps(a5) + _mm512_reduce_add_ps(a6) + _mm512_reduce_add_ps(a7) + _mm512_reduce_add_ps(a8) + _mm512_reduce_add_ps(a9) + _mm512_reduce_add_ps(a10) + _mm512_reduce_add_ps(a11) + _mm512_reduce_add_ps(a12) + _mm512_reduce_add_ps(a13) + _mm512_reduce_add_ps(a14) + _mm512_reduce_add_ps(a15);
}

__attribute__((target("avx512f,avx512bf16"))) float dpbf16_loop() {
    __m512 a0 = _mm512_set1_ps(0.f), a1 = _mm512_set1_ps(1.f), a2 = _mm512_set1_ps(2.f), a3 = _mm512_set1_ps(3.f), a4 = _mm512_set1_ps(4.f), a5 = _mm512_set1_ps(5.f), a6 = _mm512_set1_ps(6.f), a7 = _mm512_set1_ps(7.f), a8 = _mm512_set1_ps(8.f), a9 = _mm512_set1_ps(9.f), a10 = _mm512_set1_ps(10.f), a11 = _mm512_set1_ps(11.f), a12 = _mm512_set1_ps(12.f), a13 = _mm512_set1_ps(13.f), a14 = _mm512_set1_ps(14.f), a15 = _mm512_set1_ps(15.f);
    const __m512i x = _mm512_set1_epi32(0x3f803f80), y = _mm512_set1_epi32(0x3f803f80);
    for (long it = 0; it < iters; ++it) {
        asm("vdpbf16ps %2, %3, %0\n\tvdpbf16ps %2, %3, %1" : "+v"(a0), "+v"(a1) : "v"(x), "v"(y));
        asm("vdpbf16ps %2, %3, %0\n\tvdpbf16ps %2, %3, %1" : "+v"(a2), "+v"(a3) : "v"(x), "v"(y));
        asm("vdpbf16ps %2, %3, %0\n\tvdpbf16ps %2, %3, %1" : "+v"(a4), "+v"(a5) : "v"(x), "v"(y));
        asm("vdpbf16ps %2, %3, %0\n\tvdpbf16ps %2, %3, %1" : "+v"(a6), "+v"(a7) : "v"(x), "v"(y));
        asm("vdpbf16ps %2, %3, %0\n\tvdpbf16ps %2, %3, %1" : "+v"(a8), "+v"(a9) : "v"(x), "v"(y));
        asm("vdpbf16ps %2, %3, %0\n\tvdpbf16ps %2, %3, %1" : "+v"(a10), "+v"(a11) : "v"(x), "v"(y));
        asm("vdpbf16ps %2, %3, %0\n\tvdpbf16ps %2, %3, %1" : "+v"(a12), "+v"(a13) : "v"(x), "v"(y));
        asm("vdpbf16ps %2, %3, %0\n\tvdpbf16ps %2, %3, %1" : "+v"(a14), "+v"(a15) : "v"(x), "v"(y));
    }
    return _mm512_reduce_add_ps(a0) + _mm512_reduce_add_ps(a1) + _mm512_reduce_add_ps(a2) + _mm512_reduce_add_ps(a3) + _mm512_reduce_add_ps(a4) + _mm512_reduce_add_ps(a5) + _mm512_reduce_add_ps(a6) + _mm512_reduce_add_ps(a7) + _mm512_reduce_add_ps(a8) + _mm512_reduce_add_ps(a9) + _mm512_reduce_add_ps(a10) + _mm512_reduce_add_ps(a11) + _mm512_reduce_add_ps(a12) + _mm512_reduce_add_ps(a13) + _mm512_reduce_add_ps(a14) + _mm512_reduce_add_ps(a15);
}

volatile float sink;

} // namespace

double peak_f32_gflops() {
    if (!__builtin_cpu_supports("avx512f")) return 0;
    const double s = best_seconds([] { sink = fma_loop(); });
    return double(iters) * chains * 16 * 2 / s * 1e-9;
}

double peak_bf16_gflops() {
    if (!__builtin_cpu_supports("avx512bf16")) return 0;
    const double s = best_seconds([] { sink = dpbf16_loop(); });
    return double(iters) * chains * 32 * 2 / s * 1e-9;
}
