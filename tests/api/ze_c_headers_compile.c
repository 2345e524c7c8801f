/* Compile-only check: the Level Zero interop C headers are valid C99 through both include
 * paths, and the 11 prototypes have the v3.13 signatures (note (ndeps, deps) in execute). */
#include <dnnl_ze.h>
#include <dnnl_ze_types.h>

#include "oneapi/dnnl/dnnl_ze.h"
#include "oneapi/dnnl/dnnl_ze_types.h"

typedef struct {
    dnnl_status_t (*get_cache_blob_id)(ze_driver_handle_t, ze_device_handle_t, size_t *,
            uint8_t *);
    dnnl_status_t (*get_cache_blob)(dnnl_engine_t, size_t *, uint8_t *);
    dnnl_status_t (*create_from_cache_blob)(dnnl_engine_t *, ze_driver_handle_t,
            ze_device_handle_t, ze_context_handle_t, size_t, const uint8_t *);
    dnnl_status_t (*engine_create)(dnnl_engine_t *, ze_driver_handle_t, ze_device_handle_t,
            ze_context_handle_t);
    dnnl_status_t (*get_context)(dnnl_engine_t, ze_context_handle_t *);
    dnnl_status_t (*get_device)(dnnl_engine_t, ze_device_handle_t *);
    dnnl_status_t (*get_driver)(dnnl_engine_t, ze_driver_handle_t *);
    dnnl_status_t (*stream_create)(dnnl_stream_t *, dnnl_engine_t, ze_command_list_handle_t,
            int);
    dnnl_status_t (*stream_get_list)(dnnl_stream_t, ze_command_list_handle_t *);
    dnnl_status_t (*memory_create)(dnnl_memory_t *, const_dnnl_memory_desc_t, dnnl_engine_t,
            int, void **);
    dnnl_status_t (*primitive_execute)(const_dnnl_primitive_t, dnnl_stream_t, int,
            const dnnl_exec_arg_t *, int, const ze_event_handle_t *, ze_event_handle_t *);
} ze_interop_entry_points_t;

const ze_interop_entry_points_t ze_interop_entry_points = {
        dnnl_ze_interop_engine_get_cache_blob_id,
        dnnl_ze_interop_engine_get_cache_blob,
        dnnl_ze_interop_engine_create_from_cache_blob,
        dnnl_ze_interop_engine_create,
        dnnl_ze_interop_engine_get_context,
        dnnl_ze_interop_engine_get_device,
        dnnl_ze_interop_engine_get_driver,
        dnnl_ze_interop_stream_create,
        dnnl_ze_interop_stream_get_list,
        dnnl_ze_interop_memory_create,
        dnnl_ze_interop_primitive_execute,
};
