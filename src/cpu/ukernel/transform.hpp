// The transform ukernel (dnnl_ukernel.h): B (K x N, given as ab or ba) rewritten into the
// layout a brgemm with the same B type reads (brgemm_b_pack_type). The C entry points are in
// src/api/ukernel_transform.cpp.
//
// Output, ld = out_ld >= N:
//   no_trans: (k, n) at out[k * ld + n].
//   pack32:   k in groups of g (2 for 16-bit types, 4 for int8), (k, n) at
//             out[(k / g) * ld * g + n * g + k % g]; K padded to a multiple of g and columns
//             N..ld-1 written as zeros, so the output holds round_up(K, g) * ld elements.
#pragma once

#include "core/memory_desc.hpp"
#include "oneapi/dnnl/dnnl_ukernel.h"

namespace anydnn {
namespace cpu {
namespace ukernel {

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

struct dnnl_transform {
    anydnn::cpu::ukernel::transform_conf_t conf;
    bool generated = false;
};
