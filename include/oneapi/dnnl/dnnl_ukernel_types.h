/* anydnn: types of the ukernel C API (oneDNN v3.13 compatible, experimental).
 *
 * Declared only when DNNL_EXPERIMENTAL_UKERNEL is defined (dnnl_config.h defines it: this
 * library always builds the ukernel API). */
#ifndef ONEAPI_DNNL_DNNL_UKERNEL_TYPES_H
#define ONEAPI_DNNL_DNNL_UKERNEL_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

#include "oneapi/dnnl/dnnl_types.h"

#ifdef DNNL_EXPERIMENTAL_UKERNEL

/** How a K x N matrix B is laid out in memory. */
typedef enum {
    /** Not set; also what a query answers where the ukernel cannot run. */
    dnnl_pack_type_undef = 0,
    /** Row-major K x N (format_tag ab), rows ldb elements apart. */
    dnnl_pack_type_no_trans,
    /** Column-major, i.e. N x K row-major (format_tag ba), columns ld elements apart. */
    dnnl_pack_type_trans,
    /** K in groups of 32 bits (2 bf16/f16 or 4 int8 values of one column side by side),
     *  columns of a group ldb apart: what dnnl_transform_execute produces. */
    dnnl_pack_type_pack32,
} dnnl_pack_type_t;

/** Run-time arguments of a brgemm's post-ops and scales (pointers only). */
struct dnnl_ukernel_attr_params;
typedef struct dnnl_ukernel_attr_params *dnnl_ukernel_attr_params_t;
typedef const struct dnnl_ukernel_attr_params *const_dnnl_ukernel_attr_params_t;

/** A batch-reduce GEMM ukernel. */
struct dnnl_brgemm;
typedef struct dnnl_brgemm *dnnl_brgemm_t;
typedef const struct dnnl_brgemm *const_dnnl_brgemm_t;

/** A routine that lays out B as a brgemm expects it. */
struct dnnl_transform;
typedef struct dnnl_transform *dnnl_transform_t;
typedef const struct dnnl_transform *const_dnnl_transform_t;

#endif /* DNNL_EXPERIMENTAL_UKERNEL */

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_DNNL_UKERNEL_TYPES_H */
