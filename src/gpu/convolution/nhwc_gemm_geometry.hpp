// A forward 1D or 2D convolution over channels-last tensors seen as one GEMM per group:
// dst(m, oc) = sum_k A(m, k) * wei(oc, k) with m = (n, oh, ow) and k = (kh, kw, ic), A the
// source pixels a window reads. Channels-last src/dst and (g)ohwi weights are what `any`
// becomes here, so that a 1x1 stride-1 convolution is a GEMM on src itself and every other
// one gathers A rows of whole pixels. Shared by ocl:convolution:implicit_wgmma_sm90a and
// ocl:convolution:gemm_nhwc.
#pragma once

#include <cstdint>
#include <map>

#include "core/op_desc.hpp"
#include "core/primitive.hpp"

namespace anydnn {
namespace gpu {

struct nhwc_conv_geometry_t {
    int64_t mb = 1, g = 1, ic = 1, oc = 1; // ic, oc: per group
    int64_t ih = 1, iw = 1, oh = 1, ow = 1, kh = 1, kw = 1;
    int64_t stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0;
    int64_t dil_h = 1, dil_w = 1; // the step between taps (oneDNN's dilation + 1)
    // Element strides: src image, row, pixel (channels dense); dst pixel (rows of m), with
    // image and row strides that flatten; weights per output channel and per group.
    int64_t src_sn = 0, src_sh = 0, src_sw = 0, ldc = 0, wei_so = 0, wei_sg = 0;
    int64_t src_off = 0, dst_off = 0, wei_off = 0;
    bool with_bias = false;

    int64_t m() const {
        return mb * oh * ow;
    }
    // K of one group's GEMM.
    int64_t k() const {
        return kh * kw * ic;
    }
    // Whether A is src itself: 1x1, stride 1, no padding.
    bool pointwise() const {
        return kh == 1 && kw == 1 && stride_h == 1 && stride_w == 1 && pad_h == 0 && pad_w == 0;
    }
};

// The forward problem of `d` on channels-last tensors: resolves `any` (src and dst
// channels-last, weights (g)ohwi, bias a), checks the layouts it got and fills `q`;
// dnnl_unimplemented with the reason for anything else (3D, backward, other layouts).
status_t init_nhwc_conv(const convolution_desc_t &d, memory_desc_t &src, memory_desc_t &wei,
        memory_desc_t &bias, memory_desc_t &dst, nhwc_conv_geometry_t &q);

// Scales of src and dst (mask 0) and weights (mask 0, or per output channel), f32 values,
// listed in `args` as DNNL_ARG_ATTR_SCALES | arg; no zero points. dnnl_unimplemented else.
status_t init_nhwc_conv_scales(const primitive_attr_t &attr, const nhwc_conv_geometry_t &q,
        std::map<int, memory_desc_t> &args);

} // namespace gpu
} // namespace anydnn
