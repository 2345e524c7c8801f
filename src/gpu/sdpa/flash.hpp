// The flash attention kernels (cuda/flash_attention.cu on tensor cores for bf16/f16,
// cuda/flash_attention_f32.cu on the FMA units for f32; embedded sm_80 PTX) for the graph's
// sdpa partitions: whether one takes a problem, and its launch.
#pragma once

#include <memory>
#include <string>

#include "gpu/sdpa/sdpa.hpp"

namespace anydnn {
namespace gpu {

class flash_sdpa_kernel_t {
public:
    // dnnl_unimplemented with the reason where the device loads no sm_80 PTX or the problem
    // does not fit the kernel (types, head size, layouts); `args` as the generic kernel takes.
    status_t init(engine_t *engine, const sdpa_config_t &config, const sdpa_args_t &args);
    // Buffers as sdpa_kernel_t::launch takes them.
    status_t launch(stream_t *stream, const memory_storage_t *const buffers[sdpa_device_buffers],
            const sdpa_args_t &args, int64_t nbatch) const;

    const std::string &info() const { return info_; } // what verbose names it

private:
    std::shared_ptr<kernel_t> kernel_;
    std::string info_;
    int rows_ = 0, threads_ = 0; // query rows and threads per CTA
    int flags_ = 0;
};

} // namespace gpu
} // namespace anydnn
