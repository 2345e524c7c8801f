// Launching the Hopper wgmma kernels of gpu/gemm/hopper (sm_90a PTX): the operand layout
// from the strides, the kernel name of a tile configuration, the epilogue's parameters and
// the launch itself, with K split into f32 slices of a scratchpad and summed by a second
// kernel. Shared by ocl:matmul:wgmma_sm90a and gemm_kernel_t (the GEMM core).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/compute/compute.hpp"
#include "core/primitive.hpp"

namespace anydnn {
namespace gpu {

// The layouts the kernels take: A K-major (rows of K) or M-major, B K- or N-major, C
// row-major; ld: the stride between the contiguous runs.
struct wgmma_layout_t {
    bool a_m_major = false, b_n_major = false;
    int64_t lda = 0, ldb = 0, ldc = 0;
};

// The layout of C(m, n) = A(m, k) B(k, n) with these element strides; null when the kernels
// take it, else the reason (each matrix needs a unit stride on one inner dimension, C on n).
const char *wgmma_layout(int64_t a_sm, int64_t a_sk, int64_t b_sk, int64_t b_sn, int64_t c_sm,
        int64_t c_sn, wgmma_layout_t &layout);

// Whether an operand's rows are 16-byte pieces for cp.async: its leading dimension, start
// and batch step (0: broadcast) are multiples of 16 bytes (8 elements of 2 bytes).
bool wgmma_aligned(int64_t ld, int64_t offset, int64_t batch_stride, int elem_bytes = 2);

// Whether sizes fit the kernels' index range (32-bit M, N, K; batch on the grid's third axis).
bool wgmma_sizes_fit(int64_t batch, int64_t m, int64_t n, int64_t k);

// The kernels' codes for C's and the bias's types (c_kind_t, bias_kind_t of
// gpu/gemm/hopper/wgmma_core.cuh); -1 for a type they do not take (undef bias: 0).
int wgmma_c_kind(dnnl_data_type_t t);
int wgmma_bias_kind(dnnl_data_type_t t);

// The kernels' name for A's and B's types: "bf16", "f16", "tf32" (f32 data, TF32 products),
// "u8s8" and the other 8-bit pairs; null for other pairs.
const char *wgmma_kind_name(dnnl_data_type_t a, dnnl_data_type_t b);
// Whether the kind's tiles must be K-major (tf32, 8-bit: wgmma transposes 16-bit types only).
bool wgmma_kmajor_only(dnnl_data_type_t a);
// Bytes of one element of A and B.
int wgmma_elem_bytes(dnnl_data_type_t a);
// Whether the fpmath mode lets f32 products run as TF32: modes naming a type no more accurate
// than TF32 (8 exponent and 10 mantissa bits: tf32, bf16, f16) and `any`; never strict.
bool wgmma_fpmath_allows_tf32(dnnl_fpmath_mode_t mode);

// The epilogue parameters of the kernels (epilogue_args_t of gpu/gemm/hopper/wgmma_gemm.cu).
struct wgmma_epilogue_t {
    bool any = false; // scales or post-ops: the _epi kernels (or the split-K sum) apply them
    bool wei_per_n = false;
    int sum_at = 0; // 0 no sum, 1 before the eltwise, 2 after it
    float sum_scale = 1.f, sum_zp = 0.f;
    int elt = 0; // 0 none, 1 relu, 2 gelu_erf, 3 gelu_tanh, 4 swish
    float alpha = 0.f, beta = 0.f;
    bool zp_src = false, zp_dst = false; // common s32 zero points (8-bit kinds)
};

// What the kernels apply of an attribute: f32 scales on src and dst (common) and weights
// (common or per N), at most one sum (in dst's type) and one eltwise of relu, gelu_erf,
// gelu_tanh, swish; with `int_zero_points` (the 8-bit kinds) common s32 zero points of src
// and dst, else none. dnnl_unimplemented with the reason otherwise.
status_t wgmma_epilogue(const primitive_attr_t &attr, const memory_desc_t &dst,
        wgmma_epilogue_t &e, bool int_zero_points = false);

// The epilogue's parameters, the last ones of every kernel (the GEMM's, the split-K sum's and
// the convolution's).
void add_wgmma_epilogue(kernel_args_t &args, const wgmma_epilogue_t &e);

// The entry name of one kernel: A's and B's types (wgmma_kind_name), layout, tile
// configuration of the tuning table, and whether it applies the epilogue.
std::string wgmma_kernel_name(dnnl_data_type_t a, dnnl_data_type_t b,
        const wgmma_layout_t &layout, const std::string &config, bool epilogue);

// One product for the kernels: `batch` C[b] = A[b] B[b] (+ bias over N), offsets and batch
// strides in elements (0: broadcast).
struct wgmma_problem_t {
    int64_t batch = 1, m = 0, n = 0, k = 0;
    wgmma_layout_t layout;
    int64_t a_off = 0, b_off = 0, c_off = 0, a_sb = 0, b_sb = 0, c_sb = 0;
    dnnl_data_type_t c_type = dnnl_f32;
    dnnl_data_type_t bias_type = dnnl_data_type_undef; // undef: no bias
    int64_t colsum_off = 0, colsum_sb = 0; // B's column sums (s32 elements; 0: one batch)
    // TMA kernels: where their tensor maps' workspace (wgmma_tma_workspace_bytes) starts in the
    // scratchpad (bytes, a multiple of 256).
    size_t tma_ws_at = 0;
};

struct wgmma_buffers_t {
    const memory_storage_t *a = nullptr, *b = nullptr, *c = nullptr, *bias = nullptr;
    const memory_storage_t *scale_src = nullptr, *scale_wei = nullptr, *scale_dst = nullptr;
    const memory_storage_t *scratchpad = nullptr; // split K: splits * batch * m * n f32 or s32
    // 8-bit kinds: common s32 zero points and B's column sums (with src's)
    const memory_storage_t *zp_src = nullptr, *zp_dst = nullptr, *colsum = nullptr;
};

// The f32 (s32) slices split K needs (bytes; 0 without a split), at the scratchpad's start.
size_t wgmma_scratchpad_bytes(int splits, int64_t batch, int64_t m, int64_t n);
// The TMA kernels' workspace on this device: two tensor maps per CTA of the persistent grid.
size_t wgmma_tma_workspace_bytes(const device_caps_t &caps);

// One kernel (and, split along K, the sum) of tiles `tile_m` (128 or 64: 2 or 1 warpgroups)
// by `tile_n`; int_sums: an 8-bit kind (s32 slices and their sum). A TMA kernel
// ("anydnn_wgmma_tma_..."): a persistent grid of one CTA per compute unit, which builds its
// tensor maps in a workspace of the scratchpad.
class wgmma_gemm_t {
public:
    // tma_overlap: a TMA kernel of an "o" configuration (the next tile's first loads during
    // the epilogue).
    status_t init(engine_t *engine, const std::string &kernel_name, int tile_m, int tile_n,
            int splits, bool int_sums = false, bool tma_overlap = false);
    // `splits`: K slices of this launch (0: init's); more than one needs init's splits above
    // one (the sum kernel loaded) and the scratchpad.
    status_t launch(stream_t *stream, const wgmma_buffers_t &buf, const wgmma_problem_t &p,
            const wgmma_epilogue_t &e, int splits = 0) const;
    bool ready() const {
        return kernel_ != nullptr;
    }

private:
    // The GEMM kernel's arguments, those of the TMA entries (the maps' workspace, the batch,
    // the overlap switch) and of the integer ones (zero points, column sums) included.
    kernel_args_t gemm_args(const wgmma_buffers_t &buf, const wgmma_problem_t &p,
            const wgmma_epilogue_t &e, int splits) const;
    status_t launch_tma(stream_t *stream, const wgmma_buffers_t &buf, const wgmma_problem_t &p,
            const wgmma_epilogue_t &e, int splits) const;
    status_t launch_sum(stream_t *stream, const wgmma_buffers_t &buf, const wgmma_problem_t &p,
            const wgmma_epilogue_t &e, int splits) const;
    int tile_m_ = 128, tile_n_ = 0, splits_ = 1;
    bool int_sums_ = false;
    bool tma_ = false, tma_overlap_ = false;
    int64_t ctas_ = 1; // TMA: the persistent grid's CTAs at most (the compute units)
    // the GEMM; the split-K sum, and its f32 form of four elements per thread (N % 4 == 0)
    std::shared_ptr<kernel_t> kernel_, reduce_, reduce4_;
};

} // namespace gpu
} // namespace anydnn
