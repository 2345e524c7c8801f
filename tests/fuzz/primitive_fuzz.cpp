// Primitive descriptors of every kind from fuzzed shapes, layouts, data types, algorithms and
// attributes on the CPU engine, then the primitive executed on small memories when creation
// succeeds. Shapes start consistent and are bent now and then, so both the shape checks and
// the kernels behind them are reached. Any status is fine; a crash or sanitizer report is not.
#include <cstring>
#include <deque>
#include <vector>

#include "fuzz_input.hpp"

namespace {

dnnl_engine_t engine() {
    static dnnl_engine_t e = [] {
        dnnl_engine_t en = nullptr;
        dnnl_engine_create(&en, dnnl_cpu, 0);
        return en;
    }();
    return e;
}

dnnl_stream_t stream() {
    static dnnl_stream_t s = [] {
        dnnl_stream_t st = nullptr;
        dnnl_stream_create(&st, engine(), dnnl_stream_default_flags);
        return st;
    }();
    return s;
}

// The descriptors, attributes and primitive descriptors of one input, destroyed together.
class maker_t {
public:
    explicit maker_t(fuzz::input_t &in) : in_(in) {}
    ~maker_t() {
        for (auto pd : pds_) dnnl_primitive_desc_destroy(pd);
        if (attr_) dnnl_primitive_attr_destroy(attr_);
    }

    // A descriptor of these dims: any, plain, some tag or strides; now and then a bent dim
    // or data type, or none at all.
    const_dnnl_memory_desc_t md(std::vector<dnnl_dim_t> dims, dnnl_data_type_t dt) {
        if (in_.ConsumeIntegralInRange<int>(0, 63) == 0) return nullptr;
        if (in_.ConsumeIntegralInRange<int>(0, 15) == 0 && !dims.empty())
            dims[in_.ConsumeIntegralInRange<size_t>(0, dims.size() - 1)] = in_.dim();
        if (in_.ConsumeIntegralInRange<int>(0, 15) == 0) dt = in_.data_type();
        const int nd = static_cast<int>(dims.size());
        dnnl_dims_t d {};
        for (int i = 0; i < nd && i < DNNL_MAX_NDIMS; ++i) d[i] = dims[i];
        mds_.emplace_back();
        dnnl_memory_desc_t *out = mds_.back().out();
        switch (in_.ConsumeIntegralInRange<int>(0, 7)) {
            case 0: dnnl_memory_desc_create_with_tag(out, nd, d, dt, dnnl_format_tag_any); break;
            case 1: dnnl_memory_desc_create_with_tag(out, nd, d, dt,
                            in_.enum_in<dnnl_format_tag_t>(2, dnnl_format_tag_last - 1));
                    break;
            case 2: {
                dnnl_dims_t strides {};
                dnnl_dim_t s = 1;
                for (int i = nd - 1; i >= 0; --i) { // dense, or with a gap, in a fuzzed order
                    if (__builtin_mul_overflow(s, in_.ConsumeBool() ? 1 : 2, &strides[i])
                            || __builtin_mul_overflow(strides[i], d[i] > 0 ? d[i] : 1, &s))
                        break; // bent dims: the library must refuse what is left
                }
                if (nd > 1 && in_.ConsumeBool()) std::swap(strides[0], strides[nd - 1]);
                dnnl_memory_desc_create_with_strides(out, nd, d, dt, strides);
                break;
            }
            default: dnnl_memory_desc_create_with_strides(out, nd, d, dt, nullptr); break;
        }
        return mds_.back().md;
    }

    // Attributes: post-ops, scales, zero points, fpmath, scratchpad mode, rounding.
    const_dnnl_primitive_attr_t attr(int ndims_dst) {
        if (in_.ConsumeIntegralInRange<int>(0, 3) == 0) return nullptr;
        dnnl_primitive_attr_create(&attr_);
        const int n_items = in_.ConsumeIntegralInRange<int>(0, 4);
        dnnl_post_ops_t po = nullptr;
        dnnl_post_ops_create(&po);
        for (int i = 0; i < n_items; ++i) {
            switch (in_.ConsumeIntegralInRange<int>(0, 9)) {
                case 0: dnnl_post_ops_append_sum(po, in_.ConsumeFloatingPointInRange<float>(-2, 2),
                                in_.ConsumeIntegralInRange<int32_t>(-3, 3), in_.data_type());
                        break;
                case 1: case 2:
                    dnnl_post_ops_append_eltwise(po, eltwise_alg(),
                            in_.ConsumeFloatingPointInRange<float>(-2, 2),
                            in_.ConsumeFloatingPointInRange<float>(-2, 2));
                    break;
                case 3: {
                    std::vector<dnnl_dim_t> d(ndims_dst > 0 ? ndims_dst : 1, 1);
                    if (in_.ConsumeBool() && d.size() > 1) d[1] = dst_c_;
                    dnnl_post_ops_append_binary(po, binary_alg(), md(d, in_.data_type()));
                    break;
                }
                case 4: dnnl_post_ops_append_prelu(po, in_.ConsumeIntegralInRange<int>(0, 3)); break;
                case 5: dnnl_post_ops_append_dw(po, in_.data_type(), in_.data_type(),
                                in_.data_type(), in_.dim(4), in_.dim(3), in_.dim(2));
                        break;
                case 6: dnnl_primitive_attr_set_scales_mask(attr_, arg(), in_.ConsumeIntegralInRange<int>(0, 3)); break;
                case 7: dnnl_primitive_attr_set_zero_points_mask(attr_, arg(), in_.ConsumeIntegralInRange<int>(0, 3)); break;
                case 8: dnnl_primitive_attr_set_fpmath_mode_v2(attr_,
                                in_.enum_in<dnnl_fpmath_mode_t>(0, 5), in_.ConsumeBool());
                        break;
                default: dnnl_primitive_attr_set_scratchpad_mode(attr_,
                                 in_.enum_in<dnnl_scratchpad_mode_t>(0, 1));
                         break;
            }
        }
        dnnl_primitive_attr_set_post_ops(attr_, po);
        dnnl_post_ops_destroy(po);
        return attr_;
    }

    dnnl_alg_kind_t eltwise_alg() {
        return static_cast<dnnl_alg_kind_t>(in_.ConsumeBool()
                        ? in_.ConsumeIntegralInRange<int>(dnnl_eltwise_relu, dnnl_eltwise_hardswish)
                        : in_.ConsumeIntegralInRange<int>(dnnl_eltwise_relu_use_dst_for_bwd,
                                dnnl_eltwise_clip_v2_use_dst_for_bwd));
    }
    dnnl_alg_kind_t binary_alg() {
        return in_.enum_in<dnnl_alg_kind_t>(dnnl_binary_add, dnnl_binary_select);
    }
    int arg() {
        static const int args[] = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST, DNNL_ARG_SRC_1,
                DNNL_ARG_BIAS, DNNL_ARG_DIFF_DST, DNNL_ARG_MULTIPLE_SRC + 1};
        return in_.PickValueInArray(args);
    }

    dnnl_primitive_desc_t *keep() {
        pds_.push_back(nullptr);
        return &pds_.back();
    }

    int dst_c_ = 1;

private:
    fuzz::input_t &in_;
    std::deque<fuzz::md_t> mds_;
    std::deque<dnnl_primitive_desc_t> pds_;
    dnnl_primitive_attr_t attr_ = nullptr;
};

// Small numbers of each type, so that kernels compute something ordinary.
void fill(dnnl_memory_t mem, const_dnnl_memory_desc_t md, uint8_t seed) {
    void *p = nullptr;
    if (dnnl_memory_get_data_handle(mem, &p) != dnnl_success || !p) return;
    const size_t bytes = dnnl_memory_desc_get_size(md);
    dnnl_data_type_t dt = dnnl_data_type_undef;
    dnnl_memory_desc_query(md, dnnl_query_data_type, &dt);
    if (dt == dnnl_f32) {
        float *f = static_cast<float *>(p);
        for (size_t i = 0; i < bytes / sizeof(float); ++i)
            f[i] = static_cast<float>(static_cast<int>((i * 7 + seed) % 9) - 4) * 0.25f;
    } else if (dt == dnnl_bf16 || dt == dnnl_f16) {
        uint16_t *h = static_cast<uint16_t *>(p); // 1.0 and 0.5 in each format
        const uint16_t one = dt == dnnl_bf16 ? 0x3f80 : 0x3c00, half = dt == dnnl_bf16 ? 0x3f00 : 0x3800;
        for (size_t i = 0; i < bytes / 2; ++i) h[i] = (i + seed) % 2 ? one : half;
    } else {
        std::memset(p, 1, bytes);
    }
}

// Every argument the primitive descriptor names gets a memory; the primitive runs once.
void execute(const_dnnl_primitive_desc_t pd, uint8_t seed) {
    std::vector<int> args;
    for (int a = 1; a < 256; ++a) args.push_back(a);
    for (int i = 0; i < 8; ++i) args.push_back(DNNL_ARG_MULTIPLE_SRC + i);
    for (int i = 0; i < 4; ++i)
        for (int a : {DNNL_ARG_SRC_1, DNNL_ARG_SRC_2, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS})
            args.push_back(DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | a);
    for (int a : {DNNL_ARG_SRC, DNNL_ARG_SRC_1, DNNL_ARG_WEIGHTS, DNNL_ARG_DST,
                 DNNL_ARG_MULTIPLE_SRC + 1}) {
        args.push_back(DNNL_ARG_ATTR_SCALES | a);
        args.push_back(DNNL_ARG_ATTR_ZERO_POINTS | a);
    }
    std::vector<dnnl_exec_arg_t> exec;
    std::vector<dnnl_memory_t> mems;
    for (int a : args) {
        const_dnnl_memory_desc_t md = dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, a);
        int nd = 0;
        if (!md || dnnl_memory_desc_query(md, dnnl_query_ndims_s32, &nd) != dnnl_success || nd == 0)
            continue;
        if (dnnl_memory_desc_get_size(md) > (size_t(64) << 20)) return; // not small: skip
        dnnl_memory_t mem = nullptr;
        if (dnnl_memory_create(&mem, md, engine(), DNNL_MEMORY_ALLOCATE) != dnnl_success) continue;
        fill(mem, md, seed);
        mems.push_back(mem);
        exec.push_back({a, mem});
    }
    dnnl_primitive_t prim = nullptr;
    if (dnnl_primitive_create(&prim, pd) == dnnl_success) {
        if (dnnl_primitive_execute(prim, stream(), static_cast<int>(exec.size()), exec.data())
                == dnnl_success)
            dnnl_stream_wait(stream());
        dnnl_primitive_destroy(prim);
    }
    for (auto m : mems) dnnl_memory_destroy(m);
}

dnnl_dim_t out_size(dnnl_dim_t i, dnnl_dim_t k, dnnl_dim_t s, dnnl_dim_t d, dnnl_dim_t pl,
        dnnl_dim_t pr) {
    const dnnl_dim_t ext = (k - 1) * (d + 1) + 1;
    return s > 0 ? (i + pl + pr - ext) / s + 1 : 1;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz::input_t in(data, size);
    maker_t m(in);
    const int kind = in.ConsumeIntegralInRange<int>(0, 27);
    const int sp = in.ConsumeIntegralInRange<int>(0, 3); // spatial dims
    const dnnl_dim_t N = in.ConsumeIntegralInRange<int>(0, 3), C = in.ConsumeIntegralInRange<int>(1, 20);
    const dnnl_dim_t OC = in.ConsumeIntegralInRange<int>(1, 20);
    m.dst_c_ = OC;
    std::vector<dnnl_dim_t> S(sp), K(sp), St(sp), Dl(sp), Pl(sp), Pr(sp), O(sp);
    for (int i = 0; i < sp; ++i) {
        S[i] = in.ConsumeIntegralInRange<int>(1, 9);
        K[i] = in.ConsumeIntegralInRange<int>(1, 4);
        St[i] = in.ConsumeIntegralInRange<int>(1, 3);
        Dl[i] = in.ConsumeIntegralInRange<int>(0, 1);
        Pl[i] = in.ConsumeIntegralInRange<int>(0, 2);
        Pr[i] = in.ConsumeIntegralInRange<int>(0, 2);
        O[i] = out_size(S[i], K[i], St[i], Dl[i], Pl[i], Pr[i]);
    }
    auto cat = [](std::vector<dnnl_dim_t> a, const std::vector<dnnl_dim_t> &b) {
        a.insert(a.end(), b.begin(), b.end());
        return a;
    };
    auto arr = [&](const std::vector<dnnl_dim_t> &v, dnnl_dims_t out) {
        for (int i = 0; i < DNNL_MAX_NDIMS; ++i) out[i] = i < int(v.size()) ? v[i] : 0;
    };
    dnnl_dims_t st, dl, pl, pr, kr;
    arr(St, st), arr(Dl, dl), arr(Pl, pl), arr(Pr, pr), arr(K, kr);
    const dnnl_data_type_t dt = in.data_type(), wdt = in.ConsumeBool() ? dt : in.data_type();
    const dnnl_prop_kind_t prop = in.ConsumeBool() ? dnnl_forward_inference
                                                   : in.enum_in<dnnl_prop_kind_t>(64, 193);
    const auto src = cat({N, C}, S), dst = cat({N, OC}, O), dst_c = cat({N, C}, O);
    const float alpha = in.ConsumeFloatingPointInRange<float>(-2, 2),
                beta = in.ConsumeFloatingPointInRange<float>(-2, 2);
    const unsigned flags = in.ConsumeIntegralInRange<unsigned>(0, 0x3f);
    const float eps = in.ConsumeBool() ? 1e-5f : in.ConsumeFloatingPoint<float>();
    dnnl_engine_t e = engine();
    dnnl_primitive_desc_t *fwdp = m.keep(); // a forward hint for backward kinds
    dnnl_status_t s = dnnl_unimplemented;
    dnnl_primitive_desc_t *pd = m.keep();

    switch (kind) {
        case 0: { // convolution forward, and backward with it as hint
            const bool grouped = in.ConsumeBool();
            auto w = grouped ? cat({1, OC, C}, K) : cat({OC, C}, K);
            s = dnnl_convolution_forward_primitive_desc_create(pd, e, prop,
                    in.enum_in<dnnl_alg_kind_t>(1, 3), m.md(src, dt), m.md(w, wdt),
                    in.ConsumeBool() ? m.md({OC}, dt) : nullptr, m.md(dst, dt), st, dl, pl, pr,
                    m.attr(2 + sp));
            break;
        }
        case 1: case 2: {
            auto w = cat({OC, C}, K);
            dnnl_convolution_forward_primitive_desc_create(fwdp, e, dnnl_forward_training,
                    dnnl_convolution_direct, m.md(src, dt), m.md(w, wdt), nullptr, m.md(dst, dt),
                    st, dl, pl, pr, nullptr);
            if (kind == 1)
                s = dnnl_convolution_backward_data_primitive_desc_create(pd, e,
                        dnnl_convolution_direct, m.md(src, dt), m.md(w, wdt), m.md(dst, dt), st, dl,
                        pl, pr, in.ConsumeBool() ? *fwdp : nullptr, m.attr(2 + sp));
            else
                s = dnnl_convolution_backward_weights_primitive_desc_create(pd, e,
                        dnnl_convolution_direct, m.md(src, dt), m.md(w, wdt),
                        in.ConsumeBool() ? m.md({OC}, dt) : nullptr, m.md(dst, dt), st, dl, pl,
                        pr, in.ConsumeBool() ? *fwdp : nullptr, m.attr(2 + sp));
            break;
        }
        case 3: { // deconvolution: dst spatial from src
            std::vector<dnnl_dim_t> Od(sp);
            for (int i = 0; i < sp; ++i)
                Od[i] = (S[i] - 1) * St[i] + (K[i] - 1) * (Dl[i] + 1) + 1 - Pl[i] - Pr[i];
            auto w = cat({OC, C}, K);
            const int dir = in.ConsumeIntegralInRange<int>(0, 2);
            if (dir == 0)
                s = dnnl_deconvolution_forward_primitive_desc_create(pd, e, prop,
                        dnnl_deconvolution_direct, m.md(src, dt), m.md(w, wdt),
                        in.ConsumeBool() ? m.md({OC}, dt) : nullptr, m.md(cat({N, OC}, Od), dt),
                        st, dl, pl, pr, m.attr(2 + sp));
            else if (dir == 1)
                s = dnnl_deconvolution_backward_data_primitive_desc_create(pd, e,
                        dnnl_deconvolution_direct, m.md(src, dt), m.md(w, wdt),
                        m.md(cat({N, OC}, Od), dt), st, dl, pl, pr, nullptr, m.attr(2 + sp));
            else
                s = dnnl_deconvolution_backward_weights_primitive_desc_create(pd, e,
                        dnnl_deconvolution_direct, m.md(src, dt), m.md(w, wdt), nullptr,
                        m.md(cat({N, OC}, Od), dt), st, dl, pl, pr, nullptr, m.attr(2 + sp));
            break;
        }
        case 4: { // shuffle
            const int axis = in.ConsumeIntegralInRange<int>(-1, 2 + sp);
            const dnnl_dim_t g = in.dim(5);
            auto md = m.md(src, dt);
            if (in.ConsumeBool())
                s = dnnl_shuffle_forward_primitive_desc_create(pd, e, prop, md, m.md(src, dt),
                        axis, g, m.attr(2 + sp));
            else
                s = dnnl_shuffle_backward_primitive_desc_create(pd, e, md, m.md(src, dt), axis, g,
                        nullptr, m.attr(2 + sp));
            break;
        }
        case 5: case 6: { // eltwise
            const dnnl_alg_kind_t alg = m.eltwise_alg();
            if (kind == 5)
                s = dnnl_eltwise_forward_primitive_desc_create(pd, e, prop, alg, m.md(src, dt),
                        m.md(src, in.ConsumeBool() ? dt : in.data_type()), alpha, beta,
                        m.attr(2 + sp));
            else {
                dnnl_eltwise_forward_primitive_desc_create(fwdp, e,
                        dnnl_forward_training, alg, m.md(src, dt), m.md(src, dt), alpha, beta,
                        nullptr);
                s = dnnl_eltwise_backward_primitive_desc_create(pd, e, alg, m.md(src, dt),
                        m.md(src, dt), m.md(src, dt), alpha, beta, *fwdp, m.attr(2 + sp));
            }
            break;
        }
        case 7: { // softmax
            const int axis = in.ConsumeIntegralInRange<int>(-1, 2 + sp);
            const auto alg = in.enum_in<dnnl_alg_kind_t>(dnnl_softmax_accurate, dnnl_softmax_log);
            if (in.ConsumeBool())
                s = dnnl_softmax_forward_primitive_desc_create(pd, e, prop, alg, m.md(src, dt),
                        m.md(src, in.data_type()), axis, m.attr(2 + sp));
            else
                s = dnnl_softmax_backward_primitive_desc_create(pd, e, alg, m.md(src, dt),
                        m.md(src, dt), m.md(src, dt), axis, nullptr, m.attr(2 + sp));
            break;
        }
        case 8: { // pooling
            static const dnnl_alg_kind_t algs[] = {dnnl_pooling_max,
                    dnnl_pooling_avg_include_padding, dnnl_pooling_avg_exclude_padding};
            const auto alg = in.PickValueInArray(algs);
            if (in.ConsumeBool())
                s = dnnl_pooling_forward_primitive_desc_create(pd, e, prop, alg, m.md(src, dt),
                        m.md(dst_c, dt), st, kr, dl, pl, pr, m.attr(2 + sp));
            else {
                dnnl_pooling_forward_primitive_desc_create(fwdp, e,
                        dnnl_forward_training, alg, m.md(src, dt), m.md(dst_c, dt), st, kr, dl,
                        pl, pr, nullptr);
                s = dnnl_pooling_backward_primitive_desc_create(pd, e, alg, m.md(src, dt),
                        m.md(dst_c, dt), st, kr, dl, pl, pr, *fwdp, m.attr(2 + sp));
            }
            break;
        }
        case 9: { // prelu
            std::vector<dnnl_dim_t> w(src.size(), 1);
            if (in.ConsumeBool()) w = src;
            else if (w.size() > 1) w[1] = C;
            if (in.ConsumeBool())
                s = dnnl_prelu_forward_primitive_desc_create(pd, e, prop, m.md(src, dt),
                        m.md(w, wdt), m.md(src, dt), m.attr(2 + sp));
            else
                s = dnnl_prelu_backward_primitive_desc_create(pd, e, m.md(src, dt), m.md(w, wdt),
                        m.md(src, dt), m.md(w, wdt), m.md(src, dt), nullptr, m.attr(2 + sp));
            break;
        }
        case 10: { // lrn
            const auto alg = in.enum_in<dnnl_alg_kind_t>(dnnl_lrn_across_channels, dnnl_lrn_across_channels + 0x100);
            const dnnl_dim_t ls = in.dim(7);
            if (in.ConsumeBool())
                s = dnnl_lrn_forward_primitive_desc_create(pd, e, prop, alg, m.md(src, dt),
                        m.md(src, dt), ls, alpha, beta, 1.f, m.attr(2 + sp));
            else {
                dnnl_lrn_forward_primitive_desc_create(fwdp, e, dnnl_forward_training,
                        alg, m.md(src, dt), m.md(src, dt), ls, alpha, beta, 1.f, nullptr);
                s = dnnl_lrn_backward_primitive_desc_create(pd, e, alg, m.md(src, dt),
                        m.md(src, dt), m.md(src, dt), ls, alpha, beta, 1.f, *fwdp, m.attr(2 + sp));
            }
            break;
        }
        case 11: case 12: { // batch normalization
            if (kind == 11)
                s = dnnl_batch_normalization_forward_primitive_desc_create(pd, e, prop,
                        m.md(src, dt), m.md(src, dt), eps, flags, m.attr(2 + sp));
            else {
                dnnl_batch_normalization_forward_primitive_desc_create(fwdp, e,
                        dnnl_forward_training, m.md(src, dt), m.md(src, dt), eps, flags, nullptr);
                s = dnnl_batch_normalization_backward_primitive_desc_create(pd, e,
                        in.ConsumeBool() ? dnnl_backward : dnnl_backward_data, m.md(src, dt),
                        m.md(src, dt), m.md(src, dt), eps, flags, *fwdp, m.attr(2 + sp));
            }
            break;
        }
        case 13: { // group normalization
            const dnnl_dim_t g = in.ConsumeBool() ? 1 : in.dim(C);
            if (in.ConsumeBool())
                s = dnnl_group_normalization_forward_primitive_desc_create(pd, e, prop,
                        m.md(src, dt), m.md(src, dt), g, eps, flags, m.attr(2 + sp));
            else
                s = dnnl_group_normalization_backward_primitive_desc_create(pd, e, dnnl_backward,
                        m.md(src, dt), m.md(src, dt), m.md(src, dt), g, eps, flags, nullptr,
                        m.attr(2 + sp));
            break;
        }
        case 14: case 15: { // layer normalization: statistics over the last dim
            std::vector<dnnl_dim_t> stat(src.begin(), src.end() - 1);
            if (kind == 14)
                s = dnnl_layer_normalization_forward_primitive_desc_create_v2(pd, e, prop,
                        m.md(src, dt), m.md(src, in.ConsumeBool() ? dt : in.data_type()),
                        in.ConsumeBool() ? m.md(stat, dnnl_f32) : nullptr, in.data_type(), eps,
                        flags, m.attr(2 + sp));
            else {
                dnnl_layer_normalization_forward_primitive_desc_create(fwdp, e,
                        dnnl_forward_training, m.md(src, dt), m.md(src, dt), nullptr, eps, flags,
                        nullptr);
                s = dnnl_layer_normalization_backward_primitive_desc_create(pd, e,
                        in.ConsumeBool() ? dnnl_backward : dnnl_backward_data, m.md(src, dt),
                        m.md(src, dt), m.md(src, dt), nullptr, eps, flags, *fwdp, m.attr(2 + sp));
            }
            break;
        }
        case 16: { // inner product
            auto w = cat({OC, C}, S);
            const int dir = in.ConsumeIntegralInRange<int>(0, 2);
            if (dir == 0)
                s = dnnl_inner_product_forward_primitive_desc_create(pd, e, prop, m.md(src, dt),
                        m.md(w, wdt), in.ConsumeBool() ? m.md({OC}, dt) : nullptr,
                        m.md({N, OC}, dt), m.attr(2));
            else {
                dnnl_inner_product_forward_primitive_desc_create(fwdp, e,
                        dnnl_forward_training, m.md(src, dt), m.md(w, wdt), nullptr,
                        m.md({N, OC}, dt), nullptr);
                if (dir == 1)
                    s = dnnl_inner_product_backward_data_primitive_desc_create(pd, e,
                            m.md(src, dt), m.md(w, wdt), m.md({N, OC}, dt), *fwdp, m.attr(2));
                else
                    s = dnnl_inner_product_backward_weights_primitive_desc_create(pd, e,
                            m.md(src, dt), m.md(w, wdt), in.ConsumeBool() ? m.md({OC}, dt) : nullptr,
                            m.md({N, OC}, dt), *fwdp, m.attr(2));
            }
            break;
        }
        case 17: { // matmul, batched or not, broadcast now and then
            const dnnl_dim_t M = in.ConsumeIntegralInRange<int>(1, 17), K2 = C, Nn = OC;
            std::vector<dnnl_dim_t> b;
            for (int i = 0; i < sp; ++i) b.push_back(in.ConsumeIntegralInRange<int>(1, 3));
            auto wb = b;
            for (auto &d : wb) if (in.ConsumeBool()) d = 1;
            s = dnnl_matmul_primitive_desc_create(pd, e, m.md(cat(b, {M, K2}), dt),
                    m.md(cat(wb, {K2, Nn}), wdt),
                    in.ConsumeBool() ? m.md(cat(std::vector<dnnl_dim_t>(b.size(), 1), {1, Nn}), dt)
                                     : nullptr,
                    m.md(cat(b, {M, Nn}), in.ConsumeBool() ? dt : in.data_type()),
                    m.attr(int(b.size()) + 2));
            break;
        }
        case 18: { // binary
            auto src1 = src;
            for (auto &d : src1) if (in.ConsumeBool()) d = 1;
            const auto alg = m.binary_alg();
            if (alg == dnnl_binary_select)
                s = dnnl_binary_primitive_desc_create_v2(pd, e, alg, m.md(src, dt),
                        m.md(src1, in.data_type()), m.md(src, dnnl_s8), m.md(src, dt),
                        m.attr(2 + sp));
            else
                s = dnnl_binary_primitive_desc_create(pd, e, alg, m.md(src, dt),
                        m.md(src1, in.data_type()), m.md(src, in.ConsumeBool() ? dt : in.data_type()),
                        m.attr(2 + sp));
            break;
        }
        case 19: { // reorder between two layouts and types
            s = dnnl_reorder_primitive_desc_create(pd, m.md(src, dt), e,
                    m.md(src, in.ConsumeBool() ? dt : in.data_type()), e, m.attr(2 + sp));
            break;
        }
        case 20: case 21: { // concat and sum of up to 4 inputs
            const int n = in.ConsumeIntegralInRange<int>(0, 4);
            const int axis = in.ConsumeIntegralInRange<int>(-1, 2 + sp);
            std::vector<const_dnnl_memory_desc_t> srcs;
            auto total = src;
            if (axis >= 0 && axis < int(total.size())) total[axis] = 0;
            for (int i = 0; i < n; ++i) {
                auto one = src;
                if (kind == 20 && axis >= 0 && axis < int(one.size())) {
                    one[axis] = in.ConsumeIntegralInRange<int>(0, 4);
                    total[axis] += one[axis];
                }
                srcs.push_back(m.md(one, i == 0 || in.ConsumeBool() ? dt : in.data_type()));
            }
            std::vector<float> scales(n, 1.f);
            for (auto &x : scales) x = in.ConsumeFloatingPointInRange<float>(-2, 2);
            if (kind == 20)
                s = dnnl_concat_primitive_desc_create(pd, e,
                        in.ConsumeBool() ? m.md(total, dt) : nullptr, n, axis, srcs.data(),
                        m.attr(2 + sp));
            else
                s = dnnl_sum_primitive_desc_create(pd, e, in.ConsumeBool() ? m.md(src, dt) : nullptr,
                        n, scales.data(), srcs.data(), m.attr(2 + sp));
            break;
        }
        case 22: { // resampling
            std::vector<float> f(sp);
            auto d = cat({N, C}, {});
            for (int i = 0; i < sp; ++i) {
                d.push_back(in.ConsumeIntegralInRange<int>(1, 9));
                f[i] = float(d.back()) / float(S[i]);
            }
            const auto alg = in.enum_in<dnnl_alg_kind_t>(dnnl_resampling_nearest, dnnl_resampling_linear);
            const float *fp = in.ConsumeBool() ? f.data() : nullptr;
            if (in.ConsumeBool())
                s = dnnl_resampling_forward_primitive_desc_create(pd, e, prop, alg, fp,
                        m.md(src, dt), m.md(d, dt), m.attr(2 + sp));
            else
                s = dnnl_resampling_backward_primitive_desc_create(pd, e, alg, fp, m.md(src, dt),
                        m.md(d, dt), nullptr, m.attr(2 + sp));
            break;
        }
        case 23: { // reduction
            auto d = src;
            for (auto &x : d) if (in.ConsumeBool()) x = 1;
            s = dnnl_reduction_primitive_desc_create(pd, e,
                    in.enum_in<dnnl_alg_kind_t>(dnnl_reduction_max, dnnl_reduction_norm_lp_power_p_sum),
                    m.md(src, dt), m.md(d, in.ConsumeBool() ? dt : in.data_type()),
                    in.ConsumeFloatingPointInRange<float>(-1, 3), eps, m.attr(2 + sp));
            break;
        }
        default: { // recurrent cells: T, N, channels; layers, directions, gates
            const dnnl_dim_t T = in.ConsumeIntegralInRange<int>(1, 3), L = in.ConsumeIntegralInRange<int>(1, 2);
            const auto dir = in.enum_in<dnnl_rnn_direction_t>(1, 4);
            const dnnl_dim_t D = dir >= 3 ? 2 : 1, SIC = C, DIC = in.ConsumeBool() ? C : OC;
            const dnnl_dim_t G = kind == 24 ? 1 : kind == 25 ? 4 : 3;
            auto src_layer = m.md({T, N, SIC}, dt);
            auto src_iter = in.ConsumeBool() ? m.md({L, D, N, DIC}, dt) : nullptr;
            auto w_layer = m.md({L, D, SIC, G, DIC}, wdt), w_iter = m.md({L, D, DIC, G, DIC}, wdt);
            auto bias = in.ConsumeBool() ? m.md({L, D, G + (kind == 27), DIC}, dnnl_f32) : nullptr;
            auto dst_layer = m.md({T, N, dir == 3 ? 2 * DIC : DIC}, dt);
            auto dst_iter = in.ConsumeBool() ? m.md({L, D, N, DIC}, dt) : nullptr;
            const bool bwd = in.ConsumeBool();
            const dnnl_prop_kind_t p = bwd ? dnnl_backward : prop;
            if (kind == 24) {
                const auto act = in.enum_in<dnnl_alg_kind_t>(dnnl_eltwise_relu, dnnl_eltwise_logistic);
                if (!bwd)
                    s = dnnl_vanilla_rnn_forward_primitive_desc_create(pd, e, p, act, dir,
                            src_layer, src_iter, w_layer, w_iter, bias, dst_layer, dst_iter, 0,
                            alpha, beta, m.attr(3));
                else
                    s = dnnl_vanilla_rnn_backward_primitive_desc_create(pd, e, p, act, dir,
                            src_layer, src_iter, w_layer, w_iter, bias, dst_layer, dst_iter,
                            src_layer, src_iter, w_layer, w_iter, bias, dst_layer, dst_iter, 0,
                            alpha, beta, nullptr, m.attr(3));
            } else if (kind == 25) {
                auto c = src_iter ? m.md({L, D, N, DIC}, dnnl_f32) : nullptr;
                if (!bwd)
                    s = dnnl_lstm_forward_primitive_desc_create(pd, e, p, dir, src_layer,
                            src_iter, c, w_layer, w_iter, nullptr, nullptr, bias, dst_layer,
                            dst_iter, dst_iter ? c : nullptr, 0, m.attr(3));
                else
                    s = dnnl_lstm_backward_primitive_desc_create(pd, e, p, dir, src_layer,
                            src_iter, c, w_layer, w_iter, nullptr, nullptr, bias, dst_layer,
                            dst_iter, dst_iter ? c : nullptr, src_layer, src_iter, c, w_layer,
                            w_iter, nullptr, nullptr, bias, dst_layer, dst_iter,
                            dst_iter ? c : nullptr, 0, nullptr, m.attr(3));
            } else if (kind == 26) {
                if (!bwd)
                    s = dnnl_gru_forward_primitive_desc_create(pd, e, p, dir, src_layer, src_iter,
                            w_layer, w_iter, bias, dst_layer, dst_iter, 0, m.attr(3));
                else
                    s = dnnl_gru_backward_primitive_desc_create(pd, e, p, dir, src_layer,
                            src_iter, w_layer, w_iter, bias, dst_layer, dst_iter, src_layer,
                            src_iter, w_layer, w_iter, bias, dst_layer, dst_iter, 0, nullptr,
                            m.attr(3));
            } else {
                if (!bwd)
                    s = dnnl_lbr_gru_forward_primitive_desc_create(pd, e, p, dir, src_layer,
                            src_iter, w_layer, w_iter, bias, dst_layer, dst_iter, 0, m.attr(3));
                else
                    s = dnnl_lbr_gru_backward_primitive_desc_create(pd, e, p, dir, src_layer,
                            src_iter, w_layer, w_iter, bias, dst_layer, dst_iter, src_layer,
                            src_iter, w_layer, w_iter, bias, dst_layer, dst_iter, 0, nullptr,
                            m.attr(3));
            }
            break;
        }
    }
    if (s == dnnl_success && *pd) execute(*pd, static_cast<uint8_t>(size));
    return 0;
}
