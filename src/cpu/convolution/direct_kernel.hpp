// The f32 direct-convolution microkernel: UR output pixels of one row x NB blocks of 16 output
// channels accumulated in registers over every input channel and kernel tap, bias added, stored.
// Output pixels are 16 floats apart (nChw16c-style rows); weights are [oc block][...][16 oc].
#pragma once

#include "core/memory_desc.hpp"

namespace anydnn {
namespace cpu {
namespace conv {

// Strides (in floats) that stay the same for every tile of one problem. A "channel step" is
// 16 input channels of a blocked or channels-last src (vec_ic 16) or one channel of a
// plain src (vec_ic 1); inside a step, channel c of pixel p is at p * src_pix + c.
struct direct_geom_t {
    int vec_ic = 16;
    dim_t n_steps = 0, src_step = 0, wei_step = 0;
    dim_t src_kd = 0, src_kh = 0, src_kw = 0; // per kernel tap, dilation included
    dim_t wei_kd = 0, wei_kh = 0, wei_kw = 0;
    dim_t src_pix = 0; // between neighbouring output pixels (stride_w included)
    dim_t wei_ocb = 0, dst_ocb = 0; // between 16-channel output blocks
};

// One tile: pointers at its first tap (valid taps only) and how many taps of each kernel dim.
struct direct_tile_t {
    const float *src = nullptr, *wei = nullptr, *bias = nullptr;
    float *dst = nullptr;
    dim_t nkd = 1, nkh = 1, nkw = 1;
};

using direct_kernel_fn = void (*)(const direct_geom_t &, const direct_tile_t &);

// Whether the kernels may run (AVX-512 enabled); asked once, when a primitive is made: the ISA
// query takes a lock and is too slow for every tile.
bool direct_kernels_enabled();
// Largest UR the kernel has for NB (1..4) blocks.
int direct_max_ur(int nb);
// The kernel for ur pixels (1..direct_max_ur(nb)), nb blocks, src pixel step known at compile
// time when it is 16 * sw or sw (sw 1 or 2), else a run-time step; null for other arguments.
direct_kernel_fn direct_kernel(int ur, int nb, int vec_ic, dim_t src_pix);

} // namespace conv
} // namespace cpu
} // namespace anydnn
