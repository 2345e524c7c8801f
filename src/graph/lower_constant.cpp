#include "graph/lower_constant.hpp"

#include <algorithm>

#include "graph/caches.hpp"

namespace anydnn {
namespace graph {

namespace {

bool is_constant_input(const lowering_t &l, size_t id) {
    for (const auto &lt : l.out.inputs)
        if (lt.id == id) return lt.property == dnnl_graph_tensor_property_constant;
    return false;
}

struct pd_holder_t {
    dnnl_primitive_desc_t pd = nullptr;
    ~pd_holder_t() {
        if (pd) dnnl_primitive_desc_destroy(pd);
    }
};

} // namespace

status_t use_packed_constant_weights(lowering_t &l, size_t wei_id, const memory_desc_t &wei_md,
        const pd_factory_t &create, dnnl_primitive_desc_t &pd,
        std::vector<std::pair<int, size_t>> &args, const op_t &op) {
    if (l.engine->kind() != dnnl_cpu || !is_constant_input(l, wei_id)) return dnnl_success;
    memory_desc_t any;
    if (md_init_with_tag(any, wei_md.ndims, wei_md.dims, wei_md.data_type, dnnl_format_tag_any)
            != dnnl_success)
        return dnnl_success;
    pd_holder_t packed_pd;
    if (create(any, &packed_pd.pd) != dnnl_success) return dnnl_success; // the plain pd stays
    const_dnnl_memory_desc_t chosen =
            dnnl_primitive_desc_query_md(packed_pd.pd, dnnl_query_weights_md, 0);
    if (!chosen || md_equal(*chosen, wei_md)) return dnnl_success;
    const memory_desc_t packed = *chosen;
    dnnl_primitive_desc_t reorder_pd = nullptr;
    if (dnnl_reorder_primitive_desc_create(
                &reorder_pd, &wei_md, l.engine, &packed, l.engine, nullptr)
            != dnnl_success)
        return dnnl_success;
    // The packed copy lives in the cached area, one 64-byte aligned slot per constant step.
    if (!l.out.cache_id) l.out.cache_id = new_constant_cache_id();
    l.out.storages.push_back({storage_kind::cached, l.out.cached_size});
    l.out.cached_size += (size_in_bytes(packed) + 63) / 64 * 64;
    l.out.views.push_back({l.out.storages.size() - 1, packed});
    const size_t packed_view = l.out.views.size() - 1;
    const status_t st = l.emit(
            reorder_pd, {{DNNL_ARG_FROM, l.view(wei_id, wei_md)}, {DNNL_ARG_TO, packed_view}}, op);
    if (st != dnnl_success) { // pd goes with the failure, as a failed create leaves none
        dnnl_primitive_desc_destroy(pd);
        pd = nullptr;
        return st;
    }
    l.out.steps.back().constant = true;
    for (auto &a : args)
        if (a.first == DNNL_ARG_WEIGHTS) a.second = packed_view;
    dnnl_primitive_desc_destroy(pd);
    pd = packed_pd.pd;
    packed_pd.pd = nullptr;
    return dnnl_success;
}

std::string constant_cache_key(const compiled_impl_t &impl, const std::vector<void *> &base) {
    std::string key(reinterpret_cast<const char *>(&impl.cache_id), sizeof(impl.cache_id));
    for (size_t s = 0; s < impl.storages.size(); ++s) {
        const storage_t &st = impl.storages[s];
        if (st.kind != storage_kind::input
                || impl.inputs[st.index].property != dnnl_graph_tensor_property_constant)
            continue;
        key.append(reinterpret_cast<const char *>(&base[s]), sizeof(base[s]));
    }
    return key;
}

} // namespace graph
} // namespace anydnn
