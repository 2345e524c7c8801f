// One definition per op kind: its name, how many inputs and outputs it takes, which
// attributes it accepts (required or optional) and how its output shapes follow from its
// inputs. add_op validates against it; finalize and compile infer shapes with it.
#pragma once

#include <vector>

#include "graph/op.hpp"

namespace anydnn {
namespace graph {

// Output shapes from known input shapes; returns invalid_shape with a reason on mismatch.
using infer_fn = status_t (*)(const op_t &op, const std::vector<dims_t> &in,
        std::vector<dims_t> &out);

struct attr_rule_t {
    dnnl_graph_op_attr_t name;
    bool required;
};

struct op_schema_t {
    dnnl_graph_op_kind_t kind;
    const char *name;
    int min_inputs, max_inputs, min_outputs, max_outputs;
    std::vector<attr_rule_t> attrs; // Wildcard accepts any attribute
    infer_fn infer; // null: outputs must come with their shapes
};

const op_schema_t &op_schema(dnnl_graph_op_kind_t kind); // kind must be valid
bool is_valid_op_kind(int kind);

// Counts of inputs and outputs, attribute names and types, required attributes, data types
// that must agree: dnnl_invalid_graph_op with a reason.
status_t validate_op(const op_t &op);
// Fills unknown output shapes when every input shape is known; a given output shape that
// disagrees is dnnl_invalid_shape. Does nothing when an input shape is unknown.
status_t infer_op_shapes(op_t &op);

// output_padding of a ConvTranspose with `nsp` spatial dims: oneDNN writes a fixed array of
// DNNL_MAX_NDIMS entries, so trailing zeros beyond nsp are dropped; any other length is
// returned as given (and refused by the caller's size check).
dims_t output_padding(const op_t &op, size_t nsp);

// Shape rules (shape_infer.cpp).
status_t infer_same_as_first(const op_t &, const std::vector<dims_t> &, std::vector<dims_t> &);
status_t infer_broadcast(const op_t &, const std::vector<dims_t> &, std::vector<dims_t> &);
status_t infer_matmul(const op_t &, const std::vector<dims_t> &, std::vector<dims_t> &);
status_t infer_conv(const op_t &, const std::vector<dims_t> &, std::vector<dims_t> &);
status_t infer_conv_transpose(const op_t &, const std::vector<dims_t> &, std::vector<dims_t> &);
// diff_src of a ConvTranspose: the convolution of diff_dst with its weights read as OIX / XIO.
status_t infer_conv_transpose_backward_data(
        const op_t &, const std::vector<dims_t> &, std::vector<dims_t> &);
status_t infer_pool(const op_t &, const std::vector<dims_t> &, std::vector<dims_t> &);
status_t infer_reduce(const op_t &, const std::vector<dims_t> &, std::vector<dims_t> &);
status_t infer_reshape(const op_t &, const std::vector<dims_t> &, std::vector<dims_t> &);
status_t infer_transpose(const op_t &, const std::vector<dims_t> &, std::vector<dims_t> &);
status_t infer_concat(const op_t &, const std::vector<dims_t> &, std::vector<dims_t> &);
status_t infer_interpolate(const op_t &, const std::vector<dims_t> &, std::vector<dims_t> &);
status_t infer_norm(const op_t &, const std::vector<dims_t> &, std::vector<dims_t> &);
status_t infer_batch_norm_training(
        const op_t &, const std::vector<dims_t> &, std::vector<dims_t> &);
status_t infer_bias_add_backward(const op_t &, const std::vector<dims_t> &, std::vector<dims_t> &);
status_t infer_from_shape_attr(const op_t &, const std::vector<dims_t> &, std::vector<dims_t> &);
status_t infer_softmax(const op_t &, const std::vector<dims_t> &, std::vector<dims_t> &);
status_t infer_prelu_backward(const op_t &, const std::vector<dims_t> &, std::vector<dims_t> &);

// Pads per spatial dimension: the attributes, or what auto_pad asks for.
void resolve_pads(const op_t &op, const dims_t &in, const dims_t &kernel, const dims_t &stride,
        const dims_t &dil, dims_t &pb, dims_t &pe);

// Channel axis of a data tensor for data_format NCX (1) or NXC (last).
int channel_axis(const op_t &op, int ndims, const char *default_format = "NXC");

} // namespace graph
} // namespace anydnn
