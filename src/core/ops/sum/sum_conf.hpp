// What every CPU sum implementation decides the same way: dst resolved like src 0, the
// attributes accepted, and the argument list.
#pragma once

#include <vector>

#include "core/primitive.hpp"

namespace anydnn {
namespace cpu {

struct sum_conf_t {
    std::vector<memory_desc_t> srcs;
    std::vector<float> scales;
    memory_desc_t dst {};

    status_t init(primitive_desc_t &pd);
};

} // namespace cpu
} // namespace anydnn
