// What every CPU concat implementation decides the same way: dst resolved like src 0, each
// source's offset along the axis, scales, and the argument list.
#pragma once

#include <vector>

#include "core/primitive.hpp"

namespace anydnn {
namespace cpu {

struct concat_conf_t {
    int axis = 0;
    std::vector<memory_desc_t> srcs;
    std::vector<dim_t> offsets; // where each source starts along axis in dst
    memory_desc_t dst {};
    bool has_scales = false;

    status_t init(primitive_desc_t &pd);
};

} // namespace cpu
} // namespace anydnn
