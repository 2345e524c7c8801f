#include "core/ops/matmul/woq.hpp"

#include "core/ops/matmul/common.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

namespace anydnn {
namespace cpu {
namespace matmul {

namespace {

bool is_int_weights(dnnl_data_type_t dt) {
    return dt == dnnl_s8 || dt == dnnl_u8 || dt == dnnl_s4 || dt == dnnl_u4;
}

} // namespace

bool is_woq(dnnl_data_type_t src_dt, dnnl_data_type_t wei_dt) {
    const bool float_src = src_dt == dnnl_f32 || src_dt == dnnl_bf16 || src_dt == dnnl_f16;
    return float_src && is_int_weights(wei_dt);
}

status_t init_wei_quant(const quant_entry_t &q, const memory_desc_t &wei, bool zero_point,
        grouped_quant_t &out) {
    const char *what = zero_point ? "weights zero points" : "weights scales";
    const int nd = wei.ndims;
    if (zero_point)
        ANYDNN_REQUIRE(q.data_type == dnnl_s32 || is_int_weights(q.data_type), dnnl_unimplemented,
                "%s of type %s are not supported", what, dnnl_dt2str(q.data_type));
    else
        ANYDNN_REQUIRE(q.data_type == dnnl_f32 || q.data_type == dnnl_bf16
                        || q.data_type == dnnl_f16,
                dnnl_unimplemented, "%s of type %s are not supported", what,
                dnnl_dt2str(q.data_type));
    ANYDNN_REQUIRE(q.mask >= 0 && q.mask < (1 << nd), dnnl_unimplemented,
            "%s mask %d names a dimension the weights do not have", what, q.mask);
    ANYDNN_REQUIRE(q.qmode == dnnl_quantization_mode_undef
                    || q.qmode == dnnl_quantization_mode_static_sazp,
            dnnl_unimplemented, "%s: only static quantization is supported", what);
    ANYDNN_REQUIRE(!q.is_host_scalar || q.mask == 0, dnnl_unimplemented,
            "%s: a host scalar takes mask 0", what);
    const int kd = nd - 2, nd_ = nd - 1;
    if (zero_point && q.group_ndims > 0)
        ANYDNN_REQUIRE(q.groups[0] == 1 || q.groups[1] == 1, dnnl_unimplemented,
                "%s: groups along both K and N (%lldx%lld)", what, (long long)q.groups[0],
                (long long)q.groups[1]);
    out = grouped_quant_t();
    out.present = true;
    out.dt = q.data_type;
    out.ndims = nd;
    for (int d = 0; d < nd; ++d)
        out.group[d] = 1;
    if (q.group_ndims > 0) {
        ANYDNN_REQUIRE(q.group_ndims == 2, dnnl_unimplemented,
                "%s: groups are given for the last two dimensions", what);
        ANYDNN_REQUIRE((q.mask >> kd & 1) && (q.mask >> nd_ & 1), dnnl_unimplemented,
                "%s: groups need the mask bits of K and N (mask %d)", what, q.mask);
        const dim_t K = wei.dims[kd], N = wei.dims[nd_];
        ANYDNN_REQUIRE(K != DNNL_RUNTIME_DIM_VAL && N != DNNL_RUNTIME_DIM_VAL,
                dnnl_unimplemented, "%s: groups with runtime K or N", what);
        const dim_t gk = q.groups[0], gn = q.groups[1];
        ANYDNN_REQUIRE(gk > 0 && gn > 0 && K % gk == 0 && N % gn == 0, dnnl_unimplemented,
                "%s: groups %lldx%lld do not divide K x N %lldx%lld", what, (long long)gk,
                (long long)gn, (long long)K, (long long)N);
        out.group[kd] = gk;
        out.group[nd_] = gn;
    }
    dim_t s = 1;
    for (int d = nd - 1; d >= 0; --d) {
        if (!(q.mask >> d & 1)) continue;
        ANYDNN_REQUIRE(wei.dims[d] != DNNL_RUNTIME_DIM_VAL, dnnl_unimplemented,
                "%s vary along a runtime dimension", what);
        out.stride[d] = s;
        s *= wei.dims[d] / out.group[d];
    }
    out.count = s;
    return dnnl_success;
}

namespace {

// Where src zero points or scales vary: mask 0, along K, or along M and K (bits of size-1
// dimensions ignored), groups {1, Gk} with Gk dividing K.
status_t init_src_quant(const quant_entry_t &q, const memory_desc_t &src, const char *what,
        grouped_quant_t &out) {
    const int nd = src.ndims, md_ = nd - 2, kd = nd - 1;
    int bcast = 0; // a dimension of size 1 does not vary
    for (int d = 0; d < nd; ++d)
        if (src.dims[d] == 1) bcast |= 1 << d;
    const int mask = q.mask & ~bcast, k_bit = (1 << kd) & ~bcast,
              mk_bits = ((1 << kd) | (1 << md_)) & ~bcast;
    ANYDNN_REQUIRE(mask == 0 || mask == k_bit || mask == mk_bits, dnnl_unimplemented,
            "%s mask %d: 0, along K, or along M and K", what, q.mask);
    out = grouped_quant_t();
    out.present = true;
    out.dt = q.data_type;
    out.ndims = nd;
    for (int d = 0; d < nd; ++d)
        out.group[d] = 1;
    if (q.group_ndims > 0) {
        ANYDNN_REQUIRE(q.group_ndims == 2 && q.groups[0] == 1, dnnl_unimplemented,
                "%s: groups are {1, Gk}", what);
        const dim_t K = src.dims[kd], gk = q.groups[1];
        ANYDNN_REQUIRE(K != DNNL_RUNTIME_DIM_VAL && gk > 0 && K % gk == 0, dnnl_unimplemented,
                "%s: group %lld does not divide K %lld", what, (long long)gk, (long long)K);
        out.group[kd] = gk;
    }
    dim_t s = 1;
    for (int d = nd - 1; d >= 0; --d) {
        if (!(mask >> d & 1)) continue;
        ANYDNN_REQUIRE(src.dims[d] != DNNL_RUNTIME_DIM_VAL, dnnl_unimplemented,
                "%s vary along a runtime dimension", what);
        out.stride[d] = s;
        s *= src.dims[d] / out.group[d];
    }
    out.count = s;
    return dnnl_success;
}

bool is_float_scale(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

} // namespace

status_t init_src_zero_points(const quant_entry_t &q, const memory_desc_t &src,
        grouped_quant_t &out) {
    ANYDNN_REQUIRE(q.data_type == dnnl_s32 || q.data_type == dnnl_s8 || q.data_type == dnnl_u8,
            dnnl_unimplemented, "src zero points of type %s are not supported",
            dnnl_dt2str(q.data_type));
    return init_src_quant(q, src, "src zero points", out);
}

status_t init_src_scales(const quant_entry_t &q, const memory_desc_t &src, grouped_quant_t &out) {
    ANYDNN_REQUIRE(is_float_scale(q.data_type), dnnl_unimplemented,
            "src scales of type %s are not supported", dnnl_dt2str(q.data_type));
    ANYDNN_REQUIRE(q.qmode == dnnl_quantization_mode_undef
                    || q.qmode == dnnl_quantization_mode_static_sazp,
            dnnl_unimplemented, "src scales: only static quantization is supported");
    ANYDNN_REQUIRE(!q.is_host_scalar || (q.mask == 0 && q.group_ndims == 0), dnnl_unimplemented,
            "src scales: a host scalar takes mask 0");
    return init_src_quant(q, src, "src scales", out);
}

bool is_int8_grouped(const primitive_attr_t &attr, const memory_desc_t &src,
        const memory_desc_t &wei) {
    if (!is_int8(src)) return false;
    const int nd = wei.ndims;
    const auto ss = attr.scales.find(DNNL_ARG_SRC);
    if (ss != attr.scales.end() && (ss->second.group_ndims > 0 || ss->second.mask != 0)) {
        // Bits of size-1 src dimensions do not make scales vary.
        int m = ss->second.mask;
        for (int d = 0; d < src.ndims; ++d)
            if (src.dims[d] == 1) m &= ~(1 << d);
        if (m != 0 || ss->second.group_ndims > 0) return true;
    }
    const auto ws = attr.scales.find(DNNL_ARG_WEIGHTS);
    if (ws != attr.scales.end()
            && (ws->second.group_ndims > 0
                    || (ws->second.mask != 0 && ws->second.mask != 1 << (nd - 1))))
        return true;
    const auto wz = attr.zero_points.find(DNNL_ARG_WEIGHTS);
    return wz != attr.zero_points.end()
            && (wz->second.group_ndims > 0 || wz->second.mask != 0);
}

namespace {

// The memory of one quantization parameter of `count` values (none for a host scalar).
status_t add_quant_arg(const quant_entry_t &q, const grouped_quant_t &g, int arg,
        std::map<int, memory_desc_t> &args) {
    if (q.is_host_scalar) return dnnl_success;
    memory_desc_t md;
    const dnnl_dims_t dims = {g.count};
    ANYDNN_CHECK(md_init_with_tag(md, 1, dims, q.data_type, dnnl_a));
    args[arg] = md;
    return dnnl_success;
}

} // namespace

status_t init_woq_attr(const primitive_attr_t &attr, const memory_desc_t &wei,
        const memory_desc_t &dst, grouped_quant_t &scales, grouped_quant_t &zero_points,
        post_ops_chain_t &po, std::map<int, memory_desc_t> &args) {
    ANYDNN_REQUIRE(attr.fpmath_apply_to_int, dnnl_unimplemented,
            "%s weights with %s computation need the fpmath mode's apply_to_int",
            dnnl_dt2str(wei.data_type), "floating-point");
    // Everything but the weights parameters follows the plain matmul rules.
    primitive_attr_t rest = attr;
    rest.scales.erase(DNNL_ARG_WEIGHTS);
    rest.zero_points.erase(DNNL_ARG_WEIGHTS);
    const bool int_dst = dst.data_type == dnnl_s8 || dst.data_type == dnnl_u8;
    std::vector<int> zp_args;
    if (int_dst) zp_args.push_back(DNNL_ARG_DST);
    ANYDNN_CHECK(init_attr(rest, dst, 0, zp_args, po, args));
    scales = grouped_quant_t();
    zero_points = grouped_quant_t();
    auto add = [&](const quant_entry_t &q, bool zp, grouped_quant_t &out, int tag) -> status_t {
        ANYDNN_CHECK(init_wei_quant(q, wei, zp, out));
        return add_quant_arg(q, out, tag | DNNL_ARG_WEIGHTS, args);
    };
    auto s = attr.scales.find(DNNL_ARG_WEIGHTS);
    if (s != attr.scales.end()) ANYDNN_CHECK(add(s->second, false, scales, DNNL_ARG_ATTR_SCALES));
    auto z = attr.zero_points.find(DNNL_ARG_WEIGHTS);
    if (z != attr.zero_points.end())
        ANYDNN_CHECK(add(z->second, true, zero_points, DNNL_ARG_ATTR_ZERO_POINTS));
    return dnnl_success;
}

status_t init_int8_grouped_attr(const primitive_attr_t &attr, const memory_desc_t &src,
        const memory_desc_t &wei, const memory_desc_t &dst, grouped_quant_t &src_scales,
        grouped_quant_t &wei_scales, grouped_quant_t &wei_zps, post_ops_chain_t &po,
        std::map<int, memory_desc_t> &args) {
    primitive_attr_t rest = attr;
    rest.scales.erase(DNNL_ARG_SRC);
    rest.scales.erase(DNNL_ARG_WEIGHTS);
    rest.zero_points.erase(DNNL_ARG_WEIGHTS);
    ANYDNN_CHECK(init_attr(rest, dst, 0, {DNNL_ARG_SRC, DNNL_ARG_DST}, po, args, &src));
    src_scales = grouped_quant_t();
    wei_scales = grouped_quant_t();
    wei_zps = grouped_quant_t();
    const auto ss = attr.scales.find(DNNL_ARG_SRC);
    if (ss != attr.scales.end()) {
        ANYDNN_CHECK(init_src_scales(ss->second, src, src_scales));
        ANYDNN_CHECK(add_quant_arg(
                ss->second, src_scales, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, args));
    }
    const auto ws = attr.scales.find(DNNL_ARG_WEIGHTS);
    if (ws != attr.scales.end()) {
        ANYDNN_CHECK(init_wei_quant(ws->second, wei, false, wei_scales));
        ANYDNN_CHECK(add_quant_arg(
                ws->second, wei_scales, DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, args));
    }
    const auto wz = attr.zero_points.find(DNNL_ARG_WEIGHTS);
    if (wz != attr.zero_points.end()) {
        ANYDNN_CHECK(init_wei_quant(wz->second, wei, true, wei_zps));
        ANYDNN_CHECK(add_quant_arg(
                wz->second, wei_zps, DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS, args));
    }
    return dnnl_success;
}

status_t init_matmul_quant(const primitive_attr_t &attr, const memory_desc_t &src,
        const memory_desc_t &wei, const memory_desc_t &dst, matmul_quant_t &q,
        post_ops_chain_t &po, std::map<int, memory_desc_t> &args) {
    q.woq = is_woq(src.data_type, wei.data_type);
    q.int8_grouped = false;
    q.stage_attr = attr;
    q.src_zps = grouped_quant_t();
    if (q.woq) {
        ANYDNN_CHECK(init_woq_attr(attr, wei, dst, q.wei_scales, q.wei_zps, po, args));
        q.stage_attr.scales.erase(DNNL_ARG_WEIGHTS);
        q.stage_attr.zero_points.erase(DNNL_ARG_WEIGHTS);
        return dnnl_success;
    }
    q.int8_grouped = is_int8_grouped(attr, src, wei);
    if (q.int8_grouped) {
        ANYDNN_CHECK(init_int8_grouped_attr(
                attr, src, wei, dst, q.src_scales, q.wei_scales, q.wei_zps, po, args));
        q.stage_attr.scales.erase(DNNL_ARG_SRC);
        q.stage_attr.scales.erase(DNNL_ARG_WEIGHTS);
        q.stage_attr.zero_points.erase(DNNL_ARG_WEIGHTS);
    } else {
        std::vector<int> zp_args;
        if (is_int8(src)) zp_args = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST};
        else if (dst.data_type == dnnl_s8 || dst.data_type == dnnl_u8) zp_args = {DNNL_ARG_DST};
        ANYDNN_CHECK(init_attr(attr, dst, 1 << (dst.ndims - 1), zp_args, po, args, &src));
    }
    const auto z = attr.zero_points.find(DNNL_ARG_SRC);
    if (z != attr.zero_points.end() && (z->second.mask != 0 || z->second.group_ndims != 0))
        ANYDNN_CHECK(init_src_zero_points(z->second, src, q.src_zps));
    return dnnl_success;
}

} // namespace matmul
} // namespace cpu
} // namespace anydnn
