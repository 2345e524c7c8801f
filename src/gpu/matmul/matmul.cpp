// GPU matmul on the GEMM kernels (gpu/gemm): plain strided tensors (transposed operands
// included), up to four batch dimensions with broadcast, bias of any broadcast shape, scales
// (common; per-N on weights), zero points on int8 problems, post-ops (gpu/post_ops.hpp) in the
// output stage. f32/bf16/f16 storage computes in f32; s8/u8 accumulate in int. Weights
// decompression, 4-bit float src or weights and int8 with scales along K run on the generic
// kind's per-element kernel (gpu/gemm/gemm_woq.cl).
#include "core/data_types_narrow.hpp"
#include "core/ops/matmul/common.hpp"
#include "core/ops/matmul/woq.hpp"
#include "core/primitive.hpp"
#include "gpu/gemm/gemm.hpp"
#include "gpu/gemm/sgemm_launch.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"

namespace anydnn {
namespace gpu {

namespace {

template <gemm_kind_t Kind>
struct matmul_t;

template <gemm_kind_t Kind>
struct matmul_pd_t : public primitive_desc_impl_t<matmul_pd_t<Kind>, matmul_t<Kind>> {
    using base_t = primitive_desc_impl_t<matmul_pd_t<Kind>, matmul_t<Kind>>;
    using base_t::base_t;
    static const char *impl_name() {
        return Kind == gemm_kind_t::tiled ? "ocl:matmul:tiled" : "ocl:matmul:generic";
    }
    // The tensor-core form names itself: verbose says it ran.
    const char *name() const override {
        return variant == gemm_variant_t::mma_sync    ? "ocl:matmul:mma_sync"
               : variant == gemm_variant_t::sgemm_ptx ? "ocl:matmul:sgemm_ptx"
                                                      : impl_name();
    }
    post_ops_t post_ops;
    gemm_variant_t variant = gemm_variant_t::generic;
    bool k_dense_b = false; // the weights' K is dense (the tiled kernels: gemm_problem_t's)
    // Weights decompression (generic kernel only): where the weights' scales and zero points
    // vary; the rest of the attribute is checked as for any matmul.
    bool woq = false;
    // int8 with scales along K (src scales in src_scales); 4-bit float src or weights.
    bool int8_grouped = false, f4 = false;
    cpu::matmul::grouped_quant_t wei_scales, wei_zps, src_scales;
    bool per_element() const { return woq || int8_grouped || f4; }

    static status_t init(matmul_pd_t &pd) {
        const matmul_desc_t &d = std::get<matmul_desc_t>(pd.desc);
        memory_desc_t src, wei, bias, dst;
        ANYDNN_CHECK(cpu::matmul::resolve_matmul(
                d, src, wei, bias, dst, Kind == gemm_kind_t::generic));
        pd.woq = cpu::matmul::is_woq(src.data_type, wei.data_type);
        pd.int8_grouped = cpu::matmul::is_int8_grouped(pd.attr, src, wei);
        pd.f4 = is_f4(src.data_type) || is_f4(wei.data_type);
        ANYDNN_REQUIRE(!(pd.int8_grouped || pd.f4) || Kind == gemm_kind_t::generic,
                dnnl_unimplemented, "%s runs on the generic GEMM kernel",
                pd.f4 ? "a 4-bit float matmul" : "int8 with scales along K");
        if (is_f4(dst.data_type)) { // the kernel finds a byte's two elements from its index
            bool dense = !has_runtime_dims_or_strides(dst) && is_plain(dst);
            dim_t stride = 1;
            for (int d = dst.ndims - 1; d >= 0 && dense; --d) {
                dense = dst.dims[d] == 1 || dst.blocking.strides[d] == stride;
                stride *= dst.dims[d];
            }
            ANYDNN_REQUIRE(dense, dnnl_unimplemented,
                    "GPU kernels write a 4-bit float dst dense and row-major only");
        }
        const bool with_bias = !is_zero_md(bias);
        ANYDNN_REQUIRE(is_plain(src) && is_plain(wei) && is_plain(dst)
                        && (!with_bias || is_plain(bias)),
                dnnl_unimplemented, "GPU matmul takes plain strided layouts");
        ANYDNN_REQUIRE(src.ndims == dst.ndims && wei.ndims == dst.ndims
                        && dst.ndims <= 2 + gemm_max_batch,
                dnnl_unimplemented, "GPU matmul takes up to %d batch dimensions",
                gemm_max_batch);
        // Runtime dimensions or strides: the generic kernel takes the sizes at each launch;
        // the passed tensors are checked then.
        bool runtime = false;
        for (const memory_desc_t *md : {&src, &wei, &dst, &bias})
            runtime = runtime || has_runtime_dims_or_strides(*md);
        ANYDNN_REQUIRE(!runtime || Kind == gemm_kind_t::generic, dnnl_unimplemented,
                "runtime dimensions run on the generic GEMM kernel");
        // 4-bit src and weights are read by the kernel byte by byte (plain, checked above).
        const bool int4_wei = wei.data_type == dnnl_s4 || wei.data_type == dnnl_u4;
        ANYDNN_REQUIRE(!int4_wei || pd.woq || pd.int8_grouped, dnnl_unimplemented,
                "4-bit weights with int8 src run on the GPU only with scales along K");
        ANYDNN_REQUIRE(!is_f8(src.data_type) && !is_f8(wei.data_type), dnnl_unimplemented,
                "GPU kernels do not read 8-bit float src or weights");
        const bool nibble_wei = int4_wei || is_f4(wei.data_type);
        if (!runtime) {
            if (!is_f4(dst.data_type)) ANYDNN_CHECK(check_tensors({&dst}));
            if (!is_f4(src.data_type)) ANYDNN_CHECK(check_tensors({&src}));
            if (!nibble_wei) ANYDNN_CHECK(check_tensors({&wei}));
            if (with_bias) ANYDNN_CHECK(check_tensors({&bias}));
        } else {
            for (const memory_desc_t *md : {&src, &wei, &dst, &bias})
                ANYDNN_REQUIRE(is_zero_md(*md) || kernel_data_type(md->data_type)
                                || (md == &wei && nibble_wei)
                                || (md == &src && is_f4(src.data_type)),
                        dnnl_unimplemented, "GPU kernels do not handle data type %s",
                        dnnl_dt2str(md->data_type));
        }
        cpu::post_ops_chain_t chain;
        primitive_attr_t rest = pd.attr; // without the weights' decompression parameters
        if (pd.woq) {
            ANYDNN_CHECK(cpu::matmul::init_woq_attr(
                    pd.attr, wei, dst, pd.wei_scales, pd.wei_zps, chain, pd.args));
            for (const auto &q : {pd.attr.scales, pd.attr.zero_points}) {
                const auto it = q.find(DNNL_ARG_WEIGHTS);
                ANYDNN_REQUIRE(it == q.end() || !it->second.is_host_scalar, dnnl_unimplemented,
                        "GPU kernels take weights scales and zero points in device memory");
            }
            rest.scales.erase(DNNL_ARG_WEIGHTS);
            rest.zero_points.erase(DNNL_ARG_WEIGHTS);
        } else if (pd.int8_grouped) {
            ANYDNN_CHECK(cpu::matmul::init_int8_grouped_attr(pd.attr, src, wei, dst,
                    pd.src_scales, pd.wei_scales, pd.wei_zps, chain, pd.args));
            for (const auto &q : {pd.attr.scales, pd.attr.zero_points}) {
                const auto it = q.find(DNNL_ARG_WEIGHTS);
                ANYDNN_REQUIRE(it == q.end() || !it->second.is_host_scalar, dnnl_unimplemented,
                        "GPU kernels take weights scales and zero points in device memory");
            }
            const auto sz = pd.attr.zero_points.find(DNNL_ARG_SRC);
            ANYDNN_REQUIRE(sz == pd.attr.zero_points.end() || sz->second.mask == 0,
                    dnnl_unimplemented, "GPU matmul takes a common src zero point");
            rest.scales.erase(DNNL_ARG_SRC);
            rest.scales.erase(DNNL_ARG_WEIGHTS);
            rest.zero_points.erase(DNNL_ARG_WEIGHTS);
        } else {
            std::vector<int> zp_args = {DNNL_ARG_DST};
            if (cpu::matmul::is_int8(src))
                zp_args = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST};
            ANYDNN_CHECK(cpu::matmul::init_attr(
                    pd.attr, dst, 1 << (dst.ndims - 1), zp_args, chain, pd.args));
            const auto ws = pd.attr.scales.find(DNNL_ARG_WEIGHTS);
            if (pd.f4 && ws != pd.attr.scales.end()) { // read per element by the kernel
                ANYDNN_REQUIRE(!ws->second.is_host_scalar, dnnl_unimplemented,
                        "GPU kernels take weights scales in device memory");
                ANYDNN_CHECK(cpu::matmul::init_wei_quant(ws->second, wei, false, pd.wei_scales));
                rest.scales.erase(DNNL_ARG_WEIGHTS);
            }
        }
        ANYDNN_CHECK(check_quant_attr(rest, true, true));
        for (const auto &z : rest.zero_points)
            ANYDNN_REQUIRE(z.second.mask == 0, dnnl_unimplemented,
                    "GPU matmul takes common zero points (mask 0), not mask %d", z.second.mask);
        ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst, pd.args));
        if (Kind == gemm_kind_t::tiled) {
            gemm_problem_t problem;
            problem.a = src.data_type, problem.b = wei.data_type, problem.c = dst.data_type;
            problem.c_elems = nelems(dst);
            problem.m = dst.dims[dst.ndims - 2];
            problem.n = dst.dims[dst.ndims - 1];
            // B's layout is fixed here (no runtime strides on this kernel): the one-launch GEMV
            // row is for N-dense B, as the inner product's weights are not. (An N of 1 makes
            // A the streamed operand, C^T's rows: left as it was.)
            const int nd = wei.ndims;
            pd.k_dense_b = problem.n > 1
                    && skinny_k_dense(wei.blocking.strides[nd - 2],
                            wei.blocking.strides[nd - 1], problem.n);
            problem.k_dense_b = pd.k_dense_b;
            gemm_tuning_t tuning;
            const device_caps_t &caps = engine_caps(pd.engine);
            ANYDNN_CHECK(gemm_tuning(caps, problem, tuning));
            pd.variant = tuning.variant;
            if (pd.variant == gemm_variant_t::sgemm_ptx) {
                // A chain the PTX kernels do not fuse runs every launch on fma_8x8: named so.
                gemm_types_t t;
                t.a = src.data_type, t.b = wei.data_type, t.c = dst.data_type;
                t.set_scale_types(pd.attr);
                wgmma_epilogue_t e;
                std::string why;
                if (sgemm_build_refusal(t, &pd.post_ops, e, why))
                    pd.variant = gemm_variant_t::fma_8x8;
            }
            const int64_t mn = problem.m * problem.n;
            if (tuning.variant == gemm_variant_t::skinny && mn > 0) { // K slices' partial sums
                const bool trans = skinny_trans(
                        problem.m, problem.n, tuning.tm, src.data_type == wei.data_type);
                pd.scratchpad_size = skinny_scratchpad_bytes(tuning, int(caps.compute_units),
                        trans, problem.m, problem.n, src.dims[src.ndims - 1], nelems(dst) / mn);
            }
        }
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_WEIGHTS] = wei;
        pd.args[DNNL_ARG_DST] = dst;
        if (with_bias) pd.args[DNNL_ARG_BIAS] = bias;
        return dnnl_success;
    }
};

template <gemm_kind_t Kind>
struct matmul_t : public primitive_t {
    using primitive_t::primitive_t;

    const matmul_pd_t<Kind> &pd_() const { return static_cast<const matmul_pd_t<Kind> &>(pd()); }

    status_t init() override {
        const matmul_pd_t<Kind> &pd = pd_();
        gemm_types_t t;
        t.a = pd.arg_md(DNNL_ARG_SRC).data_type;
        t.b = pd.arg_md(DNNL_ARG_WEIGHTS).data_type;
        t.c = pd.arg_md(DNNL_ARG_DST).data_type;
        if (pd.args.count(DNNL_ARG_BIAS)) t.bias = pd.arg_md(DNNL_ARG_BIAS).data_type;
        t.set_scale_types(pd.attr);
        t.woq = pd.per_element();
        t.int8_grouped = pd.int8_grouped;
        if (pd.wei_zps.present) t.zp_b = pd.wei_zps.dt;
        ANYDNN_CHECK(pd.post_ops.upload(pd.engine, post_ops_buffer_));
        const memory_desc_t &dst = pd.arg_md(DNNL_ARG_DST);
        const bool known = !has_runtime_dims_or_strides(dst); // else sizes come at launch
        if (pd.k_dense_b) gemm_.expect_k_dense_b();
        return gemm_.init(pd.engine, t, Kind, known ? nelems(dst) : 0, &pd.post_ops,
                known ? dst.dims[dst.ndims - 2] : 0, known ? dst.dims[dst.ndims - 1] : 0);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const matmul_pd_t<Kind> &pd = pd_();
        // The passed descriptors: the primitive's, or with runtime dims the actual ones.
        const memory_desc_t &src = ctx.md(DNNL_ARG_SRC), &wei = ctx.md(DNNL_ARG_WEIGHTS),
                            &dst = ctx.md(DNNL_ARG_DST);
        const int nd = dst.ndims;
        const bool with_bias = pd.args.count(DNNL_ARG_BIAS) != 0;
        const memory_desc_t *bias = with_bias ? &ctx.md(DNNL_ARG_BIAS) : nullptr;
        if (has_runtime_dims_or_strides(pd.arg_md(DNNL_ARG_DST))
                || has_runtime_dims_or_strides(pd.arg_md(DNNL_ARG_SRC))
                || has_runtime_dims_or_strides(pd.arg_md(DNNL_ARG_WEIGHTS))) {
            ANYDNN_REQUIRE(src.dims[nd - 1] == wei.dims[nd - 2]
                            && src.dims[nd - 2] == dst.dims[nd - 2]
                            && wei.dims[nd - 1] == dst.dims[nd - 1],
                    dnnl_invalid_arguments, "src, weights and dst sizes do not agree");
            for (int d = 0; d < nd - 2; ++d)
                ANYDNN_REQUIRE((src.dims[d] == 1 || src.dims[d] == dst.dims[d])
                                && (wei.dims[d] == 1 || wei.dims[d] == dst.dims[d]),
                        dnnl_invalid_arguments, "batch dimension %d does not broadcast", d);
            ANYDNN_REQUIRE(is_plain(src) && is_plain(wei) && is_plain(dst)
                            && (!bias || is_plain(*bias)),
                    dnnl_invalid_arguments, "runtime tensors must have plain strided layouts");
            if (wei.data_type != dnnl_s4 && wei.data_type != dnnl_u4)
                ANYDNN_CHECK(check_tensors({&wei}));
            ANYDNN_CHECK(check_tensors({&src, &dst}));
            if (bias) ANYDNN_CHECK(check_tensors({bias}));
        }
        const dim_t *ss = src.blocking.strides, *ws = wei.blocking.strides,
                    *ds = dst.blocking.strides;
        gemm_params_t p;
        p.M = dst.dims[nd - 2];
        p.N = dst.dims[nd - 1];
        p.K = src.dims[nd - 1];
        p.a_off = src.offset0, p.a_sm = ss[nd - 2], p.a_sk = ss[nd - 1];
        p.b_off = wei.offset0, p.b_sk = ws[nd - 2], p.b_sn = ws[nd - 1];
        p.c_off = dst.offset0, p.c_sm = ds[nd - 2], p.c_sn = ds[nd - 1];
        // A size-1 dimension of an operand broadcasts: stride 0.
        auto bstride = [](const memory_desc_t &md, int d) {
            return md.dims[d] == 1 ? 0 : md.blocking.strides[d];
        };
        if (bias) {
            p.has_bias = 1;
            p.bias_off = bias->offset0;
            p.bias_sm = bstride(*bias, nd - 2);
            p.bias_sn = bstride(*bias, nd - 1);
        }
        // Post-ops walk dst's logical dims row-major.
        p.set_post_op_dims(dst);
        p.po_ls_n = 1;
        p.po_ls_m = p.N;
        dim_t ls = p.M * p.N;
        for (int d = nd - 3; d >= 0; --d) {
            p.po_ls_b[gemm_max_batch - (nd - 2) + d] = ls;
            ls *= dst.dims[d];
        }
        for (int d = 0; d < nd - 2; ++d) {
            const int slot = gemm_max_batch - (nd - 2) + d;
            p.batch_dims[slot] = dst.dims[d];
            p.a_sb[slot] = bstride(src, d);
            p.b_sb[slot] = bstride(wei, d);
            p.c_sb[slot] = ds[d];
            if (bias) p.bias_sb[slot] = bstride(*bias, d);
        }
        const auto ws_scale = pd.attr.scales.find(DNNL_ARG_WEIGHTS);
        p.scale_b_sn = ws_scale != pd.attr.scales.end() && ws_scale->second.mask != 0;
        gemm_woq_params_t wq;
        if (pd.per_element()) {
            auto fill = [&](const cpu::matmul::grouped_quant_t &q, int64_t *sb, int64_t &sk,
                                int64_t &sn, int64_t &gk, int64_t &gn) {
                if (!q.present) return;
                for (int d = 0; d < nd - 2; ++d)
                    sb[gemm_max_batch - (nd - 2) + d] = wei.dims[d] == 1 ? 0 : q.stride[d];
                sk = q.stride[nd - 2], sn = q.stride[nd - 1];
                gk = q.group[nd - 2], gn = q.group[nd - 1];
            };
            fill(pd.wei_scales, wq.s_sb, wq.s_sk, wq.s_sn, wq.s_gk, wq.s_gn);
            fill(pd.wei_zps, wq.z_sb, wq.z_sk, wq.z_sn, wq.z_gk, wq.z_gn);
            const cpu::matmul::grouped_quant_t &sa = pd.src_scales;
            if (sa.present) { // along src's own dims (M and K)
                for (int d = 0; d < nd - 2; ++d)
                    wq.a_sb[gemm_max_batch - (nd - 2) + d] = src.dims[d] == 1 ? 0 : sa.stride[d];
                wq.a_sm = sa.stride[nd - 2], wq.a_sk = sa.stride[nd - 1];
                wq.a_gk = sa.group[nd - 1];
            }
        }
        gemm_operands_t ops;
        if (pd.per_element()) ops.woq = &wq;
        ops.a = storage_of(ctx, DNNL_ARG_SRC);
        ops.b = storage_of(ctx, DNNL_ARG_WEIGHTS);
        ops.c = storage_of(ctx, DNNL_ARG_DST);
        ops.bias = with_bias ? storage_of(ctx, DNNL_ARG_BIAS) : nullptr;
        bind_quant(ctx, pd.attr, ops);
        // Host-scalar scales go to the kernel by value.
        const memory_storage_t **scale_ops[] = {&ops.scale_a, &ops.scale_b, &ops.scale_c};
        const int scale_args[] = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST};
        for (int i = 0; i < 3; ++i) {
            const auto it = pd.attr.scales.find(scale_args[i]);
            if (it == pd.attr.scales.end() || !it->second.is_host_scalar) continue;
            const memory_t *m = ctx.arg(DNNL_ARG_ATTR_SCALES | scale_args[i]);
            ANYDNN_REQUIRE(m && m->md().format_kind == dnnl_format_kind_host_scalar,
                    dnnl_invalid_arguments, "host-scalar scale of argument %d is missing",
                    scale_args[i]);
            p.host_scale[i] = load_as_f32(m->md().data_type, m->scalar_value, 0);
            *scale_ops[i] = nullptr;
        }
        ops.post_ops = &pd.post_ops;
        ops.post_ops_buffer = post_ops_buffer_.get();
        ops.ctx = &ctx;
        ops.scratchpad = ctx.scratchpad_storage;
        ops.scratchpad_bytes = pd.scratchpad_size;
        return gemm_.launch(ctx.stream, ops, p);
    }

private:
    gemm_kernel_t gemm_;
    std::unique_ptr<memory_storage_t> post_ops_buffer_; // the chain's parameters
};

} // namespace

impl_entry_t matmul_tiled_entry() {
    using pd_t = matmul_pd_t<gemm_kind_t::tiled>;
    return make_impl_entry<pd_t>(pd_t::impl_name());
}
impl_entry_t matmul_generic_entry() {
    using pd_t = matmul_pd_t<gemm_kind_t::generic>;
    return make_impl_entry<pd_t>(pd_t::impl_name());
}

} // namespace gpu
} // namespace anydnn
