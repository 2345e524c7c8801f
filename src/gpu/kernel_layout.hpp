// What kernels need to know about a tensor: its layout as a by-value kernel argument
// (mirrored by tensor_layout_t in cl/common.h) and its element type as build options.
#pragma once

#include <cstdint>
#include <string>

#include "core/data_types_f8.hpp"
#include "core/memory_desc.hpp"

namespace anydnn {
namespace gpu {

constexpr int max_kernel_ndims = 6;
constexpr int max_kernel_blks = 3;

struct tensor_layout_t {
    int64_t offset0;
    int64_t dims[max_kernel_ndims]; // padded dimensions
    int64_t strides[max_kernel_ndims];
    int64_t blk_stride[max_kernel_blks];
    int32_t ndims, nblks;
    int32_t outer_div[max_kernel_ndims];
    int32_t blk_dim[max_kernel_blks], blk_size[max_kernel_blks], blk_div[max_kernel_blks];
    int32_t pad;
};
static_assert(sizeof(tensor_layout_t) == 200, "must match cl/common.h");

// dnnl_unimplemented (with a reason) for layouts kernels cannot address: not blocked, more
// than max_kernel_ndims dimensions or max_kernel_blks inner blocks, runtime dimensions.
status_t make_layout(const memory_desc_t &md, tensor_layout_t &layout);

// Whether kernels can load and store this element type. f8_e4m3 / f8_e5m2 (is_f8): no; only
// the reorder converts them (one element at a time: load_f8_* / store_f8_* of cl/common.h).
bool kernel_data_type(dnnl_data_type_t dt);

// Build options naming tensor `name`'s type: -D<name>_DATA_T=... -DLOAD_<name>=load_<dt>
// -DSTORE_<name>=store_<dt>.
std::string data_type_options(const char *name, dnnl_data_type_t dt);

} // namespace gpu
} // namespace anydnn
