#include "graph/op.hpp"

namespace anydnn {
namespace graph {

attr_type expected_attr_type(dnnl_graph_op_attr_t name) {
    const int v = name;
    if (v >= 0x80) return attr_type::str;
    if (v >= 0x60) return attr_type::boolean;
    if (v >= 0x40) return attr_type::s64s;
    if (v >= 0x30) return attr_type::s64;
    if (v >= 0x20) return attr_type::f32s;
    return attr_type::f32;
}

bool is_known_attr(int v) {
    return (v >= dnnl_graph_op_attr_alpha && v <= dnnl_graph_op_attr_momentum)
            || v == dnnl_graph_op_attr_scales
            || (v >= dnnl_graph_op_attr_axis && v <= dnnl_graph_op_attr_groups)
            || (v >= dnnl_graph_op_attr_axes && v <= dnnl_graph_op_attr_group_shape)
            || (v >= dnnl_graph_op_attr_exclude_pad && v <= dnnl_graph_op_attr_use_dst)
            || (v >= dnnl_graph_op_attr_auto_broadcast
                    && v <= dnnl_graph_op_attr_accumulation_mode);
}

const char *attr_name(dnnl_graph_op_attr_t name) {
    switch (name) {
#define ANYDNN_ATTR(n) \
    case dnnl_graph_op_attr_##n: return #n;
        ANYDNN_ATTR(alpha) ANYDNN_ATTR(beta) ANYDNN_ATTR(epsilon) ANYDNN_ATTR(max)
        ANYDNN_ATTR(min) ANYDNN_ATTR(momentum) ANYDNN_ATTR(scales) ANYDNN_ATTR(axis)
        ANYDNN_ATTR(begin_norm_axis) ANYDNN_ATTR(groups) ANYDNN_ATTR(axes)
        ANYDNN_ATTR(dilations) ANYDNN_ATTR(dst_shape) ANYDNN_ATTR(kernel) ANYDNN_ATTR(order)
        ANYDNN_ATTR(output_padding) ANYDNN_ATTR(pads_begin) ANYDNN_ATTR(pads_end)
        ANYDNN_ATTR(shape) ANYDNN_ATTR(sizes) ANYDNN_ATTR(src_shape) ANYDNN_ATTR(strides)
        ANYDNN_ATTR(weights_shape) ANYDNN_ATTR(zps) ANYDNN_ATTR(group_shape)
        ANYDNN_ATTR(exclude_pad) ANYDNN_ATTR(keep_dims) ANYDNN_ATTR(keep_stats)
        ANYDNN_ATTR(per_channel_broadcast) ANYDNN_ATTR(special_zero)
        ANYDNN_ATTR(transpose_a) ANYDNN_ATTR(transpose_b) ANYDNN_ATTR(use_affine)
        ANYDNN_ATTR(use_dst) ANYDNN_ATTR(auto_broadcast) ANYDNN_ATTR(auto_pad)
        ANYDNN_ATTR(coordinate_transformation_mode) ANYDNN_ATTR(data_format)
        ANYDNN_ATTR(mode) ANYDNN_ATTR(qtype) ANYDNN_ATTR(rounding_type)
        ANYDNN_ATTR(weights_format) ANYDNN_ATTR(accumulation_mode)
#undef ANYDNN_ATTR
        default: return "unknown";
    }
}

const char *attr_type_name(attr_type t) {
    switch (t) {
        case attr_type::f32: return "f32";
        case attr_type::f32s: return "f32 vector";
        case attr_type::s64: return "s64";
        case attr_type::s64s: return "s64 vector";
        case attr_type::boolean: return "bool";
        case attr_type::str: return "string";
    }
    return "?";
}

float op_t::f32(dnnl_graph_op_attr_t a, float def) const {
    auto it = attrs.find(a);
    return it != attrs.end() && !it->second.f.empty() ? it->second.f[0] : def;
}

std::vector<float> op_t::f32s(dnnl_graph_op_attr_t a) const {
    auto it = attrs.find(a);
    return it != attrs.end() ? it->second.f : std::vector<float>();
}

int64_t op_t::s64(dnnl_graph_op_attr_t a, int64_t def) const {
    auto it = attrs.find(a);
    return it != attrs.end() && !it->second.i.empty() ? it->second.i[0] : def;
}

std::vector<int64_t> op_t::s64s(dnnl_graph_op_attr_t a, std::vector<int64_t> def) const {
    auto it = attrs.find(a);
    return it != attrs.end() ? it->second.i : def;
}

bool op_t::flag(dnnl_graph_op_attr_t a, bool def) const {
    auto it = attrs.find(a);
    return it != attrs.end() && !it->second.i.empty() ? it->second.i[0] != 0 : def;
}

std::string op_t::str(dnnl_graph_op_attr_t a, const std::string &def) const {
    auto it = attrs.find(a);
    return it != attrs.end() ? it->second.s : def;
}

} // namespace graph
} // namespace anydnn
