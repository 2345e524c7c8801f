// Zeroes the padding of a blocked output (the elements past its logical dims, e.g. channels
// 20..31 of nChw16c with 20 channels), which every output must keep at zero.
#pragma once

#include <memory>

#include "core/compute/compute.hpp"
#include "core/primitive.hpp"

namespace anydnn {
namespace gpu {

// An unsigned OpenCL type of dt's size: data copied or zeroed as bits (no fp16 extension).
const char *bits_type(dnnl_data_type_t dt);

class zero_padding_t {
public:
    // Builds the kernel only when `md` has padding.
    status_t init(engine_t *engine, const memory_desc_t &md);
    // Zeroes the padding of argument `arg` (described by `md`); nothing without padding.
    status_t launch(const exec_ctx_t &ctx, int arg, const memory_desc_t &md) const;

private:
    std::shared_ptr<kernel_t> kernel_;
};

} // namespace gpu
} // namespace anydnn
