// Hopper tensor maps (the descriptors of the bulk tensor copies, TMA) for our PTX kernels.
// OpenCL has no API for them, so they are encoded by the CUDA driver's
// cuTensorMapEncodeTiled, found at run time in libcuda.so.1 (the driver NVIDIA's OpenCL sits
// on; no CUDA context is made). OpenCL does not tell the host a buffer's device address: a
// map is encoded for a placeholder address and the kernel points its copy at the buffer
// (tensormap.replace, gpu/gemm/hopper/wgmma_tma.cu).
#pragma once

#include <cstdint>

#include "core/compute/compute.hpp"

namespace anydnn {
namespace gpu {

// The 128 opaque bytes of one map, as the kernels take them (16 words).
struct tensor_map_t {
    uint64_t words[16] = {};
};

// Whether this process can encode maps: libcuda.so.1 opens, has cuTensorMapEncodeTiled, and
// cuInit(0) succeeds. Probed once.
bool tensor_maps_available();

// Whether PTX kernels on this device may use bulk tensor copies: it loads sm_90a PTX and the
// process can encode maps (libcuda is asked only for such a device).
inline bool device_has_tensor_maps(const device_caps_t &caps) {
    return caps.ptx_binary_sm >= 90 && tensor_maps_available();
}

// A 3-D map of 16-bit elements (bf16, f16) for boxes of box_inner x box_outer x 1: `inner`
// contiguous elements per line, lines `ld` elements apart, `outer` lines per batch, batches
// `batch_stride` elements apart (any stride with one batch). 128-byte swizzle (box_inner
// 64), zero fill past the tensor. False where the encoder refuses or is missing.
bool encode_tensor_map_16bit(dnnl_data_type_t type, int64_t inner, int64_t outer, int64_t ld,
        int64_t batches, int64_t batch_stride, int box_inner, int box_outer, tensor_map_t &map);

} // namespace gpu
} // namespace anydnn
