// Layout questions the eltwise implementations add to core/ops/layout.hpp: is a tensor one dense
// run of memory (padding included), what does `format_kind any` become.
#pragma once

#include "core/memory_desc.hpp"
#include "core/ops/layout.hpp"

namespace anydnn {
namespace cpu {
namespace eltwise {

// Elements a dense blocked layout spans from offset0 (padding included), or -1 when the
// layout has gaps or is not blocked.
dim_t dense_span(const memory_desc_t &md);

// Whether the padded dims exceed the dims anywhere.
bool has_padding(const memory_desc_t &md);

// Resolves `md` when its format kind is any: the blocking of `like` made dense, md's own
// data type. Leaves other descriptors alone.
void resolve_any(memory_desc_t &md, const memory_desc_t &like);

// The data types a tensor may have: forward also takes the integer types.
inline bool is_float_type(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}
inline bool is_fwd_type(dnnl_data_type_t dt) {
    return is_float_type(dt) || dt == dnnl_s32 || dt == dnnl_s8 || dt == dnnl_u8;
}

} // namespace eltwise
} // namespace cpu
} // namespace anydnn
