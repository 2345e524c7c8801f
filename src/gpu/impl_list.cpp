// The ordered GPU implementations per primitive kind (any device of a GPU runtime):
// capability-specific fast ones first, the generic kernels that run on every OpenCL 1.2
// device last. The GPU rows of core/impl_registry.def.
#include "core/impl_lists.hpp"

#include "core/impl_table.hpp"
#include "gpu/impl_entries.hpp"

namespace anydnn {

const std::vector<impl_entry_t> &gpu_impl_list(dnnl_primitive_kind_t kind) {
    static const impl_table_t table = {
#define ANYDNN_CPU_IMPL(kind, name)
#define ANYDNN_GPU_IMPL(kind, name) {kind, gpu::name##_entry()},
#include "core/impl_registry.def"
    };
    return table.list(kind);
}

} // namespace anydnn
