#include "gpu/convolution/halo_fit.hpp"

namespace anydnn {
namespace gpu {

const char *halo_misfit(const nhwc_conv_geometry_t &q, bool padded) {
    if (padded || q.g != 1 || q.ic != 64) return "input channels are not 64";
    if (q.stride_h != 1 || q.stride_w != 1 || q.dil_h != 1 || q.dil_w != 1)
        return "strides or dilation";
    if (q.kh * q.kw > 9) return "K exceeds 576";
    if (q.kh * q.kw == 1) return "1x1: no pixels shared between taps";
    const int64_t p = q.ow + q.kw - 1;
    if ((q.kh - 1) * p + q.kw - 1 > halo_extra_lines) return "the window spans too many rows";
    if (q.mb * q.oh * p >= (int64_t(1) << 31)) return "too many output lines";
    return nullptr;
}

} // namespace gpu
} // namespace anydnn
