// Host side of the fused sdpa kernel: build options, work-group and key-block sizes from the
// head sizes and the device's limits, and the launch.
#include "gpu/sdpa/sdpa.hpp"

#include <algorithm>
#include <string>

#include "gpu/kernel_layout.hpp"
#include "gpu/tuning/op_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

constexpr int64_t max_head_size = 512;
constexpr size_t max_rows_per_group = 64;
// Local memory a work-group may count on everywhere (NVIDIA: 48 KiB without opt-in).
constexpr uint64_t local_mem_budget = 48 * 1024;

int64_t round4(int64_t n) {
    return (n + 3) / 4 * 4;
}

// Keys per block: the K and V tiles and each work-item's scores stay small as heads grow.
int block_keys_for(int64_t D, int64_t Dv) {
    const int64_t width = round4(D) + round4(Dv);
    return width <= 128 ? 32 : width <= 256 ? 16 : 8;
}

size_t local_bytes(int bk, int64_t D, int64_t Dv, size_t group, bool mask) {
    const size_t tiles = sizeof(float) * bk * (round4(D) + round4(Dv));
    return tiles + (mask ? sizeof(float) * group * (bk + 1) : 0);
}

bool float_type(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

} // namespace

status_t sdpa_kernel_t::init(engine_t *engine, const sdpa_config_t &c) {
    ANYDNN_REQUIRE(float_type(c.q_dt) && float_type(c.k_dt) && float_type(c.v_dt)
                    && float_type(c.dst_dt) && float_type(c.scale_dt) && float_type(c.mask_dt),
            dnnl_unimplemented, "fused sdpa: f32, bf16 and f16 tensors only");
    ANYDNN_REQUIRE(c.D >= 1 && c.Dv >= 1 && c.D <= max_head_size && c.Dv <= max_head_size,
            dnnl_unimplemented, "fused sdpa: head sizes %lld, %lld outside 1..%lld",
            (long long)c.D, (long long)c.Dv, (long long)max_head_size);
    const device_caps_t &caps = engine_caps(engine);
    const uint64_t budget = std::min(caps.local_mem_size, local_mem_budget);
    block_keys_ = block_keys_for(c.D, c.Dv);
    ANYDNN_REQUIRE(local_bytes(block_keys_, c.D, c.Dv, 1, c.has_mask) <= budget,
            dnnl_unimplemented, "fused sdpa: head sizes %lld, %lld need more local memory than "
            "the device has", (long long)c.D, (long long)c.Dv);
    std::string opt = " -DD=" + std::to_string(c.D) + " -DDV=" + std::to_string(c.Dv)
            + " -DBK=" + std::to_string(block_keys_)
            + " -DHAS_SCALE=" + std::to_string(int(c.has_scale))
            + " -DDIVIDE=" + std::to_string(int(c.divide))
            + " -DHAS_MASK=" + std::to_string(int(c.has_mask))
            + " -DCAUSAL=" + std::to_string(c.causal_lengths ? 3 : c.causal)
            + " -DHAS_STATS=" + std::to_string(int(c.has_stats))
            + " -DUNROLL=" + std::to_string(int(op_tuning(caps).sdpa_unroll))
            + data_type_options("Q", c.q_dt) + data_type_options("K", c.k_dt)
            + data_type_options("V", c.v_dt) + data_type_options("DST", c.dst_dt)
            + data_type_options("SCALE", c.scale_dt) + data_type_options("MASK", c.mask_dt);
    ANYDNN_CHECK(create_kernel(engine, "sdpa/sdpa.cl", opt, "sdpa_fwd", kernel_));
    // Rows per group: as many as the kernel and the local memory allow, up to a fixed size
    // (one size per build: CPU devices compile a work-group function for each).
    size_t group = std::min(max_rows_per_group, std::max<size_t>(kernel_->max_work_group_size(), 1));
    while (group > 1 && local_bytes(block_keys_, c.D, c.Dv, group, c.has_mask) > budget)
        group /= 2;
    group_ = group;
    has_mask_ = c.has_mask;
    return dnnl_success;
}

status_t sdpa_kernel_t::launch(stream_t *stream, const memory_storage_t *const buffers[sdpa_device_buffers],
        const sdpa_args_t &args, int64_t nbatch) const {
    kernel_args_t ka;
    for (int i = 0; i < sdpa_device_buffers; ++i)
        ka.add(buffers[i]);
    ka.add_value(args);
    ka.add_local(has_mask_ ? sizeof(float) * group_ * (block_keys_ + 1) : sizeof(float));
    nd_range_t range;
    range.ndims = 2;
    range.global[0] = size_t((args.Sq + int64_t(group_) - 1) / int64_t(group_)) * group_;
    range.global[1] = size_t(nbatch);
    range.local[0] = group_;
    range.local[1] = 1;
    return kernel_->launch(stream, ka, range);
}

} // namespace gpu
} // namespace anydnn
