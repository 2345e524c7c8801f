#include "gpu/kernel_layout.hpp"

#include <cstring>

#include "core/data_types_narrow.hpp"

namespace anydnn {
namespace gpu {

status_t make_layout(const memory_desc_t &md, tensor_layout_t &l) {
    std::memset(&l, 0, sizeof(l));
    ANYDNN_REQUIRE(md.format_kind == dnnl_blocked, dnnl_unimplemented,
            "GPU kernels need a blocked (strided) layout");
    ANYDNN_REQUIRE(md.ndims <= max_kernel_ndims, dnnl_unimplemented,
            "GPU kernels address up to %d dimensions, not %d", max_kernel_ndims, md.ndims);
    ANYDNN_REQUIRE(md.blocking.inner_nblks <= max_kernel_blks, dnnl_unimplemented,
            "GPU kernels address up to %d inner blocks", max_kernel_blks);
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(md), dnnl_unimplemented,
            "GPU kernels need dimensions known at creation");
    l.offset0 = md.offset0;
    l.ndims = md.ndims;
    l.nblks = md.blocking.inner_nblks;
    for (int d = 0; d < md.ndims; ++d) {
        l.dims[d] = md.padded_dims[d];
        l.strides[d] = md.blocking.strides[d];
        l.outer_div[d] = 1;
    }
    // Inner blocks are listed outermost first; the innermost has stride 1.
    int64_t stride = 1;
    for (int b = l.nblks - 1; b >= 0; --b) {
        const int d = static_cast<int>(md.blocking.inner_idxs[b]);
        l.blk_dim[b] = d;
        l.blk_size[b] = static_cast<int32_t>(md.blocking.inner_blks[b]);
        l.blk_stride[b] = stride;
        l.blk_div[b] = l.outer_div[d]; // blocks further in on the same dimension
        l.outer_div[d] *= l.blk_size[b];
        stride *= l.blk_size[b];
    }
    return dnnl_success;
}

namespace {
const char *type_suffix(dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_f32: return "f32";
        case dnnl_bf16: return "bf16";
        case dnnl_f16: return "f16";
        case dnnl_s8: return "s8";
        case dnnl_u8: return "u8";
        case dnnl_s32: return "s32";
        case dnnl_f8_e4m3: return "f8_e4m3";
        case dnnl_f8_e5m2: return "f8_e5m2";
        case dnnl_f4_e2m1: return "f4_e2m1"; // defined by reorder.cl, the one kernel of them
        case dnnl_f4_e3m0: return "f4_e3m0";
        case dnnl_s4: return "s4"; // also reorder.cl's
        case dnnl_u4: return "u4";
        default: return nullptr;
    }
}
const char *storage_type(dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_f32: return "float";
        case dnnl_bf16: return "ushort";
        case dnnl_f16: return "half";
        case dnnl_s8: return "char";
        case dnnl_u8: return "uchar";
        case dnnl_s32: return "int";
        case dnnl_f8_e4m3:
        case dnnl_f8_e5m2:
        case dnnl_f4_e2m1:
        case dnnl_f4_e3m0:
        case dnnl_s4:
        case dnnl_u4: return "uchar";
        default: return nullptr;
    }
}
} // namespace

bool kernel_data_type(dnnl_data_type_t dt) {
    return type_suffix(dt) != nullptr && !is_f8(dt) && !is_4bit(dt);
}

std::string data_type_options(const char *name, dnnl_data_type_t dt) {
    const char *suffix = type_suffix(dt) ? type_suffix(dt) : "f32";
    const char *type = storage_type(dt) ? storage_type(dt) : "float";
    return std::string(" -D") + name + "_DATA_T=" + type + " -DLOAD_" + name + "=load_" + suffix
            + " -DSTORE_" + name + "=store_" + suffix;
}

} // namespace gpu
} // namespace anydnn
