#include "gpu/gemm/gemm.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "gpu/kernel_layout.hpp"
#include "gpu/launch.hpp"

namespace anydnn {
namespace gpu {

namespace {

static_assert(sizeof(gemm_params_t) == 51 * 8, "must match gemm/gemm.cl");

bool is_int(dnnl_data_type_t dt) { return dt == dnnl_s8 || dt == dnnl_u8; }

size_t div_up(int64_t a, int64_t b) { return static_cast<size_t>((a + b - 1) / b); }

// CPU devices: one work-item runs a BM x BN block with a TM x TN register tile of 16-lane
// vectors (one AVX-512 register per row and 16 columns), its local blocks packed per slice.
// ANYDNN_OCL_GEMM_CPU_TILES="TM,TN,BM,BN,KT" overrides the CPU sizes (for tuning).
// GPUs: 16 x 16 work-items of 4 x 4 elements over 16-deep local tiles (8 KiB).
// Products with at least four 128 x 512 blocks per compute unit take those (B packing read
// by twice as many rows; measured 1.3x on 2048^3 with PoCL), smaller ones 64 x 256 blocks.
bool pick_tiles(const device_caps_t &caps, bool cpu_form, int64_t c_elems, int &wg_m,
        int &wg_n, int &tm, int &tn, int &bm, int &bn, int &kt, int &vw) {
    if (cpu_form) {
        wg_m = wg_n = 1;
        tm = 8, tn = 32, bm = 64, bn = 256, kt = 256, vw = 16;
        const uint64_t big_bytes = 4ull * (128 * 128 + 512 * 128 + 128 * 512);
        if (c_elems >= int64_t(4) * caps.compute_units * 128 * 512
                && big_bytes <= caps.local_mem_size)
            bm = 128, bn = 512, kt = 128;
        if (const char *e = std::getenv("ANYDNN_OCL_GEMM_CPU_TILES"))
            if (std::sscanf(e, "%d,%d,%d,%d,%d", &tm, &tn, &bm, &bn, &kt) != 5 || tm <= 0
                    || tn <= 0 || kt <= 0 || tn % vw || bm % tm || bn % tn)
                return false;
        const uint64_t bytes = 4ull * (uint64_t(bm) * kt + uint64_t(bn) * kt + uint64_t(bm) * bn);
        return bytes <= caps.local_mem_size;
    }
    wg_m = wg_n = caps.max_work_group_size >= 256 ? 16 : 8;
    tm = tn = 4, kt = 16, vw = 4;
    bm = wg_m * tm, bn = wg_n * tn;
    const uint64_t bytes = 4ull * kt * (bm + bn);
    return caps.max_work_group_size >= size_t(wg_m * wg_n) && bytes <= caps.local_mem_size;
}

} // namespace

bool gemm_tiled_supported(engine_t *engine) {
    const device_caps_t &caps = engine_caps(engine);
    int v[8];
    return pick_tiles(caps, caps.is_cpu, 0, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
}

void gemm_params_t::set_post_op_dims(const memory_desc_t &dst) {
    po_ndims = dst.ndims;
    for (int d = 0; d < dst.ndims; ++d)
        po_dims[d] = dst.dims[d];
}

status_t gemm_kernel_t::init(engine_t *engine, const gemm_types_t &t, gemm_kind_t kind,
        int64_t c_elems, const post_ops_t *post_ops) {
    kind_ = kind;
    std::string opt = data_type_options("A", t.a) + data_type_options("B", t.b)
            + data_type_options("C", t.c) + data_type_options("BIAS", t.bias);
    // Scale types only when not f32: the f32 builds keep their options.
    const char *scale_names[] = {"SA", "SB", "SC"};
    const dnnl_data_type_t scale_types[] = {t.scale_a, t.scale_b, t.scale_c};
    for (int i = 0; i < 3; ++i)
        if (scale_types[i] != dnnl_f32) opt += data_type_options(scale_names[i], scale_types[i]);
    if (post_ops) opt += post_ops->build_options();
    const bool acc_int = is_int(t.a) && is_int(t.b);
    if (acc_int) opt += " -DACC_INT";
    if (kind == gemm_kind_t::tiled) {
        const device_caps_t &caps = engine_caps(engine);
        tiles_t &s = tiles_;
        // ANYDNN_OCL_GEMM_FORM=gpu runs the work-group form on CPU devices too (to test it).
        const char *form = std::getenv("ANYDNN_OCL_GEMM_FORM");
        s.cpu = caps.is_cpu && !(form && std::string(form) == "gpu");
        ANYDNN_REQUIRE(pick_tiles(caps, s.cpu, c_elems, s.wg_m, s.wg_n, s.tm, s.tn, s.bm, s.bn, s.kt, s.vw),
                dnnl_unimplemented, "the device's local memory or work-group size is too small "
                                    "for the tiled GEMM");
        opt += s.cpu ? " -DCPU_TILED" : " -DWG_TILED";
        if (!acc_int && t.b == dnnl_f32) opt += " -DB_F32"; // vector copies of B
        if (!acc_int && t.c == dnnl_f32) opt += " -DC_F32"; // vector stores of C
        auto def = [&](const char *name, int v) { opt += std::string(" -D") + name + "=" + std::to_string(v); };
        if (s.cpu) {
            def("BM", s.bm);
            def("BN", s.bn);
        } else {
            def("WG_M", s.wg_m);
            def("WG_N", s.wg_n);
        }
        def("TM", s.tm);
        def("TN", s.tn);
        def("KT", s.kt);
        def("VW", s.vw);
        ANYDNN_CHECK(create_kernel(engine, "gemm/gemm.cl", opt, "gemm_tiled", kernel_));
        ANYDNN_REQUIRE(kernel_->max_work_group_size() >= size_t(s.wg_m * s.wg_n),
                dnnl_unimplemented, "the tiled GEMM's work-group is too large for the device");
        return dnnl_success;
    }
    return create_kernel(engine, "gemm/gemm.cl", opt, "gemm_generic", kernel_);
}

status_t gemm_kernel_t::launch(
        stream_t *stream, const gemm_operands_t &o, const gemm_params_t &p) const {
    if (p.M == 0 || p.N == 0 || p.batch() == 0) return dnnl_success;
    kernel_args_t args;
    for (const memory_storage_t *s :
            {o.a, o.b, o.c, o.bias, o.scale_a, o.scale_b, o.scale_c, o.zp_a, o.zp_b, o.zp_c})
        args.add(s);
    args.add_value(p);
    if (o.post_ops) o.post_ops->add_args(args, *o.ctx, o.post_ops_buffer);
    nd_range_t r;
    r.ndims = 3;
    r.global[2] = static_cast<size_t>(p.batch());
    if (kind_ == gemm_kind_t::generic) {
        r.global[0] = static_cast<size_t>(p.N);
        r.global[1] = static_cast<size_t>(p.M);
    } else {
        const tiles_t &s = tiles_;
        r.global[0] = div_up(p.N, s.bn) * s.wg_n;
        r.global[1] = div_up(p.M, s.bm) * s.wg_m;
        r.local[0] = s.wg_n;
        r.local[1] = s.wg_m;
        r.local[2] = 1;
    }
    return kernel_->launch(stream, args, r);
}

status_t column_sums_kernel_t::init(engine_t *engine, dnnl_data_type_t a, dnnl_data_type_t c) {
    // The generic GEMM's build: the same program serves both kernels.
    const std::string opt = data_type_options("A", a) + data_type_options("B", dnnl_f32)
            + data_type_options("C", c) + data_type_options("BIAS", dnnl_f32);
    return create_kernel(engine, "gemm/gemm.cl", opt, "column_sums", kernel_);
}

status_t column_sums_kernel_t::launch(stream_t *stream, const memory_storage_t *a,
        const memory_storage_t *c, const gemm_params_t &p) const {
    kernel_args_t args;
    args.add(a);
    args.add(c);
    args.add_value(p);
    return kernel_->launch(stream, args, range_1d(static_cast<size_t>(p.N)));
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
