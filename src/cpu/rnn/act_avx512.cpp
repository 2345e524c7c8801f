// AVX-512 gate activations: 16 lanes at a time with a masked tail, on the shared
// exp/tanh approximations of the eltwise kernels.
#include <immintrin.h>

#include "cpu/eltwise/avx512_math.hpp"
#include "cpu/rnn/act.hpp"

namespace anydnn {
namespace cpu {
namespace rnn {
namespace avx512_impl {

ANYDNN_AVX512 void sigmoid_inplace(float *x, dim_t n) {
    dim_t j = 0;
    for (; j + 16 <= n; j += 16)
        _mm512_storeu_ps(x + j, avx512::sigmoid(_mm512_loadu_ps(x + j)));
    if (j < n) {
        const __mmask16 m = __mmask16((1u << (n - j)) - 1);
        _mm512_mask_storeu_ps(x + j, m, avx512::sigmoid(_mm512_maskz_loadu_ps(m, x + j)));
    }
}

ANYDNN_AVX512 void tanh_copy(const float *x, float *y, dim_t n) {
    dim_t j = 0;
    for (; j + 16 <= n; j += 16)
        _mm512_storeu_ps(y + j, avx512::tanh(_mm512_loadu_ps(x + j)));
    if (j < n) {
        const __mmask16 m = __mmask16((1u << (n - j)) - 1);
        _mm512_mask_storeu_ps(y + j, m, avx512::tanh(_mm512_maskz_loadu_ps(m, x + j)));
    }
}

} // namespace avx512_impl
} // namespace rnn
} // namespace cpu
} // namespace anydnn
