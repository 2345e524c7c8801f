// The GEMM kernels of gemm/gemm.cl as one object: matmul, inner product and convolution
// describe their product as strided matrices (gemm_params_t) and launch it here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/compute/compute.hpp"
#include "core/primitive.hpp"
#include "gpu/gemm/gemm_skinny.hpp"
#include "gpu/gemm/wgmma_launch.hpp"
#include "gpu/post_ops.hpp"
#include "gpu/quant_attr.hpp"
#include "gpu/tuning/gemm_tuning.hpp"

namespace anydnn {
namespace gpu {

constexpr int gemm_max_batch = 4;

// Mirrors gemm_params_t of gemm/gemm.cl. Element offsets and strides; batch dimensions not used
// are 1. C(m, n) = sum_k A(m, k) * B(k, n) at a_off + m * a_sm + k * a_sk and so on.
struct gemm_params_t {
    int64_t M = 0, N = 0, K = 0;
    int64_t a_off = 0, a_sm = 0, a_sk = 0;
    int64_t b_off = 0, b_sk = 0, b_sn = 0;
    int64_t c_off = 0, c_sm = 0, c_sn = 0;
    int64_t bias_off = 0, bias_sm = 0, bias_sn = 0;
    int64_t batch_dims[gemm_max_batch] = {1, 1, 1, 1};
    int64_t a_sb[gemm_max_batch] = {}, b_sb[gemm_max_batch] = {}, c_sb[gemm_max_batch] = {},
            bias_sb[gemm_max_batch] = {};
    int64_t has_bias = 0, scale_b_sn = 0;
    int64_t beta_accumulate = 0;
    // Post-ops see C element (batch..., m, n) at logical linear position
    // sum(batch_i * po_ls_b[i]) + m * po_ls_m + n * po_ls_n of dst's dims po_dims.
    int64_t po_ls_b[gemm_max_batch] = {}, po_ls_m = 0, po_ls_n = 0;
    int64_t po_dims[max_kernel_ndims] = {1, 1, 1, 1, 1, 1}, po_ndims = 0;
    // Scales of A, B and C by value (host scalars), read where their memory is absent.
    float host_scale[4] = {1.f, 1.f, 1.f, 1.f};

    // po_dims from dst's logical dims (row-major linear positions over them).
    void set_post_op_dims(const memory_desc_t &dst);

    int64_t batch() const {
        return batch_dims[0] * batch_dims[1] * batch_dims[2] * batch_dims[3];
    }
};

// Mirrors woq_params_t of gemm/gemm_woq.cl: where the weights scale and zero point of B(k, n)
// of a batch are in their arrays (batch slots as gemm_params_t's; groups along K and N).
struct gemm_woq_params_t {
    int64_t s_sb[gemm_max_batch] = {}, s_sk = 0, s_sn = 0, s_gk = 1, s_gn = 1;
    int64_t z_sb[gemm_max_batch] = {}, z_sk = 0, z_sn = 0, z_gk = 1, z_gn = 1;
    // The src scales of an int8 A whose scales vary along K (types' int8_grouped).
    int64_t a_sb[gemm_max_batch] = {}, a_sm = 0, a_sk = 0, a_gk = 1;
};

struct gemm_types_t {
    dnnl_data_type_t a = dnnl_f32, b = dnnl_f32, c = dnnl_f32, bias = dnnl_f32;
    // Weights decompression (gemm/gemm_woq.cl): B integer (s8/u8/s4/u4) turned into f32
    // with its zero points (of type zp_b) and scales; generic kind only.
    // The same kernel takes f4_e2m1/f4_e3m0 A or B, and with int8_grouped int8 A whose scales
    // vary along K (integer products scaled per run of K with the same scales).
    bool woq = false, int8_grouped = false;
    dnnl_data_type_t zp_b = dnnl_s32;
    // Scales of A, B and C (f32, bf16 or f16).
    dnnl_data_type_t scale_a = dnnl_f32, scale_b = dnnl_f32, scale_c = dnnl_f32;

    // The scale types of the attribute (src is A, weights B, dst C).
    void set_scale_types(const primitive_attr_t &attr);
};

// The device memories of one launch (null: absent).
struct gemm_operands_t {
    const memory_storage_t *a = nullptr, *b = nullptr, *c = nullptr, *bias = nullptr;
    const memory_storage_t *scale_a = nullptr, *scale_b = nullptr, *scale_c = nullptr;
    const memory_storage_t *zp_a = nullptr, *zp_b = nullptr, *zp_c = nullptr;
    const gemm_woq_params_t *woq = nullptr; // with types' woq
    // The post-op chain the kernel was built with (null: none), its parameter buffer and the
    // execution it reads its operands from.
    const post_ops_t *post_ops = nullptr;
    const memory_storage_t *post_ops_buffer = nullptr;
    const exec_ctx_t *ctx = nullptr;
    // Room for the f32 partial sums of K slices (from byte scratchpad_off, scratchpad_bytes
    // long): the skinny kernel's (skinny_scratchpad_bytes says how many) or, at offset 0 after
    // gemm_kernel_t::allow_wgmma_scratchpad, the wgmma kernels' slices and TMA tensor maps
    // (gemm_wgmma_scratchpad_bytes); null: K not split, no TMA kernels.
    const memory_storage_t *scratchpad = nullptr;
    size_t scratchpad_off = 0, scratchpad_bytes = 0;
};

enum class gemm_kind_t { generic, tiled };

class sgemm_f32_t;

// What a primitive offers the core's wgmma kernels beyond plain bf16/f16 products
// (gemm_kernel_t::allow_wgmma_epilogue): `epilogue`, the kernels' epilogue applies its
// attribute (scales, bias, a sum and an eltwise post-op), so 8-bit products (u8/s8 x s8/u8)
// may take them; `tf32`, its fpmath mode lets f32 products run as TF32.
struct gemm_wgmma_offer_t {
    bool epilogue = false, tf32 = false;
};

// Why the wgmma kernels cannot take the core's products of types `t` (null: they can): bf16
// or f16 of one type into f32 or that type; with the offer's epilogue 8-bit products into
// f32, bf16, f16, s32, s8 or u8, and with its tf32 f32 products into f32 or bf16.
const char *gemm_wgmma_types_refusal(const gemm_types_t &t, const gemm_wgmma_offer_t &offer);

// The wgmma product (gpu/gemm/wgmma_launch) of one launch of the core with types `t` and
// parameters `p`; null when the kernels take it, else the reason they do not: the types
// (gemm_wgmma_types_refusal), an output stage they apply (`output_ok`: for bf16/f16 a plain
// one, no post-ops, scales or zero points; for the epilogue's kinds no zero points and no
// host scales), no accumulation into C, strides of wgmma_layout with 16-byte rows
// (wgmma_aligned; tf32 and 8-bit: A and B K-major), at most one batch dimension, bias dense
// over N.
const char *gemm_wgmma_refusal(const gemm_types_t &t, const gemm_params_t &p, bool output_ok,
        wgmma_problem_t &w, const gemm_wgmma_offer_t &offer = {});

// Scratchpad bytes (at its offset 0) that one launch of the wgmma kernels on an m x n x k
// product of types `t` needs for the table's choice on the device: the f32 slices it splits K
// into, and after them (from a 256-byte boundary) the TMA kernels' tensor maps where it
// chooses those; 0 where the device does not load sm_90a PTX, the kernels refuse the types,
// or the choice needs neither.
size_t gemm_wgmma_scratchpad_bytes(const device_caps_t &caps, const gemm_types_t &t,
        const gemm_wgmma_offer_t &offer, int64_t m, int64_t n, int64_t k);

class gemm_kernel_t {
public:
    // Builds the kernel: `tiled` takes the variant and tile sizes the tuning table
    // (gpu/tuning) gives for the device, the operand types and the size of C (elements over
    // all batches); dnnl_unimplemented when the device cannot run any. Verbose dispatch says
    // which row was chosen and why. `post_ops` (may be null) adds its chain to the output stage.
    // `m`: the rows of C at every launch where the caller knows them (0: not known).
    // Where the device loads sm_90a PTX and the tuning table lets the core use them, bf16/f16
    // products without post-ops also get the wgmma kernels; each launch takes them where its
    // strides suit (gemm_wgmma_refusal), in the tile configuration the wgmma table gives its
    // sizes, K whole and no TMA unless allow_wgmma_scratchpad was called and the launch
    // brings the room.
    // `n`: the columns of C where known (0: not known), for the skinny kernel's N-small form.
    // With allow_wgmma_epilogue called first, 8-bit and (fpmath allowing) f32 products take
    // them too, through their epilogue.
    status_t init(engine_t *engine, const gemm_types_t &types, gemm_kind_t kind,
            int64_t c_elems = 0, const post_ops_t *post_ops = nullptr, int64_t m = 0,
            int64_t n = 0);
    // Offers the wgmma kernels' epilogue for the attribute `attr` of a primitive writing `dst`
    // (its scales, bias, post-ops in place of the chain) and, where its fpmath mode allows,
    // TF32 for f32 products. Before init; an attribute the epilogue cannot apply leaves those
    // kinds off the kernels (verbose dispatch says why).
    void allow_wgmma_epilogue(const primitive_attr_t &attr, const memory_desc_t &dst);
    // Lets launches split K on the wgmma kernels (f32 slices, then their sum kernel) and run
    // the TMA kernels, where the table chooses so for their sizes and the operands bring
    // gemm_wgmma_scratchpad_bytes of scratchpad at offset 0 (the same choice the matmul makes:
    // products whose tiles alone leave compute units idle split, wide ones on TMA). Before
    // init.
    void allow_wgmma_scratchpad() { wgmma_scratch_ = true; }
    // B's K is dense at every launch (gemm_problem_t::k_dense_b): before init.
    void expect_k_dense_b() { k_dense_b_ = true; }
    // The strict f32 PTX kernels' tile configuration (an sgemm_config index of the sm_80
    // module) the caller prefers for its shape class; -1 (the default): chosen by size.
    void prefer_sgemm_config(int config) { sgemm_preferred_ = config; }
    status_t launch(stream_t *stream, const gemm_operands_t &ops, const gemm_params_t &p) const;

    const gemm_tuning_t &tuning() const { return tuning_; }
    // Whether launches whose strides suit them may run the wgmma kernels.
    bool wgmma_ready() const { return wgmma_ready_; }

private:
    status_t build(engine_t *engine, std::string options, const gemm_types_t &types,
            bool acc_int);
    std::string tile_string() const;
    // Prepares the wgmma kernels (per operand layout, for the table's wide and narrow tile
    // configurations) where they apply; what was done or why not, for verbose dispatch.
    std::string init_wgmma(engine_t *engine, const gemm_types_t &types, const post_ops_t *post_ops);
    // Launches `p` on the wgmma kernels when they take it (status in `st`); false otherwise.
    bool launch_wgmma(stream_t *stream, const gemm_operands_t &ops, const gemm_params_t &p,
            status_t &st) const;
    // The f32 PTX kernels (variant sgemm_ptx) where the chain's epilogue suits them; what was
    // done or why not, for verbose dispatch.
    std::string init_sgemm(engine_t *engine, const gemm_types_t &types, const post_ops_t *post_ops);
    // Launches `p` on them when they take it (status in `st`); false otherwise.
    bool launch_sgemm(stream_t *stream, const gemm_operands_t &ops, const gemm_params_t &p,
            status_t &st) const;

    gemm_kind_t kind_ = gemm_kind_t::generic;
    int64_t m_ = 0, n_ = 0; // C's rows and columns where known (init)
    skinny_kernels_t skinny_;
    gemm_tuning_t tuning_;
    std::shared_ptr<kernel_t> kernel_;
    gemm_types_t types_;
    bool wgmma_ready_ = false;
    int sgemm_preferred_ = -1; // prefer_sgemm_config
    // allow_wgmma_scratchpad: the sum kernel and TMA kernels loaded, launches may use them
    bool wgmma_scratch_ = false;
    bool k_dense_b_ = false; // expect_k_dense_b
    bool wgmma_epi_ = false; // the _epi kernels: the attribute's scales and post-ops applied
    device_caps_t caps_; // the device's, for the wgmma table at each launch
    // The table's configurations (wgmma_table_configs: TMA wide and narrow, wide, 64-row,
    // narrow tiles; empty where it has fewer), and their kernels by configuration and layout:
    // 2 * (A M-major) + (B N-major).
    static constexpr int wgmma_configs = 5;
    std::string wgmma_config_[wgmma_configs];
    wgmma_gemm_t wgmma_[wgmma_configs][4];
    // allow_wgmma_epilogue's offer, the epilogue, and why the attribute does not fit it
    gemm_wgmma_offer_t wgmma_offer_;
    wgmma_epilogue_t wgmma_epilogue_;
    std::string wgmma_epilogue_refusal_;
    std::shared_ptr<sgemm_f32_t> sgemm_; // null: every launch on kernel_
};

// C(n) = sum over m of A(m, n): bias gradients. Reads a_off, a_sm, a_sk (the n stride), M, N,
// c_off and c_sn of the parameters.
class column_sums_kernel_t {
public:
    status_t init(engine_t *engine, dnnl_data_type_t a, dnnl_data_type_t c);
    status_t launch(stream_t *stream, const memory_storage_t *a, const memory_storage_t *c,
            const gemm_params_t &p) const;

private:
    std::shared_ptr<kernel_t> kernel_;
    int lanes_ = 8; // row lanes of a work-group (CS_LANES of gemm.cl), 32 columns each
};

// Whether the tiled kernel applies on this engine (enough local memory, work-group size).
bool gemm_tiled_supported(engine_t *engine);

} // namespace gpu
} // namespace anydnn

namespace anydnn {
namespace gpu {

// Scales and zero points of the attribute bound from the context (src is A, weights B, dst C).
void bind_quant(const exec_ctx_t &ctx, const primitive_attr_t &attr, gemm_operands_t &ops);

} // namespace gpu
} // namespace anydnn
