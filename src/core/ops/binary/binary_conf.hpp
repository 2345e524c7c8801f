// What every CPU binary implementation decides the same way: resolved layouts, broadcast
// masks, scales and the post-op chain, checked once at primitive descriptor creation.
#pragma once

#include "core/ops/post_ops.hpp"
#include "core/primitive.hpp"

namespace anydnn {
namespace cpu {

struct binary_conf_t {
    dnnl_alg_kind_t alg = dnnl_alg_kind_undef;
    bool is_select = false;
    memory_desc_t src0 {}, src1 {}, src2 {}, dst {};
    unsigned bcast0 = 0, bcast1 = 0, bcast2 = 0; // dims each source broadcasts against dst
    post_ops_chain_t post_ops;

    // Validates pd's descriptor and attributes, resolves format any (like src0) and fills
    // pd.args. dnnl_unimplemented (with a reason) for anything CPU binary cannot do.
    status_t init(primitive_desc_t &pd);
};

// True for the data types binary reads and writes.
bool binary_supported_dt(dnnl_data_type_t dt);

} // namespace cpu
} // namespace anydnn
