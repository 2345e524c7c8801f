#include "gpu/gemm/sgemm_launch.hpp"

#include "core/primitive_attr.hpp"
#include "core/verbose.hpp"
#include "gpu/launch.hpp"
#include "gpu/tuning/tuning_override.hpp"

namespace anydnn {
namespace gpu {

const sgemm_config_t sgemm_config[sgemm_configs] = {
        {"128x128", 128, 128, 80},
        {"128x64", 128, 64, 80},
        {"64x64", 64, 64, 80},
        {"128x128k16", 128, 128, 80},
        {"128x64k16", 128, 64, 80},
        {"256x128", 256, 128, 80},
        {"128x256", 128, 256, 80},
        {"128x128s3", 128, 128, 80},
        {"128x256k16_sm90", 128, 256, 90},
        {"128x256k16s4_sm90", 128, 256, 90},
        {"256x128k16_sm90", 256, 128, 90},
        {"128x128k16_sm90", 128, 128, 90},
        {"128x256p", 128, 256, 80},
        {"256x64k16_sm90", 256, 64, 90},
        {"512x64k16_sm90", 512, 64, 90},
        {"128x64k16_sm90", 128, 64, 90},
        {"192x128k16_sm90", 192, 128, 90},
        {"128x64k16m3_sm90", 128, 64, 90},
        {"256x64r_sm90", 256, 64, 90, true},
        {"256x64rk32_sm90", 256, 64, 90, true},
        {"128x128r_sm90", 128, 128, 90, true},
        {"128x64r_sm90", 128, 64, 90, true},
};
// Devices that load sm_90a PTX run 128 x 256 blocks with 16-deep slices (3 stages, past
// 48 KiB of shared memory): H100, strict f32 4096^3 2.913 ms against 3.291 (0.92 of cuBLAS
// against 0.81), 8192^3 22.58 against 25.75 (0.95 against 0.83).
const int *sgemm_size_order(int ptx_sm) {
    static const int sm80[sgemm_size_choices] = {6, 0, 1, 2};
    static const int sm90[sgemm_size_choices] = {8, 0, 1, 2};
    return ptx_sm >= 90 ? sm90 : sm80;
}

std::string sgemm_override(const char *field) {
    const std::string spec = "," + tuning_override("sgemm") + ",";
    const std::string key = std::string(",") + field + "=";
    const size_t at = spec.find(key);
    if (at == std::string::npos) return std::string();
    const size_t from = at + key.size();
    return spec.substr(from, spec.find(',', from) - from);
}

int sgemm_config_index(const std::string &name) {
    for (int c = 0; c < sgemm_configs; ++c)
        if (name == sgemm_config[c].name) return c;
    return -1;
}

int sgemm_forced_config() {
    return sgemm_config_index(sgemm_override("config"));
}

int sgemm_pick_config(int64_t compute_units, int64_t batch, int64_t m, int64_t n, int ptx_sm,
        int preferred, int forced) {
    if (forced >= 0 && forced < sgemm_configs && sgemm_config[forced].sm <= ptx_sm)
        return forced;
    auto blocks = [&](int c) {
        const sgemm_config_t &s = sgemm_config[c];
        return batch * ((m + s.bm - 1) / s.bm) * ((n + s.bn - 1) / s.bn);
    };
    if (preferred >= 0 && preferred < sgemm_configs && sgemm_config[preferred].sm <= ptx_sm
            && blocks(preferred) >= compute_units)
        return preferred;
    const int *order = sgemm_size_order(ptx_sm);
    int best = order[sgemm_size_choices - 1];
    int64_t best_area = -1;
    for (int i = 0; i < sgemm_size_choices; ++i) {
        const int c = order[i];
        const sgemm_config_t &s = sgemm_config[c];
        const int64_t bm = (m + s.bm - 1) / s.bm, bn = (n + s.bn - 1) / s.bn;
        const int64_t area = bm * s.bm * bn * s.bn; // of C, rounded up to whole blocks
        if (blocks(c) >= compute_units && (best_area < 0 || area < best_area))
            best = c, best_area = area;
    }
    return best;
}

std::string sgemm_kernel_name(int config, bool a_k_major, bool b_n_major) {
    return std::string("anydnn_sgemm_") + (a_k_major ? "k" : "m") + (b_n_major ? "n" : "k") + "_"
           + sgemm_config[config].name;
}

const char *sgemm_build_refusal(const gemm_types_t &t, const post_ops_t *post_ops,
        wgmma_epilogue_t &e, std::string &reason) {
    if (t.a != dnnl_f32 || t.b != dnnl_f32 || t.c != dnnl_f32 || t.woq)
        return "A, B and C are not all f32";
    if (t.scale_a != dnnl_f32 || t.scale_b != dnnl_f32 || t.scale_c != dnnl_f32)
        return "scales not in f32";
    e = wgmma_epilogue_t();
    if (post_ops && !post_ops->empty()) {
        primitive_attr_t chain;
        chain.post_ops = post_ops->source();
        memory_desc_t dst{};
        dst.data_type = dnnl_f32;
        if (wgmma_epilogue(chain, dst, e) != dnnl_success) {
            reason = "post-ops: " + last_failure_reason();
            return reason.c_str();
        }
    }
    return nullptr;
}

const char *sgemm_launch_refusal(
        const gemm_types_t &t, const gemm_operands_t &o, const gemm_params_t &p) {
    if (o.zp_a || o.zp_b || o.zp_c) return "zero points";
    if (p.has_bias && t.bias != dnnl_f32) return "bias not f32";
    const int64_t limit = int64_t(1) << 31;
    if (p.M >= limit || p.N >= limit || p.K >= limit) return "M, N or K beyond 32 bits";
    if (p.batch() >= 65536 || (p.M + 63) / 64 >= 65536) return "batch or M beyond the grid";
    // The kernels' copies walk A and B in 64-bit offsets: any stride.
    return nullptr;
}

status_t sgemm_f32_t::init(engine_t *engine, const wgmma_epilogue_t &e) {
    engine_ = engine;
    epilogue_ = e;
    forced_config_ = sgemm_forced_config(); // once: launches do not parse the variable
    ANYDNN_REQUIRE(engine_caps(engine).ptx_binary_sm >= 80, dnnl_unimplemented,
            "the device does not load sm_80 PTX");
    ANYDNN_REQUIRE(ptx_module(sgemm_kernel_name(0, true, true).c_str()), dnnl_unimplemented,
            "no f32 PTX GEMM in this build (built without nvcc?)");
    // The common layout of the widest tiles now: a kernel the driver cannot load fails here,
    // at creation, not at the first execution.
    std::lock_guard<std::mutex> lock(mutex_);
    return create_ptx_kernel(
            engine, sgemm_kernel_name(0, true, true).c_str(), kernels_[slot(0, true, true)]);
}

status_t sgemm_f32_t::launch(
        stream_t *stream, const gemm_operands_t &o, const gemm_params_t &p, int config) const {
    // Neighbouring threads walk A along K where K is its unit stride (or the smaller one),
    // B along N likewise.
    auto abs64 = [](int64_t x) { return x < 0 ? -x : x; };
    const bool a_k = p.a_sk == 1 || (p.a_sm != 1 && abs64(p.a_sk) <= abs64(p.a_sm));
    const bool b_n = p.b_sn == 1 || (p.b_sk != 1 && abs64(p.b_sn) <= abs64(p.b_sk));
    // 192- and 512-row blocks and those keeping A's rows have entries for K-major A only.
    if (!a_k && (256 % sgemm_config[config].bm != 0 || sgemm_config[config].a_rows)) config = 0;
    return run(stream, sgemm_kernel_name(config, a_k, b_n), kernels_[slot(config, a_k, b_n)], o,
            p, config, nullptr);
}

status_t sgemm_f32_t::launch_conv(stream_t *stream, const gemm_operands_t &o,
        const gemm_params_t &p, int config, const sgemm_conv_t &conv) const {
    return run(stream, std::string("anydnn_sgemm_conv_") + sgemm_config[config].name,
            kernels_[sgemm_configs * 4 + config], o, p, config, &conv);
}

status_t sgemm_f32_t::run(stream_t *stream, const std::string &name,
        std::shared_ptr<kernel_t> &slot, const gemm_operands_t &o, const gemm_params_t &p,
        int config, const sgemm_conv_t *conv) const {
    std::shared_ptr<kernel_t> kernel;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!slot) ANYDNN_CHECK(create_ptx_kernel(engine_, name.c_str(), slot));
        kernel = slot;
    }
    kernel_args_t args;
    for (const memory_storage_t *s :
            {o.a, o.b, o.c, p.has_bias ? o.bias : nullptr, o.scale_a, o.scale_b, o.scale_c})
        args.add(s);
    for (int64_t v : {p.a_off, p.a_sm, p.a_sk, p.b_off, p.b_sk, p.b_sn, p.c_off, p.c_sm, p.c_sn,
                 p.bias_off, p.bias_sm, p.bias_sn})
        args.add_value<int64_t>(v);
    for (const int64_t *a : {p.batch_dims, p.a_sb, p.b_sb, p.c_sb, p.bias_sb})
        for (int d = 0; d < gemm_max_batch; ++d)
            args.add_value<int64_t>(a[d]);
    args.add_value<int32_t>(static_cast<int32_t>(p.M));
    args.add_value<int32_t>(static_cast<int32_t>(p.N));
    args.add_value<int32_t>(static_cast<int32_t>(p.K));
    for (int i = 0; i < 3; ++i)
        args.add_value<float>(p.host_scale[i]);
    args.add_value<int32_t>(p.beta_accumulate ? 1 : 0);
    wgmma_epilogue_t e = epilogue_;
    e.wei_per_n = o.scale_b && p.scale_b_sn != 0;
    add_wgmma_epilogue(args, e);
    if (conv)
        for (int64_t v : {conv->ic, conv->ih, conv->iw, conv->oh, conv->ow, conv->kw,
                     conv->stride_h, conv->stride_w, conv->pad_h, conv->pad_w, conv->dil_h,
                     conv->dil_w, conv->src_sn, conv->src_sh, conv->src_sw})
            args.add_value<int32_t>(static_cast<int32_t>(v));

    const sgemm_config_t &s = sgemm_config[config];
    nd_range_t r;
    r.ndims = 3;
    r.global[0] = static_cast<size_t>((p.N + s.bn - 1) / s.bn) * 256;
    r.global[1] = static_cast<size_t>((p.M + s.bm - 1) / s.bm);
    r.global[2] = static_cast<size_t>(p.batch());
    r.local[0] = 256;
    r.local[1] = r.local[2] = 1;
    return kernel->launch(stream, args, r);
}

} // namespace gpu
} // namespace anydnn
