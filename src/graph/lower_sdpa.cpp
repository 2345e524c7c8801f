// The sdpa partition as one fused kernel of the engine (core/ops/sdpa/fused.hpp): a host step
// on CPU engines, a device step on GPU engines. When the engine has none for the plan, the
// generic lowering (a sequence of primitives) takes the partition.
#include <algorithm>

#include "core/ops/sdpa/fused.hpp"
#include "core/parallel.hpp"
#include "graph/lower.hpp"
#include "graph/sdpa_plan.hpp"

namespace anydnn {
namespace graph {

status_t lowering_t::lower_sdpa_fused() {
    sdpa_plan_t p;
    ANYDNN_CHECK(plan_sdpa(p));
    sdpa_host_kernel_t kernel;
    ANYDNN_CHECK(make_sdpa_host_kernel(p, max_threads(), kernel));

    exec_step_t step;
    for (size_t id : p.values)
        step.args.push_back({0, view(id)});
    step.scratchpad_md = zero_md();
    out.scratchpad_size = std::max(out.scratchpad_size, kernel.scratchpad_size);
    step.host_kernel = std::move(kernel.run);
    out.steps.push_back(std::move(step));
    out.info = kernel.info;
    for (const auto &op : ops)
        done.insert(op.get());
    return dnnl_success;
}

status_t lowering_t::lower_sdpa_device() {
    sdpa_plan_t p;
    ANYDNN_CHECK(plan_sdpa(p));
    sdpa_device_kernel_t kernel;
    ANYDNN_CHECK(make_sdpa_device_kernel(engine, p, kernel));

    exec_step_t step;
    for (size_t id : p.values)
        step.args.push_back({0, view(id)});
    step.scratchpad_md = zero_md();
    const bool has_scale = p.has_scale, has_mask = p.has_mask, lengths = p.causal_lengths;
    const bool stats = p.has_stats;
    step.device_kernel = [run = std::move(kernel.run), has_scale, has_mask, lengths, stats](
                                 dnnl_stream *stream, const std::vector<dnnl_memory *> &mem) {
        const memory_storage_t *bufs[sdpa_device_buffers] = {};
        size_t next = 0;
        for (int i = 0; i < 4; ++i)
            bufs[i] = mem[next++]->storage();
        if (has_scale) bufs[4] = mem[next++]->storage();
        if (has_mask) bufs[5] = mem[next++]->storage();
        if (lengths) {
            bufs[6] = mem[next++]->storage();
            bufs[7] = mem[next++]->storage();
        }
        if (stats) bufs[8] = mem[next++]->storage();
        return run(stream, bufs);
    };
    out.steps.push_back(std::move(step));
    out.info = kernel.info;
    for (const auto &op : ops)
        done.insert(op.get());
    return dnnl_success;
}

} // namespace graph
} // namespace anydnn
