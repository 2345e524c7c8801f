// Scaled dot-product attention (QK -> [scale] -> [mask] -> SoftMax -> PV) as one kernel: the
// problem a graph partition describes, and the engine-neutral entries through which the graph
// asks an engine for its fused kernel (the CPU engine defines the host one in
// cpu/sdpa/fused_rows.cpp, the GPU implementations the device one in gpu/sdpa/graph_args.cpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/memory.hpp"
#include "core/memory_desc.hpp"
#include "core/status.hpp"
#include "core/stream.hpp"

namespace anydnn {

struct sdpa_plan_t {
    std::vector<dim_t> batch; // dst batch dims
    dim_t Sq, Sk, D, Dv;
    memory_desc_t q, k, v, dst, mask;
    dnnl_data_type_t scale_dt = dnnl_f32;
    bool k_transposed; // K given as [.., Sk, D]
    bool v_transposed; // V given as [.., Dv, Sk]
    bool has_scale = false, divide = false, has_mask = false;
    // A causal mask the partition computes (GenIndex / GreaterEqual / Select): key j is seen
    // from query i when j <= i (1, top-left) or j <= i + Sk - Sq (2, bottom-right); 0 none.
    int causal = 0;
    // Bottom-right with the offset of the graph's two s32 values (key length - query length,
    // read at execution; they follow [scale] and [mask] in `values`) instead of Sk - Sq.
    bool causal_lengths = false;
    // The training forward: the SoftMax's statistics output too (f32, [batch.., Sq, 1]):
    // ln(sum_j exp(x_ij)) of each row's scaled, masked scores x, as max + ln(sum exp(x - max)).
    bool has_stats = false;
    memory_desc_t stats;
    std::vector<dim_t> qs, ks, vs, ds, ms, ss; // batch strides
    // Values the kernel reads and writes, in order: q, k, v, dst, [scale], [mask], [key
    // length, query length], [stats].
    std::vector<size_t> values;
};

// A fused kernel on host memory: buffers in the order of sdpa_plan_t::values.
struct sdpa_host_kernel_t {
    std::string info; // what verbose names it
    size_t scratchpad_size = 0;
    std::function<void(const std::vector<void *> &buf, void *scratch)> run;
};
status_t make_sdpa_host_kernel(const sdpa_plan_t &p, int nthr, sdpa_host_kernel_t &kernel);

// A fused kernel on a device: buffers q, k, v, dst, scale, mask, key length, query length,
// stats (null when absent); dnnl_unimplemented with a reason where the engine has none for
// the plan.
constexpr int sdpa_device_buffers = 9;
struct sdpa_device_kernel_t {
    std::string info;
    std::function<status_t(
            stream_t *stream, const memory_storage_t *const buffers[sdpa_device_buffers])>
            run;
};
status_t make_sdpa_device_kernel(
        engine_t *engine, const sdpa_plan_t &p, sdpa_device_kernel_t &kernel);

} // namespace anydnn
