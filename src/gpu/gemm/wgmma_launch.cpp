#include "gpu/gemm/wgmma_launch.hpp"

#include <algorithm>
#include <vector>

#include "gpu/launch.hpp"
#include "gpu/quant_attr.hpp"

namespace anydnn {
namespace gpu {

namespace {

int eltwise_code(dnnl_alg_kind_t alg) {
    switch (alg) {
    case dnnl_eltwise_relu: return 1;
    case dnnl_eltwise_gelu_erf: return 2;
    case dnnl_eltwise_gelu_tanh: return 3;
    case dnnl_eltwise_swish: return 4;
    default: return 0;
    }
}

void add_scales(kernel_args_t &args, const wgmma_buffers_t &buf) {
    args.add(buf.scale_src);
    args.add(buf.scale_wei);
    args.add(buf.scale_dst);
}

} // namespace

int wgmma_c_kind(dnnl_data_type_t t) {
    switch (t) {
    case dnnl_f32: return 0;
    case dnnl_bf16: return 1;
    case dnnl_f16: return 2;
    case dnnl_s32: return 3;
    case dnnl_s8: return 4;
    case dnnl_u8: return 5;
    default: return -1;
    }
}

int wgmma_bias_kind(dnnl_data_type_t t) {
    switch (t) {
    case dnnl_data_type_undef: return 0;
    case dnnl_f32: return 1;
    case dnnl_bf16: return 2;
    case dnnl_f16: return 3;
    case dnnl_s32: return 4;
    default: return -1;
    }
}

const char *wgmma_kind_name(dnnl_data_type_t a, dnnl_data_type_t b) {
    if (a == dnnl_bf16 && b == dnnl_bf16) return "bf16";
    if (a == dnnl_f16 && b == dnnl_f16) return "f16";
    if (a == dnnl_f32 && b == dnnl_f32) return "tf32";
    if (a == dnnl_s8 && b == dnnl_s8) return "s8s8";
    if (a == dnnl_s8 && b == dnnl_u8) return "s8u8";
    if (a == dnnl_u8 && b == dnnl_s8) return "u8s8";
    if (a == dnnl_u8 && b == dnnl_u8) return "u8u8";
    return nullptr;
}

bool wgmma_kmajor_only(dnnl_data_type_t a) {
    return a != dnnl_bf16 && a != dnnl_f16;
}

int wgmma_elem_bytes(dnnl_data_type_t a) {
    return a == dnnl_f32 ? 4 : a == dnnl_s8 || a == dnnl_u8 ? 1 : 2;
}

bool wgmma_fpmath_allows_tf32(dnnl_fpmath_mode_t mode) {
    return mode == dnnl_fpmath_mode_tf32 || mode == dnnl_fpmath_mode_bf16
            || mode == dnnl_fpmath_mode_f16 || mode == dnnl_fpmath_mode_any;
}

void add_wgmma_epilogue(kernel_args_t &args, const wgmma_epilogue_t &e) {
    args.add_value<int32_t>(e.wei_per_n ? 1 : 0);
    args.add_value<int32_t>(e.sum_at);
    args.add_value<float>(e.sum_scale);
    args.add_value<float>(e.sum_zp);
    args.add_value<int32_t>(e.elt);
    args.add_value<float>(e.alpha);
    args.add_value<float>(e.beta);
}

const char *wgmma_layout(int64_t a_sm, int64_t a_sk, int64_t b_sk, int64_t b_sn, int64_t c_sm,
        int64_t c_sn, wgmma_layout_t &l) {
    // A unit stride along K is preferred where both are (a single row or column).
    if (a_sk != 1 && a_sm != 1) return "A has no unit stride";
    if (b_sn != 1 && b_sk != 1) return "B has no unit stride";
    if (c_sn != 1) return "C is not row-major";
    l.a_m_major = a_sk != 1;
    l.lda = l.a_m_major ? a_sk : a_sm;
    l.b_n_major = b_sn == 1; // B's rows are K: N-contiguous rows are N-major
    l.ldb = l.b_n_major ? b_sk : b_sn;
    l.ldc = c_sm;
    return nullptr;
}

bool wgmma_aligned(int64_t ld, int64_t offset, int64_t batch_stride, int elem_bytes) {
    const int64_t per = 16 / elem_bytes;
    return ld % per == 0 && offset % per == 0 && batch_stride % per == 0;
}

bool wgmma_sizes_fit(int64_t batch, int64_t m, int64_t n, int64_t k) {
    return m < (1 << 30) && n < (1 << 30) && k < (1 << 30) && batch < 65536;
}

status_t wgmma_epilogue(const primitive_attr_t &attr, const memory_desc_t &dst,
        wgmma_epilogue_t &e, bool int_zero_points) {
    ANYDNN_REQUIRE(int_zero_points || attr.zero_points.empty(), dnnl_unimplemented,
            "wgmma takes no zero points");
    ANYDNN_CHECK(check_quant_attr(attr));
    for (const auto &z : attr.zero_points) {
        ANYDNN_REQUIRE(z.first == DNNL_ARG_SRC || z.first == DNNL_ARG_DST, dnnl_unimplemented,
                "wgmma takes zero points of src and dst, not of argument %d", z.first);
        ANYDNN_REQUIRE(z.second.mask == 0 && z.second.group_ndims == 0, dnnl_unimplemented,
                "wgmma takes common zero points (mask 0), not mask %d", z.second.mask);
        (z.first == DNNL_ARG_SRC ? e.zp_src : e.zp_dst) = true;
    }
    const auto wei = attr.scales.find(DNNL_ARG_WEIGHTS);
    e.wei_per_n = wei != attr.scales.end() && wei->second.mask != 0;
    const std::vector<post_op_t> &ops = attr.post_ops.entries;
    for (size_t i = 0; i < ops.size(); ++i) {
        const post_op_t &op = ops[i];
        if (op.kind == dnnl_sum) {
            ANYDNN_REQUIRE(e.sum_at == 0, dnnl_unimplemented, "wgmma takes one sum post-op");
            ANYDNN_REQUIRE(op.sum_dt == dnnl_data_type_undef || op.sum_dt == dst.data_type,
                    dnnl_unimplemented, "wgmma sums dst in dst's own type, not %s",
                    dnnl_dt2str(op.sum_dt));
            e.sum_at = e.elt ? 2 : 1;
            e.sum_scale = op.sum_scale;
            e.sum_zp = static_cast<float>(op.sum_zero_point);
        } else if (op.kind == dnnl_eltwise) {
            ANYDNN_REQUIRE(e.elt == 0, dnnl_unimplemented, "wgmma takes one eltwise post-op");
            e.elt = eltwise_code(op.alg);
            ANYDNN_REQUIRE(e.elt != 0, dnnl_unimplemented,
                    "wgmma eltwise post-op %s is not relu, gelu_erf, gelu_tanh or swish",
                    dnnl_alg_kind2str(op.alg));
            e.alpha = op.alpha;
            e.beta = op.beta;
        } else {
            ANYDNN_REQUIRE(false, dnnl_unimplemented,
                    "wgmma takes sum and eltwise post-ops, not %s", dnnl_prim_kind2str(op.kind));
        }
    }
    e.any = !attr.scales.empty() || !ops.empty() || e.zp_src || e.zp_dst;
    return dnnl_success;
}

std::string wgmma_kernel_name(dnnl_data_type_t a, dnnl_data_type_t b, const wgmma_layout_t &l,
        const std::string &config, bool epilogue) {
    const char *kind = wgmma_kind_name(a, b);
    // "tma_<tiles>[o]" configurations are the entries of wgmma_tma.cu,
    // anydnn_wgmma_tma_<kind>_..._<tiles> (the o form is an argument of the same entry).
    const bool tma = config.compare(0, 4, "tma_") == 0;
    std::string tiles = tma ? config.substr(4) : config;
    if (tma && !tiles.empty() && tiles.back() == 'o') tiles.pop_back();
    return std::string(tma ? "anydnn_wgmma_tma_" : "anydnn_wgmma_") + (kind ? kind : "none")
            + "_" + (l.a_m_major ? "m" : "k") + (l.b_n_major ? "n" : "k") + "_" + tiles
            + (epilogue ? "_epi" : "");
}

size_t wgmma_scratchpad_bytes(int splits, int64_t batch, int64_t m, int64_t n) {
    return splits > 1 ? static_cast<size_t>(splits * batch * m * n * 4) : 0;
}

size_t wgmma_tma_workspace_bytes(const device_caps_t &caps) {
    return static_cast<size_t>(std::max<uint32_t>(caps.compute_units, 1)) * 256;
}

status_t wgmma_gemm_t::init(engine_t *engine, const std::string &kernel_name, int tile_m,
        int tile_n, int splits, bool int_sums, bool tma_overlap) {
    ANYDNN_REQUIRE(tile_m == 128 || tile_m == 64, dnnl_unimplemented,
            "wgmma tiles have 128 or 64 rows, not %d", tile_m);
    tile_m_ = tile_m;
    tile_n_ = tile_n;
    splits_ = splits;
    int_sums_ = int_sums;
    tma_ = kernel_name.compare(0, 17, "anydnn_wgmma_tma_") == 0;
    tma_overlap_ = tma_ && tma_overlap;
    const device_caps_t &caps = engine_caps(engine);
    ctas_ = std::max<int64_t>(caps.compute_units, 1);
    ANYDNN_REQUIRE(!tma_ || (caps.ptx_binary_sm >= 90 && !int_sums), dnnl_unimplemented,
            "wgmma TMA kernel %s needs sm_90a PTX and 16-bit operands", kernel_name.c_str());
    ANYDNN_REQUIRE(ptx_module(kernel_name.c_str()), dnnl_unimplemented,
            "no PTX kernel %s in this build (built without nvcc?)", kernel_name.c_str());
    ANYDNN_CHECK(create_ptx_kernel(engine, kernel_name.c_str(), kernel_));
    if (splits == 1) return dnnl_success;
    ANYDNN_CHECK(create_ptx_kernel(engine,
            int_sums ? "anydnn_wgmma_splitk_reduce_s32" : "anydnn_wgmma_splitk_reduce", reduce_));
    // The f32 sum of four elements per thread, for N a multiple of 4.
    return int_sums ? dnnl_success
                    : create_ptx_kernel(engine, "anydnn_wgmma_splitk_reduce4", reduce4_);
}

status_t wgmma_gemm_t::launch(stream_t *stream, const wgmma_buffers_t &buf,
        const wgmma_problem_t &p, const wgmma_epilogue_t &e, int splits) const {
    if (splits <= 0) splits = splits_;
    if (tma_) {
        // The TMA kernel's producer and consumers meet once per tile through its loads: every
        // K slice keeps at least one K step (fewer, deeper slices where K is short).
        ANYDNN_REQUIRE(p.k > 0, dnnl_runtime_error, "wgmma TMA kernels need K > 0");
        const int64_t per = ((p.k + splits - 1) / splits + 63) / 64 * 64;
        splits = static_cast<int>((p.k + per - 1) / per);
    }
    const bool split = splits > 1;
    ANYDNN_REQUIRE(!split || reduce_, dnnl_runtime_error,
            "wgmma: split K without the sum kernel loaded");
    ANYDNN_REQUIRE(
            !split || buf.scratchpad, dnnl_runtime_error, "wgmma: no scratchpad for split K");
    if (tma_) {
        ANYDNN_CHECK(launch_tma(stream, buf, p, e, splits));
        return split ? launch_sum(stream, buf, p, e, splits) : dnnl_success;
    }
    nd_range_t range;
    range.ndims = 3;
    const int threads = 2 * tile_m_; // a warpgroup per 64 rows
    range.global[0] = static_cast<size_t>((p.n + tile_n_ - 1) / tile_n_) * threads;
    range.global[1] = static_cast<size_t>((p.m + tile_m_ - 1) / tile_m_);
    range.global[2] = static_cast<size_t>(p.batch * splits);
    range.local[0] = threads;
    range.local[1] = 1;
    range.local[2] = 1;
    ANYDNN_CHECK(kernel_->launch(stream, gemm_args(buf, p, e, splits), range));
    return split ? launch_sum(stream, buf, p, e, splits) : dnnl_success;
}

kernel_args_t wgmma_gemm_t::gemm_args(const wgmma_buffers_t &buf, const wgmma_problem_t &p,
        const wgmma_epilogue_t &e, int splits) const {
    // Split along K, the GEMM writes f32 (s32) slices into the scratchpad (dense, m x n per
    // batch, no epilogue); the sum kernel then writes C.
    const wgmma_layout_t &l = p.layout;
    const bool split = splits > 1;
    const bool with_bias = p.bias_type != dnnl_data_type_undef;
    kernel_args_t args;
    args.add(buf.a);
    args.add(buf.b);
    args.add(split ? buf.scratchpad : buf.c);
    args.add(with_bias && !split ? buf.bias : nullptr);
    if (split) {
        for (int i = 0; i < 3; ++i)
            args.add(nullptr);
    } else {
        add_scales(args, buf);
    }
    if (int_sums_) { // split along K there are no zero points (the host asks for none)
        args.add(split ? nullptr : buf.zp_src);
        args.add(split ? nullptr : buf.zp_dst);
        args.add(split ? nullptr : buf.colsum);
    }
    if (tma_) { // the tensor maps' workspace (64-bit words)
        args.add(buf.scratchpad);
        args.add_value<int64_t>(static_cast<int64_t>(p.tma_ws_at / 8));
    }
    args.add_value<int64_t>(p.a_off);
    args.add_value<int64_t>(p.b_off);
    args.add_value<int64_t>(split ? 0 : p.c_off);
    args.add_value<int64_t>(l.lda);
    args.add_value<int64_t>(l.ldb);
    args.add_value<int64_t>(split ? p.n : l.ldc);
    args.add_value<int64_t>(p.a_sb);
    args.add_value<int64_t>(p.b_sb);
    args.add_value<int64_t>(split ? p.m * p.n : p.c_sb);
    if (tma_) args.add_value<int32_t>(static_cast<int32_t>(p.batch));
    args.add_value<int32_t>(static_cast<int32_t>(p.m));
    args.add_value<int32_t>(static_cast<int32_t>(p.n));
    args.add_value<int32_t>(static_cast<int32_t>(p.k));
    args.add_value<int32_t>(split ? (int_sums_ ? 3 : 0) : wgmma_c_kind(p.c_type));
    args.add_value<int32_t>(split ? 0 : wgmma_bias_kind(p.bias_type));
    args.add_value<int32_t>(splits);
    args.add_value<int64_t>(p.batch * p.m * p.n); // elements of one slice
    if (tma_) args.add_value<int32_t>(tma_overlap_ ? 1 : 0);
    add_wgmma_epilogue(args, split ? wgmma_epilogue_t() : e);
    if (int_sums_) {
        args.add_value<int64_t>(p.colsum_off);
        args.add_value<int64_t>(p.colsum_sb);
    }
    return args;
}

status_t wgmma_gemm_t::launch_tma(stream_t *stream, const wgmma_buffers_t &buf,
        const wgmma_problem_t &p, const wgmma_epilogue_t &e, int splits) const {
    const int64_t tiles = (p.m + tile_m_ - 1) / tile_m_ * ((p.n + tile_n_ - 1) / tile_n_)
            * p.batch * splits;
    if (tiles == 0) return dnnl_success;
    ANYDNN_REQUIRE(buf.scratchpad, dnnl_runtime_error, "wgmma TMA: no scratchpad for the maps");
    nd_range_t range;
    const int threads = 128 + 2 * tile_m_; // a producer warpgroup, a consumer one per 64 rows
    range.global[0] = static_cast<size_t>(std::min(ctas_, tiles)) * threads;
    range.local[0] = threads;
    return kernel_->launch(stream, gemm_args(buf, p, e, splits), range);
}

status_t wgmma_gemm_t::launch_sum(stream_t *stream, const wgmma_buffers_t &buf,
        const wgmma_problem_t &p, const wgmma_epilogue_t &e, int splits) const {
    const wgmma_layout_t &l = p.layout;
    const int64_t slice = p.batch * p.m * p.n;
    const bool with_bias = p.bias_type != dnnl_data_type_undef;
    kernel_args_t sum;
    sum.add(buf.scratchpad);
    sum.add(buf.c);
    sum.add(with_bias ? buf.bias : nullptr);
    add_scales(sum, buf);
    sum.add_value<int64_t>(p.c_off);
    sum.add_value<int64_t>(l.ldc);
    sum.add_value<int64_t>(p.c_sb);
    sum.add_value<int64_t>(slice);
    sum.add_value<int32_t>(static_cast<int32_t>(p.m));
    sum.add_value<int32_t>(static_cast<int32_t>(p.n));
    sum.add_value<int32_t>(static_cast<int32_t>(p.batch));
    sum.add_value<int32_t>(splits);
    sum.add_value<int32_t>(wgmma_c_kind(p.c_type));
    sum.add_value<int32_t>(wgmma_bias_kind(p.bias_type));
    add_wgmma_epilogue(sum, e);
    const bool by4 = reduce4_ && p.n % 4 == 0;
    const int64_t threads = by4 ? slice / 4 : slice;
    nd_range_t flat;
    flat.global[0] = static_cast<size_t>((threads + 255) / 256 * 256);
    flat.local[0] = 256;
    return (by4 ? reduce4_ : reduce_)->launch(stream, sum, flat);
}

} // namespace gpu
} // namespace anydnn
