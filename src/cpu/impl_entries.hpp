// Every CPU implementation's list entry, defined next to the implementation it names.
#pragma once

#include "core/primitive_desc.hpp"

namespace anydnn {
namespace cpu {

impl_entry_t binary_avx512_entry(); // cpu/binary/avx512.cpp
impl_entry_t binary_ref_entry(); // cpu/binary/ref.cpp
impl_entry_t sum_simple_entry(); // cpu/sum/simple.cpp
impl_entry_t sum_ref_entry(); // cpu/sum/ref.cpp
impl_entry_t concat_memcpy_entry(); // cpu/concat/memcpy.cpp
impl_entry_t concat_ref_entry(); // cpu/concat/ref.cpp
impl_entry_t eltwise_avx512_fwd_entry(); // cpu/eltwise/avx512.cpp
impl_entry_t eltwise_avx512_bwd_entry(); // cpu/eltwise/avx512.cpp
impl_entry_t eltwise_ref_fwd_entry(); // cpu/eltwise/ref.cpp
impl_entry_t eltwise_ref_bwd_entry(); // cpu/eltwise/ref.cpp
impl_entry_t reorder_memcpy_entry(); // cpu/reorder/memcpy.cpp
impl_entry_t reorder_convert_entry(); // cpu/reorder/convert.cpp
impl_entry_t reorder_blocked16_entry(); // cpu/reorder/blocked16.cpp
impl_entry_t reorder_ref_entry(); // cpu/reorder/ref.cpp
impl_entry_t shuffle_dense_entry(); // cpu/shuffle/shuffle.cpp
impl_entry_t shuffle_ref_entry(); // cpu/shuffle/shuffle.cpp
impl_entry_t prelu_flat_entry(); // cpu/prelu/prelu.cpp
impl_entry_t prelu_ref_entry(); // cpu/prelu/prelu.cpp
impl_entry_t lrn_plain_entry(); // cpu/lrn/lrn.cpp
impl_entry_t lrn_ref_entry(); // cpu/lrn/lrn.cpp
impl_entry_t gnorm_plain_entry(); // cpu/gnorm/gnorm.cpp
impl_entry_t gnorm_ref_entry(); // cpu/gnorm/gnorm.cpp
impl_entry_t softmax_dense_fwd_entry(); // cpu/softmax/dense.cpp
impl_entry_t softmax_dense_bwd_entry(); // cpu/softmax/dense.cpp
impl_entry_t softmax_ref_fwd_entry(); // cpu/softmax/ref.cpp
impl_entry_t softmax_ref_bwd_entry(); // cpu/softmax/ref.cpp
impl_entry_t lnorm_dense_entry(); // cpu/lnorm/impls.cpp
impl_entry_t lnorm_ref_entry(); // cpu/lnorm/impls.cpp
impl_entry_t resampling_simple_fwd_entry(); // cpu/resampling/simple.cpp
impl_entry_t resampling_simple_bwd_entry(); // cpu/resampling/simple.cpp
impl_entry_t resampling_ref_fwd_entry(); // cpu/resampling/ref.cpp
impl_entry_t resampling_ref_bwd_entry(); // cpu/resampling/ref.cpp
impl_entry_t reduction_simple_entry(); // cpu/reduction/simple.cpp
impl_entry_t reduction_ref_entry(); // cpu/reduction/ref.cpp
impl_entry_t matmul_bf16_avx512bf16_entry(); // cpu/matmul/lowp.cpp
impl_entry_t matmul_int8_vnni_entry(); // cpu/matmul/lowp.cpp
impl_entry_t matmul_gemm_entry(); // cpu/matmul/gemm.cpp
impl_entry_t matmul_ref_entry(); // cpu/matmul/ref.cpp
impl_entry_t pooling_avx512_fwd_entry(); // cpu/pooling/avx512_fwd.cpp
impl_entry_t pooling_avx512_bwd_entry(); // cpu/pooling/avx512_bwd.cpp
impl_entry_t pooling_ref_fwd_entry(); // cpu/pooling/ref.cpp
impl_entry_t pooling_ref_bwd_entry(); // cpu/pooling/ref.cpp
impl_entry_t bnorm_avx512_entry(); // cpu/bnorm/avx512.cpp
impl_entry_t bnorm_ref_entry(); // cpu/bnorm/ref.cpp
impl_entry_t convolution_gemm_1x1_entry(); // cpu/convolution/gemm_1x1.cpp
impl_entry_t convolution_direct_entry(); // cpu/convolution/direct_fwd.cpp
impl_entry_t convolution_gemm_entry(); // cpu/convolution/ref.cpp
impl_entry_t convolution_ref_entry(); // cpu/convolution/ref.cpp
impl_entry_t deconvolution_direct_entry(); // cpu/convolution/direct_fwd.cpp
impl_entry_t deconvolution_gemm_entry(); // cpu/convolution/ref.cpp
impl_entry_t deconvolution_ref_entry(); // cpu/convolution/ref.cpp
impl_entry_t ip_gemm_fwd_entry(); // cpu/inner_product/gemm.cpp
impl_entry_t ip_gemm_bwd_data_entry(); // cpu/inner_product/gemm.cpp
impl_entry_t ip_gemm_bwd_weights_entry(); // cpu/inner_product/gemm.cpp
impl_entry_t rnn_gemm_entry(); // cpu/rnn/gemm_impl.cpp
} // namespace cpu
} // namespace anydnn
