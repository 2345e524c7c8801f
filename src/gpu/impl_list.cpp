// The ordered GPU implementations per primitive kind (any device of a GPU runtime): capability-specific
// fast ones first, the generic kernels that run on every OpenCL 1.2 device last.
#include "core/impl_lists.hpp"

#include "core/primitive_desc.hpp"
#include "gpu/impl_entries.hpp"

namespace anydnn {

const std::vector<impl_entry_t> &gpu_impl_list(dnnl_primitive_kind_t kind) {
    static const std::vector<impl_entry_t> none;
    static const std::vector<impl_entry_t> eltwise = {gpu::eltwise_entry()};
    static const std::vector<impl_entry_t> binary = {gpu::binary_entry()};
    static const std::vector<impl_entry_t> shuffle = {gpu::shuffle_entry()};
    static const std::vector<impl_entry_t> sum = {gpu::sum_entry()};
    static const std::vector<impl_entry_t> concat = {gpu::concat_entry()};
    static const std::vector<impl_entry_t> prelu = {gpu::prelu_entry()};
    static const std::vector<impl_entry_t> reorder = {gpu::reorder_cross_engine_entry(),
            gpu::reorder_dense_entry(), gpu::reorder_generic_entry()};
    static const std::vector<impl_entry_t> matmul = {gpu::matmul_wgmma_sm90a_entry(),
            gpu::matmul_tiled_entry(), gpu::matmul_generic_entry()};
    static const std::vector<impl_entry_t> inner_product = {
            gpu::inner_product_tiled_entry(), gpu::inner_product_generic_entry()};
    static const std::vector<impl_entry_t> convolution = {
            gpu::convolution_implicit_wgmma_entry(), gpu::convolution_gemm_nhwc_entry(),
            gpu::convolution_gemm_entry(), gpu::convolution_direct_entry()};
    static const std::vector<impl_entry_t> deconvolution = {gpu::deconvolution_direct_entry()};
    static const std::vector<impl_entry_t> softmax = {gpu::softmax_rows_entry(), gpu::softmax_entry()};
    static const std::vector<impl_entry_t> lnorm = {gpu::lnorm_rows_entry(), gpu::lnorm_entry()};
    static const std::vector<impl_entry_t> reduction = {gpu::reduction_entry()};
    static const std::vector<impl_entry_t> pooling
            = {gpu::pooling_dense_entry(), gpu::pooling_entry()};
    static const std::vector<impl_entry_t> bnorm = {gpu::bnorm_flat_entry(), gpu::bnorm_entry()};
    static const std::vector<impl_entry_t> resampling = {gpu::resampling_entry()};
    static const std::vector<impl_entry_t> rnn = {gpu::rnn_gemm_entry()};
    static const std::vector<impl_entry_t> gnorm = {gpu::gnorm_flat_entry(), gpu::gnorm_entry()};
    static const std::vector<impl_entry_t> lrn = {gpu::lrn_entry()};
    switch (kind) {
        case dnnl_eltwise: return eltwise;
        case dnnl_reorder: return reorder;
        case dnnl_binary: return binary;
        case dnnl_shuffle: return shuffle;
        case dnnl_sum: return sum;
        case dnnl_concat: return concat;
        case dnnl_prelu: return prelu;
        case dnnl_matmul: return matmul;
        case dnnl_inner_product: return inner_product;
        case dnnl_convolution: return convolution;
        case dnnl_deconvolution: return deconvolution;
        case dnnl_softmax: return softmax;
        case dnnl_layer_normalization: return lnorm;
        case dnnl_reduction: return reduction;
        case dnnl_pooling: return pooling;
        case dnnl_batch_normalization: return bnorm;
        case dnnl_resampling: return resampling;
        case dnnl_rnn: return rnn;
        case dnnl_group_normalization: return gnorm;
        case dnnl_lrn: return lrn;
        default: return none;
    }
}

} // namespace anydnn
