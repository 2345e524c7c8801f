// dnnl_{vanilla_rnn,lstm,gru,lbr_gru,augru,lbr_augru}_{forward,backward}_primitive_desc_create:
// every tensor's rank and dimensions checked against the weights (which fix L, D, SLC, SIC,
// gates and DHC), optional tensors as zero descriptors, then one rnn_desc_t.
#include "api/api.hpp"
#include "core/primitive_desc.hpp"

using namespace anydnn;

namespace {

const char *const tensor_names[rnn_tensor_count] = {"src_layer", "src_iter", "src_iter_c",
        "attention", "weights_layer", "weights_iter", "weights_peephole", "weights_projection",
        "bias", "dst_layer", "dst_iter", "dst_iter_c"};

const int tensor_ndims[rnn_tensor_count] = {3, 4, 4, 3, 5, 5, 4, 4, 4, 3, 4, 4};

bool is_given(const memory_desc_t *md) { return md && md->ndims != 0; }

int gates_of(dnnl_alg_kind_t cell) {
    switch (cell) {
        case dnnl_vanilla_rnn: return 1;
        case dnnl_vanilla_lstm: return 4;
        default: return 3;
    }
}

bool is_lbr(dnnl_alg_kind_t cell) { return cell == dnnl_lbr_gru || cell == dnnl_lbr_augru; }
bool is_augru(dnnl_alg_kind_t cell) { return cell == dnnl_vanilla_augru || cell == dnnl_lbr_augru; }

const char *cell_name(dnnl_alg_kind_t cell) {
    switch (cell) {
        case dnnl_vanilla_rnn: return "vanilla rnn";
        case dnnl_vanilla_lstm: return "lstm";
        case dnnl_vanilla_gru: return "gru";
        case dnnl_lbr_gru: return "lbr_gru";
        case dnnl_vanilla_augru: return "augru";
        default: return "lbr_augru";
    }
}

// The dimensions each tensor must have, from the weights and src_layer.
struct expected_dims_t {
    dim_t dims[rnn_tensor_count][5];
};

status_t check_md(const memory_desc_t &md, int k) {
    const char *name = tensor_names[k];
    ANYDNN_REQUIRE(md.ndims == tensor_ndims[k], dnnl_invalid_arguments,
            "%s has %d dimensions (expected %d)", name, md.ndims, tensor_ndims[k]);
    ANYDNN_REQUIRE(md.data_type != dnnl_data_type_undef, dnnl_invalid_arguments,
            "%s has no data type", name);
    for (int d = 0; d < md.ndims; ++d) {
        ANYDNN_REQUIRE(md.dims[d] != DNNL_RUNTIME_DIM_VAL, dnnl_unimplemented,
                "%s has a runtime dimension (RNN needs them at creation)", name);
        ANYDNN_REQUIRE(md.dims[d] >= 0, dnnl_invalid_arguments, "%s has a negative dimension",
                name);
        ANYDNN_REQUIRE(md.dims[d] > 0, dnnl_unimplemented,
                "%s has a zero dimension (empty RNN problems are not supported)", name);
    }
    return dnnl_success;
}

status_t check_dims(const memory_desc_t &md, int k, const expected_dims_t &e, const char *prefix) {
    for (int d = 0; d < md.ndims; ++d)
        ANYDNN_REQUIRE(md.dims[d] == e.dims[k][d], dnnl_invalid_arguments,
                "%s%s dimension %d is %lld, expected %lld", prefix, tensor_names[k], d,
                (long long)md.dims[d], (long long)e.dims[k][d]);
    return dnnl_success;
}

struct rnn_args_t {
    dnnl_alg_kind_t cell;
    dnnl_alg_kind_t activation = dnnl_alg_kind_undef;
    float alpha = 0.f, beta = 0.f;
    const memory_desc_t *mds[rnn_tensor_count] = {};
    const memory_desc_t *diff_mds[rnn_tensor_count] = {};
};

status_t create(dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction, const rnn_args_t &a,
        unsigned flags, bool backward, const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) {
    ANYDNN_REQUIRE_NOT_NULL(primitive_desc);
    *primitive_desc = nullptr;
    ANYDNN_REQUIRE_LIVE(engine, engine);
    if (attr) ANYDNN_REQUIRE_READABLE_ATTR(attr);
    if (backward) {
        ANYDNN_REQUIRE(prop_kind == dnnl_backward, dnnl_invalid_arguments,
                "prop kind %s is not backward", dnnl_prop_kind2str(prop_kind));
    } else {
        ANYDNN_REQUIRE(prop_kind == dnnl_forward_training || prop_kind == dnnl_forward_inference,
                dnnl_invalid_arguments, "prop kind %s is not a forward one",
                dnnl_prop_kind2str(prop_kind));
    }
    ANYDNN_REQUIRE(direction == dnnl_unidirectional_left2right
                    || direction == dnnl_unidirectional_right2left
                    || direction == dnnl_bidirectional_concat
                    || direction == dnnl_bidirectional_sum,
            dnnl_invalid_arguments, "direction %d is not an RNN direction", int(direction));
    ANYDNN_REQUIRE((flags & ~unsigned(dnnl_rnn_flags_diff_weights_overwrite)) == 0,
            dnnl_invalid_arguments, "flags 0x%x hold bits RNN does not know", flags);
    if (a.cell == dnnl_vanilla_rnn)
        ANYDNN_REQUIRE(a.activation == dnnl_eltwise_relu || a.activation == dnnl_eltwise_tanh
                        || a.activation == dnnl_eltwise_logistic,
                dnnl_invalid_arguments,
                "vanilla rnn activation %s is not relu, tanh or logistic",
                dnnl_alg_kind2str(a.activation));

    const bool lstm = a.cell == dnnl_vanilla_lstm;
    const bool augru = is_augru(a.cell);
    // Present tensors: checked for rank and type; required ones must be there.
    const int required[] = {rnn_src_layer, rnn_weights_layer, rnn_weights_iter, rnn_dst_layer};
    for (int k : required)
        ANYDNN_REQUIRE(is_given(a.mds[k]), dnnl_invalid_arguments, "%s descriptor is missing",
                tensor_names[k]);
    if (augru)
        ANYDNN_REQUIRE(is_given(a.mds[rnn_attention]), dnnl_invalid_arguments,
                "%s needs an attention descriptor", cell_name(a.cell));
    for (int k : {rnn_src_iter_c, rnn_dst_iter_c, rnn_weights_peephole, rnn_weights_projection})
        ANYDNN_REQUIRE(lstm || !is_given(a.mds[k]), dnnl_invalid_arguments,
                "%s is only for LSTM (cell is %s)", tensor_names[k], cell_name(a.cell));
    for (int k = 0; k < rnn_tensor_count; ++k)
        if (is_given(a.mds[k])) ANYDNN_CHECK(check_md(*a.mds[k], k));

    const memory_desc_t &wl = *a.mds[rnn_weights_layer];
    const memory_desc_t &wi = *a.mds[rnn_weights_iter];
    const dim_t L = wl.dims[0], D = wl.dims[1], SLC = wl.dims[2], G = wl.dims[3],
                DHC = wl.dims[4], SIC = wi.dims[2];
    const bool bidir = direction == dnnl_bidirectional_concat
            || direction == dnnl_bidirectional_sum;
    ANYDNN_REQUIRE(D == (bidir ? 2 : 1), dnnl_invalid_arguments,
            "weights_layer has %lld directions, direction %s needs %d", (long long)D,
            dnnl_rnn_direction2str(direction), bidir ? 2 : 1);
    ANYDNN_REQUIRE(G == gates_of(a.cell), dnnl_invalid_arguments,
            "weights_layer has %lld gates, %s has %d", (long long)G, cell_name(a.cell),
            gates_of(a.cell));
    const bool projection = is_given(a.mds[rnn_weights_projection]);
    const dim_t DIC = projection ? a.mds[rnn_weights_projection]->dims[3] : DHC;
    // As in oneDNN: src_iter may have other channels than the state for one time step
    // (the state is read once); GRU cells blend it with the new state, so theirs match.
    const dim_t T = a.mds[rnn_src_layer]->dims[0], N = a.mds[rnn_src_layer]->dims[1];
    ANYDNN_REQUIRE(SIC == DIC || (T == 1 && (lstm || a.cell == dnnl_vanilla_rnn)),
            dnnl_invalid_arguments,
            "weights_iter input channels %lld differ from the state size %lld (allowed for "
            "LSTM and vanilla RNN over one time step, here %lld)",
            (long long)SIC, (long long)DIC, (long long)T);
    ANYDNN_REQUIRE(L == 1 || SLC == DIC, dnnl_invalid_arguments,
            "with %lld layers src_layer channels %lld must equal the state size %lld",
            (long long)L, (long long)SLC, (long long)DIC);
    // As in oneDNN: AUGRU is defined for one left-to-right layer only.
    ANYDNN_REQUIRE(!augru || (L == 1 && direction == dnnl_unidirectional_left2right),
            dnnl_invalid_arguments, "%s needs one layer and direction left2right",
            cell_name(a.cell));
    const dim_t DLC = direction == dnnl_bidirectional_concat ? 2 * DIC : DIC;
    const dim_t GB = G + (is_lbr(a.cell) ? 1 : 0);
    expected_dims_t e = {{{T, N, SLC}, {L, D, N, SIC}, {L, D, N, DHC}, {T, N, 1},
            {L, D, SLC, G, DHC}, {L, D, SIC, G, DHC}, {L, D, 3, DHC}, {L, D, DHC, DIC},
            {L, D, GB, DHC}, {T, N, DLC}, {L, D, N, DIC}, {L, D, N, DHC}}};
    for (int k = 0; k < rnn_tensor_count; ++k)
        if (is_given(a.mds[k])) ANYDNN_CHECK(check_dims(*a.mds[k], k, e, ""));

    rnn_desc_t d {};
    d.prop_kind = prop_kind;
    d.cell_kind = a.cell;
    d.direction = direction;
    d.flags = flags;
    d.activation_kind = a.activation;
    d.alpha = a.alpha;
    d.beta = a.beta;
    d.mds.resize(rnn_tensor_count, zero_md());
    d.diff_mds.resize(rnn_tensor_count, zero_md());
    for (int k = 0; k < rnn_tensor_count; ++k)
        if (is_given(a.mds[k])) d.mds[k] = *a.mds[k];

    if (!backward) return primitive_desc_create(primitive_desc, d, attr, engine, nullptr);

    for (int k : required)
        ANYDNN_REQUIRE(is_given(a.diff_mds[k]), dnnl_invalid_arguments,
                "diff_%s descriptor is missing", tensor_names[k]);
    if (augru)
        ANYDNN_REQUIRE(is_given(a.diff_mds[rnn_attention]), dnnl_invalid_arguments,
                "%s backward needs a diff_attention descriptor", cell_name(a.cell));
    for (int k = 0; k < rnn_tensor_count; ++k) {
        if (!is_given(a.diff_mds[k])) continue;
        ANYDNN_REQUIRE(is_given(a.mds[k]), dnnl_invalid_arguments,
                "diff_%s is given but %s is not", tensor_names[k], tensor_names[k]);
        ANYDNN_CHECK(check_md(*a.diff_mds[k], k));
        ANYDNN_CHECK(check_dims(*a.diff_mds[k], k, e, "diff_"));
        d.diff_mds[k] = *a.diff_mds[k];
    }
    ANYDNN_REQUIRE(hint_fwd_pd != nullptr, dnnl_invalid_arguments,
            "backward %s needs hint_fwd_pd", cell_name(a.cell));
    ANYDNN_REQUIRE_LIVE(primitive_desc, hint_fwd_pd);
    ANYDNN_REQUIRE(hint_fwd_pd->impl && hint_fwd_pd->impl->kind() == dnnl_rnn,
            dnnl_invalid_arguments, "hint_fwd_pd is not an RNN primitive descriptor");
    return primitive_desc_create(primitive_desc, d, attr, engine, hint_fwd_pd);
}

// Fills the forward tensors shared by every cell kind.
rnn_args_t args_of(dnnl_alg_kind_t cell, const_dnnl_memory_desc_t src_layer,
        const_dnnl_memory_desc_t src_iter, const_dnnl_memory_desc_t weights_layer,
        const_dnnl_memory_desc_t weights_iter, const_dnnl_memory_desc_t bias,
        const_dnnl_memory_desc_t dst_layer, const_dnnl_memory_desc_t dst_iter) {
    rnn_args_t a;
    a.cell = cell;
    a.mds[rnn_src_layer] = src_layer;
    a.mds[rnn_src_iter] = src_iter;
    a.mds[rnn_weights_layer] = weights_layer;
    a.mds[rnn_weights_iter] = weights_iter;
    a.mds[rnn_bias] = bias;
    a.mds[rnn_dst_layer] = dst_layer;
    a.mds[rnn_dst_iter] = dst_iter;
    return a;
}

void set_diffs(rnn_args_t &a, const_dnnl_memory_desc_t diff_src_layer,
        const_dnnl_memory_desc_t diff_src_iter, const_dnnl_memory_desc_t diff_weights_layer,
        const_dnnl_memory_desc_t diff_weights_iter, const_dnnl_memory_desc_t diff_bias,
        const_dnnl_memory_desc_t diff_dst_layer, const_dnnl_memory_desc_t diff_dst_iter) {
    a.diff_mds[rnn_src_layer] = diff_src_layer;
    a.diff_mds[rnn_src_iter] = diff_src_iter;
    a.diff_mds[rnn_weights_layer] = diff_weights_layer;
    a.diff_mds[rnn_weights_iter] = diff_weights_iter;
    a.diff_mds[rnn_bias] = diff_bias;
    a.diff_mds[rnn_dst_layer] = diff_dst_layer;
    a.diff_mds[rnn_dst_iter] = diff_dst_iter;
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_vanilla_rnn_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        const dnnl_alg_kind_t activation, const dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t weights_layer_desc, const_dnnl_memory_desc_t weights_iter_desc,
        const_dnnl_memory_desc_t bias_desc, const_dnnl_memory_desc_t dst_layer_desc,
        const_dnnl_memory_desc_t dst_iter_desc, unsigned flags, float alpha, float beta,
        const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        rnn_args_t a = args_of(dnnl_vanilla_rnn, src_layer_desc, src_iter_desc,
                weights_layer_desc, weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc);
        a.activation = activation;
        a.alpha = alpha;
        a.beta = beta;
        return create(primitive_desc, engine, prop_kind, direction, a, flags, false, nullptr,
                attr);
    });
}

DNNL_API dnnl_status_t dnnl_vanilla_rnn_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        const dnnl_alg_kind_t activation, const dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t weights_layer_desc, const_dnnl_memory_desc_t weights_iter_desc,
        const_dnnl_memory_desc_t bias_desc, const_dnnl_memory_desc_t dst_layer_desc,
        const_dnnl_memory_desc_t dst_iter_desc, const_dnnl_memory_desc_t diff_src_layer_desc,
        const_dnnl_memory_desc_t diff_src_iter_desc,
        const_dnnl_memory_desc_t diff_weights_layer_desc,
        const_dnnl_memory_desc_t diff_weights_iter_desc, const_dnnl_memory_desc_t diff_bias_desc,
        const_dnnl_memory_desc_t diff_dst_layer_desc, const_dnnl_memory_desc_t diff_dst_iter_desc,
        unsigned flags, float alpha, float beta, const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        rnn_args_t a = args_of(dnnl_vanilla_rnn, src_layer_desc, src_iter_desc,
                weights_layer_desc, weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc);
        set_diffs(a, diff_src_layer_desc, diff_src_iter_desc, diff_weights_layer_desc,
                diff_weights_iter_desc, diff_bias_desc, diff_dst_layer_desc, diff_dst_iter_desc);
        a.activation = activation;
        a.alpha = alpha;
        a.beta = beta;
        return create(primitive_desc, engine, prop_kind, direction, a, flags, true, hint_fwd_pd,
                attr);
    });
}

DNNL_API dnnl_status_t dnnl_lstm_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        dnnl_rnn_direction_t direction, const_dnnl_memory_desc_t src_layer_desc,
        const_dnnl_memory_desc_t src_iter_desc, const_dnnl_memory_desc_t src_iter_c_desc,
        const_dnnl_memory_desc_t weights_layer_desc, const_dnnl_memory_desc_t weights_iter_desc,
        const_dnnl_memory_desc_t weights_peephole_desc,
        const_dnnl_memory_desc_t weights_projection_desc, const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc,
        const_dnnl_memory_desc_t dst_iter_c_desc, unsigned flags,
        const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        rnn_args_t a = args_of(dnnl_vanilla_lstm, src_layer_desc, src_iter_desc,
                weights_layer_desc, weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc);
        a.mds[rnn_src_iter_c] = src_iter_c_desc;
        a.mds[rnn_weights_peephole] = weights_peephole_desc;
        a.mds[rnn_weights_projection] = weights_projection_desc;
        a.mds[rnn_dst_iter_c] = dst_iter_c_desc;
        return create(primitive_desc, engine, prop_kind, direction, a, flags, false, nullptr,
                attr);
    });
}

DNNL_API dnnl_status_t dnnl_lstm_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, dnnl_prop_kind_t prop_kind,
        dnnl_rnn_direction_t direction, const_dnnl_memory_desc_t src_layer_desc,
        const_dnnl_memory_desc_t src_iter_desc, const_dnnl_memory_desc_t src_iter_c_desc,
        const_dnnl_memory_desc_t weights_layer_desc, const_dnnl_memory_desc_t weights_iter_desc,
        const_dnnl_memory_desc_t weights_peephole_desc,
        const_dnnl_memory_desc_t weights_projection_desc, const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc,
        const_dnnl_memory_desc_t dst_iter_c_desc, const_dnnl_memory_desc_t diff_src_layer_desc,
        const_dnnl_memory_desc_t diff_src_iter_desc, const_dnnl_memory_desc_t diff_src_iter_c_desc,
        const_dnnl_memory_desc_t diff_weights_layer_desc,
        const_dnnl_memory_desc_t diff_weights_iter_desc,
        const_dnnl_memory_desc_t diff_weights_peephole_desc,
        const_dnnl_memory_desc_t diff_weights_projection_desc,
        const_dnnl_memory_desc_t diff_bias_desc, const_dnnl_memory_desc_t diff_dst_layer_desc,
        const_dnnl_memory_desc_t diff_dst_iter_desc, const_dnnl_memory_desc_t diff_dst_iter_c_desc,
        unsigned flags, const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    return guarded(__func__, [&]() -> status_t {
        rnn_args_t a = args_of(dnnl_vanilla_lstm, src_layer_desc, src_iter_desc,
                weights_layer_desc, weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc);
        a.mds[rnn_src_iter_c] = src_iter_c_desc;
        a.mds[rnn_weights_peephole] = weights_peephole_desc;
        a.mds[rnn_weights_projection] = weights_projection_desc;
        a.mds[rnn_dst_iter_c] = dst_iter_c_desc;
        set_diffs(a, diff_src_layer_desc, diff_src_iter_desc, diff_weights_layer_desc,
                diff_weights_iter_desc, diff_bias_desc, diff_dst_layer_desc, diff_dst_iter_desc);
        a.diff_mds[rnn_src_iter_c] = diff_src_iter_c_desc;
        a.diff_mds[rnn_weights_peephole] = diff_weights_peephole_desc;
        a.diff_mds[rnn_weights_projection] = diff_weights_projection_desc;
        a.diff_mds[rnn_dst_iter_c] = diff_dst_iter_c_desc;
        return create(primitive_desc, engine, prop_kind, direction, a, flags, true, hint_fwd_pd,
                attr);
    });
}

#define ANYDNN_GRU_LIKE_FORWARD(fn, cell) \
    DNNL_API dnnl_status_t fn(dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, \
            dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction, \
            const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc, \
            const_dnnl_memory_desc_t weights_layer_desc, \
            const_dnnl_memory_desc_t weights_iter_desc, const_dnnl_memory_desc_t bias_desc, \
            const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc, \
            unsigned flags, const_dnnl_primitive_attr_t attr) { \
        return guarded(__func__, [&]() -> status_t { \
            rnn_args_t a = args_of(cell, src_layer_desc, src_iter_desc, weights_layer_desc, \
                    weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc); \
            return create(primitive_desc, engine, prop_kind, direction, a, flags, false, \
                    nullptr, attr); \
        }); \
    }

#define ANYDNN_GRU_LIKE_BACKWARD(fn, cell) \
    DNNL_API dnnl_status_t fn(dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, \
            dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction, \
            const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc, \
            const_dnnl_memory_desc_t weights_layer_desc, \
            const_dnnl_memory_desc_t weights_iter_desc, const_dnnl_memory_desc_t bias_desc, \
            const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc, \
            const_dnnl_memory_desc_t diff_src_layer_desc, \
            const_dnnl_memory_desc_t diff_src_iter_desc, \
            const_dnnl_memory_desc_t diff_weights_layer_desc, \
            const_dnnl_memory_desc_t diff_weights_iter_desc, \
            const_dnnl_memory_desc_t diff_bias_desc, \
            const_dnnl_memory_desc_t diff_dst_layer_desc, \
            const_dnnl_memory_desc_t diff_dst_iter_desc, unsigned flags, \
            const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) { \
        return guarded(__func__, [&]() -> status_t { \
            rnn_args_t a = args_of(cell, src_layer_desc, src_iter_desc, weights_layer_desc, \
                    weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc); \
            set_diffs(a, diff_src_layer_desc, diff_src_iter_desc, diff_weights_layer_desc, \
                    diff_weights_iter_desc, diff_bias_desc, diff_dst_layer_desc, \
                    diff_dst_iter_desc); \
            return create(primitive_desc, engine, prop_kind, direction, a, flags, true, \
                    hint_fwd_pd, attr); \
        }); \
    }

ANYDNN_GRU_LIKE_FORWARD(dnnl_gru_forward_primitive_desc_create, dnnl_vanilla_gru)
ANYDNN_GRU_LIKE_BACKWARD(dnnl_gru_backward_primitive_desc_create, dnnl_vanilla_gru)
ANYDNN_GRU_LIKE_FORWARD(dnnl_lbr_gru_forward_primitive_desc_create, dnnl_lbr_gru)
ANYDNN_GRU_LIKE_BACKWARD(dnnl_lbr_gru_backward_primitive_desc_create, dnnl_lbr_gru)

#define ANYDNN_AUGRU_FORWARD(fn, cell) \
    DNNL_API dnnl_status_t fn(dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, \
            dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction, \
            const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc, \
            const_dnnl_memory_desc_t attention_desc, \
            const_dnnl_memory_desc_t weights_layer_desc, \
            const_dnnl_memory_desc_t weights_iter_desc, const_dnnl_memory_desc_t bias_desc, \
            const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc, \
            unsigned flags, const_dnnl_primitive_attr_t attr) { \
        return guarded(__func__, [&]() -> status_t { \
            rnn_args_t a = args_of(cell, src_layer_desc, src_iter_desc, weights_layer_desc, \
                    weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc); \
            a.mds[rnn_attention] = attention_desc; \
            return create(primitive_desc, engine, prop_kind, direction, a, flags, false, \
                    nullptr, attr); \
        }); \
    }

#define ANYDNN_AUGRU_BACKWARD(fn, cell) \
    DNNL_API dnnl_status_t fn(dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine, \
            dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction, \
            const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc, \
            const_dnnl_memory_desc_t attention_desc, \
            const_dnnl_memory_desc_t weights_layer_desc, \
            const_dnnl_memory_desc_t weights_iter_desc, const_dnnl_memory_desc_t bias_desc, \
            const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc, \
            const_dnnl_memory_desc_t diff_src_layer_desc, \
            const_dnnl_memory_desc_t diff_src_iter_desc, \
            const_dnnl_memory_desc_t diff_attention_desc, \
            const_dnnl_memory_desc_t diff_weights_layer_desc, \
            const_dnnl_memory_desc_t diff_weights_iter_desc, \
            const_dnnl_memory_desc_t diff_bias_desc, \
            const_dnnl_memory_desc_t diff_dst_layer_desc, \
            const_dnnl_memory_desc_t diff_dst_iter_desc, unsigned flags, \
            const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) { \
        return guarded(__func__, [&]() -> status_t { \
            rnn_args_t a = args_of(cell, src_layer_desc, src_iter_desc, weights_layer_desc, \
                    weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc); \
            a.mds[rnn_attention] = attention_desc; \
            set_diffs(a, diff_src_layer_desc, diff_src_iter_desc, diff_weights_layer_desc, \
                    diff_weights_iter_desc, diff_bias_desc, diff_dst_layer_desc, \
                    diff_dst_iter_desc); \
            a.diff_mds[rnn_attention] = diff_attention_desc; \
            return create(primitive_desc, engine, prop_kind, direction, a, flags, true, \
                    hint_fwd_pd, attr); \
        }); \
    }

ANYDNN_AUGRU_FORWARD(dnnl_augru_forward_primitive_desc_create, dnnl_vanilla_augru)
ANYDNN_AUGRU_BACKWARD(dnnl_augru_backward_primitive_desc_create, dnnl_vanilla_augru)
ANYDNN_AUGRU_FORWARD(dnnl_lbr_augru_forward_primitive_desc_create, dnnl_lbr_augru)
ANYDNN_AUGRU_BACKWARD(dnnl_lbr_augru_backward_primitive_desc_create, dnnl_lbr_augru)

} // extern "C"
