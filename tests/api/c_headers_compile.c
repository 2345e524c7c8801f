/* Compile-only check: every public C header is valid C99 (-Wall -Wextra -pedantic -Werror),
 * through both include paths, and its types and prototypes are usable from C. */
#include <dnnl.h>
#include <dnnl_config.h>
#include <dnnl_debug.h>
#include <dnnl_types.h>
#include <dnnl_threadpool.h>
#include <dnnl_version.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_common.h"
#include "oneapi/dnnl/dnnl_common_types.h"
#include "oneapi/dnnl/dnnl_config.h"
#include "oneapi/dnnl/dnnl_debug.h"
#include "oneapi/dnnl/dnnl_threadpool.h"
#include "oneapi/dnnl/dnnl_types.h"
#include "oneapi/dnnl/dnnl_version.h"

/* C99 has no static_assert: a negative array size fails the build. */
#define C_HEADERS_CHECK(name, cond) typedef char c_headers_check_##name[(cond) ? 1 : -1]

C_HEADERS_CHECK(version, DNNL_VERSION_MAJOR == 3 && DNNL_VERSION_MINOR == 13);
C_HEADERS_CHECK(max_ndims, DNNL_MAX_NDIMS == 12);
C_HEADERS_CHECK(dims, sizeof(dnnl_dims_t) == 12 * sizeof(int64_t));
C_HEADERS_CHECK(f32, dnnl_f32 == 3);
C_HEADERS_CHECK(forward, dnnl_forward == dnnl_forward_training);
C_HEADERS_CHECK(arg_diff, DNNL_ARG_DIFF_SRC == 129 && DNNL_ARG_DIFF_SHIFT == 256);
C_HEADERS_CHECK(post_op_arg, DNNL_ARG_ATTR_MULTIPLE_POST_OP(1) == 65536);
C_HEADERS_CHECK(query, dnnl_query_num_handles_s32 == 268 && dnnl_query_max == 0x7fff);
C_HEADERS_CHECK(isa, dnnl_cpu_isa_avx512_core_amx == dnnl_cpu_isa_avx10_1_512_amx);
C_HEADERS_CHECK(softmax, dnnl_softmax_log == 0x30001);
C_HEADERS_CHECK(runtime, DNNL_CPU_RUNTIME != DNNL_RUNTIME_NONE || DNNL_GPU_RUNTIME != DNNL_RUNTIME_NONE);
C_HEADERS_CHECK(format_tag, dnnl_format_tag_undef == 0 && dnnl_format_tag_any == 1);

int c_headers_compile(dnnl_exec_arg_t *args, int nargs);

/* Uses a handful of types and takes the address of a few functions (nothing is called). */
int c_headers_compile(dnnl_exec_arg_t *args, int nargs) {
    dnnl_dims_t dims = {2, 3, DNNL_RUNTIME_DIM_VAL};
    dnnl_status_t (*create_md)(dnnl_memory_desc_t *, int, const dnnl_dims_t, dnnl_data_type_t,
            dnnl_format_tag_t) = dnnl_memory_desc_create_with_tag;
    dnnl_status_t (*execute)(const_dnnl_primitive_t, dnnl_stream_t, int, const dnnl_exec_arg_t *)
            = dnnl_primitive_execute;
    const dnnl_version_t *(*version)(void) = dnnl_version;
    const char *(*dt_name)(dnnl_data_type_t) = dnnl_dt2str;
    dnnl_memory_desc_t md = NULL;
    const_dnnl_memory_desc_t cmd = md;
    int i, sum = 0;
    float rt = DNNL_RUNTIME_F32_VAL;

    for (i = 0; i < nargs; ++i)
        sum += args[i].arg + (args[i].memory == DNNL_MEMORY_NONE ? 0 : 1);
    if (DNNL_MEMORY_ALLOCATE == NULL || cmd != NULL || rt != 0.0f) sum++;
    return sum + (int)dims[0] + (create_md != NULL) + (execute != NULL) + (version != NULL)
            + (dt_name != NULL) + DNNL_RUNTIME_S32_VAL + (int)dnnl_stream_default_flags;
}
