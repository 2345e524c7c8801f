// The ordered CPU implementations per primitive kind: fastest first, reference last.
#include "core/impl_lists.hpp"

#include "core/primitive_desc.hpp"
#include "cpu/impl_entries.hpp"

namespace anydnn {

const std::vector<impl_entry_t> &cpu_impl_list(dnnl_primitive_kind_t kind) {
    using namespace cpu;
    static const std::vector<impl_entry_t> none;
    static const std::vector<impl_entry_t> reorder = {reorder_memcpy_entry(),
            reorder_convert_entry(), reorder_blocked16_entry(), reorder_ref_entry()};
    static const std::vector<impl_entry_t> eltwise = {eltwise_avx512_fwd_entry(),
            eltwise_avx512_bwd_entry(), eltwise_ref_fwd_entry(), eltwise_ref_bwd_entry()};
    static const std::vector<impl_entry_t> binary = {binary_avx512_entry(), binary_ref_entry()};
    static const std::vector<impl_entry_t> sum = {sum_simple_entry(), sum_ref_entry()};
    static const std::vector<impl_entry_t> concat
            = {concat_memcpy_entry(), concat_ref_entry()};
    static const std::vector<impl_entry_t> shuffle = {shuffle_dense_entry(), shuffle_ref_entry()};
    static const std::vector<impl_entry_t> prelu = {prelu_flat_entry(), prelu_ref_entry()};
    static const std::vector<impl_entry_t> lrn = {lrn_plain_entry(), lrn_ref_entry()};
    static const std::vector<impl_entry_t> gnorm = {gnorm_plain_entry(), gnorm_ref_entry()};
    static const std::vector<impl_entry_t> softmax = {softmax_dense_fwd_entry(),
            softmax_dense_bwd_entry(), softmax_ref_fwd_entry(), softmax_ref_bwd_entry()};
    static const std::vector<impl_entry_t> lnorm = {lnorm_dense_entry(), lnorm_ref_entry()};
    static const std::vector<impl_entry_t> resampling
            = {resampling_simple_fwd_entry(), resampling_simple_bwd_entry(),
                    resampling_ref_fwd_entry(), resampling_ref_bwd_entry()};
    static const std::vector<impl_entry_t> reduction
            = {reduction_simple_entry(), reduction_ref_entry()};
    static const std::vector<impl_entry_t> matmul = {matmul_bf16_avx512bf16_entry(),
            matmul_int8_vnni_entry(), matmul_gemm_entry(), matmul_ref_entry()};
    static const std::vector<impl_entry_t> pooling = {pooling_avx512_fwd_entry(),
            pooling_avx512_bwd_entry(), pooling_ref_fwd_entry(), pooling_ref_bwd_entry()};
    static const std::vector<impl_entry_t> batch_normalization
            = {bnorm_avx512_entry(), bnorm_ref_entry()};
    static const std::vector<impl_entry_t> convolution = {convolution_gemm_1x1_entry(),
            convolution_direct_entry(), convolution_gemm_entry(), convolution_ref_entry()};
    static const std::vector<impl_entry_t> deconvolution = {deconvolution_direct_entry(),
            deconvolution_gemm_entry(), deconvolution_ref_entry()};
    static const std::vector<impl_entry_t> inner_product = {ip_gemm_fwd_entry(),
            ip_gemm_bwd_data_entry(), ip_gemm_bwd_weights_entry()};
    static const std::vector<impl_entry_t> rnn = {rnn_gemm_entry()};
    switch (kind) {
        case dnnl_reorder: return reorder;
        case dnnl_eltwise: return eltwise;
        case dnnl_binary: return binary;
        case dnnl_sum: return sum;
        case dnnl_concat: return concat;
        case dnnl_shuffle: return shuffle;
        case dnnl_prelu: return prelu;
        case dnnl_lrn: return lrn;
        case dnnl_group_normalization: return gnorm;
        case dnnl_softmax: return softmax;
        case dnnl_layer_normalization: return lnorm;
        case dnnl_resampling: return resampling;
        case dnnl_reduction: return reduction;
        case dnnl_matmul: return matmul;
        case dnnl_pooling: return pooling;
        case dnnl_batch_normalization: return batch_normalization;
        case dnnl_convolution: return convolution;
        case dnnl_deconvolution: return deconvolution;
        case dnnl_inner_product: return inner_product;
        case dnnl_rnn: return rnn;
        default: return none;
    }
}

} // namespace anydnn
