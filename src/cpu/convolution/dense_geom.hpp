// The conv view shared by the reference and the GEMM kernels: dense channels-first buffers of
// the big spatial side I (conv src, deconv dst), the small side O (conv dst, deconv src) and
// weights (G, OCv, ICv, K...), deconvolution having swapped the weights' channel dims.
#pragma once

#include "core/memory_desc.hpp"

namespace anydnn {
namespace cpu {
namespace conv {

// Spatial arrays hold d, h, w (missing dims extent 1).
struct dense_geom_t {
    dim_t mb = 0, g = 1, icv = 0, ocv = 0;
    dim_t i[3] = {1, 1, 1}, o[3] = {1, 1, 1}, k[3] = {1, 1, 1};
    dim_t s[3] = {1, 1, 1}, dl[3] = {1, 1, 1}, p[3] = {0, 0, 0}; // dl: dense step (dil + 1)
    dim_t big_size() const { return mb * g * icv * i[0] * i[1] * i[2]; }
    dim_t small_size() const { return mb * g * ocv * o[0] * o[1] * o[2]; }
    dim_t wei_size() const { return g * ocv * icv * k[0] * k[1] * k[2]; }
    dim_t ispat() const { return i[0] * i[1] * i[2]; }
    dim_t ospat() const { return o[0] * o[1] * o[2]; }
    dim_t ksize() const { return k[0] * k[1] * k[2]; }
    // Rows of the column matrix: (icv, kd, kh, kw); its columns are small-side positions.
    dim_t col_size() const { return icv * ksize() * ospat(); }
};

// f32 kernels on the shared GEMM through a column matrix col[(ic, k)][o] = big(o * s - p +
// k * dl) (zero outside), one image and group at a time; `col` holds col_size() floats.
// small = W * col.
void gemm_fwd(const dense_geom_t &q, const float *big, const float *wei, float *small,
        float *col);
// col = W^T * small, then scattered (added) into big.
void gemm_bwd_data(const dense_geom_t &q, const float *small, const float *wei, float *big,
        float *col);
// W = sum over images of small * col^T.
void gemm_bwd_weights(const dense_geom_t &q, const float *big, const float *small, float *wei,
        float *col);

} // namespace conv
} // namespace cpu
} // namespace anydnn
