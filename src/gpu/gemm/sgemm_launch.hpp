// Launching the strict f32 FMA GEMM of gpu/gemm/sgemm (sm_80 PTX, NVIDIA GPUs that load it)
// for the GEMM core (gemm_kernel_t): which launches it takes, the tile configuration for a
// problem's size, and the kernels, loaded the first time a layout and tile size is needed.
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <string>

#include "core/compute/compute.hpp"
#include "gpu/gemm/gemm.hpp"
#include "gpu/gemm/wgmma_launch.hpp"

namespace anydnn {
namespace gpu {

// The tile configurations: BM x BN blocks of C per 256-thread CTA, K in 8- or 16-deep slices
// through 2 to 4 shared stages fed by cp.async (sgemm_f32.cu lists each one's slices and
// stages). Indices are stable (kernel slots, tests); sgemm_size_order names those the size
// picks among, in order of preference, the others are taken where ANYDNN_GPU_TUNING names them.
// Those of sm 90 are the sm_90a module's (shared memory past 48 KiB), for devices that load it.
// 256x64k16_sm90, 512x64k16_sm90, 128x64k16_sm90, 192x128k16_sm90 and 128x64k16m3_sm90 are
// for convolutions' shapes (conv_sgemm_tiles); 192 and 512 rows only with A K-major (M-major
// A runs 128x128). 256x64r_sm90, 256x64rk32_sm90, 128x128r_sm90 and 128x64r_sm90 keep K-major
// A's rows in shared memory, filled by 16-byte copies where rows are 4-float aligned (a_rows:
// M-major A runs 128x128; the convolution entries gather whole pixels' quads).
struct sgemm_config_t {
    const char *name; // "128x128", "128x64k16", "128x256k16_sm90"
    int bm, bn;
    int sm; // the PTX target the entries need: 80 or 90
    bool a_rows = false; // A kept as rows in shared memory: K-major A only
};
constexpr int sgemm_configs = 22;
extern const sgemm_config_t sgemm_config[sgemm_configs];
// The table's default, for devices whose highest PTX target is `ptx_sm`: 128 x 256 blocks
// (8 x 16 per thread, one CTA per SM) where they give every compute unit one (16 deep in the
// sm_90a module where the device loads it), then 128 x 128 (8 x 8, two CTAs per SM), 128 x 64,
// 64 x 64. sgemm_size_choices indices into sgemm_config.
constexpr int sgemm_size_choices = 4;
const int *sgemm_size_order(int ptx_sm);

// Of sgemm_size_order(ptx_sm)'s configurations whose blocks give every compute unit at least
// one, the one that wastes least of its blocks past M and N (the earliest of equals); the last
// where none does. For `batch` products of M x N. `forced` (sgemm_forced_config) instead
// where it is one whose PTX target is at most ptx_sm, the highest the device loads; else
// `preferred` where the device loads its module and its blocks give every compute unit one
// (a caller's tile choice for its shape class, as the Winograd GEMMs' and the convolutions').
int sgemm_pick_config(int64_t compute_units, int64_t batch, int64_t m, int64_t n,
        int ptx_sm = 80, int preferred = -1, int forced = -1);

// The configuration ANYDNN_GPU_TUNING's "sgemm:config=<name>" section names (for timing them
// on a device): its index, -1 where it names none or an unknown one.
int sgemm_forced_config();

// The index of the configuration named `name`, -1 where none is.
int sgemm_config_index(const std::string &name);

// The kernel entry of a configuration and layout: "anydnn_sgemm_<k|m><n|k>_<BM>x<BN>".
std::string sgemm_kernel_name(int config, bool a_k_major, bool b_n_major);

// One field of ANYDNN_GPU_TUNING's "sgemm" section ("sgemm:config=128x64,implicit=0"): its
// value, or empty where the section does not name it.
std::string sgemm_override(const char *field);

// The geometry of the implicit-GEMM convolution entry (anydnn_sgemm_conv_<BM>x<BN>): A is
// gathered from channels-last src, m = (n, oy, ox), k = (kh, kw, c); src strides in elements
// (of an image, a row, a pixel), offsets within 32 bits; dil counts taps (1: dense).
struct sgemm_conv_t {
    int64_t ic, ih, iw, oh, ow, kw;
    int64_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w;
    int64_t src_sn, src_sh, src_sw;
};

// Why the kernels cannot build for these types and this post-op chain (null: they can),
// filling the epilogue: f32 A, B and C, a chain of wgmma_epilogue's kinds.
const char *sgemm_build_refusal(const gemm_types_t &t, const post_ops_t *post_ops,
        wgmma_epilogue_t &e, std::string &reason);

// Why one launch cannot run on the kernels (null: it can): zero points, f32 bias and scales,
// sizes in the kernels' index range.
const char *sgemm_launch_refusal(
        const gemm_types_t &t, const gemm_operands_t &ops, const gemm_params_t &p);

class sgemm_f32_t {
public:
    // The device must load sm_80 PTX and the build hold the kernels; `e` is the chain's
    // epilogue (sgemm_build_refusal).
    status_t init(engine_t *engine, const wgmma_epilogue_t &e);
    // sgemm_pick_config with the override as init read it (not parsed at every launch).
    int pick_config(int64_t compute_units, int64_t batch, int64_t m, int64_t n, int ptx_sm,
            int preferred = -1) const {
        return sgemm_pick_config(compute_units, batch, m, n, ptx_sm, preferred, forced_config_);
    }
    status_t launch(
            stream_t *stream, const gemm_operands_t &ops, const gemm_params_t &p, int config) const;
    // The convolution entry: ops.a is src, p's A strides are unused (a_off: src's offset,
    // a_sb: per batch, as groups' channels), B K-major (b_sk 1).
    status_t launch_conv(stream_t *stream, const gemm_operands_t &ops, const gemm_params_t &p,
            int config, const sgemm_conv_t &conv) const;

private:
    status_t run(stream_t *stream, const std::string &name, std::shared_ptr<kernel_t> &slot,
            const gemm_operands_t &ops, const gemm_params_t &p, int config,
            const sgemm_conv_t *conv) const;
    engine_t *engine_ = nullptr;
    wgmma_epilogue_t epilogue_;
    int forced_config_ = -1; // sgemm_forced_config at init
    static int slot(int config, bool a_k_major, bool b_n_major) {
        return config * 4 + (a_k_major ? 2 : 0) + (b_n_major ? 1 : 0);
    }
    // By slot(), then the convolution entries by configuration; loaded when first launched.
    mutable std::mutex mutex_;
    mutable std::array<std::shared_ptr<kernel_t>, sgemm_configs * 5> kernels_;
};

} // namespace gpu
} // namespace anydnn
