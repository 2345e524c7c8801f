// dnnl_batch_normalization_{forward,backward}_primitive_desc_create: argument checks and the
// descriptor (statistics and scale/shift are f32 vectors over channels).
#include <cstring>

#include "api/api.hpp"
#include "core/primitive_desc.hpp"

using namespace anydnn;

namespace {

constexpr unsigned known_flags = dnnl_use_global_stats | dnnl_use_scale | dnnl_use_shift
        | dnnl_fuse_norm_relu | dnnl_fuse_norm_add_relu;

status_t check_tensor(const memory_desc_t *md, const char *name) {
    ANYDNN_REQUIRE(md != nullptr, dnnl_invalid_arguments, "%s descriptor is null", name);
    ANYDNN_REQUIRE(md->ndims >= 2 && md->ndims <= 5, dnnl_invalid_arguments,
            "%s has %d dimensions (batch normalization takes 2 to 5)", name, md->ndims);
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

status_t check_flags(unsigned flags, float epsilon) {
    ANYDNN_REQUIRE((flags & ~known_flags) == 0, dnnl_invalid_arguments,
            "flags 0x%x include ones batch normalization does not know", flags);
    ANYDNN_REQUIRE(!((flags & dnnl_fuse_norm_relu) && (flags & dnnl_fuse_norm_add_relu)),
            dnnl_invalid_arguments, "fuse_norm_relu and fuse_norm_add_relu exclude each other");
    ANYDNN_REQUIRE(epsilon >= 0.f, dnnl_invalid_arguments, "epsilon %g is negative", epsilon);
    return dnnl_success;
}

// The per-channel vectors: statistics, scale and shift.
memory_desc_t channel_md(dim_t c) {
    memory_desc_t md;
    dnnl_dims_t dims = {c};
    md_init_with_tag(md, 1, dims, dnnl_f32, dnnl_a);
    return md;
}

void fill_common(batch_normalization_desc_t &d, dim_t c, float epsilon, unsigned flags) {
    d.stat_md = channel_md(c);
    d.scaleshift_md = (flags & (dnnl_use_scale | dnnl_use_shift)) ? channel_md(c) : zero_md();
    d.epsilon = epsilon;
    d.flags = flags;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_batch_normalization_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t dst_desc, float epsilon,
        unsigned flags, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_REQUIRE(prop_kind == dnnl_forward_training || prop_kind == dnnl_forward_inference,
                dnnl_invalid_arguments, "prop kind %s is not a forward one",
                dnnl_prop_kind2str(prop_kind));
        ANYDNN_CHECK(check_flags(flags, epsilon));
        ANYDNN_CHECK(check_tensor(src_desc, "src"));
        ANYDNN_CHECK(check_tensor(dst_desc, "dst"));
        ANYDNN_REQUIRE(same_dims(*src_desc, *dst_desc), dnnl_invalid_arguments,
                "src and dst dimensions differ");
        batch_normalization_desc_t d {};
        d.prop_kind = prop_kind;
        d.src_md = *src_desc;
        d.dst_md = *dst_desc;
        d.diff_src_md = zero_md();
        d.diff_dst_md = zero_md();
        d.diff_scaleshift_md = zero_md();
        fill_common(d, src_desc->dims[1], epsilon, flags);
        return primitive_desc_create(primitive_desc, d, attr, engine, nullptr);
    });
}

DNNL_API dnnl_status_t dnnl_batch_normalization_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
        const_dnnl_memory_desc_t src_desc, float epsilon, unsigned flags,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_REQUIRE(prop_kind == dnnl_backward || prop_kind == dnnl_backward_data,
                dnnl_invalid_arguments, "prop kind %s is not backward or backward_data",
                dnnl_prop_kind2str(prop_kind));
        ANYDNN_CHECK(check_flags(flags, epsilon));
        ANYDNN_CHECK(check_tensor(diff_src_desc, "diff_src"));
        ANYDNN_CHECK(check_tensor(diff_dst_desc, "diff_dst"));
        ANYDNN_CHECK(check_tensor(src_desc, "src"));
        ANYDNN_REQUIRE(same_dims(*src_desc, *diff_src_desc)
                        && same_dims(*src_desc, *diff_dst_desc),
                dnnl_invalid_arguments, "src, diff_src and diff_dst dimensions differ");
        ANYDNN_REQUIRE(hint_fwd_pd != nullptr, dnnl_invalid_arguments,
                "backward batch normalization needs hint_fwd_pd");
        ANYDNN_REQUIRE_LIVE(primitive_desc, hint_fwd_pd);
        ANYDNN_REQUIRE(hint_fwd_pd->impl
                        && hint_fwd_pd->impl->kind() == dnnl_batch_normalization,
                dnnl_invalid_arguments,
                "hint_fwd_pd is not a batch normalization primitive descriptor");
        // The relu mask comes from the forward pass's workspace.
        ANYDNN_REQUIRE(!(flags & (dnnl_fuse_norm_relu | dnnl_fuse_norm_add_relu))
                        || op_prop_kind(hint_fwd_pd->desc) == dnnl_forward_training,
                dnnl_invalid_arguments,
                "fused relu backward needs a forward_training hint (it reads the workspace)");
        batch_normalization_desc_t d {};
        d.prop_kind = prop_kind;
        d.src_md = *src_desc;
        d.dst_md = zero_md();
        d.diff_src_md = *diff_src_desc;
        d.diff_dst_md = *diff_dst_desc;
        fill_common(d, src_desc->dims[1], epsilon, flags);
        d.diff_scaleshift_md = prop_kind == dnnl_backward
                        && (flags & (dnnl_use_scale | dnnl_use_shift))
                ? channel_md(src_desc->dims[1])
                : zero_md();
        return primitive_desc_create(primitive_desc, d, attr, engine, hint_fwd_pd);
    });
}

} // extern "C"
