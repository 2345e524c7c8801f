// GPU matmul on Hopper's warpgroup tensor cores: the PTX kernels of gpu/gemm/hopper, loaded
// through OpenCL where the device takes sm_90a PTX. bf16 x bf16 or f16 x f16 with f32
// accumulation into f32 or the input type; f32 x f32 as TF32 products with f32 sums, only
// where the fpmath mode allows TF32 (tf32, bf16, f16 or any: a type at least as accurate as
// the mode's), into f32 or bf16; 8-bit integers (u8/s8 x u8/s8) with s32 sums into f32, s32,
// s8, u8 or bf16. Plain layouts with row-major C; the 16-bit kernels read A K- or M-major and
// B K- or N-major; the tf32 and 8-bit kernels read K-major tiles only, so other layouts
// (row-major B above all) are first copied K-major into the scratchpad (gemm/kmajor_copy.cl).
// At most one batch dimension (broadcast allowed); bias over N; f32 scales (common; per-N on
// weights) and a sum and an eltwise post-op (relu, gelu_erf, gelu_tanh, swish) in the
// kernels' epilogue; for 8-bit kinds common s32 zero points of src (less its product with
// B's column sums, computed first into the scratchpad) and dst. Shapes too small to fill the GPU with tiles are split
// along K (f32 or s32 slices in the scratchpad, the epilogue in the kernel adding them).
// bf16/f16 products whose tiles fill the GPU run on the TMA-fed kernels (wgmma_tma.cu)
// where the device has tensor maps (the tuning table's tma configuration; its verbose
// dispatch line names anydnn_wgmma_tma_...). Anything else is left to the next
// implementation, with the reason.
#include <string>
#include <vector>

#include "core/primitive.hpp"
#include "core/ops/matmul/common.hpp"
#include "core/verbose.hpp"
#include "gpu/gemm/kmajor_copy.hpp"
#include "gpu/gemm/wgmma_launch.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/quant_attr.hpp"
#include "gpu/tuning/wgmma_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

struct wgmma_matmul_t;

struct wgmma_matmul_pd_t : public primitive_desc_impl_t<wgmma_matmul_pd_t, wgmma_matmul_t> {
    using base_t = primitive_desc_impl_t<wgmma_matmul_pd_t, wgmma_matmul_t>;
    using base_t::base_t;
    const char *name() const override { return "ocl:matmul:wgmma_sm90a"; }
    wgmma_layout_t layout;
    wgmma_epilogue_t epilogue;
    std::string kernel_name;
    int tile_m = 128, tile_n = 0, splits = 1;
    bool tma_overlap = false; // a TMA kernel's "o" form
    int64_t a_sb = 0, b_sb = 0, c_sb = 0; // batch strides (0: broadcast)
    // tf32 and 8-bit kinds: operands copied K-major into the scratchpad (bytes from its start)
    bool copy_a = false, copy_b = false;
    kmajor_source_t a_src, b_src;
    size_t a_copy_at = 0, b_copy_at = 0;
    size_t colsum_at = 0; // 8-bit kinds with src's zero point: B's column sums (s32)
    size_t tma_ws_at = 0; // TMA kernels: their tensor maps' workspace (bytes)

    // The kernels' layout for tf32 and 8-bit operands: K-major in place where an operand has
    // unit stride along K and 16-byte rows, else a K-major copy (a transpose for row-major B).
    static const char *kmajor_layout(wgmma_matmul_pd_t &pd, const memory_desc_t &src,
            const memory_desc_t &wei, const memory_desc_t &dst, int64_t B, int64_t M, int64_t N,
            int64_t K) {
        const int nd = dst.ndims, es = wgmma_elem_bytes(src.data_type);
        const dim_t *ss = src.blocking.strides, *ws = wei.blocking.strides,
                    *ds = dst.blocking.strides;
        if (ds[nd - 1] != 1) return "C is not row-major";
        wgmma_layout_t &l = pd.layout;
        l.ldc = ds[nd - 2];
        pd.copy_a = !(ss[nd - 1] == 1 && wgmma_aligned(ss[nd - 2], src.offset0, pd.a_sb, es));
        pd.copy_b = !(ws[nd - 2] == 1 && wgmma_aligned(ws[nd - 1], wei.offset0, pd.b_sb, es));
        l.lda = pd.copy_a ? kmajor_ld(K, es) : ss[nd - 2];
        l.ldb = pd.copy_b ? kmajor_ld(K, es) : ws[nd - 1];
        pd.a_src.batches = pd.a_sb ? B : 1;
        pd.a_src.rows = M, pd.a_src.k = K;
        pd.a_src.off = src.offset0, pd.a_src.sb = pd.a_sb;
        pd.a_src.sr = ss[nd - 2], pd.a_src.sk = ss[nd - 1];
        pd.b_src.batches = pd.b_sb ? B : 1;
        pd.b_src.rows = N, pd.b_src.k = K;
        pd.b_src.off = wei.offset0, pd.b_src.sb = pd.b_sb;
        pd.b_src.sr = ws[nd - 1], pd.b_src.sk = ws[nd - 2];
        return nullptr;
    }

    static status_t init(wgmma_matmul_pd_t &pd) {
        const matmul_desc_t &d = std::get<matmul_desc_t>(pd.desc);
        memory_desc_t src, wei, bias, dst;
        ANYDNN_CHECK(cpu::matmul::resolve_matmul(d, src, wei, bias, dst));
        const dnnl_data_type_t t = src.data_type, tc = dst.data_type;
        ANYDNN_REQUIRE(wgmma_kind_name(t, wei.data_type), dnnl_unimplemented,
                "wgmma takes bf16 x bf16, f16 x f16, f32 x f32 (as TF32) or u8/s8 x u8/s8, "
                "not %s x %s",
                dnnl_dt2str(t), dnnl_dt2str(wei.data_type));
        const bool tf32 = t == dnnl_f32, int8 = t == dnnl_s8 || t == dnnl_u8;
        const bool with_bias = !is_zero_md(bias);
        const dnnl_data_type_t tb = with_bias ? bias.data_type : dnnl_data_type_undef;
        if (tf32) {
            ANYDNN_REQUIRE(wgmma_fpmath_allows_tf32(pd.attr.fpmath_mode), dnnl_unimplemented,
                    "wgmma runs f32 as TF32 only where the fpmath mode allows it (tf32, bf16, "
                    "f16 or any), not under %s",
                    dnnl_fpmath_mode2str(pd.attr.fpmath_mode));
            ANYDNN_REQUIRE(tc == dnnl_f32 || tc == dnnl_bf16, dnnl_unimplemented,
                    "wgmma TF32 writes dst f32 or bf16, not %s", dnnl_dt2str(tc));
            ANYDNN_REQUIRE(!with_bias || tb == dnnl_f32 || tb == dnnl_bf16, dnnl_unimplemented,
                    "wgmma TF32 bias is f32 or bf16");
        } else if (int8) {
            ANYDNN_REQUIRE(tc == dnnl_f32 || tc == dnnl_s32 || tc == dnnl_s8 || tc == dnnl_u8
                            || tc == dnnl_bf16,
                    dnnl_unimplemented, "wgmma int8 writes dst f32, s32, s8, u8 or bf16, not %s",
                    dnnl_dt2str(tc));
            ANYDNN_REQUIRE(!with_bias || wgmma_bias_kind(tb) > 0, dnnl_unimplemented,
                    "wgmma int8 bias is f32, bf16, f16 or s32, not %s", dnnl_dt2str(tb));
        } else {
            ANYDNN_REQUIRE(tc == t || tc == dnnl_f32, dnnl_unimplemented,
                    "wgmma takes bf16 or f16 src and weights of one type, dst f32 or that type");
            ANYDNN_REQUIRE(!with_bias || tb == t || tb == dnnl_f32, dnnl_unimplemented,
                    "wgmma bias is f32 or the src type");
        }
        ANYDNN_REQUIRE(is_plain(src) && is_plain(wei) && is_plain(dst)
                        && (!with_bias || is_plain(bias)),
                dnnl_unimplemented, "wgmma matmul takes plain strided layouts");
        const int nd = dst.ndims;
        ANYDNN_REQUIRE(nd <= 3, dnnl_unimplemented, "wgmma matmul takes one batch dimension");
        cpu::post_ops_chain_t chain;
        std::vector<int> zp_args;
        if (int8) zp_args = {DNNL_ARG_SRC, DNNL_ARG_DST};
        ANYDNN_CHECK(
                cpu::matmul::init_attr(pd.attr, dst, 1 << (nd - 1), zp_args, chain, pd.args));
        ANYDNN_CHECK(wgmma_epilogue(pd.attr, dst, pd.epilogue, int8));
        const dim_t M = dst.dims[nd - 2], N = dst.dims[nd - 1], K = src.dims[nd - 1];
        const dim_t B = nd == 3 ? dst.dims[0] : 1;
        ANYDNN_REQUIRE(wgmma_sizes_fit(B, M, N, K), dnnl_unimplemented,
                "wgmma matmul sizes exceed the kernel's index range");
        if (with_bias)
            for (int i = 0; i < nd - 1; ++i)
                ANYDNN_REQUIRE(bias.dims[i] == 1, dnnl_unimplemented,
                        "wgmma bias broadcasts over all but N");
        ANYDNN_REQUIRE(!with_bias || (bias.blocking.strides[nd - 1] == 1 && bias.offset0 == 0),
                dnnl_unimplemented, "wgmma bias is dense");

        // The batch step of an operand (0: broadcast or no batch).
        auto batch_stride = [nd](const memory_desc_t &md) -> int64_t {
            return nd == 3 && md.dims[0] != 1 ? md.blocking.strides[0] : 0;
        };
        pd.a_sb = batch_stride(src);
        pd.b_sb = batch_stride(wei);
        pd.c_sb = batch_stride(dst);
        const dim_t *ss = src.blocking.strides, *ws = wei.blocking.strides,
                    *ds = dst.blocking.strides;
        if (wgmma_kmajor_only(t)) {
            const char *why = kmajor_layout(pd, src, wei, dst, B, M, N, K);
            ANYDNN_REQUIRE(!why, dnnl_unimplemented, "wgmma matmul: %s", why);
        } else {
            const char *why = wgmma_layout(ss[nd - 2], ss[nd - 1], ws[nd - 2], ws[nd - 1],
                    ds[nd - 2], ds[nd - 1], pd.layout);
            ANYDNN_REQUIRE(!why, dnnl_unimplemented, "wgmma matmul: %s", why);
            ANYDNN_REQUIRE(wgmma_aligned(pd.layout.lda, src.offset0, pd.a_sb)
                            && wgmma_aligned(pd.layout.ldb, wei.offset0, pd.b_sb),
                    dnnl_unimplemented,
                    "wgmma loads 16-byte rows: strides and offsets of src and weights must be "
                    "multiples of 8 elements");
        }

        // Last among the checks, so that every device names what the kernels lack.
        ANYDNN_REQUIRE(engine_caps(pd.engine).ptx_binary_sm >= 90, dnnl_unimplemented,
                "the device does not load sm_90a PTX programs");
        // The tile configuration and K split: the device tuning table.
        const int es = wgmma_elem_bytes(t);
        wgmma_tuning_t tuning;
        // The 16-bit kinds may take the TMA kernels (no K-major copies there).
        ANYDNN_CHECK(wgmma_tuning(engine_caps(pd.engine), B, M, N, K, tuning, es, !tf32 && !int8));
        const std::string &config = tuning.config;
        pd.tile_m = tuning.tile_m;
        pd.tile_n = tuning.tile_n;
        pd.splits = tuning.splits;
        pd.tma_overlap = tuning.tma_overlap;
        // Zero points are applied in the GEMM's epilogue only: no split along K.
        if (pd.epilogue.zp_src || pd.epilogue.zp_dst) pd.splits = 1;
        // The plain kernels add an f32 (or 16-bit input type) bias and write f32 or the 16-bit
        // input type, the integer ones exact s32 without bias: anything else takes the
        // epilogue. Split along K, the sum kernel applies it: the GEMM writes plain sums.
        const bool plain_out = int8 ? tc == dnnl_s32 && !with_bias
                : tf32              ? tc == dnnl_f32 && (!with_bias || tb == dnnl_f32)
                                    : true;
        const bool epi = pd.epilogue.any || !plain_out;
        pd.kernel_name = wgmma_kernel_name(t, wei.data_type, pd.layout, config, epi && pd.splits == 1);
        // The f32 (s32) split-K slices, then the K-major copies: the scratchpad, which a
        // stream in order keeps for its executions (stream_t::scratchpad), so one primitive
        // runs on several streams at once.
        size_t bytes = (wgmma_scratchpad_bytes(pd.splits, B, M, N) + 255) / 256 * 256;
        if (pd.copy_a) pd.a_copy_at = bytes, bytes += kmajor_bytes(pd.a_src, es);
        if (pd.copy_b) pd.b_copy_at = bytes, bytes += kmajor_bytes(pd.b_src, es);
        if (pd.epilogue.zp_src) {
            pd.colsum_at = bytes;
            bytes += static_cast<size_t>((pd.b_src.batches * N * 4 + 255) / 256 * 256);
        }
        if (tuning.tma) {
            pd.tma_ws_at = bytes;
            bytes += wgmma_tma_workspace_bytes(engine_caps(pd.engine));
        }
        pd.scratchpad_size = bytes;
        ANYDNN_REQUIRE(ptx_module(pd.kernel_name.c_str()), dnnl_unimplemented,
                "no PTX kernel %s in this build (built without nvcc?)", pd.kernel_name.c_str());
        if (verbose_on(verbose_flag::dispatch)) {
            std::string copies;
            if (pd.copy_a) copies += "; src copied K-major first";
            if (pd.copy_b) copies += "; weights copied K-major first";
            if (pd.epilogue.zp_src)
                copies += pd.copy_b ? "; weights' column sums for src's zero point in their copy"
                                    : "; weights' column sums for src's zero point";
            verbose_print("primitive,create:dispatch",
                    "matmul,wgmma " + pd.kernel_name + ",chosen: " + tuning.why + copies);
        }

        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_WEIGHTS] = wei;
        pd.args[DNNL_ARG_DST] = dst;
        if (with_bias) pd.args[DNNL_ARG_BIAS] = bias;
        return dnnl_success;
    }
};

struct wgmma_matmul_t : public primitive_t {
    using primitive_t::primitive_t;

    const wgmma_matmul_pd_t &pd_() const { return static_cast<const wgmma_matmul_pd_t &>(pd()); }

    status_t init() override {
        const wgmma_matmul_pd_t &pd = pd_();
        const dnnl_data_type_t t = pd.arg_md(DNNL_ARG_SRC).data_type;
        const int es = wgmma_elem_bytes(t);
        const bool wei_s8 = pd.arg_md(DNNL_ARG_WEIGHTS).data_type == dnnl_s8;
        // src's zero point needs B's column sums: in B's copy where there is one, else alone.
        const row_sums_kind_t with_b = !pd.epilogue.zp_src ? row_sums_kind_t::none
                : wei_s8                                    ? row_sums_kind_t::s8
                                                            : row_sums_kind_t::u8;
        if (pd.copy_a) ANYDNN_CHECK(copy_a_.init(pd.engine, es));
        if (pd.copy_b) ANYDNN_CHECK(copy_b_.init(pd.engine, es, with_b));
        if (pd.epilogue.zp_src && !pd.copy_b) ANYDNN_CHECK(sums_.init(pd.engine, wei_s8));
        return gemm_.init(pd.engine, pd.kernel_name, pd.tile_m, pd.tile_n, pd.splits,
                t == dnnl_s8 || t == dnnl_u8, pd.tma_overlap);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const wgmma_matmul_pd_t &pd = pd_();
        const memory_desc_t &src = pd.arg_md(DNNL_ARG_SRC), &wei = pd.arg_md(DNNL_ARG_WEIGHTS),
                            &dst = pd.arg_md(DNNL_ARG_DST);
        const int nd = dst.ndims;
        wgmma_problem_t p;
        p.m = dst.dims[nd - 2], p.n = dst.dims[nd - 1], p.k = src.dims[nd - 1];
        p.batch = nd == 3 ? dst.dims[0] : 1;
        p.layout = pd.layout;
        p.a_off = src.offset0, p.b_off = wei.offset0, p.c_off = dst.offset0;
        p.a_sb = pd.a_sb, p.b_sb = pd.b_sb, p.c_sb = pd.c_sb;
        p.c_type = dst.data_type;
        p.tma_ws_at = pd.tma_ws_at;
        const bool with_bias = pd.args.count(DNNL_ARG_BIAS) != 0;
        if (with_bias) p.bias_type = pd.arg_md(DNNL_ARG_BIAS).data_type;
        wgmma_buffers_t buf;
        buf.a = storage_of(ctx, DNNL_ARG_SRC);
        buf.b = storage_of(ctx, DNNL_ARG_WEIGHTS);
        buf.c = storage_of(ctx, DNNL_ARG_DST);
        buf.bias = with_bias ? storage_of(ctx, DNNL_ARG_BIAS) : nullptr;
        buf.scale_src = storage_of(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC);
        buf.scale_wei = storage_of(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS);
        buf.scale_dst = storage_of(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST);
        buf.scratchpad = ctx.scratchpad_storage;
        buf.zp_src = storage_of(ctx, DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC);
        buf.zp_dst = storage_of(ctx, DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST);
        // B's column sums (s32 per batch and n) for src's zero point: with B's copy below, or
        // here from B as given.
        const int64_t colsum_off = static_cast<int64_t>(pd.colsum_at) / 4;
        if (pd.epilogue.zp_src) {
            if (!pd.copy_b)
                ANYDNN_CHECK(sums_.launch(ctx.stream, buf.b, pd.b_src, buf.scratchpad, colsum_off));
            buf.colsum = buf.scratchpad;
            p.colsum_off = colsum_off;
            p.colsum_sb = pd.b_src.batches > 1 ? p.n : 0;
        }
        // K-major copies: the GEMM reads them from the scratchpad, batch by batch or broadcast.
        const int es = wgmma_elem_bytes(src.data_type);
        if (pd.copy_a) {
            ANYDNN_CHECK(copy_a_.launch(ctx.stream, buf.a, pd.a_src, buf.scratchpad,
                    static_cast<int64_t>(pd.a_copy_at) / es));
            buf.a = buf.scratchpad;
            p.a_off = static_cast<int64_t>(pd.a_copy_at) / es;
            p.a_sb = pd.a_src.batches > 1 ? p.m * pd.layout.lda : 0;
        }
        if (pd.copy_b) {
            ANYDNN_CHECK(copy_b_.launch(ctx.stream, buf.b, pd.b_src, buf.scratchpad,
                    static_cast<int64_t>(pd.b_copy_at) / es,
                    pd.epilogue.zp_src ? buf.scratchpad : nullptr, colsum_off));
            buf.b = buf.scratchpad;
            p.b_off = static_cast<int64_t>(pd.b_copy_at) / es;
            p.b_sb = pd.b_src.batches > 1 ? p.n * pd.layout.ldb : 0;
        }
        return gemm_.launch(ctx.stream, buf, p, pd.epilogue);
    }

private:
    wgmma_gemm_t gemm_;
    kmajor_copy_t copy_a_, copy_b_; // B's also sums its columns for src's zero point
    row_sums_t sums_; // B's column sums where B is not copied
};

} // namespace

impl_entry_t matmul_wgmma_sm90a_entry() {
    return make_impl_entry<wgmma_matmul_pd_t>("ocl:matmul:wgmma_sm90a");
}

} // namespace gpu
} // namespace anydnn
