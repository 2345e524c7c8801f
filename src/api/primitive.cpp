// dnnl_primitive_desc_* and dnnl_primitive_* entry points common to every operation.
#include <cstring>

#include "api/api.hpp"
#include "core/primitive.hpp"
#include "core/primitive_cache.hpp"
#include "core/sealed.hpp"
#include "core/serializer.hpp"

using namespace anydnn;

namespace {

// Which argument a memory-descriptor query names.
int md_query_arg(dnnl_primitive_kind_t kind, dnnl_query_t what, int index) {
    const bool multi_src = kind == dnnl_sum || kind == dnnl_concat;
    // Normalizations: inputs/outputs 1 and 2 are mean and variance; weights are scale, shift.
    const bool norm = kind == dnnl_batch_normalization || kind == dnnl_layer_normalization
            || kind == dnnl_group_normalization;
    if (norm && (what == dnnl_query_src_md || what == dnnl_query_dst_md) && index >= 1)
        return index == 1 ? DNNL_ARG_MEAN : index == 2 ? DNNL_ARG_VARIANCE : -1;
    if (norm && what == dnnl_query_weights_md)
        return index == 0 ? DNNL_ARG_SCALE : index == 1 ? DNNL_ARG_SHIFT : -1;
    if (norm && what == dnnl_query_diff_weights_md)
        return index == 0 ? DNNL_ARG_DIFF_SCALE : index == 1 ? DNNL_ARG_DIFF_SHIFT : -1;
    switch (what) {
        case dnnl_query_src_md:
            if (multi_src) return DNNL_ARG_MULTIPLE_SRC + index;
            return index <= 2 ? DNNL_ARG_SRC_0 + index : -1;
        case dnnl_query_diff_src_md: return index <= 2 ? DNNL_ARG_DIFF_SRC_0 + index : -1;
        case dnnl_query_weights_md:
            return index == 0 ? DNNL_ARG_WEIGHTS : index == 1 ? DNNL_ARG_BIAS : -1;
        case dnnl_query_diff_weights_md:
            return index == 0 ? DNNL_ARG_DIFF_WEIGHTS : index == 1 ? DNNL_ARG_DIFF_BIAS : -1;
        case dnnl_query_dst_md: return index <= 2 ? DNNL_ARG_DST_0 + index : -1;
        case dnnl_query_diff_dst_md: return index <= 2 ? DNNL_ARG_DIFF_DST_0 + index : -1;
        case dnnl_query_workspace_md: return index == 0 ? DNNL_ARG_WORKSPACE : -1;
        case dnnl_query_exec_arg_md: return index;
        default: return -1;
    }
}

// RNN: src 0..3 = layer, iter, iter_c, attention; dst 0..2 = layer, iter, iter_c; weights
// are layer, iter, then peephole, projection and bias in that order, each present one
// taking the next index (as oneDNN numbers them).
int rnn_md_query_arg(const primitive_desc_t &pd, dnnl_query_t what, int index) {
    const bool diff = what == dnnl_query_diff_weights_md;
    if (what != dnnl_query_weights_md && !diff) {
        if ((what == dnnl_query_src_md || what == dnnl_query_diff_src_md) && index == 3)
            return what == dnnl_query_src_md ? DNNL_ARG_SRC_3 : DNNL_ARG_DIFF_SRC_3;
        return md_query_arg(dnnl_rnn, what, index);
    }
    if (index < 0) return -1;
    if (index <= 1) return (diff ? DNNL_ARG_DIFF_WEIGHTS_0 : DNNL_ARG_WEIGHTS_0) + index;
    const int base = diff ? DNNL_ARG_DIFF_WEIGHTS_0 : DNNL_ARG_WEIGHTS_0;
    const int order[] = {base + 2, base + 3, diff ? DNNL_ARG_DIFF_BIAS : DNNL_ARG_BIAS};
    int next = 2;
    for (int arg : order) {
        if (is_zero_md(pd.arg_md(arg))) continue;
        if (next++ == index) return arg;
    }
    return -1;
}

// Normalizations in forward training write mean and variance unless they are given them.
bool stats_are_outputs(const primitive_desc_t &pd) {
    const dnnl_primitive_kind_t k = pd.kind();
    if (k != dnnl_batch_normalization && k != dnnl_layer_normalization
            && k != dnnl_group_normalization)
        return false;
    unsigned flags = 0;
    if (op_prop_kind(pd.desc) != dnnl_forward_training
            || op_query(pd.desc, dnnl_query_flags, 0, &flags) != dnnl_success)
        return false;
    return !(flags & dnnl_use_global_stats);
}

int count_args(const primitive_desc_t &pd, bool outputs) {
    dnnl_prop_kind_t prop = op_prop_kind(pd.desc);
    const bool stats_out = stats_are_outputs(pd);
    int n = 0;
    for (const auto &a : pd.args) {
        if (a.first == DNNL_ARG_SCRATCHPAD || a.first >= DNNL_ARG_ATTR_SCALES) continue;
        if (is_zero_md(a.second)) continue;
        const bool is_stat = a.first == DNNL_ARG_MEAN || a.first == DNNL_ARG_VARIANCE;
        if ((is_output_arg(a.first, prop) || (stats_out && is_stat)) == outputs) ++n;
    }
    return n;
}

const std::string &cache_blob_id(dnnl_primitive_desc &pd) {
    if (pd.cache_blob_id.empty()) {
        serializer_t s;
        s.write(std::string(pd.impl->name()));
        s.write(hash_bytes(op_serialize(pd.impl->desc)));
        s.write(hash_bytes(attr_serialize(pd.impl->attr)));
        pd.cache_blob_id = s.bytes();
    }
    return pd.cache_blob_id;
}

// A cache blob records which implementation and problem it belongs to, sealed under that id
// (core/sealed.hpp); creating from it checks that and skips dispatch.
std::string make_cache_blob(dnnl_primitive_desc &pd) {
    return sealed::seal(cache_blob_id(pd), std::string());
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_primitive_desc_next_impl(dnnl_primitive_desc_t primitive_desc) {
    ANYDNN_REQUIRE_LIVE(primitive_desc, primitive_desc);
    return guarded(__func__, [&] { return primitive_desc_next_impl(*primitive_desc); });
}

DNNL_API dnnl_status_t dnnl_primitive_desc_clone(
        dnnl_primitive_desc_t *primitive_desc, const_dnnl_primitive_desc_t existing) {
    ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
    ANYDNN_REQUIRE_LIVE(primitive_desc, existing);
    return guarded(__func__, [&] {
        auto pd = std::make_unique<dnnl_primitive_desc>();
        pd->engine = existing->engine;
        pd->reorder_src_engine = existing->reorder_src_engine;
        pd->reorder_dst_engine = existing->reorder_dst_engine;
        pd->desc = existing->desc;
        pd->attr = existing->attr;
        pd->hint = existing->hint;
        pd->impl_index = existing->impl_index;
        pd->impl = existing->impl->clone();
        registry_add(object_kind::primitive_desc, pd.get());
        *primitive_desc = pd.release();
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_primitive_desc_get_attr(
        const_dnnl_primitive_desc_t primitive_desc, const_dnnl_primitive_attr_t *attr) {
    ANYDNN_REQUIRE_LIVE(primitive_desc, primitive_desc);
    ANYDNN_REQUIRE_NOT_NULL(attr);
    *attr = &primitive_desc->attr;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_primitive_desc_destroy(dnnl_primitive_desc_t primitive_desc) {
    if (!primitive_desc) return dnnl_success;
    ANYDNN_REQUIRE_LIVE(primitive_desc, primitive_desc);
    ANYDNN_REQUIRE(!primitive_desc->owned_by_primitive, dnnl_invalid_arguments,
            "this primitive descriptor belongs to a primitive");
    delete primitive_desc;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_primitive_desc_query(const_dnnl_primitive_desc_t primitive_desc,
        dnnl_query_t what, int index, void *result) {
    ANYDNN_REQUIRE_LIVE(primitive_desc, primitive_desc);
    ANYDNN_REQUIRE_NOT_NULL(result);
    // Queries may fill strings the descriptor keeps: they are built once, under the caller.
    auto &pd = const_cast<dnnl_primitive_desc &>(*primitive_desc);
    const primitive_desc_t &impl = *pd.impl;
    switch (what) {
        case dnnl_query_engine:
        case dnnl_query_scratchpad_engine:
            *static_cast<dnnl_engine_t *>(result) = pd.engine.get();
            return dnnl_success;
        case dnnl_query_reorder_src_engine:
        case dnnl_query_reorder_dst_engine: {
            ANYDNN_REQUIRE(impl.kind() == dnnl_reorder, dnnl_unimplemented,
                    "not a reorder primitive descriptor");
            const auto &e = what == dnnl_query_reorder_src_engine ? pd.reorder_src_engine
                                                                  : pd.reorder_dst_engine;
            *static_cast<dnnl_engine_t *>(result) = e.get() ? e.get() : pd.engine.get();
            return dnnl_success;
        }
        case dnnl_query_primitive_kind:
            *static_cast<dnnl_primitive_kind_t *>(result) = impl.kind();
            return dnnl_success;
        case dnnl_query_prop_kind:
            *static_cast<dnnl_prop_kind_t *>(result) = op_prop_kind(impl.desc);
            return dnnl_success;
        case dnnl_query_num_of_inputs_s32:
            *static_cast<int *>(result) = count_args(impl, false);
            return dnnl_success;
        case dnnl_query_num_of_outputs_s32:
            *static_cast<int *>(result) = count_args(impl, true);
            return dnnl_success;
        case dnnl_query_time_estimate_f64:
            *static_cast<double *>(result) = 0.0;
            return dnnl_success;
        case dnnl_query_memory_consumption_s64:
            *static_cast<dnnl_dim_t *>(result) = static_cast<dnnl_dim_t>(impl.scratchpad_size);
            return dnnl_success;
        case dnnl_query_impl_info_str:
            if (pd.info.empty()) pd.info = impl.name();
            *static_cast<const char **>(result) = pd.info.c_str();
            return dnnl_success;
        case dnnl_query_cache_blob_id_size_s64:
            *static_cast<dnnl_dim_t *>(result)
                    = static_cast<dnnl_dim_t>(cache_blob_id(pd).size());
            return dnnl_success;
        case dnnl_query_cache_blob_id:
            *static_cast<const uint8_t **>(result)
                    = reinterpret_cast<const uint8_t *>(cache_blob_id(pd).data());
            return dnnl_success;
        case dnnl_query_scratchpad_md: {
            static thread_local memory_desc_t md;
            md = zero_md();
            // oneDNN describes the scratchpad only to a user who passes it: in library mode
            // the library owns it and the descriptor is empty (memory_consumption has its size).
            if (impl.scratchpad_size > 0
                    && impl.attr.scratchpad_mode == dnnl_scratchpad_mode_user) {
                dnnl_dims_t dims = {static_cast<dnnl_dim_t>(impl.scratchpad_size)};
                md_init_with_tag(md, 1, dims, dnnl_u8, dnnl_a);
            }
            auto &slot = const_cast<primitive_desc_t &>(impl).args[DNNL_ARG_SCRATCHPAD];
            slot = md;
            *static_cast<const_dnnl_memory_desc_t *>(result) = &slot;
            return dnnl_success;
        }
        default: break;
    }
    if (what > dnnl_query_some_md && what <= dnnl_query_exec_arg_md) {
        int arg = impl.kind() == dnnl_rnn ? rnn_md_query_arg(impl, what, index)
                                          : md_query_arg(impl.kind(), what, index);
        // oneDNN's normalizations keep one scale-and-shift descriptor: weights index 0
        // describes the shift when there is no scale (backward: the shift's gradient).
        const bool weights = what == dnnl_query_weights_md && index == 0;
        if (weights && arg == DNNL_ARG_SCALE && is_zero_md(impl.arg_md(arg)))
            arg = DNNL_ARG_SHIFT;
        if (weights && arg == DNNL_ARG_SHIFT && is_zero_md(impl.arg_md(arg)))
            arg = DNNL_ARG_DIFF_SHIFT;
        if (what == dnnl_query_diff_weights_md && arg == DNNL_ARG_DIFF_SCALE
                && is_zero_md(impl.arg_md(arg)))
            arg = DNNL_ARG_DIFF_SHIFT;
        *static_cast<const_dnnl_memory_desc_t *>(result) = &impl.arg_md(arg);
        return dnnl_success;
    }
    return op_query(impl.desc, what, index, result);
}

DNNL_API const_dnnl_memory_desc_t dnnl_primitive_desc_query_md(
        const_dnnl_primitive_desc_t primitive_desc, dnnl_query_t what, int index) {
    const_dnnl_memory_desc_t md = nullptr;
    if (!(what > dnnl_query_some_md && what <= dnnl_query_exec_arg_md)) return nullptr;
    if (dnnl_primitive_desc_query(primitive_desc, what, index, &md) != dnnl_success)
        return nullptr;
    return md;
}

DNNL_API int dnnl_primitive_desc_query_s32(
        const_dnnl_primitive_desc_t primitive_desc, dnnl_query_t what, int index) {
    int value = 0;
    if (what != dnnl_query_num_of_inputs_s32 && what != dnnl_query_num_of_outputs_s32
            && what != dnnl_query_axis_s32)
        return 0;
    if (dnnl_primitive_desc_query(primitive_desc, what, index, &value) != dnnl_success)
        return 0;
    return value;
}

DNNL_API dnnl_status_t dnnl_primitive_create(
        dnnl_primitive_t *primitive, const_dnnl_primitive_desc_t primitive_desc) {
    ANYDNN_REQUIRE_NOT_NULL(primitive);
    ANYDNN_REQUIRE_LIVE(primitive_desc, primitive_desc);
    return guarded(__func__, [&] { return primitive_create(primitive, primitive_desc); });
}

DNNL_API dnnl_status_t dnnl_primitive_create_from_cache_blob(dnnl_primitive_t *primitive,
        const_dnnl_primitive_desc_t primitive_desc, size_t size, const uint8_t *cache_blob) {
    ANYDNN_REQUIRE_NOT_NULL(primitive);
    ANYDNN_REQUIRE_LIVE(primitive_desc, primitive_desc);
    ANYDNN_REQUIRE(cache_blob && size > 0, dnnl_invalid_arguments, "empty cache blob");
    return guarded(__func__, [&] {
        auto &pd = const_cast<dnnl_primitive_desc &>(*primitive_desc);
        const uint8_t *payload = nullptr;
        size_t payload_size = 0;
        const sealed::verdict_t v
                = sealed::open(cache_blob, size, cache_blob_id(pd), &payload, &payload_size);
        ANYDNN_REQUIRE(v != sealed::verdict_t::wrong_key, dnnl_invalid_arguments,
                "cache blob was made for another primitive or library version");
        ANYDNN_REQUIRE(v == sealed::verdict_t::ok && payload_size == 0, dnnl_invalid_arguments,
                "cache blob is unusable: %s",
                v == sealed::verdict_t::ok ? "unexpected payload" : sealed::verdict_text(v));
        return primitive_create(primitive, primitive_desc);
    });
}

DNNL_API dnnl_status_t dnnl_primitive_get_cache_blob(
        const_dnnl_primitive_t primitive, size_t *size, uint8_t *cache_blob) {
    ANYDNN_REQUIRE_LIVE(primitive, primitive);
    ANYDNN_REQUIRE_NOT_NULL(size);
    return guarded(__func__, [&] {
        std::string blob = make_cache_blob(*primitive->pd);
        if (!cache_blob) {
            *size = blob.size();
            return dnnl_success;
        }
        ANYDNN_REQUIRE(*size == blob.size(), dnnl_invalid_arguments,
                "cache blob buffer has %zu bytes, needs %zu", *size, blob.size());
        std::memcpy(cache_blob, blob.data(), blob.size());
        return dnnl_success;
    });
}

DNNL_API dnnl_status_t dnnl_primitive_execute(const_dnnl_primitive_t primitive,
        dnnl_stream_t stream, int nargs, const dnnl_exec_arg_t *args) {
    ANYDNN_REQUIRE_LIVE(primitive, primitive);
    ANYDNN_REQUIRE_LIVE(stream, stream);
    ANYDNN_REQUIRE(stream->engine() == primitive->engine.get()
                    || primitive->impl->pd().kind() == dnnl_reorder,
            dnnl_invalid_arguments, "stream and primitive belong to different engines");
    return guarded(__func__,
            [&] { return primitive_execute(primitive, stream, nargs, args); });
}

DNNL_API dnnl_status_t dnnl_primitive_get_primitive_desc(
        const_dnnl_primitive_t primitive, const_dnnl_primitive_desc_t *primitive_desc) {
    ANYDNN_REQUIRE_LIVE(primitive, primitive);
    ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
    *primitive_desc = primitive->pd;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_primitive_destroy(dnnl_primitive_t primitive) {
    if (!primitive) return dnnl_success;
    ANYDNN_REQUIRE_LIVE(primitive, primitive);
    delete primitive;
    return dnnl_success;
}

} // extern "C"
