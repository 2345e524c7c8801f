// The convolution family of the graph reference: Convolution, ConvolutionBackwardData,
// ConvolutionBackwardWeights and the three ConvTranspose ops, all stated as one relation
// between a convolution's input x, weights w and output y,
//   y[n][oc][o] += x[n][g * I + ic][o * stride - pad + k * dilation] * w[oc][ic][k],
// each op computing one of the three from the other two (ConvTranspose is the convolution whose
// input is the deconvolution's output).
#pragma once

#include <vector>

#include "graph_ref.hpp"

namespace benchdnn {

bool ref_is_conv_family(dnnl_graph_op_kind_t kind);

// The op's output from its inputs' values (in op input order); out.dims is set by the caller.
// Throws std::invalid_argument when shapes and attributes disagree.
void ref_conv_family(
        const graph_op_t &op, const std::vector<const ref_value_t *> &in, ref_value_t &out);

// Padding before each spatial dimension of the convolution input `in`: pads_begin, or what
// auto_pad derives (SAME_* pads so that the output is ceil(in / stride), the odd unit at the
// end for SAME_UPPER and at the start for SAME_LOWER; VALID pads nothing).
dims_t ref_begin_pads(const graph_op_t &op, const dims_t &in, const dims_t &k, const dims_t &stride,
        const dims_t &dil);

} // namespace benchdnn
