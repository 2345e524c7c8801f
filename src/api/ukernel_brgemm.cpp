// C entry points of the brgemm ukernel (dnnl_ukernel.h). Configuration calls check handles
// against the live-handle registry; the execution calls, made from the application's hot loops,
// check only what costs nothing (null pointers, the object's own state): no lock, no lookup,
// no allocation.
#include "oneapi/dnnl/dnnl_ukernel.h"

#ifdef DNNL_EXPERIMENTAL_UKERNEL

#include <memory>
#include <string>

#include "api/api.hpp"
#include "api/ukernel_handles.hpp"
#include "core/verbose.hpp"
#include "core/ukernel.hpp"

using namespace anydnn;

#define ANYDNN_REQUIRE_LIVE_BRGEMM(p) \
    ANYDNN_REQUIRE(ukernel_handle_live(ukernel_handle::brgemm, (p)), dnnl_invalid_arguments, \
            "%s is null or not a live brgemm", #p)

// Setters: a live brgemm that is not finalized yet.
#define ANYDNN_REQUIRE_CONFIGURABLE(p) \
    do { \
        ANYDNN_REQUIRE_LIVE_BRGEMM(p); \
        ANYDNN_REQUIRE(!(p)->finalized, dnnl_invalid_arguments, \
                "brgemm is finalized: its configuration is fixed"); \
    } while (0)

// Queries: a live brgemm that is finalized.
#define ANYDNN_REQUIRE_FINALIZED(p) \
    do { \
        ANYDNN_REQUIRE_LIVE_BRGEMM(p); \
        ANYDNN_REQUIRE((p)->finalized, dnnl_invalid_arguments, \
                "brgemm is not finalized (dnnl_brgemm_finalize)"); \
    } while (0)

namespace {

status_t check_mask(int mask, bool per_n_allowed, const char *what) {
    ANYDNN_REQUIRE(mask >= 0, dnnl_invalid_arguments, "%s scale mask %d is negative", what, mask);
    ANYDNN_REQUIRE(mask == 0 || (per_n_allowed && mask == 2), dnnl_unimplemented,
            "%s scale mask %d: brgemm takes %s", what, mask,
            per_n_allowed ? "0 (one scale) or 2 (per column)" : "0 (one scale)");
    return dnnl_success;
}

// The pointers every execution needs; runs on the hot path.
status_t check_execution(const dnnl_brgemm *b, const void *A, const void *B,
        const dnnl_dim_t *offsets) {
    ANYDNN_REQUIRE(b != nullptr, dnnl_invalid_arguments, "brgemm is null");
    ANYDNN_REQUIRE(b->conf.kernel != nullptr, dnnl_invalid_arguments,
            "brgemm executed before dnnl_brgemm_generate");
    ANYDNN_REQUIRE(A && B && offsets, dnnl_invalid_arguments,
            "brgemm A, B and A_B_offsets must not be null");
    return dnnl_success;
}

} // namespace

DNNL_API dnnl_status_t dnnl_brgemm_create(dnnl_brgemm_t *brgemm, dnnl_dim_t M, dnnl_dim_t N,
        dnnl_dim_t K, dnnl_dim_t batch_size, dnnl_dim_t lda, dnnl_dim_t ldb, dnnl_dim_t ldc,
        dnnl_data_type_t a_dt, dnnl_data_type_t b_dt, dnnl_data_type_t c_dt) {
    ANYDNN_REQUIRE_NOT_NULL(brgemm);
    *brgemm = nullptr;
    ANYDNN_REQUIRE(M > 0 && N > 0 && K > 0 && batch_size > 0, dnnl_invalid_arguments,
            "brgemm takes M, N, K, batch_size > 0 (got %lld, %lld, %lld, %lld)", (long long)M,
            (long long)N, (long long)K, (long long)batch_size);
    ANYDNN_REQUIRE(lda >= K && ldb >= N && ldc >= N, dnnl_invalid_arguments,
            "brgemm needs lda >= K, ldb >= N, ldc >= N (got %lld, %lld, %lld)", (long long)lda,
            (long long)ldb, (long long)ldc);
    const auto as_dt = [](dnnl_data_type_t dt) {
        return static_cast<dnnl_data_type_t>(raw_value(dt));
    };
    ANYDNN_CHECK(cpu::ukernel::brgemm_check_types(as_dt(a_dt), as_dt(b_dt), as_dt(c_dt)));
    return guarded(__func__, [&] {
        auto p = std::make_unique<dnnl_brgemm>();
        auto &c = p->conf;
        c.M = M;
        c.N = N;
        c.K = K;
        c.batch = batch_size;
        c.lda = lda;
        c.ldb = ldb;
        c.ldc = ldc;
        c.a_dt = a_dt;
        c.b_dt = b_dt;
        c.c_dt = c_dt;
        ukernel_handle_add(ukernel_handle::brgemm, p.get());
        *brgemm = p.release();
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_brgemm_set_add_C(dnnl_brgemm_t brgemm, int add_C) {
    ANYDNN_REQUIRE_CONFIGURABLE(brgemm);
    brgemm->conf.add_C = add_C != 0;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_brgemm_set_post_ops(dnnl_brgemm_t brgemm, dnnl_dim_t ldd,
        dnnl_data_type_t d_dt, const_dnnl_post_ops_t post_ops) {
    ANYDNN_REQUIRE_CONFIGURABLE(brgemm);
    ANYDNN_REQUIRE(!post_ops || registry_contains(object_kind::post_ops, post_ops),
            dnnl_invalid_arguments, "post_ops is not a live post-ops object");
    return guarded(__func__, [&] {
        return cpu::ukernel::brgemm_set_post_ops(brgemm->conf, ldd,
                static_cast<dnnl_data_type_t>(raw_value(d_dt)), post_ops);
    });
}

DNNL_API dnnl_status_t dnnl_brgemm_set_A_scales(dnnl_brgemm_t brgemm, int a_scale_mask) {
    ANYDNN_REQUIRE_CONFIGURABLE(brgemm);
    ANYDNN_CHECK(check_mask(a_scale_mask, false, "A"));
    brgemm->conf.a_scale_mask = a_scale_mask;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_brgemm_set_B_scales(dnnl_brgemm_t brgemm, int b_scale_mask) {
    ANYDNN_REQUIRE_CONFIGURABLE(brgemm);
    ANYDNN_CHECK(check_mask(b_scale_mask, true, "B"));
    brgemm->conf.b_scale_mask = b_scale_mask;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_brgemm_set_D_scales(dnnl_brgemm_t brgemm, int d_scale_mask) {
    ANYDNN_REQUIRE_CONFIGURABLE(brgemm);
    ANYDNN_CHECK(check_mask(d_scale_mask, false, "D"));
    brgemm->conf.d_scale_mask = d_scale_mask;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_brgemm_finalize(dnnl_brgemm_t brgemm) {
    ANYDNN_REQUIRE_CONFIGURABLE(brgemm);
    ANYDNN_CHECK(cpu::ukernel::brgemm_finalize(brgemm->conf));
    brgemm->finalized = true;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_brgemm_get_B_pack_type(
        dnnl_pack_type_t *pack_type, dnnl_data_type_t a_dt, dnnl_data_type_t b_dt) {
    ANYDNN_REQUIRE_NOT_NULL(pack_type);
    return cpu::ukernel::brgemm_b_pack_type_for(a_dt, b_dt, pack_type);
}

DNNL_API dnnl_status_t dnnl_brgemm_get_scratchpad_size(const_dnnl_brgemm_t brgemm, size_t *size) {
    ANYDNN_REQUIRE_NOT_NULL(size);
    ANYDNN_REQUIRE_FINALIZED(brgemm);
    *size = brgemm->conf.scratchpad_size;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_brgemm_is_execute_postops_valid(
        const_dnnl_brgemm_t brgemm, int *valid) {
    ANYDNN_REQUIRE_NOT_NULL(valid);
    ANYDNN_REQUIRE_FINALIZED(brgemm);
    *valid = brgemm->conf.postops_valid ? 1 : 0;
    return dnnl_success;
}

// AVX-512 keeps no tile configuration between calls: nothing to set up or release. Called in
// the application's loops, so only the null check.
DNNL_API dnnl_status_t dnnl_brgemm_set_hw_context(const_dnnl_brgemm_t brgemm) {
    ANYDNN_REQUIRE_NOT_NULL(brgemm);
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_brgemm_release_hw_context() {
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_brgemm_generate(dnnl_brgemm_t brgemm) {
    ANYDNN_REQUIRE_FINALIZED(brgemm);
    // Once generated the object is only read (other threads may be executing it).
    if (brgemm->conf.kernel) return dnnl_success;
    ANYDNN_CHECK(cpu::ukernel::brgemm_generate(brgemm->conf));
    if (verbose_on(verbose_flag::create)) {
        const auto &c = brgemm->conf;
        verbose_print("ukernel,create",
                std::string("brgemm,") + c.kernel_name + "," + dnnl_dt2str(c.a_dt) + ":"
                        + dnnl_dt2str(c.b_dt) + ":" + dnnl_dt2str(c.c_dt) + ",M"
                        + std::to_string(c.M) + "N" + std::to_string(c.N) + "K"
                        + std::to_string(c.K) + "bs" + std::to_string(c.batch));
    }
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_brgemm_execute(const_dnnl_brgemm_t brgemm, const void *A_ptr,
        const void *B_ptr, const dnnl_dim_t *A_B_offsets, void *C_ptr, void *scratchpad_ptr) {
    ANYDNN_CHECK(check_execution(brgemm, A_ptr, B_ptr, A_B_offsets));
    ANYDNN_REQUIRE_NOT_NULL(C_ptr);
    const auto &c = brgemm->conf;
    c.kernel(c, {static_cast<const char *>(A_ptr), static_cast<const char *>(B_ptr), A_B_offsets,
                        C_ptr, c.ldc, c.add_C});
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_brgemm_execute_postops(const_dnnl_brgemm_t brgemm, const void *A,
        const void *B, const dnnl_dim_t *A_B_offsets, const void *C_ptr, void *D_ptr,
        void *scratchpad_ptr, const_dnnl_ukernel_attr_params_t attr_params) {
    ANYDNN_CHECK(check_execution(brgemm, A, B, A_B_offsets));
    const auto &c = brgemm->conf;
    ANYDNN_REQUIRE(c.postops_valid, dnnl_invalid_arguments,
            "brgemm has no post-ops, scales or D type: use dnnl_brgemm_execute");
    ANYDNN_REQUIRE_NOT_NULL(D_ptr);
    ANYDNN_REQUIRE_NOT_NULL(scratchpad_ptr);
    ANYDNN_REQUIRE(C_ptr || !c.add_C, dnnl_invalid_arguments, "brgemm adds C: C_ptr is null");
    cpu::ukernel::postops_args_t args;
    const bool needs_params = c.binary_count > 0 || c.a_scale_mask >= 0 || c.b_scale_mask >= 0
            || c.d_scale_mask >= 0;
    if (needs_params) {
        ANYDNN_REQUIRE(attr_params, dnnl_invalid_arguments,
                "brgemm has binary post-ops or scales: attr_params is null");
        args.binary = attr_params->post_ops_args;
        args.a_scale = static_cast<const float *>(attr_params->a_scales);
        args.b_scales = static_cast<const float *>(attr_params->b_scales);
        args.d_scale = static_cast<const float *>(attr_params->d_scales);
        ANYDNN_REQUIRE(c.binary_count == 0 || args.binary, dnnl_invalid_arguments,
                "brgemm has binary post-ops: no post-op arguments were set");
        for (int i = 0; i < c.binary_count; ++i)
            ANYDNN_REQUIRE(args.binary[i], dnnl_invalid_arguments,
                    "argument of binary post-op %d is null", i);
        ANYDNN_REQUIRE((c.a_scale_mask < 0 || args.a_scale)
                        && (c.b_scale_mask < 0 || args.b_scales)
                        && (c.d_scale_mask < 0 || args.d_scale),
                dnnl_invalid_arguments, "brgemm scales were configured but not set");
    }
    // Scales set in attr_params but not configured are ignored, as configured ones rule.
    if (c.a_scale_mask < 0) args.a_scale = nullptr;
    if (c.b_scale_mask < 0) args.b_scales = nullptr;
    if (c.d_scale_mask < 0) args.d_scale = nullptr;
    c.kernel(c, {static_cast<const char *>(A), static_cast<const char *>(B), A_B_offsets,
                        scratchpad_ptr, c.N, false});
    cpu::ukernel::brgemm_apply_postops(
            c, scratchpad_ptr, c.N, c.add_C ? C_ptr : nullptr, D_ptr, args);
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_brgemm_destroy(dnnl_brgemm_t brgemm) {
    if (!brgemm) return dnnl_success;
    ANYDNN_REQUIRE_LIVE_BRGEMM(brgemm);
    ukernel_handle_remove(ukernel_handle::brgemm, brgemm);
    delete brgemm;
    return dnnl_success;
}

#endif
