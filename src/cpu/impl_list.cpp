// The ordered CPU implementations per primitive kind (fastest first, reference last): the CPU
// rows of core/impl_registry.def.
#include "core/impl_lists.hpp"

#include "core/impl_table.hpp"
#include "cpu/impl_entries.hpp"

namespace anydnn {

const std::vector<impl_entry_t> &cpu_impl_list(dnnl_primitive_kind_t kind) {
    static const impl_table_t table = {
#define ANYDNN_CPU_IMPL(kind, name) {kind, cpu::name##_entry()},
#define ANYDNN_GPU_IMPL(kind, name)
#include "core/impl_registry.def"
    };
    return table.list(kind);
}

} // namespace anydnn
