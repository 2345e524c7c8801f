// GPU matmul on Hopper's warpgroup tensor cores: the PTX kernels of gpu/gemm/hopper, loaded
// through OpenCL where the device takes sm_90a PTX. bf16 x bf16 or f16 x f16 with f32
// accumulation into f32 or the input type; plain layouts with A K- or M-major, B K- or
// N-major, row-major C; at most one batch dimension (broadcast allowed); bias over N; f32
// scales (common; per-N on weights) and a sum and an eltwise post-op (relu, gelu_erf,
// gelu_tanh, swish) in the kernels' epilogue. Shapes too small to fill the GPU with tiles
// are split along K (f32 slices in the scratchpad, the epilogue in the kernel adding them).
// Anything else is left to the next implementation, with the reason.
#include <string>

#include "core/primitive.hpp"
#include "core/ops/matmul/common.hpp"
#include "core/verbose.hpp"
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
    int tile_n = 0, splits = 1;
    int64_t a_sb = 0, b_sb = 0, c_sb = 0; // batch strides (0: broadcast)

    static status_t init(wgmma_matmul_pd_t &pd) {
        const matmul_desc_t &d = std::get<matmul_desc_t>(pd.desc);
        memory_desc_t src, wei, bias, dst;
        ANYDNN_CHECK(cpu::matmul::resolve_matmul(d, src, wei, bias, dst));
        const dnnl_data_type_t t = src.data_type;
        ANYDNN_REQUIRE((t == dnnl_bf16 || t == dnnl_f16) && wei.data_type == t
                        && (dst.data_type == t || dst.data_type == dnnl_f32),
                dnnl_unimplemented,
                "wgmma takes bf16 or f16 src and weights of one type, dst f32 or that type");
        const bool with_bias = !is_zero_md(bias);
        ANYDNN_REQUIRE(!with_bias || bias.data_type == t || bias.data_type == dnnl_f32,
                dnnl_unimplemented, "wgmma bias is f32 or the src type");
        ANYDNN_REQUIRE(is_plain(src) && is_plain(wei) && is_plain(dst)
                        && (!with_bias || is_plain(bias)),
                dnnl_unimplemented, "wgmma matmul takes plain strided layouts");
        const int nd = dst.ndims;
        ANYDNN_REQUIRE(nd <= 3, dnnl_unimplemented, "wgmma matmul takes one batch dimension");
        cpu::post_ops_chain_t chain;
        ANYDNN_CHECK(cpu::matmul::init_attr(pd.attr, dst, 1 << (nd - 1), {}, chain, pd.args));
        ANYDNN_CHECK(wgmma_epilogue(pd.attr, dst, pd.epilogue));
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
        const char *why = wgmma_layout(
                ss[nd - 2], ss[nd - 1], ws[nd - 2], ws[nd - 1], ds[nd - 2], ds[nd - 1], pd.layout);
        ANYDNN_REQUIRE(!why, dnnl_unimplemented, "wgmma matmul: %s", why);
        ANYDNN_REQUIRE(wgmma_aligned(pd.layout.lda, src.offset0, pd.a_sb)
                        && wgmma_aligned(pd.layout.ldb, wei.offset0, pd.b_sb),
                dnnl_unimplemented,
                "wgmma loads 16-byte rows: strides and offsets of src and weights must be "
                "multiples of 8 elements");

        // Last among the checks, so that every device names what the kernels lack.
        ANYDNN_REQUIRE(engine_caps(pd.engine).ptx_binary_sm >= 90, dnnl_unimplemented,
                "the device does not load sm_90a PTX programs");
        // The tile configuration and K split: the device tuning table.
        wgmma_tuning_t tuning;
        ANYDNN_CHECK(wgmma_tuning(engine_caps(pd.engine), B, M, N, K, tuning));
        const std::string &config = tuning.config;
        pd.tile_n = tuning.tile_n;
        pd.splits = tuning.splits;
        // Split along K, the sum kernel applies the epilogue: the GEMM writes plain f32.
        pd.kernel_name
                = wgmma_kernel_name(t, pd.layout, config, pd.epilogue.any && pd.splits == 1);
        // The f32 split-K slices: the scratchpad, which a stream in order keeps for its
        // executions (stream_t::scratchpad), so one primitive runs on several streams at once.
        pd.scratchpad_size = wgmma_scratchpad_bytes(pd.splits, B, M, N);
        ANYDNN_REQUIRE(ptx_module(pd.kernel_name.c_str()), dnnl_unimplemented,
                "no PTX kernel %s in this build (built without nvcc?)", pd.kernel_name.c_str());
        if (verbose_on(verbose_flag::dispatch))
            verbose_print("primitive,create:dispatch",
                    "matmul,wgmma " + pd.kernel_name + ",chosen: " + tuning.why);

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
        return gemm_.init(pd_().engine, pd_().kernel_name, pd_().tile_n, pd_().splits);
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
        return gemm_.launch(ctx.stream, buf, p, pd.epilogue);
    }

private:
    wgmma_gemm_t gemm_;
};

} // namespace

impl_entry_t matmul_wgmma_sm90a_entry() {
    return make_impl_entry<wgmma_matmul_pd_t>("ocl:matmul:wgmma_sm90a");
}

} // namespace gpu
} // namespace anydnn
