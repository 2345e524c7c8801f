#include "graph/device_constants.hpp"

#include <memory>

#include "core/compute/compute.hpp"
#include "core/memory.hpp"

namespace anydnn {
namespace graph {

void upload_constants_first(compiled_impl_t &impl) {
    if (impl.constants.empty()) return;
    using host_data_t = std::vector<std::vector<uint8_t>>;
    auto data = std::make_shared<host_data_t>();
    exec_step_t upload;
    upload.scratchpad_md = zero_md();
    for (auto &s : impl.storages) {
        if (s.kind != storage_kind::constant) continue;
        const std::vector<uint8_t> &bytes = impl.constants[s.index];
        data->push_back(bytes);
        s = {storage_kind::temp, impl.values_size};
        impl.values_size += (bytes.size() + 63) / 64 * 64;
        memory_desc_t md = zero_md();
        const dnnl_dims_t dims = {static_cast<dim_t>(bytes.size())};
        md_init_with_tag(md, 1, dims, dnnl_u8, dnnl_a);
        impl.views.push_back({static_cast<size_t>(&s - impl.storages.data()), md});
        upload.args.push_back({0, impl.views.size() - 1});
    }
    impl.constants.clear();
    upload.device_kernel = [data](dnnl_stream *stream, const std::vector<dnnl_memory *> &mem) {
        for (size_t i = 0; i < mem.size(); ++i)
            ANYDNN_CHECK(gpu::copy_to_device(
                    stream, mem[i]->storage(), 0, (*data)[i].data(), (*data)[i].size()));
        return dnnl_success;
    };
    impl.steps.insert(impl.steps.begin(), std::move(upload));
}

} // namespace graph
} // namespace anydnn
