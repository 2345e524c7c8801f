// Host side of the flash attention kernels: what they take (bf16 or f16 Q, K, V of one type on
// tensor cores: wgmma where sm_90a PTX loads for head sizes 64 and 128, else mma.sync; head
// sizes 64/80/96/128/256; f32 on the FMA units, head size 64, and 80/96/128/256 on Hopper; rows
// contiguous along the head and 16-byte aligned), the entry of a type and head size, and the
// launch (a CTA per block of query rows and batch entry). Every entry but the pipelined wgmma
// ones also writes the training forward's softmax statistics. The flags' bits mirror
// cuda/flash_common.cuh.
#include "gpu/sdpa/flash.hpp"

#include <cstdlib>
#include <string>

namespace anydnn {
namespace gpu {

namespace {

constexpr int has_scale_flag = 1, divide_flag = 2, has_mask_flag = 4, dst_f32_flag = 8;
constexpr int causal_top_left = 16, causal_bottom_right = 32, causal_lengths_flag = 64;
constexpr int scale_type_shift = 8, mask_type_shift = 10;

int type_code(dnnl_data_type_t dt) {
    return dt == dnnl_bf16 ? 1 : dt == dnnl_f16 ? 2 : 0;
}

bool env_is(const char *name, const char *value) {
    const char *v = std::getenv(name);
    return v && std::string(v) == value;
}

// The wgmma entries' suffix ANYDNN_SDPA_FLASH_WGMMA asks for ("_pipe" when unset or "pipe",
// "" for 1, "_ps"), or null for the mma.sync entries: =0, any other value, or
// ANYDNN_SDPA_FLASH_WARPS set without ANYDNN_SDPA_FLASH_WGMMA. The pipelined kernel is the
// default: on an H200, bf16 b8 h32 s4096 d128 causal 2.993 ms (PyTorch's SDPA 2.143) against
// 3.157 for its earlier version (K and V copied with per-piece address arithmetic and row
// checks, before the wgmma issue). An earlier run: that version 3.151, the plain kernel (=1)
// 3.258, three K and V stages 3.172 (dropped); b1 h16 s1024 d64 0.0368 against 0.0405 (plain).
const char *wgmma_variant() {
    const char *v = std::getenv("ANYDNN_SDPA_FLASH_WGMMA");
    if (!v) return std::getenv("ANYDNN_SDPA_FLASH_WARPS") ? nullptr : "_pipe";
    const std::string s(v);
    return s == "1" ? "" : s == "ps" ? "_ps" : s == "pipe" ? "_pipe" : nullptr;
}

bool head_size_compiled(int64_t d) {
    return d == 64 || d == 80 || d == 96 || d == 128 || d == 256;
}

// 16-byte pieces: unit stride along the head, other strides and the start multiples of a
// piece's elements.
bool rows_aligned(int64_t off, int64_t row, int64_t col, const int64_t batch[], int piece) {
    bool ok = col == 1 && off % piece == 0 && row % piece == 0;
    for (int i = 0; i < sdpa_max_batch_dims; ++i)
        ok = ok && batch[i] % piece == 0;
    return ok;
}

} // namespace

status_t flash_sdpa_kernel_t::init(
        engine_t *engine, const sdpa_config_t &c, const sdpa_args_t &a) {
    ANYDNN_REQUIRE(engine_caps(engine).ptx_binary_sm >= 80, dnnl_unimplemented,
            "flash sdpa: the device loads no sm_80 PTX");
    const bool half = (c.q_dt == dnnl_bf16 || c.q_dt == dnnl_f16) && c.k_dt == c.q_dt
            && c.v_dt == c.q_dt && (c.dst_dt == c.q_dt || c.dst_dt == dnnl_f32);
    const bool f32 = c.q_dt == dnnl_f32 && c.k_dt == dnnl_f32 && c.v_dt == dnnl_f32
            && c.dst_dt == dnnl_f32;
    ANYDNN_REQUIRE(half || f32, dnnl_unimplemented,
            "flash sdpa: Q, K, V of one type, bf16 or f16 (dst that or f32), or all f32");
    // f32 past head size 64 is sm_90a PTX (its shared memory passes 48 KiB).
    const bool f32_size = c.D == 64
            || (head_size_compiled(c.D) && engine_caps(engine).ptx_binary_sm >= 90);
    ANYDNN_REQUIRE(c.D == c.Dv && (f32 ? f32_size : head_size_compiled(c.D)),
            dnnl_unimplemented,
            "flash sdpa: head sizes %lld, %lld (takes equal sizes of 64, 80, 96, 128, 256; f32 "
            "past 64 only where sm_90a PTX loads)",
            (long long)c.D, (long long)c.Dv);
    // 16-byte pieces: 8 elements of 16 bits, 4 of f32.
    const int piece = f32 ? 4 : 8;
    ANYDNN_REQUIRE(rows_aligned(a.q_off, a.q_row, a.q_col, a.q_b, piece)
                    && rows_aligned(a.k_off, a.k_key, a.k_col, a.k_b, piece)
                    && rows_aligned(a.v_off, a.v_key, a.v_col, a.v_b, piece),
            dnnl_unimplemented,
            "flash sdpa: Q, K, V rows not contiguous along the head or not 16-byte aligned");
    ANYDNN_REQUIRE(a.Sq < (int64_t(1) << 31) && a.Sk < (int64_t(1) << 31), dnnl_unimplemented,
            "flash sdpa: sequence longer than 2^31");
    std::string name;
    if (f32) {
        // FMA only: strict f32 whatever the fpmath mode. ANYDNN_SDPA_FLASH_F32=pf takes the
        // head-size-64 entry that fetches K and V through registers during the compute.
        const bool pf = c.D == 64 && env_is("ANYDNN_SDPA_FLASH_F32", "pf");
        name = "anydnn_flash_sdpa_f32_d" + std::to_string(c.D) + (pf ? "_pf" : "");
        threads_ = 128;
        rows_ = 64;
        info_ = pf ? "sdpa:ocl:flash_fma_f32_pf_sm80"
                : c.D == 64 ? "sdpa:ocl:flash_fma_f32_sm80"
                            : "sdpa:ocl:flash_fma_f32_sm90a";
    } else if (engine_caps(engine).ptx_binary_sm >= 90 && (c.D == 64 || c.D == 128)
            && wgmma_variant() != nullptr) {
        // The training forward's statistics come from the entries of
        // flash_attention_sm90.cu (plain, or =ps); the pipelined ones write none.
        const std::string asked = wgmma_variant();
        const bool unpiped = c.has_stats && asked != "" && asked != "_ps";
        const std::string variant = unpiped ? "" : asked;
        // Hopper's wgmma, two warpgroups of 64 query rows (every entry checked on an H200
        // against the double reference): the default where sm_90a PTX loads, unless
        // ANYDNN_SDPA_FLASH_WGMMA=0 or ANYDNN_SDPA_FLASH_WARPS asks for mma.sync entries.
        // The default (=pipe) overlaps each block's softmax with the next block's Q K^T and
        // this block's P V; =1 does not, =ps passes P through shared memory.
        name = std::string("anydnn_flash_sdpa_") + (c.q_dt == dnnl_bf16 ? "bf16" : "f16") + "_d"
                + std::to_string(c.D) + "_sm90" + variant;
        threads_ = 256;
        rows_ = 128;
        info_ = "sdpa:ocl:flash_wgmma" + variant + "_sm90a";
        if (unpiped)
            info_ += " (training forward: the plain kernel; flash_wgmma" + asked
                    + " writes no softmax statistics)";
    } else {
        // CTAs of 4 warps of 16 rows (64 query rows, two per SM: one computes while the other
        // waits on its loads) unless ANYDNN_SDPA_FLASH_WARPS asks for 8 warps of 16 rows
        // (=8, one CTA of 128 rows per SM) or 4 warps of 32 rows (=4x2, 128 rows, each K and
        // V fragment feeding two mma); neither is compiled for head size 256.
        const bool w8 = c.D <= 128 && env_is("ANYDNN_SDPA_FLASH_WARPS", "8");
        const bool x2 = c.D <= 128 && env_is("ANYDNN_SDPA_FLASH_WARPS", "4x2");
        name = std::string("anydnn_flash_sdpa_") + (c.q_dt == dnnl_bf16 ? "bf16" : "f16") + "_d"
                + std::to_string(c.D) + (w8 ? "_w8" : x2 ? "_w4x2" : "_w4");
        threads_ = w8 ? 256 : 128;
        rows_ = w8 || x2 ? 128 : 64;
        info_ = "sdpa:ocl:flash_mma_sync_sm80";
    }
    ANYDNN_CHECK(create_ptx_kernel(engine, name.c_str(), kernel_));
    flags_ = (c.has_scale ? has_scale_flag : 0) | (c.divide ? divide_flag : 0)
            | (c.has_mask ? has_mask_flag : 0) | (c.dst_dt == dnnl_f32 ? dst_f32_flag : 0)
            | (c.causal == 1 ? causal_top_left : c.causal == 2 ? causal_bottom_right : 0)
            | (c.causal_lengths ? causal_bottom_right | causal_lengths_flag : 0)
            | type_code(c.scale_dt) << scale_type_shift | type_code(c.mask_dt) << mask_type_shift;
    return dnnl_success;
}

status_t flash_sdpa_kernel_t::launch(stream_t *stream, const memory_storage_t *const buffers[sdpa_device_buffers],
        const sdpa_args_t &args, int64_t nbatch) const {
    if (args.Sq == 0 || nbatch == 0) return dnnl_success;
    ANYDNN_REQUIRE(nbatch < 65536, dnnl_unimplemented, "flash sdpa: more than 65535 heads");
    kernel_args_t ka;
    for (int i = 0; i < 6; ++i)
        ka.add(buffers[i]);
    ka.add(buffers[8]); // softmax statistics of a training forward (or null)
    ka.add(buffers[6]); // key and query lengths of a bottom-right causal mask (or null)
    ka.add(buffers[7]);
    ka.add_value(args);
    ka.add_value<int32_t>(flags_);
    nd_range_t range;
    range.ndims = 2;
    range.global[0] = size_t((args.Sq + rows_ - 1) / rows_) * threads_;
    range.global[1] = size_t(nbatch);
    range.local[0] = threads_;
    range.local[1] = 1;
    return kernel_->launch(stream, ka, range);
}

} // namespace gpu
} // namespace anydnn
