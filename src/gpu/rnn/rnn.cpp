// ocl:rnn:gemm — every cell kind (vanilla with each activation, LSTM with peepholes and
// projection, GRU, LBR-GRU, AUGRU, LBR-AUGRU), direction and layer count, forward (training
// and inference) and backward, f32 and bf16 tensors computed in f32, int8 LSTM (with
// projection)/GRU inference on u8 or s8 data dequantized to f32 as cpu:rnn:gemm does, on
// any OpenCL device. The problem and attribute checks, descriptors and workspace layout are
// the shared ones (core/ops/rnn/conf).
#include <algorithm>
#include <memory>
#include <vector>

#include "core/primitive.hpp"
#include "core/verbose.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/rnn/rnn.hpp"

namespace anydnn {
namespace gpu {

namespace {

using namespace rnn;

// Appends n floats, keeping every region 64-byte aligned.
size_t take(size_t &top, size_t n) {
    const size_t at = top;
    top += (n + 15) / 16 * 16;
    return at;
}

struct rnn_gemm_t;

struct rnn_gemm_pd_t : public primitive_desc_impl_t<rnn_gemm_pd_t, rnn_gemm_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "ocl:rnn:gemm"; }

    conf_t conf;
    extras_t extras;
    persistent_shape_t persistent; // grid 0: the per-step path

    // The most K slices of the forward's split per-step products (forward.cpp splits them
    // with the same step_split calls): GRU's two, the others' one over all gate columns.
    static int64_t part_slices(const rnn_gemm_pd_t &pd, const conf_t &c) {
        const device_caps_t &caps = engine_caps(pd.engine);
        const int64_t H = c.DHC;
        if (c.gru && !c.lbr)
            return std::max(step_split(caps, c.N, 2 * H, c.SIC).slices(),
                    step_split(caps, c.N, H, H).slices());
        return step_split(caps, c.N, c.gate_cols(), c.SIC).slices();
    }

    static status_t init(rnn_gemm_pd_t &pd) {
        ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::rnn_qparams), dnnl_unimplemented,
                "attributes other than RNN quantization are not supported by ocl:rnn:gemm");
        // The same checks, in the same order, as cpu:rnn:gemm: the same problems are taken.
        conf_t &c = pd.conf;
        ANYDNN_CHECK(cpu::rnn::init_conf(c, cpu::rnn::desc_of(pd), pd.attr));
        ANYDNN_REQUIRE(c.int8 || pd.attr.has_default_values(), dnnl_unimplemented,
                "RNN quantization parameters need s8 weights");
        ANYDNN_CHECK(cpu::rnn::init_args(pd, c));
        // The kernels add weight gradients into the user's tensors as f32.
        for (int k : {rnn_weights_layer, rnn_weights_iter, rnn_weights_peephole,
                     rnn_weights_projection, rnn_bias}) {
            const auto it = pd.args.find(cpu::rnn::diff_arg[k]);
            ANYDNN_REQUIRE(!c.backward || it == pd.args.end()
                            || it->second.data_type == dnnl_f32,
                    dnnl_unimplemented, "ocl:rnn:gemm accumulates diff weights and bias in f32 only");
        }
        for (const auto &a : pd.args)
            ANYDNN_REQUIRE(a.first == DNNL_ARG_WORKSPACE || c.int8
                            || a.second.data_type == dnnl_f32 || a.second.data_type == dnnl_bf16,
                    dnnl_unimplemented, "ocl:rnn:gemm takes f32 and bf16 tensors (or int8)");

        // The GPU's f32 copies after the workspace (inference) or the backward scratch.
        extras_t &x = pd.extras;
        x.base = c.backward ? c.bs_floats : c.training ? 0 : c.ws_floats;
        const size_t LD = size_t(c.L * c.D), TN = size_t(c.T * c.N);
        const size_t GC = size_t(c.gate_cols());
        auto is_f32 = [&](int t) {
            return pd.arg_md(cpu::rnn::fwd_arg[t]).data_type == dnnl_f32;
        };
        x.wl_f32 = is_f32(rnn_weights_layer);
        x.wi_f32 = is_f32(rnn_weights_iter);
        x.wp_f32 = !c.projection || is_f32(rnn_weights_projection);
        size_t top = 0;
        x.bias = take(top, LD * size_t(c.GB * c.DHC));
        x.peep = take(top, c.peephole ? LD * 3 * size_t(c.DHC) : 0);
        x.att = take(top, c.augru ? TN : 0);
        x.wl = take(top, x.wl_f32 ? 0 : LD * size_t(c.SLC) * GC);
        x.wi = take(top, x.wi_f32 ? 0 : LD * size_t(c.SIC) * GC);
        x.wp = take(top, x.wp_f32 ? 0 : LD * size_t(c.DHC * c.DIC));
        x.datt_part = take(top, c.augru && c.backward ? size_t(c.N * c.DHC) : 0);
        x.part = take(top, c.backward ? 0 : size_t(c.N * c.gate_cols() * part_slices(pd, c)));
        pd.choose_persistent();
        x.sync = take(top, pd.persistent.grid ? 2 : 0);
        x.floats = top;
        pd.scratchpad_size = (x.base + x.floats) * sizeof(float);
        return dnnl_success;
    }

    // The persistent LSTM forward where it fits, the reason in verbose dispatch either way.
    void choose_persistent() {
        bool all_f32 = true;
        for (const auto &a : args)
            if (a.first != DNNL_ARG_WORKSPACE && a.second.data_type != dnnl_f32) all_f32 = false;
        const char *why = persistent_refusal(engine_caps(engine), conf, all_f32, persistent);
        if (!verbose_on(verbose_flag::dispatch) || !conf.lstm || conf.backward) return;
        verbose_print("primitive,create:dispatch",
                why ? std::string("rnn,lstm per-step: ") + why
                    : "rnn,lstm persistent: chosen (" + std::to_string(persistent.grid)
                                + " CTAs x " + std::to_string(persistent.units) + " units, "
                                + std::to_string(persistent.kgroups) + " K slices)");
    }
};

struct rnn_gemm_t : public primitive_t {
    using primitive_t::primitive_t;
    const rnn_gemm_pd_t &pd_() const { return static_cast<const rnn_gemm_pd_t &>(pd()); }

    status_t init() override {
        const conf_t &c = pd_().conf;
        // The largest product: the layer GEMM of all steps (or its backward counterparts).
        const int64_t in = std::max(c.SLC, c.DIC), rows = c.T * c.N;
        const int64_t elems = std::max(rows * std::max(c.gate_cols(), in), in * c.gate_cols());
        ANYDNN_CHECK(kernels_.init(pd_().engine, elems));
        ANYDNN_CHECK(init_persistent());
        return upload_weights_scales();
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const rnn_gemm_pd_t &pd = pd_();
        const conf_t &c = pd.conf;
        exec_t e;
        e.c = &c;
        e.x = &pd.extras;
        e.k = &kernels_;
        e.stream = ctx.stream;
        for (int t = 0; t < rnn_tensor_count; ++t) {
            const int a = cpu::rnn::fwd_arg[t], da = cpu::rnn::diff_arg[t];
            if (pd.args.count(a)) {
                e.md[t] = &pd.arg_md(a);
                e.mem[t] = storage_of(ctx, a);
            }
            if (c.backward && pd.args.count(da)) {
                e.diff_md[t] = &pd.arg_md(da);
                e.diff_mem[t] = storage_of(ctx, da);
            }
        }
        e.weights_scales = weights_scales_.get();
        e.projection_scales = projection_scales_.get();
        e.scratch = ctx.scratchpad_storage;
        e.ws = c.training ? storage_of(ctx, DNNL_ARG_WORKSPACE) : e.scratch;
        return c.backward ? run_backward(e) : run_forward(e);
    }

private:
    // The persistent kernel's module now, so that a driver refusing it leaves the per-step
    // path (said in verbose dispatch), not a failed execution.
    status_t init_persistent() {
        const persistent_shape_t &s = pd_().persistent;
        if (s.grid == 0) return dnnl_success;
        if (create_ptx_kernel(pd_().engine, "anydnn_lstm_fwd_persistent", kernels_.persistent)
                != dnnl_success) {
            kernels_.persistent.reset();
            if (verbose_on(verbose_flag::dispatch))
                verbose_print("primitive,create:dispatch",
                        "rnn,lstm per-step: the persistent kernel did not load: "
                                + last_failure_reason());
            return dnnl_success;
        }
        kernels_.persistent_shape = s;
        return dnnl_success;
    }

    // int8: the weights scale of every gate column and of every projection output channel
    // (one for all, or one each) on the device; without scales the weights are taken as
    // they are (a scale of one).
    status_t upload_weights_scales() {
        const conf_t &c = pd_().conf;
        if (!c.int8) return dnnl_success;
        const primitive_attr_t &a = pd_().attr;
        ANYDNN_CHECK(upload_scales(a.rnn_weights_scales, size_t(c.gate_cols()), weights_scales_));
        if (!c.projection) return dnnl_success;
        return upload_scales(
                a.rnn_weights_projection_scales, size_t(c.DIC), projection_scales_);
    }

    status_t upload_scales(const std::vector<float> &sc, size_t cols,
            std::unique_ptr<memory_storage_t> &out) const {
        if (sc.empty() || cols == 0) return dnnl_success;
        ANYDNN_CHECK(pd_().engine->create_memory_storage(
                out, cols * sizeof(float), DNNL_MEMORY_ALLOCATE));
        void *host = nullptr;
        ANYDNN_CHECK(out->map(&host));
        float *f = static_cast<float *>(host);
        for (size_t j = 0; j < cols; ++j) f[j] = sc.size() == 1 ? sc[0] : sc[j];
        return out->unmap(host);
    }

    kernels_t kernels_;
    std::unique_ptr<memory_storage_t> weights_scales_, projection_scales_;
};

} // namespace

impl_entry_t rnn_gemm_entry() { return make_impl_entry<rnn_gemm_pd_t>("ocl:rnn:gemm"); }

} // namespace gpu
} // namespace anydnn
