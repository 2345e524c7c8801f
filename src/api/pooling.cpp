// dnnl_pooling_{forward,backward}_primitive_desc_create: argument checks and the descriptor.
#include "api/api.hpp"
#include "core/primitive_desc.hpp"

using namespace anydnn;

namespace {

status_t check_tensor(const memory_desc_t *md, const char *name) {
    ANYDNN_REQUIRE(md != nullptr, dnnl_invalid_arguments, "%s descriptor is null", name);
    ANYDNN_REQUIRE(md->ndims >= 3 && md->ndims <= 5, dnnl_invalid_arguments,
            "%s has %d dimensions (pooling takes 3 to 5)", name, md->ndims);
    ANYDNN_REQUIRE(md->data_type != dnnl_data_type_undef, dnnl_invalid_arguments,
            "%s has no data type", name);
    for (int d = 0; d < md->ndims; ++d)
        ANYDNN_REQUIRE(md->dims[d] >= 0, dnnl_invalid_arguments,
                "%s has a negative or runtime dimension", name);
    return dnnl_success;
}

// Fills the spatial parameters and checks that dst's spatial sizes follow from src's.
status_t fill_spatial(pooling_desc_t &d, const memory_desc_t &src, const memory_desc_t &dst,
        const dnnl_dims_t strides, const dnnl_dims_t kernel, const dnnl_dims_t dilation,
        const dnnl_dims_t padding_l, const dnnl_dims_t padding_r) {
    ANYDNN_REQUIRE(src.ndims == dst.ndims, dnnl_invalid_arguments,
            "src and dst have %d and %d dimensions", src.ndims, dst.ndims);
    ANYDNN_REQUIRE(src.dims[0] == dst.dims[0] && src.dims[1] == dst.dims[1],
            dnnl_invalid_arguments, "src and dst differ in minibatch or channels");
    ANYDNN_REQUIRE(strides && kernel && padding_l, dnnl_invalid_arguments,
            "strides, kernel and padding_l must be given");
    const int ns = src.ndims - 2;
    d.strides.n = d.kernel.n = d.dilates.n = d.padding_l.n = d.padding_r.n = ns;
    for (int i = 0; i < ns; ++i) {
        const dim_t s = strides[i], k = kernel[i], dl = dilation ? dilation[i] : 0;
        const dim_t pl = padding_l[i], pr = padding_r ? padding_r[i] : padding_l[i];
        // As in convolution, the right padding may be negative by less than a stride: the
        // last src elements that no window reaches are skipped.
        ANYDNN_REQUIRE(s > 0 && k > 0 && dl >= 0 && pl >= 0 && pr + s > 0,
                dnnl_invalid_arguments,
                "spatial dim %d: stride %lld, kernel %lld, dilation %lld, padding %lld/%lld "
                "out of range",
                i, (long long)s, (long long)k, (long long)dl, (long long)pl, (long long)pr);
        const dim_t extent = (k - 1) * (dl + 1) + 1;
        const dim_t in = src.dims[2 + i], out = dst.dims[2 + i];
        const dim_t span = in + pl + pr - extent;
        ANYDNN_REQUIRE(span >= 0 || (in == 0 && out == 0), dnnl_invalid_arguments,
                "spatial dim %d: kernel extent %lld exceeds padded src %lld", i,
                (long long)extent, (long long)(in + pl + pr));
        ANYDNN_REQUIRE(in == 0 ? out == 0 : out == span / s + 1, dnnl_invalid_arguments,
                "spatial dim %d: dst is %lld, expected %lld", i, (long long)out,
                (long long)(in == 0 ? 0 : span / s + 1));
        // Padding may reach the kernel extent: a window then sees padding only (max gives the
        // source type's lowest value, averages 0), as oneDNN accepts.
        d.strides.v[i] = s;
        d.kernel.v[i] = k;
        d.dilates.v[i] = dl;
        d.padding_l.v[i] = pl;
        d.padding_r.v[i] = pr;
    }
    return dnnl_success;
}

status_t check_alg(dnnl_alg_kind_t alg) {
    ANYDNN_REQUIRE(alg == dnnl_pooling_max || alg == dnnl_pooling_avg_include_padding
                    || alg == dnnl_pooling_avg_exclude_padding,
            dnnl_invalid_arguments, "alg kind %s is not a pooling algorithm",
            dnnl_alg_kind2str(alg));
    return dnnl_success;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_pooling_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t dst_desc, const dnnl_dims_t strides, const dnnl_dims_t kernel,
        const dnnl_dims_t dilation, const dnnl_dims_t padding_l, const dnnl_dims_t padding_r,
        const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_REQUIRE(prop_kind == dnnl_forward_training || prop_kind == dnnl_forward_inference,
                dnnl_invalid_arguments, "prop kind %s is not a forward one",
                dnnl_prop_kind2str(prop_kind));
        ANYDNN_CHECK(check_alg(alg_kind));
        ANYDNN_CHECK(check_tensor(src_desc, "src"));
        ANYDNN_CHECK(check_tensor(dst_desc, "dst"));
        pooling_desc_t d {};
        d.prop_kind = prop_kind;
        d.alg_kind = alg_kind;
        d.src_md = *src_desc;
        d.dst_md = *dst_desc;
        d.diff_src_md = zero_md();
        d.diff_dst_md = zero_md();
        ANYDNN_CHECK(fill_spatial(
                d, *src_desc, *dst_desc, strides, kernel, dilation, padding_l, padding_r));
        return primitive_desc_create(primitive_desc, d, attr, engine, nullptr);
    });
}

DNNL_API dnnl_status_t dnnl_pooling_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
        const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t diff_dst_desc,
        const dnnl_dims_t strides, const dnnl_dims_t kernel, const dnnl_dims_t dilation,
        const dnnl_dims_t padding_l, const dnnl_dims_t padding_r,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
        ANYDNN_REQUIRE_LIVE(engine, engine);
        if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
        ANYDNN_CHECK(check_alg(alg_kind));
        ANYDNN_CHECK(check_tensor(diff_src_desc, "diff_src"));
        ANYDNN_CHECK(check_tensor(diff_dst_desc, "diff_dst"));
        // The forward primitive fixes the workspace (max) and the layouts to prefer.
        ANYDNN_REQUIRE(hint_fwd_pd != nullptr, dnnl_invalid_arguments,
                "backward pooling needs hint_fwd_pd");
        ANYDNN_REQUIRE_LIVE(primitive_desc, hint_fwd_pd);
        ANYDNN_REQUIRE(hint_fwd_pd->impl && hint_fwd_pd->impl->kind() == dnnl_pooling,
                dnnl_invalid_arguments, "hint_fwd_pd is not a pooling primitive descriptor");
        ANYDNN_REQUIRE(alg_kind != dnnl_pooling_max
                        || op_prop_kind(hint_fwd_pd->desc) == dnnl_forward_training,
                dnnl_invalid_arguments,
                "max pooling backward needs a forward_training hint (it reads the workspace)");
        pooling_desc_t d {};
        d.prop_kind = dnnl_backward_data;
        d.alg_kind = alg_kind;
        d.src_md = zero_md();
        d.dst_md = zero_md();
        d.diff_src_md = *diff_src_desc;
        d.diff_dst_md = *diff_dst_desc;
        ANYDNN_CHECK(fill_spatial(d, *diff_src_desc, *diff_dst_desc, strides, kernel, dilation,
                padding_l, padding_r));
        return primitive_desc_create(primitive_desc, d, attr, engine, hint_fwd_pd);
    });
}

} // extern "C"
