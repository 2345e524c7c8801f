/* anydnn: ukernel C API (oneDNN v3.13 compatible, experimental): brgemm and transform.
 *
 * Microkernels an application calls from inside its own loops and threads:
 *   brgemm:    C (+)= sum over i < batch_size of A_i x B_i, with A_i at A + offsets[2i] bytes
 *              (M x K, rows lda elements apart) and B_i at B + offsets[2i+1] bytes (K x N in
 *              the layout dnnl_brgemm_get_B_pack_type names for a_dt x b_dt, ldb); C is
 *              M x N, ldc, f32 (or s32 for int8). dnnl_brgemm_execute_postops then
 *              writes D = post-ops(scaled C).
 *   transform: packs a K x N B given as ab or ba into that layout.
 * A brgemm is configured, finalized, generated once, and then executed any number of times
 * from any number of threads at once (each with its own scratchpad). The CPU holds no tile
 * state here, so dnnl_brgemm_set_hw_context and dnnl_brgemm_release_hw_context do nothing.
 * See docs/ukernel.md. */
#ifndef ONEAPI_DNNL_DNNL_UKERNEL_H
#define ONEAPI_DNNL_DNNL_UKERNEL_H

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_ukernel_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef DNNL_EXPERIMENTAL_UKERNEL

/** An empty set of run-time post-op and scale arguments. */
dnnl_status_t DNNL_API dnnl_ukernel_attr_params_create(
        dnnl_ukernel_attr_params_t *attr_params);

/** The tensors of the binary post-ops, one pointer per binary post-op in chain order (the
 *  array is read at execution, so it must stay valid until then). */
dnnl_status_t DNNL_API dnnl_ukernel_attr_params_set_post_ops_args(
        dnnl_ukernel_attr_params_t attr_params, const void **post_ops_args);

/** The A scale (one f32 value). */
dnnl_status_t DNNL_API dnnl_ukernel_attr_params_set_A_scales(
        dnnl_ukernel_attr_params_t attr_params, const void *a_scales);

/** The B scales (one f32 value, or N of them when the brgemm's B scale mask is 2). */
dnnl_status_t DNNL_API dnnl_ukernel_attr_params_set_B_scales(
        dnnl_ukernel_attr_params_t attr_params, const void *b_scales);

/** The D scale (one f32 value; D is divided by it after the post-ops). */
dnnl_status_t DNNL_API dnnl_ukernel_attr_params_set_D_scales(
        dnnl_ukernel_attr_params_t attr_params, const void *d_scales);

dnnl_status_t DNNL_API dnnl_ukernel_attr_params_destroy(
        dnnl_ukernel_attr_params_t attr_params);

/** A brgemm of M x K by K x N over batch_size pairs of blocks: a_dt x b_dt accumulated in
 *  c_dt (f32 x f32, bf16 x bf16, f16 x f16 -> f32; u8/s8 x u8/s8 -> s32). */
dnnl_status_t DNNL_API dnnl_brgemm_create(dnnl_brgemm_t *brgemm, dnnl_dim_t M,
        dnnl_dim_t N, dnnl_dim_t K, dnnl_dim_t batch_size, dnnl_dim_t lda,
        dnnl_dim_t ldb, dnnl_dim_t ldc, dnnl_data_type_t a_dt,
        dnnl_data_type_t b_dt, dnnl_data_type_t c_dt);

/** add_C != 0: C += the products (C is read); 0: C = the products. */
dnnl_status_t DNNL_API dnnl_brgemm_set_add_C(dnnl_brgemm_t brgemm, int add_C);

/** D (M x N, rows ldd apart, type d_dt) = post_ops(C); post_ops may be null. */
dnnl_status_t DNNL_API dnnl_brgemm_set_post_ops(dnnl_brgemm_t brgemm,
        dnnl_dim_t ldd, dnnl_data_type_t d_dt, const_dnnl_post_ops_t post_ops);

/** A scale mask: 0 (one scale) only. */
dnnl_status_t DNNL_API dnnl_brgemm_set_A_scales(
        dnnl_brgemm_t brgemm, int a_scale_mask);

/** B scale mask: 0 (one scale) or 2 (one per column of N). */
dnnl_status_t DNNL_API dnnl_brgemm_set_B_scales(
        dnnl_brgemm_t brgemm, int b_scale_mask);

/** D scale mask: 0 (one scale) only. */
dnnl_status_t DNNL_API dnnl_brgemm_set_D_scales(
        dnnl_brgemm_t brgemm, int d_scale_mask);

/** Checks the configuration; after it succeeds the brgemm can be queried and generated and
 *  no longer configured. dnnl_unimplemented (with a verbose reason) for what is not
 *  supported. */
dnnl_status_t DNNL_API dnnl_brgemm_finalize(dnnl_brgemm_t brgemm);

/** The layout B must have for a brgemm of a_dt x b_dt on this CPU (no brgemm object is
 *  needed): dnnl_pack_type_no_trans (B read as is) or dnnl_pack_type_pack32.
 *  dnnl_unimplemented for a type pair the brgemm does not compute. */
dnnl_status_t DNNL_API dnnl_brgemm_get_B_pack_type(dnnl_pack_type_t *pack_type,
        dnnl_data_type_t a_dt, dnnl_data_type_t b_dt);

/** Bytes of the scratchpad each execution needs (after finalize; may be 0). */
dnnl_status_t DNNL_API dnnl_brgemm_get_scratchpad_size(
        const_dnnl_brgemm_t brgemm, size_t *size);

/** *valid = 1 when the brgemm has post-ops, scales or a D type other than C's, i.e. its
 *  last call of an accumulation chain must be dnnl_brgemm_execute_postops. */
dnnl_status_t DNNL_API dnnl_brgemm_is_execute_postops_valid(
        const_dnnl_brgemm_t brgemm, int *valid);

/** No hardware context on this CPU: checks the handle and returns. */
dnnl_status_t DNNL_API dnnl_brgemm_set_hw_context(const_dnnl_brgemm_t brgemm);

/** No hardware context on this CPU: returns dnnl_success. */
dnnl_status_t DNNL_API dnnl_brgemm_release_hw_context(void);

/** Picks the kernel; after finalize, before any execution. */
dnnl_status_t DNNL_API dnnl_brgemm_generate(dnnl_brgemm_t brgemm);

/** C (+)= sum of A_i x B_i; A_B_offsets holds batch_size pairs of byte offsets. */
dnnl_status_t DNNL_API dnnl_brgemm_execute(const_dnnl_brgemm_t brgemm,
        const void *A_ptr, const void *B_ptr, const dnnl_dim_t *A_B_offsets,
        void *C_ptr, void *scratchpad_ptr);

/** D = post-ops(scales x ((add_C ? C : 0) + sum of A_i x B_i)); C is only read. */
dnnl_status_t DNNL_API dnnl_brgemm_execute_postops(const_dnnl_brgemm_t brgemm,
        const void *A, const void *B, const dnnl_dim_t *A_B_offsets,
        const void *C_ptr, void *D_ptr, void *scratchpad_ptr,
        const_dnnl_ukernel_attr_params_t attr_params);

dnnl_status_t DNNL_API dnnl_brgemm_destroy(dnnl_brgemm_t brgemm);

/** Packs a K x N matrix given as no_trans (ab) or trans (ba) with leading dimension in_ld
 *  into the layout a brgemm with b_dt = out_dt expects, with ldb = out_ld (see
 *  docs/ukernel.md). */
dnnl_status_t DNNL_API dnnl_transform_create(dnnl_transform_t *transform,
        dnnl_dim_t K, dnnl_dim_t N, dnnl_pack_type_t in_pack_type,
        dnnl_dim_t in_ld, dnnl_dim_t out_ld, dnnl_data_type_t in_dt,
        dnnl_data_type_t out_dt);

dnnl_status_t DNNL_API dnnl_transform_generate(dnnl_transform_t transform);

dnnl_status_t DNNL_API dnnl_transform_execute(
        const_dnnl_transform_t transform, const void *in_ptr, void *out_ptr);

dnnl_status_t DNNL_API dnnl_transform_destroy(dnnl_transform_t transform);

#endif /* DNNL_EXPERIMENTAL_UKERNEL */

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_DNNL_UKERNEL_H */
