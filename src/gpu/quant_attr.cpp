#include "gpu/quant_attr.hpp"

#include "gpu/kernel_layout.hpp"

namespace anydnn {
namespace gpu {

std::string scale_type_options(const primitive_attr_t &attr) {
    std::string opt;
    for (int arg : {DNNL_ARG_SRC, DNNL_ARG_DST}) {
        const auto it = attr.scales.find(arg);
        if (it != attr.scales.end() && it->second.data_type != dnnl_f32)
            opt += data_type_options(arg == DNNL_ARG_SRC ? "SRC_SCALE" : "DST_SCALE",
                    it->second.data_type);
    }
    return opt;
}

status_t check_quant_attr(const primitive_attr_t &attr, bool half_scales, bool host_scales) {
    for (const auto &s : attr.scales) {
        const dnnl_data_type_t dt = s.second.data_type;
        const bool type_ok
                = dt == dnnl_f32 || (half_scales && (dt == dnnl_bf16 || dt == dnnl_f16));
        ANYDNN_REQUIRE(type_ok && (host_scales || !s.second.is_host_scalar), dnnl_unimplemented,
                half_scales ? "GPU kernels take f32, bf16 or f16 scales in device memory"
                            : "GPU kernels take f32 scales in device memory");
    }
    for (const auto &z : attr.zero_points) {
        ANYDNN_REQUIRE(z.second.data_type == dnnl_s32 && !z.second.is_host_scalar,
                dnnl_unimplemented, "GPU kernels take s32 zero points in device memory");
    }
    return dnnl_success;
}

} // namespace gpu
} // namespace anydnn
