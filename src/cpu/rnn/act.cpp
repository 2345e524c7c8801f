// Portable gate activations and the dispatch to the AVX-512 ones.
#include "cpu/rnn/act.hpp"

#include <cmath>

namespace anydnn {
namespace cpu {
namespace rnn {

void sigmoid_inplace(float *x, dim_t n, bool avx512) {
    if (avx512) return avx512_impl::sigmoid_inplace(x, n);
    for (dim_t j = 0; j < n; ++j) x[j] = 1.f / (1.f + std::exp(-x[j]));
}

void tanh_copy(const float *x, float *y, dim_t n, bool avx512) {
    if (avx512) return avx512_impl::tanh_copy(x, y, n);
    for (dim_t j = 0; j < n; ++j) y[j] = std::tanh(x[j]);
}

void tanh_inplace(float *x, dim_t n, bool avx512) { tanh_copy(x, x, n, avx512); }

} // namespace rnn
} // namespace cpu
} // namespace anydnn
