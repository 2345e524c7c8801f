// The gate activations of RNN cells over contiguous f32 runs, in place: AVX-512 when the
// caller says it may (conf_t::avx512), portable loops otherwise.
#pragma once

#include "core/memory_desc.hpp"

namespace anydnn {
namespace cpu {
namespace rnn {

void sigmoid_inplace(float *x, dim_t n, bool avx512);
void tanh_inplace(float *x, dim_t n, bool avx512);
// y = tanh(x)
void tanh_copy(const float *x, float *y, dim_t n, bool avx512);

namespace avx512_impl {
void sigmoid_inplace(float *x, dim_t n);
void tanh_copy(const float *x, float *y, dim_t n);
} // namespace avx512_impl

} // namespace rnn
} // namespace cpu
} // namespace anydnn
