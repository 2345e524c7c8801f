#include "gpu/gemm/gemm.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "gpu/kernel_layout.hpp"
#include "gpu/gemm/sgemm_launch.hpp"
#include "gpu/launch.hpp"
#include "gpu/tuning/wgmma_tuning.hpp"
#include "core/verbose.hpp"

namespace anydnn {
namespace gpu {

namespace {

static_assert(sizeof(gemm_params_t) == 53 * 8, "must match gemm/gemm.cl");
static_assert(sizeof(gemm_woq_params_t) == 23 * 8, "must match gemm/gemm_woq.cl");

bool is_int(dnnl_data_type_t dt) { return dt == dnnl_s8 || dt == dnnl_u8; }

size_t div_up(int64_t a, int64_t b) { return static_cast<size_t>((a + b - 1) / b); }

std::string null_to_empty(const char *s) { return s ? s : ""; }

// An operand's type options; 4-bit types are bytes to the kernel, which unpacks them.
std::string operand_options(const char *name, dnnl_data_type_t dt) {
    const std::string n = name;
    if (dt == dnnl_s4 || dt == dnnl_u4)
        return data_type_options(name, dnnl_u8) + " -D" + n + "_INT4"
                + (dt == dnnl_s4 ? " -D" + n + "_INT4_SIGNED" : "");
    if (dt == dnnl_f4_e2m1 || dt == dnnl_f4_e3m0)
        return data_type_options(name, dnnl_u8) + " -D" + n + "_F4="
                + (dt == dnnl_f4_e2m1 ? "1" : "2");
    return data_type_options(name, dt);
}

// Where the TMA kernels' tensor maps start in the core's wgmma scratchpad: after the f32
// slices of `splits` (a 256-byte boundary).
size_t tma_maps_at(int splits, int64_t batch, int64_t m, int64_t n) {
    return (wgmma_scratchpad_bytes(splits, batch, m, n) + 255) / 256 * 256;
}

// The scratchpad bytes (from offset 0) of one wgmma launch in `splits` K slices.
size_t wgmma_room(const device_caps_t &caps, bool tma, int splits, int64_t batch, int64_t m,
        int64_t n) {
    return tma ? tma_maps_at(splits, batch, m, n) + wgmma_tma_workspace_bytes(caps)
               : wgmma_scratchpad_bytes(splits, batch, m, n);
}

} // namespace

bool gemm_tiled_supported(engine_t *engine) {
    gemm_tuning_t t;
    return gemm_tuning(engine_caps(engine), gemm_problem_t(), t) == dnnl_success;
}

void gemm_params_t::set_post_op_dims(const memory_desc_t &dst) {
    po_ndims = dst.ndims;
    for (int d = 0; d < dst.ndims; ++d)
        po_dims[d] = dst.dims[d];
}

status_t gemm_kernel_t::init(engine_t *engine, const gemm_types_t &t, gemm_kind_t kind,
        int64_t c_elems, const post_ops_t *post_ops, int64_t m, int64_t n) {
    kind_ = kind;
    m_ = m, n_ = n;
    types_ = t;
    wgmma_ready_ = false;
    wgmma_epi_ = false;
    sgemm_.reset();
    std::string opt = operand_options("A", t.a) + operand_options("B", t.b)
            + operand_options("C", t.c) + data_type_options("BIAS", t.bias);
    // Scale types only when not f32: the f32 builds keep their options.
    const char *scale_names[] = {"SA", "SB", "SC"};
    const dnnl_data_type_t scale_types[] = {t.scale_a, t.scale_b, t.scale_c};
    for (int i = 0; i < 3; ++i)
        if (scale_types[i] != dnnl_f32) opt += data_type_options(scale_names[i], scale_types[i]);
    if (post_ops) opt += post_ops->build_options();
    const bool acc_int = is_int(t.a) && is_int(t.b) && !t.woq; // gemm_woq.cl sums in f32
    if (acc_int) opt += " -DACC_INT";
    if (t.woq) {
        ANYDNN_REQUIRE(kind == gemm_kind_t::generic, dnnl_unimplemented,
                "weights decompression runs on the generic GEMM kernel only");
        const dnnl_data_type_t zp_types[] = {dnnl_s32, dnnl_s8, dnnl_u8, dnnl_s4, dnnl_u4};
        int zp_kind = 0;
        while (zp_kind < 4 && zp_types[zp_kind] != t.zp_b)
            ++zp_kind;
        ANYDNN_REQUIRE(zp_types[zp_kind] == t.zp_b, dnnl_unimplemented,
                "weights zero points of type %s", dnnl_dt2str(t.zp_b));
        opt += " -DZPB_KIND=" + std::to_string(zp_kind);
        if (t.int8_grouped) opt += " -DINT8_GROUPED";
        return create_kernel(engine, "gemm/gemm_woq.cl", opt, "gemm_woq", kernel_);
    }
    if (kind == gemm_kind_t::generic) {
        ANYDNN_CHECK(create_kernel(engine, "gemm/gemm.cl", opt, "gemm_generic", kernel_));
        const std::string wgmma = init_wgmma(engine, t, post_ops);
        if (verbose_on(verbose_flag::dispatch))
            verbose_print("primitive,create:dispatch", "gemm,generic,wgmma: " + wgmma);
        return dnnl_success;
    }
    const device_caps_t &caps = engine_caps(engine);
    gemm_problem_t problem;
    problem.a = t.a, problem.b = t.b, problem.c = t.c, problem.c_elems = c_elems, problem.m = m,
            problem.n = n;
    problem.k_dense_b = k_dense_b_;
    ANYDNN_CHECK(gemm_tuning(caps, problem, tuning_));
    status_t st = build(engine, opt, t, acc_int);
    if (st != dnnl_success && tuning_.variant != gemm_variant_t::tiled_wg
            && tuning_.variant != gemm_variant_t::tiled_cpu) {
        // A newer kernel did not build with this compiler: the basic row for the same device.
        const std::string failed = std::string(gemm_variant_name(tuning_.variant))
                + " did not build (" + last_failure_reason().substr(0, 1500) + "); ";
        problem.basic_only = true;
        ANYDNN_CHECK(gemm_tuning(caps, problem, tuning_));
        tuning_.why = failed + tuning_.why;
        st = build(engine, opt, t, acc_int);
    }
    if (st != dnnl_success) return st;
    const std::string wgmma = init_wgmma(engine, t, post_ops);
    const std::string sgemm = tuning_.variant == gemm_variant_t::sgemm_ptx
            ? "; f32 PTX: " + init_sgemm(engine, t, post_ops)
            : std::string();
    if (verbose_on(verbose_flag::dispatch))
        verbose_print("primitive,create:dispatch",
                std::string("gemm,") + gemm_variant_name(tuning_.variant) + " " + tile_string()
                        + ",chosen: " + tuning_.why + "; wgmma: " + wgmma + sgemm);
    return st;
}

std::string gemm_kernel_t::tile_string() const {
    const gemm_tuning_t &s = tuning_;
    char buf[160];
    std::snprintf(buf, sizeof(buf), "block %dx%dx%d wg %dx%d tile %dx%d vw %d stages %d regs %d",
            s.bm, s.bn, s.kt, s.wg_m, s.wg_n, s.tm, s.tn, s.vw, s.stages, s.regs);
    return buf;
}

status_t gemm_kernel_t::build(engine_t *engine, std::string opt, const gemm_types_t &t,
        bool acc_int) {
    const gemm_tuning_t &s = tuning_;
    const std::string opt_without_tiles = opt;
    auto def = [&](const char *name, int v) {
        opt += std::string(" -D") + name + "=" + std::to_string(v);
    };
    def("TM", s.tm);
    def("TN", s.tn);
    def("KT", s.kt);
    if (s.regs > 0 && engine_caps(engine).nvidia_ptx)
        opt += " -cl-nv-maxrregcount=" + std::to_string(s.regs);
    switch (s.variant) {
        case gemm_variant_t::generic:
            return create_kernel(engine, "gemm/gemm.cl", opt, "gemm_generic", kernel_);
        case gemm_variant_t::mma_sync: {
            if (t.a == dnnl_f16) opt += " -DMMA_F16";
            def("WG_M", s.wg_m);
            def("WG_N", s.wg_n);
            def("STAGES", s.stages);
            def("PENDING", s.stages - 2);
            ANYDNN_CHECK(create_kernel(engine, "gemm/gemm_mma.cl", opt, "gemm_mma", kernel_));
            ANYDNN_REQUIRE(kernel_->max_work_group_size() >= size_t(32 * s.wg_m * s.wg_n),
                    dnnl_unimplemented, "the mma_sync GEMM's work-group is too large");
            return dnnl_success;
        }
        case gemm_variant_t::sgemm_ptx: // launches the PTX kernels refuse run fma_8x8
        case gemm_variant_t::fma_8x8:
            ANYDNN_CHECK(create_kernel(engine, "gemm/gemm_fma.cl", opt, "gemm_fma", kernel_));
            ANYDNN_REQUIRE(kernel_->max_work_group_size() >= 256, dnnl_unimplemented,
                    "the fma_8x8 GEMM's work-group is too large for the device");
            return dnnl_success;
        case gemm_variant_t::skinny: // its own options (gpu/gemm/gemm_skinny.hpp)
            return skinny_.build(engine, opt_without_tiles, tuning_, m_, n_, t.a == t.b,
                    tuning_.why);
        case gemm_variant_t::tiled_cpu:
        case gemm_variant_t::tiled_wg: break;
    }
    const bool cpu = s.variant == gemm_variant_t::tiled_cpu;
    opt += cpu ? " -DCPU_TILED" : " -DWG_TILED";
    if (!acc_int && t.b == dnnl_f32) opt += " -DB_F32"; // vector copies of B
    if (!acc_int && t.c == dnnl_f32) opt += " -DC_F32"; // vector stores of C
    if (cpu) {
        def("BM", s.bm);
        def("BN", s.bn);
    } else {
        def("WG_M", s.wg_m);
        def("WG_N", s.wg_n);
    }
    def("VW", s.vw);
    ANYDNN_CHECK(create_kernel(engine, "gemm/gemm.cl", opt, "gemm_tiled", kernel_));
    const size_t wg = cpu ? 1 : size_t(s.wg_m * s.wg_n);
    ANYDNN_REQUIRE(kernel_->max_work_group_size() >= wg, dnnl_unimplemented,
            "the tiled GEMM's work-group is too large for the device");
    return dnnl_success;
}

void gemm_kernel_t::allow_wgmma_epilogue(const primitive_attr_t &attr, const memory_desc_t &dst) {
    wgmma_offer_ = gemm_wgmma_offer_t();
    wgmma_epilogue_ = wgmma_epilogue_t();
    wgmma_epilogue_refusal_.clear();
    wgmma_offer_.tf32 = wgmma_fpmath_allows_tf32(attr.fpmath_mode);
    // Zero points are refused here: the core has no room for B's column sums.
    if (wgmma_epilogue(attr, dst, wgmma_epilogue_, false) != dnnl_success)
        wgmma_epilogue_refusal_ = last_failure_reason();
    else
        wgmma_offer_.epilogue = true;
}

std::string gemm_kernel_t::init_wgmma(
        engine_t *engine, const gemm_types_t &t, const post_ops_t *post_ops) {
    caps_ = engine_caps(engine);
    for (std::string &config : wgmma_config_)
        config.clear();
    if (caps_.ptx_binary_sm < 90) return "none, the device does not load sm_90a PTX";
    const bool kmajor = wgmma_kind_name(t.a, t.b) && wgmma_kmajor_only(t.a);
    if (kmajor && !wgmma_offer_.epilogue && !wgmma_epilogue_refusal_.empty())
        return "none, the kernels' epilogue does not apply the attribute: "
                + wgmma_epilogue_refusal_;
    if (const char *why = gemm_wgmma_types_refusal(t, wgmma_offer_))
        return std::string("none, ") + why;
    // bf16/f16 take post-ops and scales only through the kernels' epilogue, where offered.
    if (!kmajor && post_ops && !post_ops->empty() && !wgmma_offer_.epilogue)
        return "none, the core's bf16/f16 wgmma path takes post-ops only through the kernels' "
               "epilogue"
                + (wgmma_epilogue_refusal_.empty() ? std::string(" (not offered)")
                                                   : ": " + wgmma_epilogue_refusal_);
    wgmma_epi_ = kmajor || (wgmma_offer_.epilogue && wgmma_epilogue_.any);
    if (kind_ == gemm_kind_t::tiled && tuning_.variant == gemm_variant_t::skinny)
        return "none, the table chose the skinny kernel (bandwidth-bound rows)";
    // Every configuration the table may give (TMA ones where the caller gives their maps'
    // room); each launch takes the one the table gives its sizes (K split and TMA only where
    // allow_wgmma_scratchpad gave room).
    std::vector<wgmma_tuning_t> configs;
    if (wgmma_table_configs(caps_, wgmma_elem_bytes(t.a), configs, wgmma_scratch_ && !kmajor)
            != dnnl_success)
        return "none, " + last_failure_reason();
    if (configs.empty() || !configs[0].core)
        return "none, the tuning table keeps the core off wgmma";
    // tf32 and 8-bit tiles are K-major only (one layout), and always take the epilogue.
    const int layouts = kmajor ? 1 : 4;
    std::string names;
    for (size_t c = 0; c < configs.size() && c < size_t(wgmma_configs); ++c) {
        std::string failed;
        for (int i = 0; i < layouts && failed.empty(); ++i) {
            wgmma_layout_t l;
            l.a_m_major = i / 2 != 0;
            l.b_n_major = i % 2 != 0;
            // Init's splits 2 load the split-K sum; each launch passes its own.
            if (wgmma_[c][i].init(engine,
                        wgmma_kernel_name(t.a, t.b, l, configs[c].config, wgmma_epi_),
                        configs[c].tile_m, configs[c].tile_n, wgmma_scratch_ ? 2 : 1,
                        t.a == dnnl_s8 || t.a == dnnl_u8, configs[c].tma_overlap)
                    != dnnl_success)
                failed = last_failure_reason();
        }
        // Without its TMA kernels a launch takes the cp.async ones the table lists after them.
        if (!failed.empty() && !configs[c].tma) return "none, " + failed;
        names += (c ? " or " : "") + configs[c].config
                + (failed.empty() ? "" : " (not loaded: " + failed + ")");
        if (failed.empty()) wgmma_config_[c] = configs[c].config;
    }
    wgmma_ready_ = true;
    return "tiles " + names
            + (wgmma_scratch_ ? " (K split and TMA where the table says so and the scratchpad "
                                "has room"
                              : " (K not split, no TMA")
            + (wgmma_epi_ ? ", the kernels' epilogue" : "")
            + ") where a launch's strides suit them";
}

std::string gemm_kernel_t::init_sgemm(
        engine_t *engine, const gemm_types_t &t, const post_ops_t *post_ops) {
    wgmma_epilogue_t e;
    std::string reason;
    if (const char *why = sgemm_build_refusal(t, post_ops, e, reason))
        return std::string("none, ") + why + "; every launch on fma_8x8";
    auto sgemm = std::make_shared<sgemm_f32_t>();
    if (sgemm->init(engine, e) != dnnl_success)
        return "none, " + last_failure_reason() + "; every launch on fma_8x8";
    sgemm_ = sgemm;
    return "where a launch suits it (fma_8x8 otherwise)";
}

bool gemm_kernel_t::launch_sgemm(stream_t *stream, const gemm_operands_t &o,
        const gemm_params_t &p, status_t &st) const {
    if (!sgemm_) return false;
    const char *why = sgemm_launch_refusal(types_, o, p);
    const int config = why ? 0
                           : sgemm_->pick_config(caps_.compute_units, p.batch(), p.M, p.N,
                                   caps_.ptx_binary_sm, sgemm_preferred_);
    if (verbose_on(verbose_flag::dispatch))
        verbose_print("primitive,exec:dispatch",
                std::string("gemm,") + (why ? "fma_8x8" : "sgemm_ptx ")
                        + (why ? "" : sgemm_config[config].name) + ",M " + std::to_string(p.M)
                        + " N " + std::to_string(p.N) + " K " + std::to_string(p.K) + ","
                        + (why ? std::string("not the f32 PTX kernels: ") + why
                               : sgemm_preferred_ >= 0 ? std::string("the caller's tiles")
                                                       : std::string("blocks for the compute units")));
    if (why) return false;
    st = sgemm_->launch(stream, o, p, config);
    return true;
}

size_t gemm_wgmma_scratchpad_bytes(const device_caps_t &caps, const gemm_types_t &t,
        const gemm_wgmma_offer_t &offer, int64_t m, int64_t n, int64_t k) {
    if (caps.ptx_binary_sm < 90 || gemm_wgmma_types_refusal(t, offer)) return 0;
    if (m <= 0 || n <= 0 || k <= 0 || !wgmma_sizes_fit(1, m, n, k)) return 0;
    wgmma_tuning_t wt;
    if (wgmma_tuning(caps, 1, m, n, k, wt, wgmma_elem_bytes(t.a), !wgmma_kmajor_only(t.a))
                    != dnnl_success
            || !wt.core)
        return 0;
    return wgmma_room(caps, wt.tma, wt.splits, 1, m, n);
}

const char *gemm_wgmma_types_refusal(const gemm_types_t &t, const gemm_wgmma_offer_t &offer) {
    const char *kind = wgmma_kind_name(t.a, t.b);
    if (!kind) return "the types are not bf16, f16, f32 or 8-bit pairs of the kernels";
    if (!wgmma_kmajor_only(t.a)) {
        if (!(t.c == dnnl_f32 || t.c == t.a))
            return "the types are not bf16 or f16 with C f32 or the input type";
        return nullptr;
    }
    if (t.a == dnnl_f32) {
        if (!offer.tf32)
            return "f32 runs as TF32 only where the fpmath mode allows it (tf32, bf16, f16 or "
                   "any)";
        if (!(t.c == dnnl_f32 || t.c == dnnl_bf16)) return "TF32 writes C f32 or bf16";
    } else if (!(t.c == dnnl_f32 || t.c == dnnl_bf16 || t.c == dnnl_f16 || t.c == dnnl_s32
                       || t.c == dnnl_s8 || t.c == dnnl_u8)) {
        return "8-bit products write C f32, bf16, f16, s32, s8 or u8";
    }
    if (!offer.epilogue)
        return "8-bit and f32 products take the kernels only with their epilogue (not offered)";
    return nullptr;
}

const char *gemm_wgmma_refusal(const gemm_types_t &t, const gemm_params_t &p, bool output_ok,
        wgmma_problem_t &w, const gemm_wgmma_offer_t &offer) {
    if (const char *why = gemm_wgmma_types_refusal(t, offer)) return why;
    const bool kmajor = wgmma_kmajor_only(t.a);
    if (!output_ok)
        return kmajor ? "zero points or host scales" : "post-ops, scales or zero points";
    if (p.beta_accumulate) return "accumulation into C";
    if (p.K == 0) return "K is 0";
    int batch_dim = -1;
    for (int i = 0; i < gemm_max_batch; ++i)
        if (p.batch_dims[i] != 1) {
            if (batch_dim >= 0) return "more than one batch dimension";
            batch_dim = i;
        }
    w = wgmma_problem_t();
    w.batch = p.batch(), w.m = p.M, w.n = p.N, w.k = p.K;
    if (!wgmma_sizes_fit(w.batch, w.m, w.n, w.k)) return "sizes beyond the kernels' range";
    if (batch_dim >= 0) {
        w.a_sb = p.a_sb[batch_dim], w.b_sb = p.b_sb[batch_dim], w.c_sb = p.c_sb[batch_dim];
        if (p.has_bias && p.bias_sb[batch_dim] != 0) return "bias over the batch";
    }
    if (const char *why = wgmma_layout(p.a_sm, p.a_sk, p.b_sk, p.b_sn, p.c_sm, p.c_sn, w.layout))
        return why;
    if (kmajor && (w.layout.a_m_major || w.layout.b_n_major))
        return "tf32 and 8-bit tiles are K-major: A and B need a unit stride along K";
    const int es = wgmma_elem_bytes(t.a);
    if (!wgmma_aligned(w.layout.lda, p.a_off, w.a_sb, es)
            || !wgmma_aligned(w.layout.ldb, p.b_off, w.b_sb, es))
        return "A or B rows are not 16-byte pieces (strides, offsets multiples of 16 bytes)";
    if (p.has_bias) {
        const bool bias_ok = !kmajor ? t.bias == dnnl_f32 || t.bias == t.a
                : t.a == dnnl_f32    ? t.bias == dnnl_f32 || t.bias == dnnl_bf16
                                     : wgmma_bias_kind(t.bias) > 0;
        if (!bias_ok) return "bias type";
        if (p.bias_sm != 0 || p.bias_sn != 1 || p.bias_off != 0) return "bias not dense over N";
        w.bias_type = t.bias;
    }
    w.a_off = p.a_off, w.b_off = p.b_off, w.c_off = p.c_off;
    w.c_type = t.c;
    return nullptr;
}

bool gemm_kernel_t::launch_wgmma(stream_t *stream, const gemm_operands_t &o,
        const gemm_params_t &p, status_t &st) const {
    if (!wgmma_ready_) return false;
    // The epilogue kernels (tf32, 8-bit; bf16/f16 where the attribute has scales or post-ops
    // and the primitive offered the epilogue) apply the attribute's scales and post-ops (the
    // chain's source); otherwise bf16/f16 take plain products only.
    const bool epi = wgmma_epi_;
    const bool no_zp_host = !o.zp_a && !o.zp_b && !o.zp_c && p.host_scale[0] == 1.f
            && p.host_scale[1] == 1.f && p.host_scale[2] == 1.f;
    const bool output_ok = epi ? no_zp_host
                                  : no_zp_host && !(o.post_ops && !o.post_ops->empty())
                    && !o.scale_a && !o.scale_b && !o.scale_c;
    wgmma_problem_t w;
    std::string why
            = null_to_empty(gemm_wgmma_refusal(types_, p, output_ok, w, wgmma_offer_));
    // The table's tiles for these sizes, as the matmul gets them, where the caller gave the
    // room (allow_wgmma_scratchpad, the operands' scratchpad at offset 0): its K split into
    // f32 slices, its TMA kernels with their tensor maps after the slices. Without the room,
    // or where the TMA kernels did not load, K whole on the cp.async kernels.
    const size_t room
            = wgmma_scratch_ && o.scratchpad && o.scratchpad_off == 0 ? o.scratchpad_bytes : 0;
    auto loaded = [&](const std::string &config) {
        for (int j = 0; j < wgmma_configs; ++j)
            if (!wgmma_config_[j].empty() && config == wgmma_config_[j]) return j;
        return -1;
    };
    wgmma_tuning_t wt;
    int c = -1, splits = 1;
    std::string split_note = " (K not split)";
    if (why.empty()) {
        const int es = wgmma_elem_bytes(types_.a);
        if (wgmma_tuning(caps_, w.batch, w.m, w.n, w.k, wt, es, room > 0) != dnnl_success)
            why = last_failure_reason();
        if (why.empty() && wt.tma
                && (room < wgmma_room(caps_, true, wt.splits, w.batch, w.m, w.n)
                        || loaded(wt.config) < 0)) {
            split_note = loaded(wt.config) < 0 ? " (its TMA kernels did not load)"
                                               : " (no scratchpad room for the TMA kernels' maps)";
            if (wgmma_tuning(caps_, w.batch, w.m, w.n, w.k, wt, es, false) != dnnl_success)
                why = last_failure_reason();
        }
        c = why.empty() ? loaded(wt.config) : -1;
        if (why.empty() && c < 0) why = "no loaded kernel of the table's tiles " + wt.config;
    }
    const int i = (w.layout.a_m_major ? 2 : 0) + (w.layout.b_n_major ? 1 : 0);
    if (c >= 0 && !wgmma_[c][i].ready()) c = -1, why = "kernel not loaded";
    if (c >= 0 && wt.tma) {
        splits = wt.splits; // its room checked above
        w.tma_ws_at = tma_maps_at(splits, w.batch, w.m, w.n);
        split_note = splits > 1 ? " (K split " + std::to_string(splits) + ", TMA)" : " (TMA)";
    } else if (c >= 0 && wt.splits > 1 && wgmma_scratch_) {
        if (room >= wgmma_room(caps_, false, wt.splits, w.batch, w.m, w.n)) {
            splits = wt.splits;
            split_note = " (K split " + std::to_string(splits) + ")";
        } else {
            split_note = " (K not split: no scratchpad room for " + std::to_string(wt.splits)
                    + " slices)";
        }
    }
    if (verbose_on(verbose_flag::dispatch)) {
        const std::string mnk = ",M " + std::to_string(p.M) + " N " + std::to_string(p.N) + " K "
                + std::to_string(p.K) + ",";
        const char *variant = kind_ == gemm_kind_t::generic ? "generic"
                                                            : gemm_variant_name(tuning_.variant);
        verbose_print("primitive,exec:dispatch",
                c >= 0 ? "gemm,wgmma " + wt.config + mnk + wt.why + split_note
                       : std::string("gemm,") + variant + mnk + "not wgmma: " + why);
    }
    if (c < 0) return false;
    wgmma_buffers_t buf;
    buf.a = o.a, buf.b = o.b, buf.c = o.c, buf.bias = p.has_bias ? o.bias : nullptr;
    if (epi) {
        buf.scale_src = o.scale_a, buf.scale_wei = o.scale_b, buf.scale_dst = o.scale_c;
    }
    buf.scratchpad = splits > 1 || wt.tma ? o.scratchpad : nullptr;
    st = wgmma_[c][i].launch(
            stream, buf, w, epi ? wgmma_epilogue_ : wgmma_epilogue_t(), splits);
    return true;
}

status_t gemm_kernel_t::launch(
        stream_t *stream, const gemm_operands_t &o, const gemm_params_t &p) const {
    if (p.M == 0 || p.N == 0 || p.batch() == 0) return dnnl_success;
    status_t wgmma_status = dnnl_success;
    if (launch_wgmma(stream, o, p, wgmma_status)) return wgmma_status;
    if (launch_sgemm(stream, o, p, wgmma_status)) return wgmma_status;
    if (kind_ == gemm_kind_t::tiled && tuning_.variant == gemm_variant_t::skinny)
        return skinny_.launch(stream, o, p);
    kernel_args_t args;
    for (const memory_storage_t *s :
            {o.a, o.b, o.c, o.bias, o.scale_a, o.scale_b, o.scale_c, o.zp_a, o.zp_b, o.zp_c})
        args.add(s);
    args.add_value(p);
    if (types_.woq) {
        ANYDNN_REQUIRE(o.woq, dnnl_runtime_error, "weights decompression without its parameters");
        args.add_value(*o.woq);
    }
    if (o.post_ops) o.post_ops->add_args(args, *o.ctx, o.post_ops_buffer);
    nd_range_t r;
    r.ndims = 3;
    r.global[2] = static_cast<size_t>(p.batch());
    const gemm_tuning_t &s = tuning_;
    const bool c_nibbles = types_.c == dnnl_f4_e2m1 || types_.c == dnnl_f4_e3m0;
    if (c_nibbles) { // gemm_woq.cl: one work-item per byte of a dense C
        const int64_t end = p.c_off + p.M * p.N * p.batch();
        r.global[0] = static_cast<size_t>((end + 1) / 2 - p.c_off / 2);
        r.global[1] = r.global[2] = 1;
    } else if (kind_ == gemm_kind_t::generic || s.variant == gemm_variant_t::generic) {
        r.global[0] = static_cast<size_t>(p.N);
        r.global[1] = static_cast<size_t>(p.M);
    } else if (s.variant == gemm_variant_t::mma_sync) {
        // One work-group of warps per block; the kernel orders the blocks itself.
        r.global[0] = div_up(p.N, s.bn) * 32 * s.wg_m * s.wg_n;
        r.global[1] = div_up(p.M, s.bm);
        r.local[0] = 32 * s.wg_m * s.wg_n;
        r.local[1] = r.local[2] = 1;
    } else if (s.variant == gemm_variant_t::fma_8x8 || s.variant == gemm_variant_t::sgemm_ptx) {
        r.global[0] = div_up(p.N, s.bn) * 16;
        r.global[1] = div_up(p.M, s.bm) * 16;
        r.local[0] = r.local[1] = 16;
        r.local[2] = 1;
    } else {
        const int wg_m = s.variant == gemm_variant_t::tiled_cpu ? 1 : s.wg_m;
        const int wg_n = s.variant == gemm_variant_t::tiled_cpu ? 1 : s.wg_n;
        r.global[0] = div_up(p.N, s.bn) * wg_n;
        r.global[1] = div_up(p.M, s.bm) * wg_m;
        r.local[0] = wg_n;
        r.local[1] = wg_m;
        r.local[2] = 1;
    }
    return kernel_->launch(stream, args, r);
}

status_t column_sums_kernel_t::init(engine_t *engine, dnnl_data_type_t a, dnnl_data_type_t c) {
    // The generic GEMM's build (the same program serves both kernels) where work-groups of
    // 32 x 8 fit; fewer row lanes otherwise.
    const std::string opt = data_type_options("A", a) + data_type_options("B", dnnl_f32)
            + data_type_options("C", c) + data_type_options("BIAS", dnnl_f32);
    lanes_ = 8;
    while (lanes_ > 1 && engine_caps(engine).max_work_group_size < size_t(32 * lanes_))
        lanes_ /= 2;
    for (;;) {
        const std::string lanes = lanes_ == 8 ? "" : " -DCS_LANES=" + std::to_string(lanes_);
        ANYDNN_CHECK(create_kernel(engine, "gemm/gemm.cl", opt + lanes, "column_sums", kernel_));
        if (kernel_->max_work_group_size() >= size_t(32 * lanes_)) return dnnl_success;
        ANYDNN_REQUIRE(lanes_ > 1, dnnl_unimplemented,
                "the column sums kernel takes fewer than 32 work-items");
        lanes_ /= 2;
    }
}

status_t column_sums_kernel_t::launch(stream_t *stream, const memory_storage_t *a,
        const memory_storage_t *c, const gemm_params_t &p) const {
    if (p.N == 0) return dnnl_success;
    kernel_args_t args;
    args.add(a);
    args.add(c);
    args.add_value(p);
    nd_range_t r;
    r.ndims = 2;
    r.global[0] = div_up(p.N, 32) * 32, r.global[1] = size_t(lanes_);
    r.local[0] = 32, r.local[1] = size_t(lanes_);
    return kernel_->launch(stream, args, r);
}

void gemm_types_t::set_scale_types(const primitive_attr_t &attr) {
    auto type_of = [&](int arg) {
        const auto it = attr.scales.find(arg);
        return it == attr.scales.end() ? dnnl_f32 : it->second.data_type;
    };
    scale_a = type_of(DNNL_ARG_SRC);
    scale_b = type_of(DNNL_ARG_WEIGHTS);
    scale_c = type_of(DNNL_ARG_DST);
}

void bind_quant(const exec_ctx_t &ctx, const primitive_attr_t &attr, gemm_operands_t &ops) {
    auto scale = [&](int arg) {
        return attr.scales.count(arg) ? storage_of(ctx, DNNL_ARG_ATTR_SCALES | arg) : nullptr;
    };
    auto zp = [&](int arg) {
        return attr.zero_points.count(arg) ? storage_of(ctx, DNNL_ARG_ATTR_ZERO_POINTS | arg)
                                           : nullptr;
    };
    ops.scale_a = scale(DNNL_ARG_SRC);
    ops.scale_b = scale(DNNL_ARG_WEIGHTS);
    ops.scale_c = scale(DNNL_ARG_DST);
    ops.zp_a = zp(DNNL_ARG_SRC);
    ops.zp_b = zp(DNNL_ARG_WEIGHTS);
    ops.zp_c = zp(DNNL_ARG_DST);
}

} // namespace gpu
} // namespace anydnn
