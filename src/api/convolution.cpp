// dnnl_{convolution,deconvolution}_{forward,backward_data,backward_weights}_primitive_desc_create:
// argument checks (shapes, groups, output sizes) and the descriptor.
#include <cstring>

#include "api/api.hpp"
#include "core/primitive_desc.hpp"

using namespace anydnn;

namespace {

// The tensors of one call, by their role in the forward relation; null where absent.
struct conv_args_t {
    const memory_desc_t *src, *wei, *bias, *dst;
};

bool given(const memory_desc_t *md) {
    return md != nullptr && !is_zero_md(*md);
}

status_t check_tensor(const memory_desc_t *md, const char *name) {
    ANYDNN_REQUIRE(md != nullptr, dnnl_invalid_arguments, "%s descriptor is null", name);
    ANYDNN_REQUIRE(md->ndims >= 1 && md->ndims <= DNNL_MAX_NDIMS, dnnl_invalid_arguments,
            "%s has %d dimensions", name, md->ndims);
    ANYDNN_REQUIRE(md->data_type != dnnl_data_type_undef, dnnl_invalid_arguments,
            "%s has no data type", name);
    for (int d = 0; d < md->ndims; ++d)
        ANYDNN_REQUIRE(md->dims[d] >= 0, dnnl_invalid_arguments,
                "%s has a negative or runtime dimension", name);
    return dnnl_success;
}

spatial_t spatial(const dnnl_dims_t v, int n, dim_t dflt) {
    spatial_t s;
    s.n = n;
    for (int i = 0; i < n; ++i)
        s.v[i] = v ? v[i] : dflt;
    return s;
}

// Shapes agree: src (N, G*IC, I...), weights ([G,] OC, IC, K...), dst (N, G*OC, O...), and for
// each spatial dim the small side is (big + pl + pr - ext) / stride + 1, ext = (K-1)(D+1)+1.
// Deconvolution swaps the roles: dst is the big side.
status_t check_shapes(const conv_args_t &a, bool deconv, const spatial_t &strides,
        const spatial_t &dilates, const spatial_t &pl, const spatial_t &pr) {
    ANYDNN_CHECK(check_tensor(a.src, "src"));
    ANYDNN_CHECK(check_tensor(a.wei, "weights"));
    ANYDNN_CHECK(check_tensor(a.dst, "dst"));
    const int nd = a.src->ndims;
    ANYDNN_REQUIRE(nd >= 3 && nd <= 5, dnnl_invalid_arguments,
            "src has %d dimensions (3 to 5 expected)", nd);
    ANYDNN_REQUIRE(a.dst->ndims == nd, dnnl_invalid_arguments,
            "dst has %d dimensions, src %d", a.dst->ndims, nd);
    const bool with_groups = a.wei->ndims == nd + 1;
    ANYDNN_REQUIRE(a.wei->ndims == nd || with_groups, dnnl_invalid_arguments,
            "weights have %d dimensions, src %d", a.wei->ndims, nd);
    const int w0 = with_groups ? 1 : 0;
    const dim_t g = with_groups ? a.wei->dims[0] : 1;
    ANYDNN_REQUIRE(g >= 1, dnnl_invalid_arguments, "weights have zero groups");
    const dim_t oc = a.wei->dims[w0], ic = a.wei->dims[w0 + 1];
    ANYDNN_REQUIRE(a.src->dims[0] == a.dst->dims[0], dnnl_invalid_arguments,
            "src and dst minibatches differ");
    ANYDNN_REQUIRE(a.src->dims[1] == g * ic, dnnl_invalid_arguments,
            "src has %lld channels, weights expect %lld groups x %lld",
            (long long)a.src->dims[1], (long long)g, (long long)ic);
    ANYDNN_REQUIRE(a.dst->dims[1] == g * oc, dnnl_invalid_arguments,
            "dst has %lld channels, weights give %lld groups x %lld",
            (long long)a.dst->dims[1], (long long)g, (long long)oc);
    if (given(a.bias)) {
        ANYDNN_CHECK(check_tensor(a.bias, "bias"));
        ANYDNN_REQUIRE(a.bias->ndims == 1 && a.bias->dims[0] == g * oc,
                dnnl_invalid_arguments, "bias must be 1D with %lld elements",
                (long long)(g * oc));
    }
    const memory_desc_t *big = deconv ? a.dst : a.src, *small = deconv ? a.src : a.dst;
    for (int i = 0; i < nd - 2; ++i) {
        const dim_t k = a.wei->dims[w0 + 2 + i];
        ANYDNN_REQUIRE(strides.v[i] >= 1, dnnl_invalid_arguments, "stride %d is not positive", i);
        ANYDNN_REQUIRE(dilates.v[i] >= 0, dnnl_invalid_arguments, "dilation %d is negative", i);
        // The right padding may be negative by less than a stride: the last src rows that
        // no window reaches are skipped (ResNet's strided 1x1 convolutions).
        ANYDNN_REQUIRE(pl.v[i] >= 0 && pr.v[i] + strides.v[i] > 0, dnnl_invalid_arguments,
                "padding %d: left %lld is negative or right %lld is a stride or more below 0", i,
                (long long)pl.v[i], (long long)pr.v[i]);
        const dim_t ext = (k - 1) * (dilates.v[i] + 1) + 1;
        const dim_t span = big->dims[2 + i] + pl.v[i] + pr.v[i] - ext;
        // oneDNN's truncating division: a span short of the kernel by up to a stride gives an
        // empty output (a zero-size problem); shorter still is refused.
        const dim_t want = span >= 0 ? span / strides.v[i] + 1
                : span / strides.v[i] + 1 == 0 ? 0
                                               : -1;
        ANYDNN_REQUIRE(k >= 1 && want == small->dims[2 + i], dnnl_invalid_arguments,
                "spatial dim %d: %s is %lld, kernel %lld, stride %lld, dilation %lld, padding "
                "%lld/%lld give %lld",
                i, deconv ? "src" : "dst", (long long)small->dims[2 + i], (long long)k,
                (long long)strides.v[i], (long long)dilates.v[i], (long long)pl.v[i],
                (long long)pr.v[i], (long long)want);
    }
    return dnnl_success;
}

status_t check_alg(dnnl_alg_kind_t alg, bool deconv) {
    if (deconv)
        ANYDNN_REQUIRE(alg == dnnl_deconvolution_direct || alg == dnnl_deconvolution_winograd,
                dnnl_invalid_arguments, "alg kind %s is not a deconvolution algorithm",
                dnnl_alg_kind2str(alg));
    else
        ANYDNN_REQUIRE(alg == dnnl_convolution_direct || alg == dnnl_convolution_winograd
                        || alg == dnnl_convolution_auto,
                dnnl_invalid_arguments, "alg kind %s is not a convolution algorithm",
                dnnl_alg_kind2str(alg));
    return dnnl_success;
}

status_t check_hint(const_dnnl_primitive_desc_t hint, bool deconv) {
    if (!hint) return dnnl_success;
    ANYDNN_REQUIRE_LIVE(primitive_desc, hint);
    const dnnl_primitive_kind_t want = deconv ? dnnl_deconvolution : dnnl_convolution;
    ANYDNN_REQUIRE(hint->impl && hint->impl->kind() == want, dnnl_invalid_arguments,
            "hint_fwd_pd is not a %s primitive descriptor",
            deconv ? "deconvolution" : "convolution");
    return dnnl_success;
}

// Fills and creates; `a` holds the tensors by forward role, `prop` says which are diffs.
status_t create(dnnl_primitive_desc_t *pd, dnnl_engine_t engine, bool deconv,
        dnnl_prop_kind_t prop, dnnl_alg_kind_t alg, const conv_args_t &a,
        const dnnl_dims_t strides, const dnnl_dims_t dilates, const dnnl_dims_t padding_l,
        const dnnl_dims_t padding_r, const_dnnl_primitive_desc_t hint,
        const_dnnl_primitive_attr_t attr) {
    ANYDNN_REQUIRE_NOT_NULL(pd);
    ANYDNN_REQUIRE_LIVE(engine, engine);
    if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
    ANYDNN_CHECK(check_alg(alg, deconv));
    ANYDNN_CHECK(check_hint(hint, deconv));
    ANYDNN_REQUIRE(a.src != nullptr, dnnl_invalid_arguments, "src descriptor is null");
    const int ns = a.src->ndims - 2;
    ANYDNN_REQUIRE(ns >= 1 && ns <= 3, dnnl_invalid_arguments,
            "src has %d dimensions (3 to 5 expected)", a.src->ndims);
    ANYDNN_REQUIRE(padding_l != nullptr, dnnl_invalid_arguments, "padding_l is null");
    // As oneDNN: absent strides are ones, absent dilations zeros, absent right padding the left.
    const spatial_t s = spatial(strides, ns, 1), dl = spatial(dilates, ns, 0),
                    pl = spatial(padding_l, ns, 0),
                    pr = padding_r ? spatial(padding_r, ns, 0) : pl;
    ANYDNN_CHECK(check_shapes(a, deconv, s, dl, pl, pr));

    deconvolution_desc_t d {};
    d.prop_kind = prop;
    d.alg_kind = alg;
    const bool fwd = prop == dnnl_forward_training || prop == dnnl_forward_inference;
    const bool bwd_d = prop == dnnl_backward_data;
    const memory_desc_t z = zero_md();
    d.src_md = bwd_d ? z : *a.src;
    d.diff_src_md = bwd_d ? *a.src : z;
    d.weights_md = fwd || bwd_d ? *a.wei : z;
    d.diff_weights_md = fwd || bwd_d ? z : *a.wei;
    d.bias_md = fwd && given(a.bias) ? *a.bias : z;
    d.diff_bias_md = !fwd && !bwd_d && given(a.bias) ? *a.bias : z;
    d.dst_md = fwd ? *a.dst : z;
    d.diff_dst_md = fwd ? z : *a.dst;
    d.strides = s;
    d.dilates = dl;
    d.padding_l = pl;
    d.padding_r = pr;
    if (deconv) return primitive_desc_create(pd, d, attr, engine, hint);
    return primitive_desc_create(
            pd, static_cast<const convolution_desc_t &>(d), attr, engine, hint);
}

status_t check_fwd_prop(dnnl_prop_kind_t prop) {
    ANYDNN_REQUIRE(prop == dnnl_forward_training || prop == dnnl_forward_inference,
            dnnl_invalid_arguments, "prop kind %s is not a forward one",
            dnnl_prop_kind2str(prop));
    return dnnl_success;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_convolution_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t weights_desc, const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_desc, const dnnl_dims_t strides, const dnnl_dims_t dilates,
        const dnnl_dims_t padding_l, const dnnl_dims_t padding_r,
        const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_CHECK(check_fwd_prop(prop_kind));
        return create(primitive_desc, engine, false, prop_kind, alg_kind,
                {src_desc, weights_desc, bias_desc, dst_desc}, strides, dilates, padding_l,
                padding_r, nullptr, attr);
    });
}

DNNL_API dnnl_status_t dnnl_convolution_backward_data_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
        const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t weights_desc,
        const_dnnl_memory_desc_t diff_dst_desc, const dnnl_dims_t strides,
        const dnnl_dims_t dilates, const dnnl_dims_t padding_l, const dnnl_dims_t padding_r,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        return create(primitive_desc, engine, false, dnnl_backward_data, alg_kind,
                {diff_src_desc, weights_desc, nullptr, diff_dst_desc}, strides, dilates,
                padding_l, padding_r, hint_fwd_pd, attr);
    });
}

DNNL_API dnnl_status_t dnnl_convolution_backward_weights_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t diff_weights_desc,
        const_dnnl_memory_desc_t diff_bias_desc, const_dnnl_memory_desc_t diff_dst_desc,
        const dnnl_dims_t strides, const dnnl_dims_t dilates, const dnnl_dims_t padding_l,
        const dnnl_dims_t padding_r, const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        return create(primitive_desc, engine, false, dnnl_backward_weights, alg_kind,
                {src_desc, diff_weights_desc, diff_bias_desc, diff_dst_desc}, strides, dilates,
                padding_l, padding_r, hint_fwd_pd, attr);
    });
}

DNNL_API dnnl_status_t dnnl_deconvolution_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t weights_desc, const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_desc, const dnnl_dims_t strides, const dnnl_dims_t dilates,
        const dnnl_dims_t padding_l, const dnnl_dims_t padding_r,
        const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        ANYDNN_CHECK(check_fwd_prop(prop_kind));
        return create(primitive_desc, engine, true, prop_kind, alg_kind,
                {src_desc, weights_desc, bias_desc, dst_desc}, strides, dilates, padding_l,
                padding_r, nullptr, attr);
    });
}

DNNL_API dnnl_status_t dnnl_deconvolution_backward_data_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
        const_dnnl_memory_desc_t diff_src_desc, const_dnnl_memory_desc_t weights_desc,
        const_dnnl_memory_desc_t diff_dst_desc, const dnnl_dims_t strides,
        const dnnl_dims_t dilates, const dnnl_dims_t padding_l, const dnnl_dims_t padding_r,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        return create(primitive_desc, engine, true, dnnl_backward_data, alg_kind,
                {diff_src_desc, weights_desc, nullptr, diff_dst_desc}, strides, dilates,
                padding_l, padding_r, hint_fwd_pd, attr);
    });
}

DNNL_API dnnl_status_t dnnl_deconvolution_backward_weights_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_alg_kind_t alg_kind,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t diff_weights_desc,
        const_dnnl_memory_desc_t diff_bias_desc, const_dnnl_memory_desc_t diff_dst_desc,
        const dnnl_dims_t strides, const dnnl_dims_t dilates, const dnnl_dims_t padding_l,
        const dnnl_dims_t padding_r, const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        return create(primitive_desc, engine, true, dnnl_backward_weights, alg_kind,
                {src_desc, diff_weights_desc, diff_bias_desc, diff_dst_desc}, strides, dilates,
                padding_l, padding_r, hint_fwd_pd, attr);
    });
}

} // extern "C"
