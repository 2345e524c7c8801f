/* anydnn: names of enumeration values, for logs and tools (oneDNN v3.13 compatible). */
#ifndef ONEAPI_DNNL_DNNL_DEBUG_H
#define ONEAPI_DNNL_DNNL_DEBUG_H

#include "oneapi/dnnl/dnnl_config.h"
#include "oneapi/dnnl/dnnl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each returns a static string; values outside the enumeration give "unknown ...". */
DNNL_API const char *dnnl_status2str(dnnl_status_t v);
DNNL_API const char *dnnl_dt2str(dnnl_data_type_t v);
DNNL_API const char *dnnl_fpmath_mode2str(dnnl_fpmath_mode_t v);
DNNL_API const char *dnnl_accumulation_mode2str(dnnl_accumulation_mode_t v);
DNNL_API const char *dnnl_engine_kind2str(dnnl_engine_kind_t v);
DNNL_API const char *dnnl_sparse_encoding2str(dnnl_sparse_encoding_t v);
DNNL_API const char *dnnl_fmt_tag2str(dnnl_format_tag_t v);
DNNL_API const char *dnnl_prop_kind2str(dnnl_prop_kind_t v);
DNNL_API const char *dnnl_prim_kind2str(dnnl_primitive_kind_t v);
DNNL_API const char *dnnl_alg_kind2str(dnnl_alg_kind_t v);
DNNL_API const char *dnnl_rnn_flags2str(dnnl_rnn_flags_t v);
DNNL_API const char *dnnl_rnn_direction2str(dnnl_rnn_direction_t v);
DNNL_API const char *dnnl_scratchpad_mode2str(dnnl_scratchpad_mode_t v);
DNNL_API const char *dnnl_rounding_mode2str(dnnl_rounding_mode_t v);
DNNL_API const char *dnnl_quantization_mode2str(dnnl_quantization_mode_t v);
DNNL_API const char *dnnl_cpu_isa2str(dnnl_cpu_isa_t v);
DNNL_API const char *dnnl_cpu_isa_hints2str(dnnl_cpu_isa_hints_t v);
DNNL_API const char *dnnl_fmt_kind2str(dnnl_format_kind_t v);

/* Takes one of the DNNL_RUNTIME_* values. */
DNNL_API const char *dnnl_runtime2str(unsigned v);

#ifdef __cplusplus
}
#endif

#endif
