// The ordered GPU implementations per primitive kind (any OpenCL device): capability-specific
// fast ones first, the generic kernels that run on every OpenCL 1.2 device last.
#include "gpu/impl_entries.hpp"
#include "runtime/ocl/ocl_engine.hpp"

namespace anydnn {
namespace ocl {

const std::vector<impl_entry_t> &gpu_impl_list(dnnl_primitive_kind_t kind) {
    static const std::vector<impl_entry_t> none;
    static const std::vector<impl_entry_t> eltwise = {gpu::eltwise_entry()};
    switch (kind) {
        case dnnl_eltwise: return eltwise;
        default: return none;
    }
}

} // namespace ocl
} // namespace anydnn
