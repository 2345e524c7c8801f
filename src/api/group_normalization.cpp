// dnnl_group_normalization_{forward,backward}_primitive_desc_create: argument checks and the
// descriptor (statistics are f32 {N, groups}; scale and shift f32 vectors over channels).
#include <cstring>

#include "api/api.hpp"
#include "core/primitive_desc.hpp"

using namespace anydnn;

namespace {

status_t check_tensor(const memory_desc_t *md, const char *name) {
    ANYDNN_REQUIRE(md != nullptr, dnnl_invalid_arguments, "%s descriptor is null", name);
    ANYDNN_REQUIRE(md->ndims >= 2 && md->ndims <= 5, dnnl_invalid_arguments,
            "%s has %d dimensions (group normalization takes 2 to 5)", name, md->ndims);
    ANYDNN_REQUIRE(md->data_type != dnnl_data_type_undef, dnnl_invalid_arguments,
            "%s has no data type", name);
    for (int d = 0; d < md->ndims; ++d)
        ANYDNN_REQUIRE(md->dims[d] >= 0, dnnl_invalid_arguments,
                "%s has a negative or runtime dimension", name);
    return dnnl_success;
}

bool same_dims(const memory_desc_t &a, const memory_desc_t &b) {
    return a.ndims == b.ndims
            && std::memcmp(a.dims, b.dims, sizeof(dnnl_dim_t) * a.ndims) == 0;
}

status_t check_params(const memory_desc_t &src, dim_t groups, float epsilon, unsigned flags) {
    ANYDNN_REQUIRE((flags & ~unsigned(dnnl_use_global_stats | dnnl_use_scale | dnnl_use_shift))
                    == 0,
            dnnl_invalid_arguments,
            "flags 0x%x: group normalization knows use_global_stats, use_scale, use_shift",
            flags);
    ANYDNN_REQUIRE(epsilon >= 0.f, dnnl_invalid_arguments, "epsilon %g is negative", epsilon);
    ANYDNN_REQUIRE(groups >= 1, dnnl_invalid_arguments, "groups %lld is not positive",
            static_cast<long long>(groups));
    ANYDNN_REQUIRE(src.dims[1] % groups == 0, dnnl_invalid_arguments,
            "channels %lld are not a multiple of groups %lld",
            static_cast<long long>(src.dims[1]), static_cast<long long>(groups));
    return dnnl_success;
}

memory_desc_t f32_md(int ndims, dim_t a, dim_t b = 1) {
    memory_desc_t md;
    dnnl_dims_t dims = {a, b};
    md_init_with_tag(md, ndims, dims, dnnl_f32, ndims == 1 ? dnnl_a : dnnl_ab);
    return md;
}

void fill_common(group_normalization_desc_t &d, const memory_desc_t &src, dim_t groups,
        float epsilon, unsigned flags) {
    d.stat_md = f32_md(2, src.dims[0], groups);
    d.scaleshift_md = (flags & (dnnl_use_scale | dnnl_use_shift)) ? f32_md(1, src.dims[1])
                                                                   : zero_md();
    d.diff_scaleshift_md = zero_md();
    d.epsilon = epsilon;
    d.flags = flags;
    d.groups = groups;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_group_normalization_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc, dnnl_dim_t groups,
        float epsilon, unsigned flags, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_REQUIRE(prop_kind == dnnl_forward_training || prop_kind == dnnl_forward_inference,
                dnnl_invalid_arguments, "prop kind %s is not a forward one",
                dnnl_prop_kind2str(prop_kind));
        ANYDNN_CHECK(check_tensor(src_desc, "src"));
        ANYDNN_CHECK(check_tensor(dst_desc, "dst"));
        ANYDNN_REQUIRE(same_dims(*src_desc, *dst_desc), dnnl_invalid_arguments,
                "src and dst dimensions differ");
        ANYDNN_CHECK(check_params(*src_desc, groups, epsilon, flags));

        group_normalization_desc_t d {};
        d.prop_kind = prop_kind;
        d.src_md = *src_desc;
        d.dst_md = *dst_desc;
        d.diff_src_md = zero_md();
        d.diff_dst_md = zero_md();
        fill_common(d, *src_desc, groups, epsilon, flags);
        return primitive_desc_create(primitive_desc, d, attr, engine, nullptr);
    });
}

DNNL_API dnnl_status_t dnnl_group_normalization_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
        const_dnnl_memory_desc_t src_desc, dnnl_dim_t groups, float epsilon, unsigned flags,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_REQUIRE(prop_kind == dnnl_backward || prop_kind == dnnl_backward_data,
                dnnl_invalid_arguments, "prop kind %s is not a backward one",
                dnnl_prop_kind2str(prop_kind));
        ANYDNN_CHECK(check_tensor(src_desc, "src"));
        ANYDNN_CHECK(check_tensor(diff_src_desc, "diff_src"));
        ANYDNN_CHECK(check_tensor(diff_dst_desc, "diff_dst"));
        ANYDNN_REQUIRE(same_dims(*src_desc, *diff_src_desc)
                        && same_dims(*src_desc, *diff_dst_desc),
                dnnl_invalid_arguments, "src, diff_src and diff_dst dimensions differ");
        ANYDNN_CHECK(check_params(*src_desc, groups, epsilon, flags));
        ANYDNN_REQUIRE(hint_fwd_pd != nullptr, dnnl_invalid_arguments,
                "backward group normalization needs hint_fwd_pd");
        ANYDNN_REQUIRE_LIVE(primitive_desc, hint_fwd_pd);
        ANYDNN_REQUIRE(hint_fwd_pd->impl && hint_fwd_pd->impl->kind() == dnnl_group_normalization,
                dnnl_invalid_arguments,
                "hint_fwd_pd is not a group normalization primitive descriptor");

        group_normalization_desc_t d {};
        d.prop_kind = prop_kind;
        d.src_md = *src_desc;
        d.dst_md = zero_md();
        d.diff_src_md = *diff_src_desc;
        d.diff_dst_md = *diff_dst_desc;
        fill_common(d, *src_desc, groups, epsilon, flags);
        if (prop_kind == dnnl_backward && (flags & (dnnl_use_scale | dnnl_use_shift)))
            d.diff_scaleshift_md = d.scaleshift_md;
        return primitive_desc_create(primitive_desc, d, attr, engine, hint_fwd_pd);
    });
}

} // extern "C"
