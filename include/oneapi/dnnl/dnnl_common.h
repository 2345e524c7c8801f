/* anydnn: engines, streams and global settings shared by all APIs (oneDNN v3.13 compatible). */
#ifndef ONEAPI_DNNL_DNNL_COMMON_H
#define ONEAPI_DNNL_DNNL_COMMON_H

#include "oneapi/dnnl/dnnl_common_types.h"
#include "oneapi/dnnl/dnnl_config.h"
#include "oneapi/dnnl/dnnl_version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Engines: devices of one kind, enumerated by index. */
DNNL_API size_t dnnl_engine_get_count(dnnl_engine_kind_t kind);
DNNL_API dnnl_status_t dnnl_engine_create(dnnl_engine_t *engine, dnnl_engine_kind_t kind,
    size_t index);
DNNL_API dnnl_status_t dnnl_engine_get_kind(dnnl_engine_t engine, dnnl_engine_kind_t *kind);
DNNL_API dnnl_status_t dnnl_engine_destroy(dnnl_engine_t engine);

/* Streams: execution queues on an engine (flags: dnnl_stream_flags_t). */
DNNL_API dnnl_status_t dnnl_stream_create(dnnl_stream_t *stream, dnnl_engine_t engine,
    unsigned flags);
DNNL_API dnnl_status_t dnnl_stream_get_engine(const_dnnl_stream_t stream, dnnl_engine_t *engine);
DNNL_API dnnl_status_t dnnl_stream_wait(dnnl_stream_t stream);
DNNL_API dnnl_status_t dnnl_stream_destroy(dnnl_stream_t stream);

/* Process-wide default for the fpmath mode of new primitive attributes. */
DNNL_API dnnl_status_t dnnl_get_default_fpmath_mode(dnnl_fpmath_mode_t *mode);
DNNL_API dnnl_status_t dnnl_set_default_fpmath_mode(dnnl_fpmath_mode_t mode);

/* Verbose output (same levels as ONEDNN_VERBOSE) and library version. */
DNNL_API dnnl_status_t dnnl_set_verbose(int level);
DNNL_API dnnl_status_t dnnl_verbose_profiling_enabled(int *enabled);
DNNL_API const dnnl_version_t *dnnl_version(void);

#ifdef __cplusplus
}
#endif

#endif
