#include "core/impl_table.hpp"

namespace anydnn {

impl_table_t::impl_table_t(std::initializer_list<row_t> rows) {
    for (const row_t &row : rows)
        lists_[row.first].push_back(row.second);
}

const std::vector<impl_entry_t> &impl_table_t::list(dnnl_primitive_kind_t kind) const {
    static const std::vector<impl_entry_t> none;
    auto it = lists_.find(kind);
    return it == lists_.end() ? none : it->second;
}

} // namespace anydnn
