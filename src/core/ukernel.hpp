// The ukernel API's objects (dnnl_ukernel.h: brgemm, transform, attribute parameters) and the
// engine entries the C entry points in src/api/ukernel_*.cpp call; defined by the CPU engine
// in src/cpu/ukernel/ (the only engine with ukernels).
//
// A brgemm's life: configured (set_*) -> finalized (checked, queryable) -> generated (a kernel
// chosen; executable, read-only). Executing touches only the object's fields and the
// caller's buffers: any number of threads may execute one brgemm at once.
#pragma once

#include <vector>

#include "core/primitive_attr.hpp"
#include "oneapi/dnnl/dnnl_ukernel.h"

namespace anydnn {
namespace cpu {
namespace ukernel {

struct brgemm_conf_t;

// One execution: A_i at a + offsets[2i] bytes, B_i at b + offsets[2i+1] bytes;
// acc (M x N, rows ldacc apart, f32 or s32) = (add ? acc : 0) + sum of A_i x B_i.
struct brgemm_call_t {
    const char *a;
    const char *b;
    const dim_t *offsets;
    void *acc;
    dim_t ldacc;
    bool add;
};
using brgemm_kernel_fn = void (*)(const brgemm_conf_t &, const brgemm_call_t &);

struct brgemm_conf_t {
    dim_t M = 0, N = 0, K = 0, batch = 0, lda = 0, ldb = 0, ldc = 0;
    dnnl_data_type_t a_dt = dnnl_data_type_undef, b_dt = dnnl_data_type_undef,
                     c_dt = dnnl_data_type_undef;
    bool add_C = false;
    // set_post_ops
    bool has_d = false;
    dim_t ldd = 0;
    dnnl_data_type_t d_dt = dnnl_data_type_undef;
    std::vector<post_op_t> post_ops;
    int binary_count = 0;
    // scale masks; -1: not set
    int a_scale_mask = -1, b_scale_mask = -1, d_scale_mask = -1;

    // Fixed by finalize.
    dnnl_pack_type_t b_pack = dnnl_pack_type_undef;
    int b_group = 1; // k per 32 bits in a pack32 B (2 for 16-bit types, 4 for int8)
    bool postops_valid = false;
    size_t scratchpad_size = 0;
    // Set by generate.
    brgemm_kernel_fn kernel = nullptr;
    const char *kernel_name = "";
};

// Type pairs the brgemm computes: f32, bf16, f16 -> f32; u8/s8 x u8/s8 -> s32.
status_t brgemm_check_types(dnnl_data_type_t a_dt, dnnl_data_type_t b_dt, dnnl_data_type_t c_dt);
// The B layout brgemm kernels read for B of type b_dt on this CPU (shared with transform).
dnnl_pack_type_t brgemm_b_pack_type(dnnl_data_type_t b_dt);
// The same for the public query: dnnl_unimplemented for a pair brgemm_check_types refuses.
status_t brgemm_b_pack_type_for(
        dnnl_data_type_t a_dt, dnnl_data_type_t b_dt, dnnl_pack_type_t *pack_type);
// k per 32-bit group of a pack32 B of that type.
int pack32_group(dnnl_data_type_t dt);

status_t brgemm_set_post_ops(brgemm_conf_t &c, dim_t ldd, dnnl_data_type_t d_dt,
        const post_ops_t *po);
status_t brgemm_finalize(brgemm_conf_t &c);
status_t brgemm_generate(brgemm_conf_t &c);

// Arguments of execute_postops' stage.
struct postops_args_t {
    const void *const *binary = nullptr; // one per binary post-op
    const float *a_scale = nullptr, *b_scales = nullptr, *d_scale = nullptr;
};
// D = post-ops(scales x (acc + (c ? C : 0))) row by row; acc holds M x N accumulators
// (c_dt, rows ldacc apart); c, when not null, is the user's C (c_dt, rows ldc apart).
void brgemm_apply_postops(const brgemm_conf_t &conf, const void *acc, dim_t ldacc,
        const void *c, void *d, const postops_args_t &args);

// transform: B (K x N, given as ab or ba) rewritten into the layout a brgemm with the same B
// type reads (brgemm_b_pack_type). Output, ld = out_ld >= N:
//   no_trans: (k, n) at out[k * ld + n].
//   pack32:   k in groups of g (2 for 16-bit types, 4 for int8), (k, n) at
//             out[(k / g) * ld * g + n * g + k % g]; K padded to a multiple of g and columns
//             N..ld-1 written as zeros, so the output holds round_up(K, g) * ld elements.
struct transform_conf_t {
    dim_t K = 0, N = 0, in_ld = 0, out_ld = 0;
    dnnl_pack_type_t in_pack = dnnl_pack_type_undef, out_pack = dnnl_pack_type_undef;
    dnnl_data_type_t dt = dnnl_data_type_undef;
    int group = 1;
};

// Checks and completes the configuration (dnnl_invalid_arguments / dnnl_unimplemented).
status_t transform_init(transform_conf_t &c, dim_t K, dim_t N, int in_pack, dim_t in_ld,
        dim_t out_ld, dnnl_data_type_t in_dt, dnnl_data_type_t out_dt);
void transform_run(const transform_conf_t &c, const void *in, void *out);

} // namespace ukernel
} // namespace cpu
} // namespace anydnn

// The objects behind the public handles.
struct dnnl_brgemm {
    anydnn::cpu::ukernel::brgemm_conf_t conf;
    bool finalized = false;
};

struct dnnl_ukernel_attr_params {
    const void *const *post_ops_args = nullptr;
    const void *a_scales = nullptr, *b_scales = nullptr, *d_scales = nullptr;
};

struct dnnl_transform {
    anydnn::cpu::ukernel::transform_conf_t conf;
    bool generated = false;
};
