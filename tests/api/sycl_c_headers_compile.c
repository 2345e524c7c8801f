/* Compile-only check: the SYCL interop C headers are valid C99 through both include paths
 * (they need no SYCL header: SYCL objects travel as pointers), with the v3.13 values and
 * the 10 + 4 prototypes. */
#include <dnnl_graph_sycl.h>
#include <dnnl_sycl.h>
#include <dnnl_sycl_types.h>

#include "oneapi/dnnl/dnnl_graph_sycl.h"
#include "oneapi/dnnl/dnnl_sycl.h"
#include "oneapi/dnnl/dnnl_sycl_types.h"

#define SYCL_C_CHECK(name, cond) typedef char sycl_c_check_##name[(cond) ? 1 : -1]
SYCL_C_CHECK(kinds, dnnl_sycl_interop_usm == 0 && dnnl_sycl_interop_buffer == 1);

typedef struct {
    dnnl_status_t (*engine_create)(dnnl_engine_t *, const void *, const void *);
    dnnl_status_t (*engine_get_context)(dnnl_engine_t, void **);
    dnnl_status_t (*engine_get_device)(dnnl_engine_t, void **);
    dnnl_status_t (*memory_create)(dnnl_memory_t *, const_dnnl_memory_desc_t, dnnl_engine_t,
            dnnl_sycl_interop_memory_kind_t, void *);
    dnnl_status_t (*memory_create_v2)(dnnl_memory_t *, const_dnnl_memory_desc_t, dnnl_engine_t,
            dnnl_sycl_interop_memory_kind_t, int, void **);
    dnnl_status_t (*memory_get_memory_kind)(const_dnnl_memory_t, dnnl_sycl_interop_memory_kind_t *);
    dnnl_status_t (*memory_set_buffer)(dnnl_memory_t, void *);
    dnnl_status_t (*stream_create)(dnnl_stream_t *, dnnl_engine_t, void *);
    dnnl_status_t (*stream_get_queue)(dnnl_stream_t, void **);
    dnnl_status_t (*primitive_execute)(const_dnnl_primitive_t, dnnl_stream_t, int,
            const dnnl_exec_arg_t *, const void *, void *);
    dnnl_status_t (*allocator_create)(dnnl_graph_allocator_t *, dnnl_graph_sycl_allocate_f,
            dnnl_graph_sycl_deallocate_f);
    dnnl_status_t (*make_engine_with_allocator)(dnnl_engine_t *, const void *, const void *,
            const_dnnl_graph_allocator_t);
    dnnl_status_t (*cp_execute)(const_dnnl_graph_compiled_partition_t, dnnl_stream_t, size_t,
            const_dnnl_graph_tensor_t *, size_t, const_dnnl_graph_tensor_t *, const void *,
            void *);
    dnnl_status_t (*cp_execute_v2)(const_dnnl_graph_compiled_partition_t, dnnl_stream_t, size_t,
            const_dnnl_graph_tensor_t *, size_t, const_dnnl_graph_tensor_t *,
            const_dnnl_graph_tensor_t, const void *, void *);
} sycl_interop_entry_points_t;

const sycl_interop_entry_points_t sycl_interop_entry_points = {
        dnnl_sycl_interop_engine_create,
        dnnl_sycl_interop_engine_get_context,
        dnnl_sycl_interop_engine_get_device,
        dnnl_sycl_interop_memory_create,
        dnnl_sycl_interop_memory_create_v2,
        dnnl_sycl_interop_memory_get_memory_kind,
        dnnl_sycl_interop_memory_set_buffer,
        dnnl_sycl_interop_stream_create,
        dnnl_sycl_interop_stream_get_queue,
        dnnl_sycl_interop_primitive_execute,
        dnnl_graph_sycl_interop_allocator_create,
        dnnl_graph_sycl_interop_make_engine_with_allocator,
        dnnl_graph_sycl_interop_compiled_partition_execute,
        dnnl_graph_sycl_interop_compiled_partition_execute_v2,
};
