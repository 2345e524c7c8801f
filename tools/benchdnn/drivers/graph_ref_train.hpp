// Pooling and normalization backward ops of the graph reference: AvgPool, MaxPool and their
// backward ops (the window follows strides, dilations and padding, auto_pad included), and
// LayerNormBackward / BatchNormTrainingBackward from the statistics the graph passes in, and
// Interpolate / InterpolateBackward (half-pixel nearest and linear modes).
#pragma once

#include <vector>

#include "graph_ref.hpp"

namespace benchdnn {

bool ref_is_pool_or_norm_backward(dnnl_graph_op_kind_t kind);

// The op's outputs from its inputs' values (in op order); each out[i].dims is set by the caller.
// Throws std::invalid_argument when shapes and attributes disagree.
void ref_pool_or_norm_backward(const graph_op_t &op, const std::vector<const ref_value_t *> &in,
        const std::vector<ref_value_t *> &out);

} // namespace benchdnn
