// The rows of the device tuning table for operations other than the GEMM (gemm_tuning.hpp):
// which form of a kernel a device takes. Defaults for CPU devices and for GPUs; device,
// architecture and vendor rows go here when a measurement asks for them.
#pragma once

#include "core/compute/compute.hpp"

namespace anydnn {
namespace gpu {

struct op_tuning_t {
    // Reductions over rows (softmax, norms): a work-group per row, or a work-item per row
    // where work-groups are threads of their own and a barrier costs more than it saves.
    bool reduce_in_groups = true;
    // Fused SDPA: unrolled inner loops (GPUs) or compact ones (CPU devices' vectorizers).
    bool sdpa_unroll = true;
    // Plain reorders: elements per work-item.
    int reorder_vector = 4;
    // Blocked f32 reorders: a block through registers per work-item.
    bool reorder_blocked_in_registers = false;
    // RNN state copies: a row per work-item (index math once per row) or an element each.
    bool rnn_copy_rows = false;
    // RNN per-step recurrent products (M = mb rows, few): where C has fewer than this many
    // elements per compute unit, K is split into slices computed side by side, their partial
    // sums added in slice order by the cell kernel (0: never split; CPU devices, whose
    // threads the product fills already). Slices are at least rnn_split_depth deep.
    int rnn_split_elems = 4096;
    int rnn_split_depth = 64;
    // f32 LSTM inference: every step of a (layer, direction) in one persistent launch
    // (rnn/persistent.hpp) where the device loads its sm_90a PTX and the shape fits (1), or
    // the per-step GEMM and cell launches always (0).
    int rnn_persistent = 1;
    // Bandwidth-shaped kernels (batch norm's flat steps, softmax and layer norm rows held in
    // registers, dense eltwise): elements per access, 4 (16-byte f32 loads) or 1.
    int vector_elems = 4;
    // Bytes of its widest tensor each work-item of a dense four-element kernel (eltwise,
    // binary, reorder) loads before it stores: 16 gives f32 one group of four elements and
    // bf16/f16 two (an 8-byte access alone leaves too little in flight per work-item).
    int item_bytes = 16;
    // The most bytes one access of those kernels (eltwise, binary) and of layer norm's rows
    // forward loads where every tensor's elements take 2 bytes or fewer: 8 keeps groups of
    // four (bf16: 8-byte accesses), 16 takes groups of eight (one 16-byte access). H200, 16
    // against 8, bf16 1 GiB rows: relu 0.2798 ms against 0.2954, add 0.385 / 0.4618, layer
    // norm 0.398 / 0.4255, RMS norm 0.333 / 0.3928.
    int access_bytes = 16;
    // Their work-group size (a power of two; 1 on CPU devices, where a work-group is a thread).
    int bandwidth_group = 256;
    // Batch norm statistics: about this many work-groups share the channels' partial sums.
    int bnorm_stat_groups = 2048;
    // Dense reductions (reduction, PReLU's weights gradient): where dst has fewer positions
    // than this, each position's elements are split into slices reduced side by side (about
    // this many work-groups, or this many times bandwidth_group work-items), joined after.
    int reduce_groups = 2048;
    // Softmax / layer norm rows in registers: elements each work-item keeps (the row's
    // work-group size follows from the row width), the most it may keep (backward: half,
    // for its five register arrays), and the most work-items per row. Registers times
    // work-items must fit the register file: on the H200, 1024 x 32 and 512 x 64 elements
    // built kernels allowing fewer work-items than that (rows of 32768 failed to launch).
    int row_elems = 16;
    int row_elems_max = 32;
    int row_group_max = 512;
    // Layer norm backward: row segments that each keep partial diff scale/shift sums.
    int row_bwd_segments = 1024;
};

// Elements in a group of such a kernel whose widest element is `elem_size` bytes: 8 where
// access_bytes allows eight of them in one access, else 4.
int vector_width(const op_tuning_t &t, size_t elem_size);
// Groups of `width` elements per work-item of a dense kernel whose widest element is
// `elem_size` bytes: item_bytes / (width * elem_size), at least 1.
int vector_groups(const op_tuning_t &t, size_t elem_size, int width = 4);
// Work-items such a kernel launches over n elements: one per `groups` full groups of
// `width`, at least one (the first also takes the n % width tail).
long vector_items(long n, int groups, int width = 4);

// The device's row, with the "ops:" section of ANYDNN_GPU_TUNING applied (tuning_override.hpp:
// "ops:vec=4,group=256,bn_groups=2048,row_elems=16,row_elems_max=32,
// row_group_max=512,row_bwd_segments=1024,reorder_vec=4,item_bytes=16,access_bytes=16,
// reduce_groups=2048,
// rnn_split_elems=4096,rnn_split_depth=64,rnn_persistent=1").
const op_tuning_t &op_tuning(const device_caps_t &caps);

} // namespace gpu
} // namespace anydnn
