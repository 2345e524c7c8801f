// dnnl_primitive_attr_* and dnnl_post_ops_* entry points.
//
// Handles: setters and destroy need a live handle made by create/clone. Getters and clone
// sources take any non-null pointer, because dnnl_primitive_desc_get_attr and
// dnnl_primitive_attr_get_post_ops hand out objects that live inside another one.
// Getters with several outputs require the first and skip the others when they are null
// (the C++ API passes null for parts it does not need).
#include <cstring>
#include <memory>

#include "api/api.hpp"
#include "core/primitive_attr.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

using namespace anydnn;

namespace {

bool valid_dt(dnnl_data_type_t dt) {
    return dt >= dnnl_f16 && dt <= dnnl_s64;
}

bool valid_fpmath(int mode) {
    return mode >= dnnl_fpmath_mode_strict && mode <= dnnl_fpmath_mode_tf32;
}

bool valid_acc_mode(int mode) {
    return mode >= dnnl_accumulation_mode_strict && mode <= dnnl_accumulation_mode_f16;
}

bool is_eltwise_alg(dnnl_alg_kind_t alg) {
    return (alg >= dnnl_eltwise_relu && alg <= dnnl_eltwise_hardswish)
            || (alg >= dnnl_eltwise_relu_use_dst_for_bwd
                    && alg <= dnnl_eltwise_clip_v2_use_dst_for_bwd);
}

bool is_binary_alg(dnnl_alg_kind_t alg) {
    return alg >= dnnl_binary_add && alg <= dnnl_binary_select;
}

// Arguments a scale, zero point, reduction or rounding mode can belong to: a tensor
// argument (also of a fused depthwise convolution), never another attribute argument.
bool valid_quant_arg(int arg) {
    if (arg <= 0 || arg >= DNNL_ARG_ATTR_MULTIPLE_POST_OP_BASE) return false;
    if (arg & (DNNL_ARG_ATTR_SCALES | DNNL_ARG_ATTR_ZERO_POINTS)) return false;
    const int base = arg & ~DNNL_ARG_ATTR_POST_OP_DW;
    return base > 0
            && !(base >= DNNL_ARG_ATTR_DROPOUT_OFFSET && base <= DNNL_ARG_ATTR_OUTPUT_SCALES);
}

bool valid_ndims(int ndims, int min) {
    return ndims >= min && ndims <= DNNL_MAX_NDIMS;
}

// Validates one scales / zero points / precomputed reductions request and builds the entry.
status_t make_quant(const char *where, quant_entry_t &q, int arg, int mask, int group_ndims,
        const dnnl_dims_t group_dims, dnnl_data_type_t dt, bool on_host, int qmode) {
    if (!valid_quant_arg(arg))
        return fail(dnnl_invalid_arguments, where, "argument %d cannot take quantization", arg);
    if (mask < 0) return fail(dnnl_invalid_arguments, where, "mask %d is negative", mask);
    if (!valid_ndims(group_ndims, 0))
        return fail(dnnl_invalid_arguments, where, "group ndims %d out of [0, %d]", group_ndims,
                DNNL_MAX_NDIMS);
    if (group_ndims > 0 && !group_dims)
        return fail(dnnl_invalid_arguments, where, "group dims are null for %d groups",
                group_ndims);
    for (int i = 0; i < group_ndims; ++i)
        if (group_dims[i] <= 0)
            return fail(dnnl_invalid_arguments, where, "group dim %d is %lld, must be positive",
                    i, static_cast<long long>(group_dims[i]));
    if (!valid_dt(dt))
        return fail(dnnl_invalid_arguments, where, "data type %s is not valid", dnnl_dt2str(dt));
    if (on_host && (mask != 0 || group_ndims != 0))
        return fail(dnnl_invalid_arguments, where,
                "a host scalar is a single value: mask must be 0 and no groups");
    if (qmode == dnnl_quantization_mode_undef) qmode = dnnl_quantization_mode_static_sazp;
    if (qmode < dnnl_quantization_mode_static_sazp || qmode > dnnl_quantization_mode_dynamic_fp)
        return fail(dnnl_invalid_arguments, where, "quantization mode %d is not valid", qmode);
    q = quant_entry_t();
    q.mask = mask;
    q.group_ndims = group_ndims;
    for (int i = 0; i < group_ndims; ++i)
        q.groups[i] = group_dims[i];
    q.data_type = dt;
    q.qmode = static_cast<dnnl_quantization_mode_t>(qmode);
    q.is_host_scalar = on_host;
    return dnnl_success;
}

status_t set_quant(const char *where, std::map<int, quant_entry_t> &map, int arg, int mask,
        int group_ndims, const dnnl_dims_t group_dims, dnnl_data_type_t dt, bool on_host,
        int qmode) {
    quant_entry_t q;
    ANYDNN_CHECK(make_quant(where, q, arg, mask, group_ndims, group_dims, dt, on_host, qmode));
    return guarded(where, [&] {
        map[arg] = q;
        return dnnl_success;
    });
}

// The entry at `index` when it is of `kind`.
status_t post_op_at(const char *where, const_dnnl_post_ops_t post_ops, int index,
        dnnl_primitive_kind_t kind, const post_op_t *&entry) {
    if (!post_ops) return fail(dnnl_invalid_arguments, where, "post_ops is null");
    const int len = static_cast<int>(post_ops->entries.size());
    if (index < 0 || index >= len)
        return fail(dnnl_invalid_arguments, where, "index %d out of range (%d post-ops)", index,
                len);
    entry = &post_ops->entries[index];
    if (entry->kind != kind)
        return fail(dnnl_invalid_arguments, where, "post-op %d is %s, not %s", index,
                dnnl_prim_kind2str(entry->kind), dnnl_prim_kind2str(kind));
    return dnnl_success;
}

status_t append(const char *where, dnnl_post_ops_t post_ops, const post_op_t &entry) {
    return guarded(where, [&] {
        post_ops->entries.push_back(entry);
        return dnnl_success;
    });
}

status_t check_src_md(const char *where, const char *name, const memory_desc_t *md) {
    if (!md) return fail(dnnl_invalid_arguments, where, "%s is null", name);
    if (!valid_ndims(md->ndims, 1))
        return fail(dnnl_invalid_arguments, where, "%s has %d dimensions", name, md->ndims);
    return dnnl_success;
}

status_t set_dropout(const char *where, dnnl_primitive_attr_t attr,
        const memory_desc_t *mask_desc, dnnl_data_type_t seed_dt, int use_offset,
        int use_host_scalars) {
    // A null descriptor is taken as the zero one: dropout without a mask output.
    if (mask_desc && !valid_ndims(mask_desc->ndims, 0))
        return fail(dnnl_invalid_arguments, where, "mask descriptor has %d dimensions",
                mask_desc->ndims);
    if (seed_dt != dnnl_s32 && seed_dt != dnnl_s64)
        return fail(dnnl_invalid_arguments, where, "seed data type must be s32 or s64, got %s",
                dnnl_dt2str(seed_dt));
    attr->dropout_enabled = true;
    attr->dropout_mask_md = mask_desc ? *mask_desc : memory_desc_t {};
    attr->dropout_seed_dt = seed_dt;
    attr->dropout_use_offset = use_offset != 0;
    attr->dropout_use_host_scalars = use_host_scalars != 0;
    return dnnl_success;
}

status_t set_fpmath(
        const char *where, dnnl_primitive_attr_t attr, int mode, bool apply_to_int) {
    if (!valid_fpmath(mode))
        return fail(dnnl_invalid_arguments, where, "fpmath mode %d is not valid", mode);
    attr->fpmath_mode = static_cast<dnnl_fpmath_mode_t>(mode);
    attr->fpmath_apply_to_int = apply_to_int;
    return dnnl_success;
}

status_t append_binary(const char *where, dnnl_post_ops_t post_ops, dnnl_alg_kind_t alg,
        const memory_desc_t *src1, const memory_desc_t *src2) {
    if (!is_binary_alg(alg))
        return fail(dnnl_invalid_arguments, where, "%s is not a binary algorithm",
                dnnl_alg_kind2str(alg));
    ANYDNN_CHECK(check_src_md(where, "src1_desc", src1));
    const bool ternary = alg == dnnl_binary_select;
    if (ternary) ANYDNN_CHECK(check_src_md(where, "src2_desc", src2));
    post_op_t e;
    e.kind = dnnl_binary;
    e.alg = alg;
    e.src1_md = *src1;
    // Only select reads a third operand; for the others src2 is ignored.
    if (ternary) e.src2_md = *src2;
    return append(where, post_ops, e);
}

status_t get_binary(const char *where, const_dnnl_post_ops_t post_ops, int index,
        dnnl_alg_kind_t *alg, const memory_desc_t **src1, const memory_desc_t **src2) {
    const post_op_t *e = nullptr;
    ANYDNN_CHECK(post_op_at(where, post_ops, index, dnnl_binary, e));
    if (!alg) return fail(dnnl_invalid_arguments, where, "alg_kind is null");
    *alg = e->alg;
    if (src1) *src1 = &e->src1_md;
    if (src2) *src2 = &e->src2_md;
    return dnnl_success;
}

status_t set_rnn_scales(const char *where, std::vector<float> &scales, int &mask_out,
        dnnl_dim_t count, int mask, const float *values) {
    if (count <= 0)
        return fail(dnnl_invalid_arguments, where, "count %lld must be positive",
                static_cast<long long>(count));
    if (mask < 0) return fail(dnnl_invalid_arguments, where, "mask %d is negative", mask);
    if (!values) return fail(dnnl_invalid_arguments, where, "scales is null");
    return guarded(where, [&] {
        // One common scale of 1 is the default: store it as such so the attrs compare equal.
        if (count == 1 && mask == 0 && values[0] == 1.f)
            scales.clear();
        else
            scales.assign(values, values + count);
        mask_out = mask;
        return dnnl_success;
    });
}

status_t get_rnn_scales(const char *where, const std::vector<float> &scales, int stored_mask,
        dnnl_dim_t *count, int *mask, const float **values) {
    if (!count) return fail(dnnl_invalid_arguments, where, "count is null");
    static const float default_scale = 1.f;
    *count = scales.empty() ? 1 : static_cast<dnnl_dim_t>(scales.size());
    if (mask) *mask = stored_mask;
    if (values) *values = scales.empty() ? &default_scale : scales.data();
    return dnnl_success;
}

} // namespace

extern "C" {

/* ---- attribute objects ---------------------------------------------------------------- */

DNNL_API dnnl_status_t dnnl_primitive_attr_create(dnnl_primitive_attr_t *attr) {
    ANYDNN_REQUIRE_NOT_NULL(attr);
    return guarded(__func__, [&] {
        auto a = std::make_unique<dnnl_primitive_attr>();
        registry_add(object_kind::attr, a.get());
        *attr = a.release();
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_primitive_attr_clone(
        dnnl_primitive_attr_t *attr, const_dnnl_primitive_attr_t existing_attr) {
    ANYDNN_REQUIRE_NOT_NULL(attr);
    ANYDNN_REQUIRE_NOT_NULL(existing_attr);
    return guarded(__func__, [&] {
        auto a = std::make_unique<dnnl_primitive_attr>(*existing_attr);
        registry_add(object_kind::attr, a.get());
        *attr = a.release();
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_primitive_attr_destroy(dnnl_primitive_attr_t attr) {
    if (!attr) return dnnl_success;
    ANYDNN_REQUIRE_LIVE(attr, attr);
    registry_remove(object_kind::attr, attr);
    delete attr;
    return dnnl_success;
}

/* ---- dropout -------------------------------------------------------------------------- */

DNNL_API dnnl_status_t dnnl_primitive_attr_get_dropout(
        const_dnnl_primitive_attr_t attr, const_dnnl_memory_desc_t *mask_desc) {
    ANYDNN_REQUIRE_NOT_NULL(attr);
    ANYDNN_REQUIRE_NOT_NULL(mask_desc);
    *mask_desc = &attr->dropout_mask_md;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_primitive_attr_get_dropout_v2(const_dnnl_primitive_attr_t attr,
        const_dnnl_memory_desc_t *mask_desc, dnnl_data_type_t *seed_dt, int *use_offset,
        int *use_host_scalars) {
    ANYDNN_REQUIRE_NOT_NULL(attr);
    ANYDNN_REQUIRE_NOT_NULL(mask_desc);
    *mask_desc = &attr->dropout_mask_md;
    if (seed_dt) *seed_dt = attr->dropout_seed_dt;
    if (use_offset) *use_offset = attr->dropout_use_offset;
    if (use_host_scalars) *use_host_scalars = attr->dropout_use_host_scalars;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_primitive_attr_set_dropout_v2(dnnl_primitive_attr_t attr,
        const_dnnl_memory_desc_t mask_desc, dnnl_data_type_t seed_dt, int use_offset,
        int use_host_scalars) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    return set_dropout(__func__, attr, mask_desc, seed_dt, use_offset, use_host_scalars);
}

DNNL_API dnnl_status_t dnnl_primitive_attr_set_dropout(
        dnnl_primitive_attr_t attr, const_dnnl_memory_desc_t mask_desc) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    return set_dropout(__func__, attr, mask_desc, dnnl_s32, 0, 0);
}

/* ---- math mode, accumulation, determinism, scratchpad --------------------------------- */

DNNL_API dnnl_status_t dnnl_primitive_attr_get_fpmath_mode(
        const_dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t *mode) {
    ANYDNN_REQUIRE_NOT_NULL(attr);
    ANYDNN_REQUIRE_NOT_NULL(mode);
    *mode = attr->fpmath_mode;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_primitive_attr_get_fpmath_mode_v2(
        const_dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t *mode, int *apply_to_int) {
    ANYDNN_REQUIRE_NOT_NULL(attr);
    ANYDNN_REQUIRE_NOT_NULL(mode);
    *mode = attr->fpmath_mode;
    if (apply_to_int) *apply_to_int = attr->fpmath_apply_to_int;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_primitive_attr_set_fpmath_mode_v2(
        dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t mode, int apply_to_int) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    return set_fpmath(__func__, attr, raw_value(mode), apply_to_int != 0);
}

DNNL_API dnnl_status_t dnnl_primitive_attr_set_fpmath_mode(
        dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t mode) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    return set_fpmath(__func__, attr, raw_value(mode), false);
}

DNNL_API dnnl_status_t dnnl_primitive_attr_get_deterministic(
        const_dnnl_primitive_attr_t attr, int *value) {
    ANYDNN_REQUIRE_NOT_NULL(attr);
    ANYDNN_REQUIRE_NOT_NULL(value);
    *value = attr->deterministic;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_primitive_attr_set_deterministic(
        dnnl_primitive_attr_t attr, int value) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    attr->deterministic = value != 0;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_primitive_attr_get_accumulation_mode(
        const_dnnl_primitive_attr_t attr, dnnl_accumulation_mode_t *mode) {
    ANYDNN_REQUIRE_NOT_NULL(attr);
    ANYDNN_REQUIRE_NOT_NULL(mode);
    *mode = attr->acc_mode;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_primitive_attr_set_accumulation_mode(
        dnnl_primitive_attr_t attr, dnnl_accumulation_mode_t mode) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    const int m = raw_value(mode);
    ANYDNN_REQUIRE(valid_acc_mode(m), dnnl_invalid_arguments, "accumulation mode %d is not valid",
            m);
    attr->acc_mode = static_cast<dnnl_accumulation_mode_t>(m);
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_primitive_attr_get_scratchpad_mode(
        const_dnnl_primitive_attr_t attr, dnnl_scratchpad_mode_t *mode) {
    ANYDNN_REQUIRE_NOT_NULL(attr);
    ANYDNN_REQUIRE_NOT_NULL(mode);
    *mode = attr->scratchpad_mode;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_primitive_attr_set_scratchpad_mode(
        dnnl_primitive_attr_t attr, dnnl_scratchpad_mode_t mode) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    const int m = raw_value(mode);
    ANYDNN_REQUIRE(m == dnnl_scratchpad_mode_library || m == dnnl_scratchpad_mode_user,
            dnnl_invalid_arguments, "scratchpad mode %d is not valid", m);
    attr->scratchpad_mode = static_cast<dnnl_scratchpad_mode_t>(m);
    return dnnl_success;
}

/* ---- scales, zero points, precomputed reductions -------------------------------------- */

DNNL_API dnnl_status_t dnnl_primitive_attr_set_scales_v3(dnnl_primitive_attr_t attr, int arg,
        int mask, int ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type,
        int is_on_host, dnnl_quantization_mode_t qmode) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    return set_quant(__func__, attr->scales, arg, mask, ndims, group_dims, data_type,
            is_on_host != 0, raw_value(qmode));
}

DNNL_API dnnl_status_t dnnl_primitive_attr_set_scales_v2(dnnl_primitive_attr_t attr, int arg,
        int mask, int ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type,
        int is_on_host) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    return set_quant(__func__, attr->scales, arg, mask, ndims, group_dims, data_type,
            is_on_host != 0, dnnl_quantization_mode_static_sazp);
}

DNNL_API dnnl_status_t dnnl_primitive_attr_set_scales(dnnl_primitive_attr_t attr, int arg,
        int mask, int group_ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    return set_quant(__func__, attr->scales, arg, mask, group_ndims, group_dims, data_type,
            false, dnnl_quantization_mode_static_sazp);
}

DNNL_API dnnl_status_t dnnl_primitive_attr_set_scales_mask(
        dnnl_primitive_attr_t attr, int arg, int mask) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    return set_quant(__func__, attr->scales, arg, mask, 0, nullptr, dnnl_f32, false,
            dnnl_quantization_mode_static_sazp);
}

DNNL_API dnnl_status_t dnnl_primitive_attr_set_zero_points_v2(dnnl_primitive_attr_t attr, int arg,
        int mask, int ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type,
        int is_on_host) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    return set_quant(__func__, attr->zero_points, arg, mask, ndims, group_dims, data_type,
            is_on_host != 0, dnnl_quantization_mode_static_sazp);
}

DNNL_API dnnl_status_t dnnl_primitive_attr_set_zero_points(dnnl_primitive_attr_t attr, int arg,
        int mask, int group_ndims, const dnnl_dims_t group_dims, dnnl_data_type_t data_type) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    return set_quant(__func__, attr->zero_points, arg, mask, group_ndims, group_dims,
            data_type, false, dnnl_quantization_mode_static_sazp);
}

DNNL_API dnnl_status_t dnnl_primitive_attr_set_zero_points_mask(
        dnnl_primitive_attr_t attr, int arg, int mask) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    return set_quant(__func__, attr->zero_points, arg, mask, 0, nullptr, dnnl_s32, false,
            dnnl_quantization_mode_static_sazp);
}

DNNL_API dnnl_status_t dnnl_primitive_attr_set_precomputed_reductions(dnnl_primitive_attr_t attr,
        int arg, int mask, int group_ndims, const dnnl_dims_t group_dims,
        dnnl_data_type_t data_type) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    return set_quant(__func__, attr->precomputed_reductions, arg, mask, group_ndims, group_dims,
            data_type, false, dnnl_quantization_mode_static_sazp);
}

/* ---- rounding ------------------------------------------------------------------------- */

DNNL_API dnnl_status_t dnnl_primitive_attr_set_rounding(
        dnnl_primitive_attr_t attr, int arg, dnnl_rounding_mode_t mode) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    ANYDNN_REQUIRE(valid_quant_arg(arg), dnnl_invalid_arguments,
            "argument %d cannot take a rounding mode", arg);
    const int m = raw_value(mode);
    ANYDNN_REQUIRE(m == dnnl_rounding_mode_environment || m == dnnl_rounding_mode_stochastic,
            dnnl_invalid_arguments, "rounding mode %d is not valid", m);
    return guarded(__func__, [&] {
        // The environment mode is the default: keep only what differs from it.
        if (m == dnnl_rounding_mode_environment)
            attr->rounding.erase(arg);
        else
            attr->rounding[arg] = dnnl_rounding_mode_stochastic;
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_primitive_attr_get_rounding(
        dnnl_primitive_attr_t attr, int arg, dnnl_rounding_mode_t *mode) {
    ANYDNN_REQUIRE_NOT_NULL(attr);
    ANYDNN_REQUIRE_NOT_NULL(mode);
    auto it = attr->rounding.find(arg);
    *mode = it == attr->rounding.end() ? dnnl_rounding_mode_environment : it->second;
    return dnnl_success;
}

/* ---- post-ops in attributes ----------------------------------------------------------- */

DNNL_API dnnl_status_t dnnl_primitive_attr_get_post_ops(
        const_dnnl_primitive_attr_t attr, const_dnnl_post_ops_t *post_ops) {
    ANYDNN_REQUIRE_NOT_NULL(attr);
    ANYDNN_REQUIRE_NOT_NULL(post_ops);
    *post_ops = &attr->post_ops;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_primitive_attr_set_post_ops(
        dnnl_primitive_attr_t attr, const_dnnl_post_ops_t post_ops) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    ANYDNN_REQUIRE_NOT_NULL(post_ops);
    return guarded(__func__, [&] {
        attr->post_ops = *post_ops;
        return dnnl_success;
    });
}

/* ---- post-ops objects ----------------------------------------------------------------- */

DNNL_API dnnl_status_t dnnl_post_ops_create(dnnl_post_ops_t *post_ops) {
    ANYDNN_REQUIRE_NOT_NULL(post_ops);
    return guarded(__func__, [&] {
        auto p = std::make_unique<dnnl_post_ops>();
        registry_add(object_kind::post_ops, p.get());
        *post_ops = p.release();
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_post_ops_clone(
        dnnl_post_ops_t *post_ops, const_dnnl_post_ops_t existing_post_ops) {
    ANYDNN_REQUIRE_NOT_NULL(post_ops);
    ANYDNN_REQUIRE_NOT_NULL(existing_post_ops);
    return guarded(__func__, [&] {
        auto p = std::make_unique<dnnl_post_ops>(*existing_post_ops);
        registry_add(object_kind::post_ops, p.get());
        *post_ops = p.release();
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_post_ops_destroy(dnnl_post_ops_t post_ops) {
    if (!post_ops) return dnnl_success;
    ANYDNN_REQUIRE_LIVE(post_ops, post_ops);
    registry_remove(object_kind::post_ops, post_ops);
    delete post_ops;
    return dnnl_success;
}

DNNL_API int dnnl_post_ops_len(const_dnnl_post_ops_t post_ops) {
    if (!post_ops) {
        fail(dnnl_invalid_arguments, __func__, "post_ops is null");
        return -1;
    }
    return static_cast<int>(post_ops->entries.size());
}

DNNL_API dnnl_primitive_kind_t dnnl_post_ops_get_kind(const_dnnl_post_ops_t post_ops, int index) {
    if (!post_ops) {
        fail(dnnl_invalid_arguments, __func__, "post_ops is null");
        return dnnl_undefined_primitive;
    }
    if (index < 0 || index >= static_cast<int>(post_ops->entries.size())) {
        fail(dnnl_invalid_arguments, __func__, "index %d out of range (%zu post-ops)", index,
                post_ops->entries.size());
        return dnnl_undefined_primitive;
    }
    return post_ops->entries[index].kind;
}

DNNL_API dnnl_status_t dnnl_post_ops_append_sum(dnnl_post_ops_t post_ops, float scale,
        int32_t zero_point, dnnl_data_type_t data_type) {
    ANYDNN_REQUIRE_LIVE(post_ops, post_ops);
    ANYDNN_REQUIRE(data_type == dnnl_data_type_undef || valid_dt(data_type),
            dnnl_invalid_arguments, "data type %s is not valid", dnnl_dt2str(data_type));
    post_op_t e;
    e.kind = dnnl_sum;
    e.sum_scale = scale;
    e.sum_zero_point = zero_point;
    e.sum_dt = data_type;
    return append(__func__, post_ops, e);
}

DNNL_API dnnl_status_t dnnl_post_ops_get_params_sum(const_dnnl_post_ops_t post_ops, int index,
        float *scale, int32_t *zero_point, dnnl_data_type_t *data_type) {
    const post_op_t *e = nullptr;
    ANYDNN_CHECK(post_op_at(__func__, post_ops, index, dnnl_sum, e));
    ANYDNN_REQUIRE_NOT_NULL(scale);
    *scale = e->sum_scale;
    if (zero_point) *zero_point = e->sum_zero_point;
    if (data_type) *data_type = e->sum_dt;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_post_ops_append_eltwise(
        dnnl_post_ops_t post_ops, dnnl_alg_kind_t alg_kind, float alpha, float beta) {
    ANYDNN_REQUIRE_LIVE(post_ops, post_ops);
    ANYDNN_REQUIRE(is_eltwise_alg(alg_kind), dnnl_invalid_arguments,
            "%s is not an eltwise algorithm", dnnl_alg_kind2str(alg_kind));
    post_op_t e;
    e.kind = dnnl_eltwise;
    e.alg = alg_kind;
    e.alpha = alpha;
    e.beta = beta;
    return append(__func__, post_ops, e);
}

DNNL_API dnnl_status_t dnnl_post_ops_get_params_eltwise(const_dnnl_post_ops_t post_ops, int index,
        dnnl_alg_kind_t *alg_kind, float *alpha, float *beta) {
    const post_op_t *e = nullptr;
    ANYDNN_CHECK(post_op_at(__func__, post_ops, index, dnnl_eltwise, e));
    ANYDNN_REQUIRE_NOT_NULL(alg_kind);
    *alg_kind = e->alg;
    if (alpha) *alpha = e->alpha;
    if (beta) *beta = e->beta;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_post_ops_append_dw(dnnl_post_ops_t post_ops,
        dnnl_data_type_t weights_data_type, dnnl_data_type_t bias_data_type,
        dnnl_data_type_t dst_data_type, dnnl_dim_t kernel_size, dnnl_dim_t stride_size,
        dnnl_dim_t padding_l_size) {
    ANYDNN_REQUIRE_LIVE(post_ops, post_ops);
    ANYDNN_REQUIRE(valid_dt(weights_data_type), dnnl_invalid_arguments,
            "weights data type %s is not valid", dnnl_dt2str(weights_data_type));
    ANYDNN_REQUIRE(bias_data_type == dnnl_data_type_undef || valid_dt(bias_data_type),
            dnnl_invalid_arguments, "bias data type %s is not valid", dnnl_dt2str(bias_data_type));
    ANYDNN_REQUIRE(valid_dt(dst_data_type), dnnl_invalid_arguments,
            "destination data type %s is not valid", dnnl_dt2str(dst_data_type));
    ANYDNN_REQUIRE(kernel_size > 0 && stride_size > 0 && padding_l_size >= 0
                    && padding_l_size < kernel_size,
            dnnl_invalid_arguments, "kernel %lld, stride %lld, padding %lld are not valid",
            static_cast<long long>(kernel_size), static_cast<long long>(stride_size),
            static_cast<long long>(padding_l_size));
    post_op_t e;
    e.kind = dnnl_convolution;
    e.dw_weights_dt = weights_data_type;
    e.dw_bias_dt = bias_data_type;
    e.dw_dst_dt = dst_data_type;
    e.dw_kernel = kernel_size;
    e.dw_stride = stride_size;
    e.dw_padding = padding_l_size;
    return append(__func__, post_ops, e);
}

DNNL_API dnnl_status_t dnnl_post_ops_get_params_dw(const_dnnl_post_ops_t post_ops, int index,
        dnnl_data_type_t *weights_data_type, dnnl_data_type_t *bias_data_type,
        dnnl_data_type_t *dst_data_type, dnnl_dim_t *kernel_size, dnnl_dim_t *stride_size,
        dnnl_dim_t *padding_l_size) {
    const post_op_t *e = nullptr;
    ANYDNN_CHECK(post_op_at(__func__, post_ops, index, dnnl_convolution, e));
    ANYDNN_REQUIRE_NOT_NULL(weights_data_type);
    *weights_data_type = e->dw_weights_dt;
    if (bias_data_type) *bias_data_type = e->dw_bias_dt;
    if (dst_data_type) *dst_data_type = e->dw_dst_dt;
    if (kernel_size) *kernel_size = e->dw_kernel;
    if (stride_size) *stride_size = e->dw_stride;
    if (padding_l_size) *padding_l_size = e->dw_padding;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_post_ops_append_binary_v2(dnnl_post_ops_t post_ops,
        dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src1_desc,
        const_dnnl_memory_desc_t src2_desc) {
    ANYDNN_REQUIRE_LIVE(post_ops, post_ops);
    return append_binary(__func__, post_ops, alg_kind, src1_desc, src2_desc);
}

DNNL_API dnnl_status_t dnnl_post_ops_append_binary(
        dnnl_post_ops_t post_ops, dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src1_desc) {
    ANYDNN_REQUIRE_LIVE(post_ops, post_ops);
    ANYDNN_REQUIRE(alg_kind != dnnl_binary_select, dnnl_invalid_arguments,
            "binary_select needs a third operand: use dnnl_post_ops_append_binary_v2");
    return append_binary(__func__, post_ops, alg_kind, src1_desc, nullptr);
}

DNNL_API dnnl_status_t dnnl_post_ops_get_params_binary_v2(const_dnnl_post_ops_t post_ops,
        int index, dnnl_alg_kind_t *alg_kind, const_dnnl_memory_desc_t *src1_desc,
        const_dnnl_memory_desc_t *src2_desc) {
    return get_binary(__func__, post_ops, index, alg_kind, src1_desc, src2_desc);
}

DNNL_API dnnl_status_t dnnl_post_ops_get_params_binary(const_dnnl_post_ops_t post_ops, int index,
        dnnl_alg_kind_t *alg_kind, const_dnnl_memory_desc_t *src1_desc) {
    return get_binary(__func__, post_ops, index, alg_kind, src1_desc, nullptr);
}

DNNL_API dnnl_status_t dnnl_post_ops_append_prelu(dnnl_post_ops_t post_ops, int mask) {
    ANYDNN_REQUIRE_LIVE(post_ops, post_ops);
    ANYDNN_REQUIRE(mask >= 0, dnnl_invalid_arguments, "mask %d is negative", mask);
    post_op_t e;
    e.kind = dnnl_prelu;
    e.prelu_mask = mask;
    return append(__func__, post_ops, e);
}

DNNL_API dnnl_status_t dnnl_post_ops_get_params_prelu(
        const_dnnl_post_ops_t post_ops, int index, int *mask) {
    const post_op_t *e = nullptr;
    ANYDNN_CHECK(post_op_at(__func__, post_ops, index, dnnl_prelu, e));
    ANYDNN_REQUIRE_NOT_NULL(mask);
    *mask = e->prelu_mask;
    return dnnl_success;
}

/* ---- RNN quantization ----------------------------------------------------------------- */

DNNL_API dnnl_status_t dnnl_primitive_attr_set_rnn_data_qparams(
        dnnl_primitive_attr_t attr, const float scale, const float shift) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    attr->rnn_data_scale = scale;
    attr->rnn_data_shift = shift;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_primitive_attr_get_rnn_data_qparams(
        const_dnnl_primitive_attr_t attr, float *scale, float *shift) {
    ANYDNN_REQUIRE_NOT_NULL(attr);
    ANYDNN_REQUIRE_NOT_NULL(scale);
    *scale = attr->rnn_data_scale;
    if (shift) *shift = attr->rnn_data_shift;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_primitive_attr_set_rnn_weights_qparams(
        dnnl_primitive_attr_t attr, dnnl_dim_t count, int mask, const float *scales) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    return set_rnn_scales(
            __func__, attr->rnn_weights_scales, attr->rnn_weights_mask, count, mask, scales);
}

DNNL_API dnnl_status_t dnnl_primitive_attr_get_rnn_weights_qparams(
        const_dnnl_primitive_attr_t attr, dnnl_dim_t *count, int *mask, const float **scales) {
    ANYDNN_REQUIRE_NOT_NULL(attr);
    return get_rnn_scales(
            __func__, attr->rnn_weights_scales, attr->rnn_weights_mask, count, mask, scales);
}

DNNL_API dnnl_status_t dnnl_primitive_attr_set_rnn_weights_projection_qparams(
        dnnl_primitive_attr_t attr, dnnl_dim_t count, int mask, const float *scales) {
    ANYDNN_REQUIRE_LIVE(attr, attr);
    return set_rnn_scales(__func__, attr->rnn_weights_projection_scales,
            attr->rnn_weights_projection_mask, count, mask, scales);
}

DNNL_API dnnl_status_t dnnl_primitive_attr_get_rnn_weights_projection_qparams(
        const_dnnl_primitive_attr_t attr, dnnl_dim_t *count, int *mask, const float **scales) {
    ANYDNN_REQUIRE_NOT_NULL(attr);
    return get_rnn_scales(__func__, attr->rnn_weights_projection_scales,
            attr->rnn_weights_projection_mask, count, mask, scales);
}

} // extern "C"
