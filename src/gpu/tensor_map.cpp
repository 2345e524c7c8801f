#include "gpu/tensor_map.hpp"

#include <dlfcn.h>

#include <cstring>

namespace anydnn {
namespace gpu {

namespace {

// The driver API's prototypes and the enum values used here (no CUDA header: the library
// builds and runs without CUDA).
using cu_init_fn = int (*)(unsigned flags);
using cu_encode_tiled_fn = int (*)(void *map, int data_type, uint32_t rank, void *address,
        const uint64_t *dims, const uint64_t *strides_bytes, const uint32_t *box,
        const uint32_t *element_strides, int interleave, int swizzle, int l2_promotion,
        int oob_fill);
constexpr int cu_type_float16 = 6, cu_type_bfloat16 = 9;
constexpr int cu_interleave_none = 0, cu_swizzle_128b = 3, cu_l2_256b = 3, cu_fill_zero = 0;
// The address maps are encoded for: 16-byte aligned, replaced by the kernels.
constexpr uint64_t placeholder_address = 0x100000;

cu_encode_tiled_fn load_encoder() {
    // The driver stays loaded for the life of the process, as NVIDIA's OpenCL keeps it.
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return nullptr;
    auto init = reinterpret_cast<cu_init_fn>(dlsym(lib, "cuInit"));
    auto encode = reinterpret_cast<cu_encode_tiled_fn>(dlsym(lib, "cuTensorMapEncodeTiled"));
    if (!init || !encode || init(0) != 0) return nullptr;
    return encode;
}

cu_encode_tiled_fn encoder() {
    static const cu_encode_tiled_fn fn = load_encoder();
    return fn;
}

} // namespace

bool tensor_maps_available() {
    return encoder() != nullptr;
}

bool encode_tensor_map_16bit(dnnl_data_type_t type, int64_t inner, int64_t outer, int64_t ld,
        int64_t batches, int64_t batch_stride, int box_inner, int box_outer, tensor_map_t &map) {
    const cu_encode_tiled_fn encode = encoder();
    if (!encode || (type != dnnl_bf16 && type != dnnl_f16)) return false;
    if (inner < 1 || outer < 1 || batches < 1) return false;
    // With one batch its stride is never used, but must still be a multiple of 16 bytes.
    if (batches == 1) batch_stride = ld * outer;
    const uint64_t dims[3] = {uint64_t(inner), uint64_t(outer), uint64_t(batches)};
    const uint64_t strides[2] = {uint64_t(ld) * 2, uint64_t(batch_stride) * 2};
    const uint32_t box[3] = {uint32_t(box_inner), uint32_t(box_outer), 1};
    const uint32_t element_strides[3] = {1, 1, 1};
    alignas(64) unsigned char bytes[128] = {};
    const int type_code = type == dnnl_bf16 ? cu_type_bfloat16 : cu_type_float16;
    if (encode(bytes, type_code, 3, reinterpret_cast<void *>(placeholder_address), dims, strides,
                box, element_strides, cu_interleave_none, cu_swizzle_128b, cu_l2_256b, cu_fill_zero)
            != 0)
        return false;
    std::memcpy(map.words, bytes, sizeof(bytes));
    return true;
}

} // namespace gpu
} // namespace anydnn
