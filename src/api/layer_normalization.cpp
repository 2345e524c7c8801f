// dnnl_layer_normalization_{forward,backward}_primitive_desc_create(_v2): argument checks and
// the descriptor. Statistics cover every dimension but the last; scale and shift the last.
#include <cstring>

#include "api/api.hpp"
#include "core/primitive_desc.hpp"

using namespace anydnn;

namespace {

constexpr unsigned known_flags
        = dnnl_use_global_stats | dnnl_use_scale | dnnl_use_shift | dnnl_rms_norm;

bool same_dims(const memory_desc_t &a, const memory_desc_t &b) {
    return a.ndims == b.ndims
            && std::memcmp(a.dims, b.dims, sizeof(dnnl_dim_t) * a.ndims) == 0;
}

status_t check_tensor(const memory_desc_t *md, const char *name) {
    ANYDNN_REQUIRE(md != nullptr, dnnl_invalid_arguments, "%s descriptor is null", name);
    ANYDNN_REQUIRE(md->ndims >= 2 && md->ndims <= DNNL_MAX_NDIMS, dnnl_invalid_arguments,
            "%s has %d dimensions (layer normalization needs 2 to %d)", name, md->ndims,
            DNNL_MAX_NDIMS);
    ANYDNN_REQUIRE(md->data_type != dnnl_data_type_undef, dnnl_invalid_arguments,
            "%s has no data type", name);
    for (int d = 0; d < md->ndims; ++d)
        ANYDNN_REQUIRE(md->dims[d] >= 0 || md->dims[d] == DNNL_RUNTIME_DIM_VAL,
                dnnl_invalid_arguments, "%s has a negative dimension", name);
    return dnnl_success;
}

status_t check_common(float epsilon, unsigned flags, dnnl_data_type_t ss_dt) {
    ANYDNN_REQUIRE((flags & ~known_flags) == 0, dnnl_invalid_arguments,
            "flags 0x%x hold bits layer normalization does not know", flags);
    ANYDNN_REQUIRE(epsilon >= 0.f, dnnl_invalid_arguments, "epsilon %g is negative", epsilon);
    ANYDNN_REQUIRE(ss_dt == dnnl_f32 || ss_dt == dnnl_bf16 || ss_dt == dnnl_f16,
            dnnl_invalid_arguments, "scale/shift data type %s is not f32, bf16 or f16",
            dnnl_dt2str(ss_dt));
    return dnnl_success;
}

// The statistics descriptor: the user's (checked), or src's dims but the last, f32, dense.
status_t make_stat_md(const memory_desc_t &src, const memory_desc_t *user, memory_desc_t &stat) {
    const int n = src.ndims - 1;
    if (user && user->ndims != 0) {
        ANYDNN_REQUIRE(user->ndims == n
                        && std::memcmp(user->dims, src.dims, sizeof(dnnl_dim_t) * n) == 0,
                dnnl_invalid_arguments, "stat_desc must have src's dimensions but the last");
        ANYDNN_REQUIRE(user->data_type == dnnl_f32, dnnl_invalid_arguments,
                "stat_desc must be f32 (got %s)", dnnl_dt2str(user->data_type));
        stat = *user;
        return dnnl_success;
    }
    return md_init_with_strides(stat, n, src.dims, dnnl_f32, nullptr);
}

status_t make_vec_md(const memory_desc_t &src, dnnl_data_type_t dt, memory_desc_t &md) {
    const dnnl_dims_t c = {src.dims[src.ndims - 1]};
    return md_init_with_strides(md, 1, c, dt, nullptr);
}

status_t fwd_create(dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t dst_desc, const_dnnl_memory_desc_t stat_desc,
        dnnl_data_type_t ss_dt, float epsilon, unsigned flags,
        const_dnnl_primitive_attr_t attr) {
    ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
    ANYDNN_REQUIRE_LIVE(engine, engine);
    if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
    ANYDNN_REQUIRE(prop_kind == dnnl_forward_training || prop_kind == dnnl_forward_inference,
            dnnl_invalid_arguments, "prop kind %s is not a forward one",
            dnnl_prop_kind2str(prop_kind));
    ANYDNN_CHECK(check_common(epsilon, flags, ss_dt));
    ANYDNN_CHECK(check_tensor(src_desc, "src"));
    ANYDNN_CHECK(check_tensor(dst_desc, "dst"));
    ANYDNN_REQUIRE(same_dims(*src_desc, *dst_desc), dnnl_invalid_arguments,
            "src and dst dimensions differ");

    layer_normalization_desc_t d {};
    d.prop_kind = prop_kind;
    d.src_md = *src_desc;
    d.dst_md = *dst_desc;
    d.diff_src_md = zero_md();
    d.diff_dst_md = zero_md();
    ANYDNN_CHECK(make_stat_md(*src_desc, stat_desc, d.stat_md));
    ANYDNN_CHECK(make_vec_md(*src_desc, ss_dt, d.scaleshift_md));
    d.diff_scaleshift_md = zero_md();
    d.epsilon = epsilon;
    d.flags = flags;
    d.scale_shift_dt = ss_dt;
    return primitive_desc_create(primitive_desc, d, attr, engine, nullptr);
}

status_t bwd_create(dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, const_dnnl_memory_desc_t diff_src_desc,
        const_dnnl_memory_desc_t diff_dst_desc, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t stat_desc, dnnl_data_type_t diff_ss_dt,
        dnnl_data_type_t ss_dt, float epsilon, unsigned flags,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
    ANYDNN_REQUIRE_LIVE(engine, engine);
    if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
    ANYDNN_REQUIRE(prop_kind == dnnl_backward || prop_kind == dnnl_backward_data,
            dnnl_invalid_arguments, "prop kind %s is not backward or backward_data",
            dnnl_prop_kind2str(prop_kind));
    ANYDNN_CHECK(check_common(epsilon, flags, ss_dt));
    ANYDNN_CHECK(check_common(epsilon, flags, diff_ss_dt));
    ANYDNN_CHECK(check_tensor(diff_src_desc, "diff_src"));
    ANYDNN_CHECK(check_tensor(diff_dst_desc, "diff_dst"));
    ANYDNN_CHECK(check_tensor(src_desc, "src"));
    ANYDNN_REQUIRE(same_dims(*diff_src_desc, *src_desc) && same_dims(*diff_dst_desc, *src_desc),
            dnnl_invalid_arguments, "diff_src, diff_dst and src dimensions differ");
    ANYDNN_REQUIRE(hint_fwd_pd != nullptr, dnnl_invalid_arguments,
            "backward layer normalization needs hint_fwd_pd");
    ANYDNN_REQUIRE_LIVE(primitive_desc, hint_fwd_pd);
    ANYDNN_REQUIRE(hint_fwd_pd->impl && hint_fwd_pd->impl->kind() == dnnl_layer_normalization,
            dnnl_invalid_arguments,
            "hint_fwd_pd is not a layer normalization primitive descriptor");

    layer_normalization_desc_t d {};
    d.prop_kind = prop_kind;
    d.src_md = *src_desc;
    d.dst_md = zero_md();
    d.diff_src_md = *diff_src_desc;
    d.diff_dst_md = *diff_dst_desc;
    ANYDNN_CHECK(make_stat_md(*src_desc, stat_desc, d.stat_md));
    ANYDNN_CHECK(make_vec_md(*src_desc, ss_dt, d.scaleshift_md));
    ANYDNN_CHECK(make_vec_md(*src_desc, diff_ss_dt, d.diff_scaleshift_md));
    d.epsilon = epsilon;
    d.flags = flags;
    d.scale_shift_dt = ss_dt;
    return primitive_desc_create(primitive_desc, d, attr, engine, hint_fwd_pd);
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_layer_normalization_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc,
        const_dnnl_memory_desc_t stat_desc, float epsilon, unsigned flags,
        const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        return fwd_create(primitive_desc, engine, prop_kind, src_desc, dst_desc, stat_desc,
                dnnl_f32, epsilon, flags, attr);
    });
}

DNNL_API dnnl_status_t dnnl_layer_normalization_forward_primitive_desc_create_v2(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc,
        const_dnnl_memory_desc_t stat_desc, dnnl_data_type_t scale_shift_data_type, float epsilon,
        unsigned flags, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        return fwd_create(primitive_desc, engine, prop_kind, src_desc, dst_desc, stat_desc,
                scale_shift_data_type, epsilon, flags, attr);
    });
}

DNNL_API dnnl_status_t dnnl_layer_normalization_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t stat_desc, float epsilon,
        unsigned flags, const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        return bwd_create(primitive_desc, engine, prop_kind, diff_src_desc, diff_dst_desc,
                src_desc, stat_desc, dnnl_f32, dnnl_f32, epsilon, flags, hint_fwd_pd, attr);
    });
}

DNNL_API dnnl_status_t dnnl_layer_normalization_backward_primitive_desc_create_v2(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t stat_desc,
        dnnl_data_type_t diff_scale_shift_data_type, dnnl_data_type_t scale_shift_data_type,
        float epsilon, unsigned flags, const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        return bwd_create(primitive_desc, engine, prop_kind, diff_src_desc, diff_dst_desc,
                src_desc, stat_desc, diff_scale_shift_data_type, scale_shift_data_type, epsilon,
                flags, hint_fwd_pd, attr);
    });
}

} // extern "C"
