// GPU inner product as GEMMs on gpu/gemm: src (2D-5D) flattened to [MB, K] rows, weights to
// [OC, K] rows in the same order of their inner dimensions (plain layouts); operands in other
// layouts (blocked, or flattening in another order) are copied through the scratchpad.
// forward: dst = src * wei^T (+ bias, scales; int8 accumulates in int);
// backward data: diff_src = diff_dst * wei; backward weights: diff_wei = diff_dst^T * src and
// diff_bias = column sums of diff_dst. Forward post-ops run in the GEMM's output stage.
#include <algorithm>
#include <vector>

#include "core/ops/inner_product/layouts.hpp"
#include "core/ops/layout.hpp"
#include "core/ops/matmul/common.hpp"
#include "core/primitive.hpp"
#include "core/verbose.hpp"
#include "gpu/gemm/gemm.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/reorder/reorder.hpp"

namespace anydnn {
namespace gpu {

namespace {

bool is_float(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

using cpu::ip::plain_any;

// An operand the GEMM reads or writes in another layout than the user's (see
// ip::resolve_layouts): a copy in the scratchpad, made by a GPU reorder before the GEMM for
// inputs and copied back after it for outputs.
struct staged_t {
    int arg = 0;
    bool input = true;
    std::shared_ptr<const reorder::reorder_pd_t> copy;
};

// Where `user` differs from `comp`, places comp in the scratchpad (its offset0) and adds the
// reorder that fills it or empties it.
status_t stage(primitive_desc_t &pd, std::vector<staged_t> &staged, int arg, bool input,
        const memory_desc_t &user, memory_desc_t &comp) {
    if (md_equal(user, comp)) return dnnl_success;
    const size_t at = (pd.scratchpad_size + 63) / 64 * 64; // a multiple of every type's size
    comp.offset0 = static_cast<dim_t>(at / data_type_size(comp.data_type));
    pd.scratchpad_size = at + size_in_bytes(comp);
    reorder_desc_t rd {input ? user : comp, input ? comp : user, dnnl_gpu, dnnl_gpu};
    auto copy = std::make_shared<reorder::reorder_pd_t>(rd, primitive_attr_t(), pd.engine);
    ANYDNN_CHECK(reorder::reorder_pd_t::init_tensors(*copy, rd.src_md, rd.dst_md, false));
    staged.push_back({arg, input, std::move(copy)});
    return dnnl_success;
}

dim_t k_of(const memory_desc_t &md) {
    dim_t k = 1;
    for (int d = 1; d < md.ndims; ++d)
        k *= md.dims[d];
    return k;
}

enum class ip_prop_t { fwd, bwd_data, bwd_weights };

template <gemm_kind_t Kind>
struct ip_t;

template <gemm_kind_t Kind>
struct ip_pd_t : public primitive_desc_impl_t<ip_pd_t<Kind>, ip_t<Kind>> {
    using base_t = primitive_desc_impl_t<ip_pd_t<Kind>, ip_t<Kind>>;
    using base_t::base_t;
    static const char *impl_name() {
        return Kind == gemm_kind_t::tiled ? "ocl:inner_product:tiled"
                                          : "ocl:inner_product:generic";
    }
    const char *name() const override { return impl_name(); }
    ip_prop_t prop = ip_prop_t::fwd;
    post_ops_t post_ops;
    // Forward with few rows (mb <= 16) on the skinny GEMM: where its K slices' partial sums
    // lie in the scratchpad (bytes; 0 long: K not split).
    size_t skinny_off = 0, skinny_bytes = 0;
    // The wgmma kernels' room at the scratchpad's start (bytes; 0: none): K slices (f32)
    // where the table splits the product, the TMA kernels' tensor maps where it takes them.
    size_t wgmma_bytes = 0;
    memory_desc_t data_c, wei_c; // the layouts the GEMM runs on (src or diff_src, weights)
    std::vector<staged_t> staged;

    // Books the wgmma kernels' room (gemm_wgmma_scratchpad_bytes) for an m x n x k product
    // of A and B types a, b at the scratchpad's start (before any staged operand).
    static void book_wgmma(ip_pd_t &pd, dnnl_data_type_t a, dnnl_data_type_t b, int64_t m,
            int64_t n, int64_t k) {
        if (Kind != gemm_kind_t::tiled) return;
        gemm_types_t t;
        t.a = a, t.b = b, t.c = dnnl_f32;
        gemm_wgmma_offer_t offer;
        offer.epilogue = true; // may be refused at creation: then the room is unused
        offer.tf32 = wgmma_fpmath_allows_tf32(pd.attr.fpmath_mode);
        pd.wgmma_bytes = gemm_wgmma_scratchpad_bytes(engine_caps(pd.engine), t, offer, m, n, k);
        pd.scratchpad_size = (pd.wgmma_bytes + 63) / 64 * 64;
    }

    static status_t init(ip_pd_t &pd) {
        const auto &d = std::get<inner_product_desc_t>(pd.desc);
        // Forward asks the table with its rows (init_fwd), the others without.
        if (d.prop_kind == dnnl_forward_training || d.prop_kind == dnnl_forward_inference)
            return init_fwd(pd, d);
        if (Kind == gemm_kind_t::tiled)
            ANYDNN_REQUIRE(gemm_tiled_supported(pd.engine), dnnl_unimplemented,
                    "the device cannot run the tiled GEMM");
        ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::fpmath | attr_skip::scratchpad),
                dnnl_unimplemented, "backward inner product takes no attributes");
        if (d.prop_kind == dnnl_backward_data) return init_bwd_data(pd, d);
        ANYDNN_REQUIRE(d.prop_kind == dnnl_backward_weights, dnnl_unimplemented,
                "prop kind %d is not supported", static_cast<int>(d.prop_kind));
        return init_bwd_weights(pd, d);
    }

    static status_t init_fwd(ip_pd_t &pd, const inner_product_desc_t &d) {
        memory_desc_t src = d.src_md, wei = d.weights_md, bias = d.bias_md, dst = d.dst_md;
        const dnnl_data_type_t sdt = src.data_type, wdt = wei.data_type, ddt = dst.data_type;
        if (sdt == dnnl_u8 || sdt == dnnl_s8)
            ANYDNN_REQUIRE(wdt == dnnl_s8
                            && (is_float(ddt) || ddt == dnnl_s32 || ddt == dnnl_s8
                                    || ddt == dnnl_u8),
                    dnnl_unimplemented, "int8 needs s8 weights and an f32/bf16/s32/s8/u8 dst");
        else
            ANYDNN_REQUIRE(is_float(sdt) && is_float(wdt) && is_float(ddt), dnnl_unimplemented,
                    "data types %s/%s/%s are not supported", dnnl_dt2str(sdt),
                    dnnl_dt2str(wdt), dnnl_dt2str(ddt));
        ANYDNN_CHECK(cpu::ip::resolve_layouts(src, wei, pd.data_c, pd.wei_c));
        ANYDNN_CHECK(plain_any(dst));
        ANYDNN_REQUIRE(is_plain(dst), dnnl_unimplemented, "dst layout is blocked");
        const bool with_bias = !is_zero_md(bias);
        if (with_bias) {
            ANYDNN_CHECK(plain_any(bias));
            ANYDNN_REQUIRE(is_float(bias.data_type) || bias.data_type == dnnl_s32,
                    dnnl_unimplemented, "bias type %s", dnnl_dt2str(bias.data_type));
            ANYDNN_CHECK(check_tensors({&bias}));
        }
        ANYDNN_CHECK(check_tensors({&src, &wei, &dst}));
        book_wgmma(pd, sdt, wdt, dst.dims[0], dst.dims[1], k_of(src));
        ANYDNN_CHECK(stage(pd, pd.staged, DNNL_ARG_SRC, true, src, pd.data_c));
        ANYDNN_CHECK(stage(pd, pd.staged, DNNL_ARG_WEIGHTS, true, wei, pd.wei_c));
        cpu::post_ops_chain_t chain;
        ANYDNN_CHECK(cpu::matmul::init_attr(pd.attr, dst, 1 << 0, {}, chain, pd.args));
        ANYDNN_CHECK(check_quant_attr(pd.attr, true));
        ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst, pd.args));
        if (Kind == gemm_kind_t::tiled) {
            gemm_problem_t problem;
            problem.a = src.data_type, problem.b = wei.data_type;
            problem.c_elems = nelems(dst), problem.m = dst.dims[0];
            problem.k_dense_b = true; // the weights, K-major (as the GEMM below is told)
            gemm_tuning_t t;
            const device_caps_t &caps = engine_caps(pd.engine);
            ANYDNN_REQUIRE(gemm_tuning(caps, problem, t) == dnnl_success, dnnl_unimplemented,
                    "the device cannot run the tiled GEMM: %s", last_failure_reason().c_str());
            if (t.variant == gemm_variant_t::skinny) {
                pd.skinny_off = (pd.scratchpad_size + 63) / 64 * 64;
                pd.skinny_bytes = skinny_scratchpad_bytes(t, int(caps.compute_units), false,
                        dst.dims[0], dst.dims[1], k_of(src), 1);
                if (pd.skinny_bytes) pd.scratchpad_size = pd.skinny_off + pd.skinny_bytes;
            }
        }
        pd.prop = ip_prop_t::fwd;
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_WEIGHTS] = wei;
        if (with_bias) pd.args[DNNL_ARG_BIAS] = bias;
        pd.args[DNNL_ARG_DST] = dst;
        return dnnl_success;
    }

    static status_t init_bwd_data(ip_pd_t &pd, const inner_product_desc_t &d) {
        memory_desc_t ds = d.diff_src_md, wei = d.weights_md, dd = d.diff_dst_md;
        ANYDNN_REQUIRE(is_float(ds.data_type) && is_float(wei.data_type)
                        && is_float(dd.data_type),
                dnnl_unimplemented, "backward data takes f32/bf16/f16 tensors");
        ANYDNN_CHECK(cpu::ip::resolve_layouts(ds, wei, pd.data_c, pd.wei_c));
        ANYDNN_CHECK(plain_any(dd));
        ANYDNN_REQUIRE(is_plain(dd), dnnl_unimplemented, "diff_dst layout is blocked");
        ANYDNN_CHECK(check_tensors({&ds, &wei, &dd}));
        book_wgmma(pd, dd.data_type, wei.data_type, ds.dims[0], k_of(ds), wei.dims[0]);
        ANYDNN_CHECK(stage(pd, pd.staged, DNNL_ARG_WEIGHTS, true, wei, pd.wei_c));
        ANYDNN_CHECK(stage(pd, pd.staged, DNNL_ARG_DIFF_SRC, false, ds, pd.data_c));
        pd.prop = ip_prop_t::bwd_data;
        pd.args[DNNL_ARG_DIFF_SRC] = ds;
        pd.args[DNNL_ARG_WEIGHTS] = wei;
        pd.args[DNNL_ARG_DIFF_DST] = dd;
        return dnnl_success;
    }

    static status_t init_bwd_weights(ip_pd_t &pd, const inner_product_desc_t &d) {
        memory_desc_t src = d.src_md, dw = d.diff_weights_md, db = d.diff_bias_md,
                      dd = d.diff_dst_md;
        ANYDNN_REQUIRE(is_float(src.data_type) && is_float(dw.data_type)
                        && is_float(dd.data_type),
                dnnl_unimplemented, "backward weights takes f32/bf16/f16 tensors");
        ANYDNN_CHECK(cpu::ip::resolve_layouts(src, dw, pd.data_c, pd.wei_c));
        ANYDNN_CHECK(plain_any(dd));
        ANYDNN_REQUIRE(is_plain(dd), dnnl_unimplemented, "diff_dst layout is blocked");
        ANYDNN_CHECK(check_tensors({&src, &dw, &dd}));
        book_wgmma(pd, dd.data_type, src.data_type, dw.dims[0], k_of(dw), src.dims[0]);
        ANYDNN_CHECK(stage(pd, pd.staged, DNNL_ARG_SRC, true, src, pd.data_c));
        ANYDNN_CHECK(stage(pd, pd.staged, DNNL_ARG_DIFF_WEIGHTS, false, dw, pd.wei_c));
        if (!is_zero_md(db)) {
            ANYDNN_CHECK(plain_any(db));
            ANYDNN_REQUIRE(is_float(db.data_type), dnnl_unimplemented,
                    "diff bias takes f32/bf16/f16");
            ANYDNN_CHECK(check_tensors({&db}));
            pd.args[DNNL_ARG_DIFF_BIAS] = db;
        }
        pd.prop = ip_prop_t::bwd_weights;
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_DIFF_WEIGHTS] = dw;
        pd.args[DNNL_ARG_DIFF_DST] = dd;
        return dnnl_success;
    }
};

template <gemm_kind_t Kind>
struct ip_t : public primitive_t {
    using primitive_t::primitive_t;
    const ip_pd_t<Kind> &pd_() const { return static_cast<const ip_pd_t<Kind> &>(pd()); }

    status_t init() override {
        const ip_pd_t<Kind> &pd = pd_();
        gemm_types_t t;
        switch (pd.prop) {
            case ip_prop_t::fwd:
                t = {pd.arg_md(DNNL_ARG_SRC).data_type, pd.arg_md(DNNL_ARG_WEIGHTS).data_type,
                        pd.arg_md(DNNL_ARG_DST).data_type, dnnl_f32};
                if (pd.args.count(DNNL_ARG_BIAS)) t.bias = pd.arg_md(DNNL_ARG_BIAS).data_type;
                t.set_scale_types(pd.attr);
                break;
            case ip_prop_t::bwd_data:
                t = {pd.arg_md(DNNL_ARG_DIFF_DST).data_type,
                        pd.arg_md(DNNL_ARG_WEIGHTS).data_type,
                        pd.arg_md(DNNL_ARG_DIFF_SRC).data_type, dnnl_f32};
                break;
            case ip_prop_t::bwd_weights:
                t = {pd.arg_md(DNNL_ARG_DIFF_DST).data_type, pd.arg_md(DNNL_ARG_SRC).data_type,
                        pd.arg_md(DNNL_ARG_DIFF_WEIGHTS).data_type, dnnl_f32};
                if (pd.args.count(DNNL_ARG_DIFF_BIAS))
                    ANYDNN_CHECK(bias_sums_.init(pd.engine, t.a,
                            pd.arg_md(DNNL_ARG_DIFF_BIAS).data_type));
                break;
        }
        const int out = pd.prop == ip_prop_t::fwd ? DNNL_ARG_DST
                : pd.prop == ip_prop_t::bwd_data       ? DNNL_ARG_DIFF_SRC
                                                       : DNNL_ARG_DIFF_WEIGHTS;
        for (const staged_t &st : pd.staged) {
            std::shared_ptr<primitive_t> p;
            ANYDNN_CHECK(st.copy->create_primitive(p));
            copies_.push_back(std::static_pointer_cast<reorder::reorder_t>(p));
        }
        ANYDNN_CHECK(pd.post_ops.upload(pd.engine, post_ops_buffer_));
        // Forward knows its rows (mb): few of them take the skinny kernel.
        const int64_t m = pd.prop == ip_prop_t::fwd ? pd.arg_md(DNNL_ARG_DST).dims[0] : 0;
        // int8 and (fpmath allowing) TF32 products on the wgmma kernels, through their
        // epilogue, where the GEMM's strides suit them (forward: src and weights K-major).
        gemm_.allow_wgmma_epilogue(pd.attr, pd.arg_md(out));
        if (pd.wgmma_bytes) gemm_.allow_wgmma_scratchpad();
        if (pd.prop == ip_prop_t::fwd) gemm_.expect_k_dense_b();
        return gemm_.init(pd.engine, t, Kind, nelems(pd.arg_md(out)), &pd.post_ops, m);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        ANYDNN_CHECK(run_copies(ctx, true));
        ANYDNN_CHECK(run_gemms(ctx));
        return run_copies(ctx, false);
    }

private:
    // The staged operands' copies into (inputs) or out of (outputs) the scratchpad.
    status_t run_copies(const exec_ctx_t &ctx, bool inputs) const {
        const auto &staged = pd_().staged;
        for (size_t i = 0; i < staged.size(); ++i) {
            if (staged[i].input != inputs) continue;
            const memory_storage_t *user = storage_of(ctx, staged[i].arg);
            ANYDNN_CHECK(copies_[i]->run(ctx, ctx.stream,
                    inputs ? user : ctx.scratchpad_storage,
                    inputs ? ctx.scratchpad_storage : user));
        }
        return dnnl_success;
    }
    bool is_staged(int arg) const {
        for (const staged_t &st : pd_().staged)
            if (st.arg == arg) return true;
        return false;
    }
    // Where the GEMM finds operand `arg`: its copy in the scratchpad, or the user's memory.
    const memory_storage_t *operand(const exec_ctx_t &ctx, int arg) const {
        return is_staged(arg) ? ctx.scratchpad_storage : storage_of(ctx, arg);
    }

    // The wgmma kernels' room at the scratchpad's start, where booked.
    void wgmma_room(const exec_ctx_t &ctx, gemm_operands_t &ops) const {
        if (!pd_().wgmma_bytes) return;
        ops.scratchpad = ctx.scratchpad_storage;
        ops.scratchpad_off = 0, ops.scratchpad_bytes = pd_().wgmma_bytes;
    }

    status_t run_gemms(const exec_ctx_t &ctx) const {
        const ip_pd_t<Kind> &pd = pd_();
        gemm_params_t p;
        gemm_operands_t ops;
        if (pd.prop == ip_prop_t::fwd) {
            const memory_desc_t &src = pd.data_c, &wei = pd.wei_c, &dst = pd.arg_md(DNNL_ARG_DST);
            p.M = dst.dims[0], p.N = dst.dims[1], p.K = k_of(src);
            p.a_off = src.offset0, p.a_sm = src.blocking.strides[0], p.a_sk = 1;
            p.b_off = wei.offset0, p.b_sk = 1, p.b_sn = wei.blocking.strides[0];
            p.c_off = dst.offset0, p.c_sm = dst.blocking.strides[0];
            p.c_sn = dst.blocking.strides[1];
            if (pd.args.count(DNNL_ARG_BIAS)) {
                const memory_desc_t &bias = pd.arg_md(DNNL_ARG_BIAS);
                p.has_bias = 1;
                p.bias_off = bias.offset0;
                p.bias_sn = bias.blocking.strides[bias.ndims - 1];
                ops.bias = storage_of(ctx, DNNL_ARG_BIAS);
            }
            const auto ws = pd.attr.scales.find(DNNL_ARG_WEIGHTS);
            p.scale_b_sn = ws != pd.attr.scales.end() && ws->second.mask != 0;
            ops.a = operand(ctx, DNNL_ARG_SRC);
            ops.b = operand(ctx, DNNL_ARG_WEIGHTS);
            ops.c = storage_of(ctx, DNNL_ARG_DST);
            bind_quant(ctx, pd.attr, ops);
            p.set_post_op_dims(dst);
            p.po_ls_m = p.N, p.po_ls_n = 1;
            ops.post_ops = &pd.post_ops;
            ops.post_ops_buffer = post_ops_buffer_.get();
            ops.ctx = &ctx;
            if (pd.skinny_bytes) {
                ops.scratchpad = ctx.scratchpad_storage;
                ops.scratchpad_off = pd.skinny_off, ops.scratchpad_bytes = pd.skinny_bytes;
            } else {
                wgmma_room(ctx, ops);
            }
            return gemm_.launch(ctx.stream, ops, p);
        }
        const memory_desc_t &dd = pd.arg_md(DNNL_ARG_DIFF_DST);
        const dim_t dd_smb = dd.blocking.strides[0], dd_soc = dd.blocking.strides[1];
        if (pd.prop == ip_prop_t::bwd_data) {
            const memory_desc_t &ds = pd.data_c, &wei = pd.wei_c;
            p.M = ds.dims[0], p.N = k_of(ds), p.K = wei.dims[0];
            p.a_off = dd.offset0, p.a_sm = dd_smb, p.a_sk = dd_soc;
            p.b_off = wei.offset0, p.b_sk = wei.blocking.strides[0], p.b_sn = 1;
            p.c_off = ds.offset0, p.c_sm = ds.blocking.strides[0], p.c_sn = 1;
            ops.a = storage_of(ctx, DNNL_ARG_DIFF_DST);
            ops.b = operand(ctx, DNNL_ARG_WEIGHTS);
            ops.c = operand(ctx, DNNL_ARG_DIFF_SRC);
            wgmma_room(ctx, ops);
            return gemm_.launch(ctx.stream, ops, p);
        }
        const memory_desc_t &src = pd.data_c, &dw = pd.wei_c;
        p.M = dw.dims[0], p.N = k_of(dw), p.K = src.dims[0];
        p.a_off = dd.offset0, p.a_sm = dd_soc, p.a_sk = dd_smb;
        p.b_off = src.offset0, p.b_sk = src.blocking.strides[0], p.b_sn = 1;
        p.c_off = dw.offset0, p.c_sm = dw.blocking.strides[0], p.c_sn = 1;
        ops.a = storage_of(ctx, DNNL_ARG_DIFF_DST);
        ops.b = operand(ctx, DNNL_ARG_SRC);
        ops.c = operand(ctx, DNNL_ARG_DIFF_WEIGHTS);
        wgmma_room(ctx, ops);
        ANYDNN_CHECK(gemm_.launch(ctx.stream, ops, p));
        if (!pd.args.count(DNNL_ARG_DIFF_BIAS)) return dnnl_success;
        const memory_desc_t &db = pd.arg_md(DNNL_ARG_DIFF_BIAS);
        gemm_params_t s;
        s.M = dd.dims[0], s.N = dd.dims[1];
        s.a_off = dd.offset0, s.a_sm = dd_smb, s.a_sk = dd_soc;
        s.c_off = db.offset0, s.c_sn = db.blocking.strides[db.ndims - 1];
        return bias_sums_.launch(
                ctx.stream, storage_of(ctx, DNNL_ARG_DIFF_DST), storage_of(ctx, DNNL_ARG_DIFF_BIAS), s);
    }

    gemm_kernel_t gemm_;
    std::vector<std::shared_ptr<reorder::reorder_t>> copies_; // one per staged operand
    column_sums_kernel_t bias_sums_;
    std::unique_ptr<memory_storage_t> post_ops_buffer_; // the forward chain's parameters
};

} // namespace

impl_entry_t inner_product_tiled_entry() {
    using pd_t = ip_pd_t<gemm_kind_t::tiled>;
    return make_impl_entry<pd_t>(pd_t::impl_name());
}
impl_entry_t inner_product_generic_entry() {
    using pd_t = ip_pd_t<gemm_kind_t::generic>;
    return make_impl_entry<pd_t>(pd_t::impl_name());
}

} // namespace gpu
} // namespace anydnn
