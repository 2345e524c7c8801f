// One engine's implementation entries grouped by primitive kind, built once from the rows of
// core/impl_registry.def that name that engine.
#pragma once

#include <initializer_list>
#include <map>
#include <utility>
#include <vector>

#include "core/primitive_desc.hpp"

namespace anydnn {

class impl_table_t {
public:
    using row_t = std::pair<dnnl_primitive_kind_t, impl_entry_t>;

    // Rows of several kinds may interleave; each kind keeps its rows' order (its dispatch order).
    impl_table_t(std::initializer_list<row_t> rows);

    // The kind's entries in dispatch order; empty when the engine has none for it.
    const std::vector<impl_entry_t> &list(dnnl_primitive_kind_t kind) const;

private:
    std::map<dnnl_primitive_kind_t, std::vector<impl_entry_t>> lists_;
};

} // namespace anydnn
