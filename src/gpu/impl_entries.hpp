// Every GPU implementation's list entry, defined next to the implementation it names.
#pragma once

#include "core/primitive_desc.hpp"

namespace anydnn {
namespace gpu {

impl_entry_t eltwise_entry(); // gpu/eltwise/eltwise.cpp
impl_entry_t binary_entry(); // gpu/binary/binary.cpp
impl_entry_t shuffle_entry(); // gpu/shuffle/shuffle.cpp
impl_entry_t sum_entry(); // gpu/sum/sum.cpp
impl_entry_t concat_entry(); // gpu/concat/concat.cpp
impl_entry_t prelu_entry(); // gpu/prelu/prelu.cpp
impl_entry_t reorder_cross_engine_entry(); // gpu/reorder/cross_engine.cpp
impl_entry_t reorder_dense_entry(); // gpu/reorder/reorder.cpp
impl_entry_t reorder_generic_entry(); // gpu/reorder/reorder.cpp
impl_entry_t matmul_wgmma_sm90a_entry(); // gpu/matmul/wgmma_sm90a.cpp
impl_entry_t matmul_tiled_entry(); // gpu/matmul/matmul.cpp
impl_entry_t matmul_generic_entry(); // gpu/matmul/matmul.cpp
impl_entry_t inner_product_tiled_entry(); // gpu/inner_product/inner_product.cpp
impl_entry_t inner_product_generic_entry(); // gpu/inner_product/inner_product.cpp
impl_entry_t convolution_implicit_wgmma_entry(); // gpu/convolution/implicit_wgmma.cpp
impl_entry_t convolution_gemm_nhwc_entry(); // gpu/convolution/gemm_nhwc.cpp
impl_entry_t convolution_gemm_entry(); // gpu/convolution/convolution.cpp
impl_entry_t convolution_direct_entry(); // gpu/convolution/convolution.cpp
impl_entry_t deconvolution_direct_entry(); // gpu/convolution/convolution.cpp
impl_entry_t softmax_entry(); // gpu/softmax/softmax.cpp
impl_entry_t softmax_rows_entry(); // gpu/softmax/softmax_rows.cpp
impl_entry_t lnorm_entry(); // gpu/lnorm/lnorm.cpp
impl_entry_t lnorm_rows_entry(); // gpu/lnorm/lnorm_rows.cpp
impl_entry_t reduction_entry(); // gpu/reduction/reduction.cpp
impl_entry_t pooling_dense_entry(); // gpu/pooling/pooling_dense.cpp
impl_entry_t pooling_entry(); // gpu/pooling/pooling.cpp
impl_entry_t bnorm_entry(); // gpu/bnorm/bnorm.cpp
impl_entry_t bnorm_flat_entry(); // gpu/bnorm/bnorm_flat.cpp
impl_entry_t resampling_entry(); // gpu/resampling/resampling.cpp
impl_entry_t rnn_gemm_entry(); // gpu/rnn/rnn.cpp
impl_entry_t gnorm_flat_entry(); // gpu/gnorm/gnorm_flat.cpp
impl_entry_t gnorm_entry(); // gpu/gnorm/gnorm.cpp
impl_entry_t lrn_entry(); // gpu/lrn/lrn.cpp

} // namespace gpu
} // namespace anydnn
