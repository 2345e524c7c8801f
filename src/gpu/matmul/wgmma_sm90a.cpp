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
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/quant_attr.hpp"
#include "gpu/tuning/wgmma_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

// The operand layouts the kernels take, from the strides of the two inner dimensions.
struct wgmma_layout_t {
    bool a_m_major = false, b_n_major = false;
    dim_t lda = 0, ldb = 0, ldc = 0;
};

// Row-major (ld: the row stride) or, with col_major, column-major (ld: the column stride).
bool operand_layout(const memory_desc_t &md, bool &col_major, dim_t &ld) {
    const int nd = md.ndims;
    const dim_t *s = md.blocking.strides;
    col_major = s[nd - 1] != 1;
    if (col_major && s[nd - 2] != 1) return false;
    ld = col_major ? s[nd - 1] : s[nd - 2];
    return true;
}

// 16-byte rows for cp.async: the leading dimension, start and batch step in units of 8.
bool aligned8(const memory_desc_t &md, dim_t ld) {
    const int nd = md.ndims;
    if (ld % 8 || md.offset0 % 8) return false;
    return nd < 3 || md.dims[0] == 1 || md.blocking.strides[0] % 8 == 0;
}

// The epilogue parameters of the kernels (epilogue_args_t of gpu/gemm/hopper/wgmma_gemm.cu).
struct wgmma_epilogue_t {
    bool any = false; // scales or post-ops: the _epi kernels (or the split-K sum) apply them
    bool wei_per_n = false;
    int sum_at = 0; // 0 no sum, 1 before the eltwise, 2 after it
    float sum_scale = 1.f, sum_zp = 0.f;
    int elt = 0; // 0 none, 1 relu, 2 gelu_erf, 3 gelu_tanh, 4 swish
    float alpha = 0.f, beta = 0.f;
};

int wgmma_eltwise_code(dnnl_alg_kind_t alg) {
    switch (alg) {
        case dnnl_eltwise_relu: return 1;
        case dnnl_eltwise_gelu_erf: return 2;
        case dnnl_eltwise_gelu_tanh: return 3;
        case dnnl_eltwise_swish: return 4;
        default: return 0;
    }
}

// What the kernels apply of the attribute: f32 scales in device memory on src and dst
// (common) and weights (common or per N), at most one sum (no other type than dst's) and one
// eltwise of wgmma_eltwise_code's. The generic checks (masks, operands) were made before.
status_t init_epilogue(const primitive_attr_t &attr, const memory_desc_t &dst,
        wgmma_epilogue_t &e) {
    ANYDNN_REQUIRE(attr.zero_points.empty(), dnnl_unimplemented,
            "wgmma matmul takes no zero points");
    ANYDNN_CHECK(check_quant_attr(attr));
    const auto wei = attr.scales.find(DNNL_ARG_WEIGHTS);
    e.wei_per_n = wei != attr.scales.end() && wei->second.mask != 0;
    const std::vector<post_op_t> &ops = attr.post_ops.entries;
    for (size_t i = 0; i < ops.size(); ++i) {
        const post_op_t &op = ops[i];
        if (op.kind == dnnl_sum) {
            ANYDNN_REQUIRE(e.sum_at == 0, dnnl_unimplemented,
                    "wgmma matmul takes one sum post-op");
            ANYDNN_REQUIRE(op.sum_dt == dnnl_data_type_undef || op.sum_dt == dst.data_type,
                    dnnl_unimplemented, "wgmma matmul sums dst in dst's own type, not %s",
                    dnnl_dt2str(op.sum_dt));
            e.sum_at = e.elt ? 2 : 1;
            e.sum_scale = op.sum_scale;
            e.sum_zp = static_cast<float>(op.sum_zero_point);
        } else if (op.kind == dnnl_eltwise) {
            ANYDNN_REQUIRE(e.elt == 0, dnnl_unimplemented,
                    "wgmma matmul takes one eltwise post-op");
            e.elt = wgmma_eltwise_code(op.alg);
            ANYDNN_REQUIRE(e.elt != 0, dnnl_unimplemented,
                    "wgmma matmul eltwise post-op %s is not relu, gelu_erf, gelu_tanh or swish",
                    dnnl_alg_kind2str(op.alg));
            e.alpha = op.alpha;
            e.beta = op.beta;
        } else {
            ANYDNN_REQUIRE(false, dnnl_unimplemented,
                    "wgmma matmul takes sum and eltwise post-ops, not %s",
                    dnnl_prim_kind2str(op.kind));
        }
    }
    e.any = !attr.scales.empty() || !ops.empty();
    return dnnl_success;
}

struct wgmma_matmul_t;

struct wgmma_matmul_pd_t : public primitive_desc_impl_t<wgmma_matmul_pd_t, wgmma_matmul_t> {
    using base_t = primitive_desc_impl_t<wgmma_matmul_pd_t, wgmma_matmul_t>;
    using base_t::base_t;
    const char *name() const override { return "ocl:matmul:wgmma_sm90a"; }
    wgmma_layout_t layout;
    wgmma_epilogue_t epilogue;
    std::string kernel_name;
    int tile_n = 0, splits = 1;

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
        ANYDNN_CHECK(init_epilogue(pd.attr, dst, pd.epilogue));
        const dim_t M = dst.dims[nd - 2], N = dst.dims[nd - 1], K = src.dims[nd - 1];
        const dim_t B = nd == 3 ? dst.dims[0] : 1;
        ANYDNN_REQUIRE(M < (1 << 30) && N < (1 << 30) && K < (1 << 30) && B < 65536,
                dnnl_unimplemented, "wgmma matmul sizes exceed the kernel's index range");
        if (with_bias)
            for (int i = 0; i < nd - 1; ++i)
                ANYDNN_REQUIRE(bias.dims[i] == 1, dnnl_unimplemented,
                        "wgmma bias broadcasts over all but N");
        ANYDNN_REQUIRE(!with_bias || (bias.blocking.strides[nd - 1] == 1 && bias.offset0 == 0),
                dnnl_unimplemented, "wgmma bias is dense");

        wgmma_layout_t &l = pd.layout;
        bool a_col = false, b_col = false, c_col = false;
        ANYDNN_REQUIRE(operand_layout(src, a_col, l.lda) && operand_layout(wei, b_col, l.ldb)
                        && operand_layout(dst, c_col, l.ldc) && !c_col,
                dnnl_unimplemented,
                "wgmma matmul needs one unit stride in each matrix and a row-major dst");
        l.a_m_major = a_col;
        l.b_n_major = !b_col; // B's rows are K: row-major weights are N-major

        ANYDNN_REQUIRE(aligned8(src, l.lda) && aligned8(wei, l.ldb), dnnl_unimplemented,
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
        pd.kernel_name = std::string("anydnn_wgmma_") + (t == dnnl_bf16 ? "bf16_" : "f16_")
                + (l.a_m_major ? "m" : "k") + (l.b_n_major ? "n" : "k") + "_" + config
                + (pd.epilogue.any && pd.splits == 1 ? "_epi" : "");
        // The f32 split-K slices: the scratchpad, which a stream in order keeps for its
        // executions (stream_t::scratchpad), so one primitive runs on several streams at once.
        pd.scratchpad_size = pd.splits > 1 ? static_cast<size_t>(pd.splits * B * M * N * 4) : 0;
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
        ANYDNN_CHECK(create_ptx_kernel(pd_().engine, pd_().kernel_name.c_str(), kernel_));
        if (pd_().splits == 1) return dnnl_success;
        return create_ptx_kernel(pd_().engine, "anydnn_wgmma_splitk_reduce", reduce_);
    }

    // The epilogue's parameters, the last ones of both kernels.
    static void add_epilogue(kernel_args_t &args, const wgmma_epilogue_t &e) {
        args.add_value<int32_t>(e.wei_per_n ? 1 : 0);
        args.add_value<int32_t>(e.sum_at);
        args.add_value<float>(e.sum_scale);
        args.add_value<float>(e.sum_zp);
        args.add_value<int32_t>(e.elt);
        args.add_value<float>(e.alpha);
        args.add_value<float>(e.beta);
    }
    static void add_scales(kernel_args_t &args, const exec_ctx_t &ctx) {
        for (int arg : {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST})
            args.add(storage_of(ctx, DNNL_ARG_ATTR_SCALES | arg));
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const wgmma_matmul_pd_t &pd = pd_();
        const memory_desc_t &src = pd.arg_md(DNNL_ARG_SRC), &wei = pd.arg_md(DNNL_ARG_WEIGHTS),
                            &dst = pd.arg_md(DNNL_ARG_DST);
        const int nd = dst.ndims;
        const int64_t M = dst.dims[nd - 2], N = dst.dims[nd - 1], K = src.dims[nd - 1];
        const int64_t B = nd == 3 ? dst.dims[0] : 1;
        auto batch_stride = [nd](const memory_desc_t &md) -> int64_t {
            return nd == 3 && md.dims[0] != 1 ? md.blocking.strides[0] : 0;
        };
        const bool with_bias = pd.args.count(DNNL_ARG_BIAS) != 0;
        const dnnl_data_type_t bias_type
                = with_bias ? pd.arg_md(DNNL_ARG_BIAS).data_type : dnnl_data_type_undef;
        const wgmma_layout_t &l = pd.layout;
        const bool split = pd.splits > 1;
        const int64_t slice = B * M * N; // elements of one split-K slice of the f32 sums
        const memory_storage_t *slices = ctx.scratchpad_storage;
        ANYDNN_REQUIRE(!split || slices, dnnl_runtime_error, "wgmma: no scratchpad for split K");

        // Split along K, the GEMM writes f32 slices into the scratchpad; the sum writes C.
        kernel_args_t args;
        args.add(storage_of(ctx, DNNL_ARG_SRC));
        args.add(storage_of(ctx, DNNL_ARG_WEIGHTS));
        args.add(split ? slices : storage_of(ctx, DNNL_ARG_DST));
        args.add(with_bias && !split ? storage_of(ctx, DNNL_ARG_BIAS) : nullptr);
        if (split) {
            for (int i = 0; i < 3; ++i)
                args.add(nullptr);
        } else {
            add_scales(args, ctx);
        }
        args.add_value<int64_t>(src.offset0);
        args.add_value<int64_t>(wei.offset0);
        args.add_value<int64_t>(split ? 0 : dst.offset0);
        args.add_value<int64_t>(l.lda);
        args.add_value<int64_t>(l.ldb);
        args.add_value<int64_t>(split ? N : l.ldc);
        args.add_value<int64_t>(batch_stride(src));
        args.add_value<int64_t>(batch_stride(wei));
        args.add_value<int64_t>(split ? M * N : batch_stride(dst));
        args.add_value<int32_t>(static_cast<int32_t>(M));
        args.add_value<int32_t>(static_cast<int32_t>(N));
        args.add_value<int32_t>(static_cast<int32_t>(K));
        args.add_value<int32_t>(split || dst.data_type == dnnl_f32 ? 1 : 0);
        args.add_value<int32_t>(split || !with_bias ? 0 : bias_type == dnnl_f32 ? 1 : 2);
        args.add_value<int32_t>(pd.splits);
        args.add_value<int64_t>(slice);
        add_epilogue(args, split ? wgmma_epilogue_t() : pd.epilogue);

        nd_range_t range;
        range.ndims = 3;
        range.global[0] = static_cast<size_t>((N + pd.tile_n - 1) / pd.tile_n) * 256;
        range.global[1] = static_cast<size_t>((M + 127) / 128);
        range.global[2] = static_cast<size_t>(B * pd.splits);
        range.local[0] = 256;
        range.local[1] = 1;
        range.local[2] = 1;
        ANYDNN_CHECK(kernel_->launch(ctx.stream, args, range));
        if (!split) return dnnl_success;

        kernel_args_t sum;
        sum.add(slices);
        sum.add(storage_of(ctx, DNNL_ARG_DST));
        sum.add(with_bias ? storage_of(ctx, DNNL_ARG_BIAS) : nullptr);
        add_scales(sum, ctx);
        sum.add_value<int64_t>(dst.offset0);
        sum.add_value<int64_t>(l.ldc);
        sum.add_value<int64_t>(batch_stride(dst));
        sum.add_value<int64_t>(slice);
        sum.add_value<int32_t>(static_cast<int32_t>(M));
        sum.add_value<int32_t>(static_cast<int32_t>(N));
        sum.add_value<int32_t>(static_cast<int32_t>(B));
        sum.add_value<int32_t>(pd.splits);
        sum.add_value<int32_t>(dst.data_type == dnnl_f32 ? 0 : dst.data_type == dnnl_bf16 ? 1 : 2);
        sum.add_value<int32_t>(!with_bias ? 0
                        : bias_type == dnnl_f32     ? 1
                        : bias_type == dnnl_bf16    ? 2
                                                    : 3);
        add_epilogue(sum, pd.epilogue);
        nd_range_t flat;
        flat.global[0] = static_cast<size_t>((slice + 255) / 256 * 256);
        flat.local[0] = 256;
        return reduce_->launch(ctx.stream, sum, flat);
    }

private:
    std::shared_ptr<kernel_t> kernel_, reduce_; // the GEMM; the split-K sum
};

} // namespace

impl_entry_t matmul_wgmma_sm90a_entry() {
    return make_impl_entry<wgmma_matmul_pd_t>("ocl:matmul:wgmma_sm90a");
}

} // namespace gpu
} // namespace anydnn
