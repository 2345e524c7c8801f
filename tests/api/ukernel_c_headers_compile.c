/* Compile-only check: the ukernel C headers are valid C99 (-Wall -Wextra -pedantic -Werror),
 * DNNL_EXPERIMENTAL_UKERNEL is defined by dnnl_config.h, and the enum values and prototypes
 * are oneDNN's. */
#include "oneapi/dnnl/dnnl_ukernel.h"
#include "oneapi/dnnl/dnnl_ukernel_types.h"

#ifndef DNNL_EXPERIMENTAL_UKERNEL
#error "dnnl_config.h must define DNNL_EXPERIMENTAL_UKERNEL: the library builds the ukernel API"
#endif

#define UKERNEL_CHECK(name, cond) typedef char ukernel_check_##name[(cond) ? 1 : -1]

UKERNEL_CHECK(pack_undef, dnnl_pack_type_undef == 0);
UKERNEL_CHECK(pack_no_trans, dnnl_pack_type_no_trans == 1);
UKERNEL_CHECK(pack_trans, dnnl_pack_type_trans == 2);
UKERNEL_CHECK(pack32, dnnl_pack_type_pack32 == 3);

/* Every function, through a pointer of its exact type. */
static void ukernel_prototypes(void) {
    dnnl_status_t (*attr_create)(dnnl_ukernel_attr_params_t *) = dnnl_ukernel_attr_params_create;
    dnnl_status_t (*attr_po)(dnnl_ukernel_attr_params_t, const void **)
            = dnnl_ukernel_attr_params_set_post_ops_args;
    dnnl_status_t (*attr_scales[3])(dnnl_ukernel_attr_params_t, const void *)
            = {dnnl_ukernel_attr_params_set_A_scales, dnnl_ukernel_attr_params_set_B_scales,
                    dnnl_ukernel_attr_params_set_D_scales};
    dnnl_status_t (*attr_destroy)(dnnl_ukernel_attr_params_t) = dnnl_ukernel_attr_params_destroy;
    dnnl_status_t (*create)(dnnl_brgemm_t *, dnnl_dim_t, dnnl_dim_t, dnnl_dim_t, dnnl_dim_t,
            dnnl_dim_t, dnnl_dim_t, dnnl_dim_t, dnnl_data_type_t, dnnl_data_type_t,
            dnnl_data_type_t)
            = dnnl_brgemm_create;
    dnnl_status_t (*set_int[5])(dnnl_brgemm_t, int)
            = {dnnl_brgemm_set_add_C, dnnl_brgemm_set_A_scales, dnnl_brgemm_set_B_scales,
                    dnnl_brgemm_set_D_scales, NULL};
    dnnl_status_t (*set_po)(dnnl_brgemm_t, dnnl_dim_t, dnnl_data_type_t, const_dnnl_post_ops_t)
            = dnnl_brgemm_set_post_ops;
    dnnl_status_t (*step[3])(dnnl_brgemm_t)
            = {dnnl_brgemm_finalize, dnnl_brgemm_generate, dnnl_brgemm_destroy};
    dnnl_status_t (*pack)(dnnl_pack_type_t *, dnnl_data_type_t, dnnl_data_type_t)
            = dnnl_brgemm_get_B_pack_type;
    dnnl_status_t (*scratch)(const_dnnl_brgemm_t, size_t *) = dnnl_brgemm_get_scratchpad_size;
    dnnl_status_t (*valid)(const_dnnl_brgemm_t, int *) = dnnl_brgemm_is_execute_postops_valid;
    dnnl_status_t (*hw)(const_dnnl_brgemm_t) = dnnl_brgemm_set_hw_context;
    dnnl_status_t (*release)(void) = dnnl_brgemm_release_hw_context;
    dnnl_status_t (*exec)(const_dnnl_brgemm_t, const void *, const void *, const dnnl_dim_t *,
            void *, void *)
            = dnnl_brgemm_execute;
    dnnl_status_t (*exec_po)(const_dnnl_brgemm_t, const void *, const void *,
            const dnnl_dim_t *, const void *, void *, void *, const_dnnl_ukernel_attr_params_t)
            = dnnl_brgemm_execute_postops;
    dnnl_status_t (*tr_create)(dnnl_transform_t *, dnnl_dim_t, dnnl_dim_t, dnnl_pack_type_t,
            dnnl_dim_t, dnnl_dim_t, dnnl_data_type_t, dnnl_data_type_t)
            = dnnl_transform_create;
    dnnl_status_t (*tr_step[2])(dnnl_transform_t) = {dnnl_transform_generate, dnnl_transform_destroy};
    dnnl_status_t (*tr_exec)(const_dnnl_transform_t, const void *, void *) = dnnl_transform_execute;
    (void)attr_create, (void)attr_po, (void)attr_scales, (void)attr_destroy, (void)create;
    (void)set_int, (void)set_po, (void)step, (void)pack, (void)scratch, (void)valid, (void)hw;
    (void)release, (void)exec, (void)exec_po, (void)tr_create, (void)tr_step, (void)tr_exec;
}

void (*ukernel_c_headers_keep)(void) = ukernel_prototypes;
