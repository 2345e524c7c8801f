/* anydnn: ukernel C++ API (oneDNN v3.13 compatible, experimental): inline wrappers of
 * dnnl_ukernel.h in namespace dnnl::ukernel. Failures throw dnnl::error. */
#ifndef ONEAPI_DNNL_DNNL_UKERNEL_HPP
#define ONEAPI_DNNL_DNNL_UKERNEL_HPP

#include <utility>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ukernel.h"

namespace dnnl {

#ifdef DNNL_EXPERIMENTAL_UKERNEL

template <>
struct handle_traits<dnnl_brgemm_t> {
    static dnnl_status_t destructor(dnnl_brgemm_t p) { return dnnl_brgemm_destroy(p); }
};

template <>
struct handle_traits<dnnl_transform_t> {
    static dnnl_status_t destructor(dnnl_transform_t p) { return dnnl_transform_destroy(p); }
};

template <>
struct handle_traits<dnnl_ukernel_attr_params_t> {
    static dnnl_status_t destructor(dnnl_ukernel_attr_params_t p) {
        return dnnl_ukernel_attr_params_destroy(p);
    }
};

#endif

namespace ukernel {

#ifdef DNNL_EXPERIMENTAL_UKERNEL

/// Layout of a K x N matrix B (see dnnl_pack_type_t).
enum class pack_type {
    undef = dnnl_pack_type_undef,
    no_trans = dnnl_pack_type_no_trans,
    trans = dnnl_pack_type_trans,
    pack32 = dnnl_pack_type_pack32,
};

/// Run-time pointers of post-op tensors and scales for brgemm::execute with D.
struct attr_params : public handle<dnnl_ukernel_attr_params_t> {
    attr_params() {
        dnnl_ukernel_attr_params_t p = nullptr;
        error::wrap_c_api(dnnl_ukernel_attr_params_create(&p),
                "could not create ukernel attribute parameters");
        reset(p);
    }

    /// One pointer per binary post-op, in chain order.
    void set_post_ops_args(const void **post_ops_args) {
        error::wrap_c_api(dnnl_ukernel_attr_params_set_post_ops_args(get(), post_ops_args),
                "could not set post-op arguments");
    }

    void set_A_scales(const void *a_scales) {
        error::wrap_c_api(dnnl_ukernel_attr_params_set_A_scales(get(), a_scales),
                "could not set A scales");
    }

    /// N values when the brgemm's B scale mask is 2, else one.
    void set_B_scales(const void *b_scales) {
        error::wrap_c_api(dnnl_ukernel_attr_params_set_B_scales(get(), b_scales),
                "could not set B scales");
    }

    void set_D_scales(const void *d_scales) {
        error::wrap_c_api(dnnl_ukernel_attr_params_set_D_scales(get(), d_scales),
                "could not set D scales");
    }
};

/// Batch-reduce GEMM: C (+)= sum over the batch of A_i x B_i, then optionally
/// D = post-ops(scaled C).
struct brgemm : public handle<dnnl_brgemm_t> {
    brgemm() = default;

    /// With allow_empty, a configuration that cannot be made gives an empty object
    /// instead of throwing.
    brgemm(memory::dim M, memory::dim N, memory::dim K, memory::dim batch_size,
            memory::dim lda, memory::dim ldb, memory::dim ldc, memory::data_type a_dt,
            memory::data_type b_dt, memory::data_type c_dt, bool allow_empty = false) {
        dnnl_brgemm_t p = nullptr;
        const dnnl_status_t st = dnnl_brgemm_create(&p, M, N, K, batch_size, lda, ldb, ldc,
                memory::convert_to_c(a_dt), memory::convert_to_c(b_dt),
                memory::convert_to_c(c_dt));
        if (!allow_empty) error::wrap_c_api(st, "could not create a brgemm ukernel");
        reset(st == dnnl_success ? p : nullptr);
    }

    void set_add_C(bool add_C) {
        error::wrap_c_api(dnnl_brgemm_set_add_C(get(), add_C ? 1 : 0),
                "could not set add_C of a brgemm ukernel");
    }

    void set_post_ops(memory::dim ldd, memory::data_type d_dt,
            const post_ops &po = default_post_ops()) {
        error::wrap_c_api(dnnl_brgemm_set_post_ops(get(), ldd, memory::convert_to_c(d_dt),
                                  po.get(true)),
                "could not set post-ops of a brgemm ukernel");
    }

    void set_A_scales(int a_scale_mask) {
        error::wrap_c_api(dnnl_brgemm_set_A_scales(get(), a_scale_mask),
                "could not set A scales of a brgemm ukernel");
    }

    void set_B_scales(int b_scale_mask) {
        error::wrap_c_api(dnnl_brgemm_set_B_scales(get(), b_scale_mask),
                "could not set B scales of a brgemm ukernel");
    }

    void set_D_scales(int d_scale_mask) {
        error::wrap_c_api(dnnl_brgemm_set_D_scales(get(), d_scale_mask),
                "could not set D scales of a brgemm ukernel");
    }

    void finalize() {
        error::wrap_c_api(dnnl_brgemm_finalize(get()), "could not finalize a brgemm ukernel");
    }

    /// The layout B must have for a brgemm of a_dt x b_dt (a property of the types and
    /// the CPU, so no object is needed).
    static pack_type get_B_pack_type(memory::data_type a_dt, memory::data_type b_dt) {
        dnnl_pack_type_t t = dnnl_pack_type_undef;
        error::wrap_c_api(dnnl_brgemm_get_B_pack_type(&t, memory::convert_to_c(a_dt),
                                  memory::convert_to_c(b_dt)),
                "could not query the B pack type of a brgemm ukernel");
        return static_cast<pack_type>(t);
    }

    size_t get_scratchpad_size() const {
        size_t size = 0;
        error::wrap_c_api(dnnl_brgemm_get_scratchpad_size(get(), &size),
                "could not query the scratchpad size of a brgemm ukernel");
        return size;
    }

    bool is_execute_postops_valid() const {
        int valid = 0;
        error::wrap_c_api(dnnl_brgemm_is_execute_postops_valid(get(), &valid),
                "could not query a brgemm ukernel");
        return valid != 0;
    }

    void set_hw_context() const {
        error::wrap_c_api(dnnl_brgemm_set_hw_context(get()),
                "could not set the hardware context of a brgemm ukernel");
    }

    static void release_hw_context() {
        error::wrap_c_api(dnnl_brgemm_release_hw_context(),
                "could not release the hardware context");
    }

    void generate() {
        error::wrap_c_api(dnnl_brgemm_generate(get()), "could not generate a brgemm ukernel");
    }

    /// Byte offsets of (A_i, B_i) per batch element.
    void execute(const void *A, const void *B,
            const std::vector<std::pair<memory::dim, memory::dim>> &A_B_offsets, void *C,
            void *scratchpad) const {
        error::wrap_c_api(dnnl_brgemm_execute(get(), A, B,
                                  reinterpret_cast<const dnnl_dim_t *>(A_B_offsets.data()),
                                  C, scratchpad),
                "could not execute a brgemm ukernel");
    }

    void execute(const void *A, const void *B,
            const std::vector<std::pair<memory::dim, memory::dim>> &A_B_offsets,
            const void *C, void *D, void *scratchpad,
            const attr_params &params = default_attr_params()) const {
        error::wrap_c_api(dnnl_brgemm_execute_postops(get(), A, B,
                                  reinterpret_cast<const dnnl_dim_t *>(A_B_offsets.data()),
                                  C, D, scratchpad, params.get()),
                "could not execute a brgemm ukernel with post-ops");
    }

    static const post_ops &default_post_ops() {
        static const post_ops po;
        return po;
    }

    static const attr_params &default_attr_params() {
        static const attr_params ap;
        return ap;
    }
};

/// Packs B (ab or ba) into the layout a brgemm asks for.
struct transform : public handle<dnnl_transform_t> {
    transform() = default;

    transform(memory::dim K, memory::dim N, pack_type in_pack_type, memory::dim in_ld,
            memory::dim out_ld, memory::data_type in_dt, memory::data_type out_dt,
            bool allow_empty = false) {
        dnnl_transform_t p = nullptr;
        const dnnl_status_t st = dnnl_transform_create(&p, K, N,
                static_cast<dnnl_pack_type_t>(in_pack_type), in_ld, out_ld,
                memory::convert_to_c(in_dt), memory::convert_to_c(out_dt));
        if (!allow_empty) error::wrap_c_api(st, "could not create a transform ukernel");
        reset(st == dnnl_success ? p : nullptr);
    }

    void generate() {
        error::wrap_c_api(
                dnnl_transform_generate(get()), "could not generate a transform ukernel");
    }

    void execute(const void *in, void *out) const {
        error::wrap_c_api(
                dnnl_transform_execute(get(), in, out), "could not execute a transform ukernel");
    }
};

#endif

} // namespace ukernel
} // namespace dnnl

#endif /* ONEAPI_DNNL_DNNL_UKERNEL_HPP */
