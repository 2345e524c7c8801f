#include "core/ops/matmul/common.hpp"

#include <algorithm>
#include <cstring>

#include "core/data_types_narrow.hpp"
#include "core/ops/matmul/woq.hpp"
#include "core/ops/scales.hpp"

namespace anydnn {
namespace cpu {
namespace matmul {

namespace {

status_t quant_md(const quant_entry_t &q, dim_t n, memory_desc_t &md) {
    const dnnl_dims_t dims = {n};
    return md_init_with_tag(md, 1, dims, q.data_type, dnnl_a);
}

bool is_float(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

status_t resolve_plain(memory_desc_t &md, const char *name) {
    if (md.format_kind != dnnl_format_kind_any) {
        ANYDNN_REQUIRE(md.format_kind == dnnl_blocked, dnnl_unimplemented,
                "%s layout is not a blocked one", name);
        return dnnl_success;
    }
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(md), dnnl_unimplemented,
            "%s: format any with runtime dimensions", name);
    return md_init_with_strides(md, md.ndims, md.dims, md.data_type, nullptr);
}

} // namespace

bool is_int8(const memory_desc_t &src) {
    return src.data_type == dnnl_u8 || src.data_type == dnnl_s8;
}

status_t resolve_matmul(const matmul_desc_t &d, memory_desc_t &src, memory_desc_t &wei,
        memory_desc_t &bias, memory_desc_t &dst, bool allow_woq) {
    src = d.src_md;
    wei = d.weights_md;
    bias = d.bias_md;
    dst = d.dst_md;
    const dnnl_data_type_t sdt = src.data_type, wdt = wei.data_type, ddt = dst.data_type;
    if (is_int8(src)) {
        ANYDNN_REQUIRE(wdt == dnnl_s8 || wdt == dnnl_u8 || wdt == dnnl_s4 || wdt == dnnl_u4,
                dnnl_unimplemented, "int8 src needs s8, u8, s4 or u4 weights (got %s)",
                dnnl_dt2str(wdt));
        ANYDNN_REQUIRE(is_float(ddt) || ddt == dnnl_s32 || ddt == dnnl_s8 || ddt == dnnl_u8,
                dnnl_unimplemented, "dst type %s is not supported", dnnl_dt2str(ddt));
    } else if (is_f8(wdt) && (is_f8(sdt) || sdt == dnnl_bf16 || sdt == dnnl_f16)) {
        // 8-bit floats, computed in f32: f8 weights with f8, bf16 or f16 src.
        ANYDNN_REQUIRE(is_float(ddt) || (is_f8(ddt) && is_f8(sdt)), dnnl_unimplemented,
                "dst type %s is not supported with %s src", dnnl_dt2str(ddt), dnnl_dt2str(sdt));
        ANYDNN_REQUIRE(is_zero_md(bias) || is_float(bias.data_type), dnnl_unimplemented,
                "bias type %s is not supported with f8 weights", dnnl_dt2str(bias.data_type));
    } else if (is_f4(sdt) || is_f4(wdt)) {
        // 4-bit floats computed in f32: with each other, 8-bit floats, f32, bf16 or f16.
        auto fits = [](dnnl_data_type_t dt) { return is_f4(dt) || is_f8(dt) || is_float(dt); };
        ANYDNN_REQUIRE(fits(sdt) && fits(wdt), dnnl_unimplemented,
                "src/weights types %s/%s are not supported", dnnl_dt2str(sdt),
                dnnl_dt2str(wdt));
        ANYDNN_REQUIRE(is_float(ddt) || is_f4(ddt) || is_f8(ddt), dnnl_unimplemented,
                "dst type %s is not supported with 4-bit float operands", dnnl_dt2str(ddt));
        ANYDNN_REQUIRE(is_zero_md(bias) || is_float(bias.data_type), dnnl_unimplemented,
                "bias type %s is not supported with 4-bit float operands",
                dnnl_dt2str(bias.data_type));
    } else if (is_woq(sdt, wdt)) {
        ANYDNN_REQUIRE(allow_woq, dnnl_unimplemented,
                "%s weights with %s src (weights decompression) are not supported here",
                dnnl_dt2str(wdt), dnnl_dt2str(sdt));
        ANYDNN_REQUIRE(is_float(ddt) || ddt == dnnl_s8 || ddt == dnnl_u8, dnnl_unimplemented,
                "dst type %s is not supported with %s src", dnnl_dt2str(ddt), dnnl_dt2str(sdt));
    } else {
        ANYDNN_REQUIRE(is_float(sdt) && is_float(wdt), dnnl_unimplemented,
                "src/weights types %s/%s are not supported", dnnl_dt2str(sdt),
                dnnl_dt2str(wdt));
        ANYDNN_REQUIRE(is_float(ddt) || ((ddt == dnnl_s8 || ddt == dnnl_u8) && sdt == dnnl_f32),
                dnnl_unimplemented, "dst type %s is not supported with %s src",
                dnnl_dt2str(ddt), dnnl_dt2str(sdt));
    }
    if (!is_zero_md(bias))
        ANYDNN_REQUIRE(is_float(bias.data_type) || bias.data_type == dnnl_s32
                        || bias.data_type == dnnl_s8 || bias.data_type == dnnl_u8,
                dnnl_unimplemented, "bias type %s is not supported",
                dnnl_dt2str(bias.data_type));
    ANYDNN_CHECK(resolve_plain(src, "src"));
    ANYDNN_CHECK(resolve_plain(wei, "weights"));
    ANYDNN_CHECK(resolve_plain(dst, "dst"));
    if (!is_zero_md(bias)) ANYDNN_CHECK(resolve_plain(bias, "bias"));
    return dnnl_success;
}

status_t init_attr(const primitive_attr_t &attr, const memory_desc_t &dst, int wei_n_mask,
        const std::vector<int> &zp_args, post_ops_chain_t &po,
        std::map<int, memory_desc_t> &args, const memory_desc_t *src_md) {
    const unsigned handled = attr_skip::scales | attr_skip::zero_points | attr_skip::post_ops
            | attr_skip::fpmath | attr_skip::scratchpad | attr_skip::deterministic
            | attr_skip::acc_mode;
    ANYDNN_REQUIRE(attr.has_default_values(handled), dnnl_unimplemented,
            "attributes other than scales, zero points and post-ops are not supported");
    for (const auto &s : attr.scales) {
        const int arg = s.first;
        const quant_entry_t &q = s.second;
        ANYDNN_REQUIRE(arg == DNNL_ARG_SRC || arg == DNNL_ARG_WEIGHTS || arg == DNNL_ARG_DST,
                dnnl_unimplemented, "scales for argument %d are not supported", arg);
        ANYDNN_REQUIRE(q.group_ndims == 0, dnnl_unimplemented, "grouped scales are not supported");
        ANYDNN_REQUIRE(q.mask == 0 || (arg == DNNL_ARG_WEIGHTS && q.mask == wei_n_mask),
                dnnl_unimplemented, "scales mask %d for argument %d is not supported", q.mask,
                arg);
        ANYDNN_REQUIRE(q.data_type == dnnl_f32 || q.data_type == dnnl_bf16
                        || q.data_type == dnnl_f16,
                dnnl_unimplemented, "scales of type %s are not supported",
                dnnl_dt2str(q.data_type));
        if (q.is_host_scalar) continue;
        memory_desc_t md;
        const dim_t n = q.mask == 0 ? 1 : dst.dims[dst.ndims - 1];
        ANYDNN_CHECK(quant_md(q, n, md));
        args[DNNL_ARG_ATTR_SCALES | arg] = md;
    }
    for (const auto &z : attr.zero_points) {
        const int arg = z.first;
        const quant_entry_t &q = z.second;
        ANYDNN_REQUIRE(std::find(zp_args.begin(), zp_args.end(), arg) != zp_args.end(),
                dnnl_unimplemented, "zero points for argument %d are not supported", arg);
        if (arg == DNNL_ARG_SRC && (q.mask != 0 || q.group_ndims != 0)) {
            // Along K, or M and K (grouped along K): only src's own dims are known here.
            ANYDNN_REQUIRE(src_md, dnnl_unimplemented, "src zero points must be common here");
            grouped_quant_t layout;
            ANYDNN_CHECK(init_src_zero_points(q, *src_md, layout));
            memory_desc_t md;
            ANYDNN_CHECK(quant_md(q, layout.count, md));
            args[DNNL_ARG_ATTR_ZERO_POINTS | arg] = md;
            continue;
        }
        // dst may also take one per output channel (per N); size-1 dims do not vary.
        const int n_mask = 1 << (dst.ndims - 1);
        int dst_mask = q.mask;
        for (int d = 0; d < dst.ndims; ++d)
            if (dst.dims[d] == 1) dst_mask &= ~(1 << d);
        ANYDNN_REQUIRE(q.group_ndims == 0
                        && (q.mask == 0
                                || (arg == DNNL_ARG_DST && (dst_mask == n_mask || dst_mask == 0))),
                dnnl_unimplemented,
                "zero points mask %d for argument %d: only a common one (and per-N on dst)",
                q.mask, arg);
        ANYDNN_REQUIRE(q.data_type == dnnl_s32 || q.data_type == dnnl_s8
                        || q.data_type == dnnl_u8,
                dnnl_unimplemented, "zero points of type %s are not supported",
                dnnl_dt2str(q.data_type));
        if (q.is_host_scalar) continue;
        const bool per_n = arg == DNNL_ARG_DST && dst_mask == n_mask;
        ANYDNN_REQUIRE(!per_n || dst.dims[dst.ndims - 1] != DNNL_RUNTIME_DIM_VAL,
                dnnl_unimplemented, "per-N zero points with a runtime N");
        memory_desc_t md;
        ANYDNN_CHECK(quant_md(q, per_n ? dst.dims[dst.ndims - 1] : 1, md));
        args[DNNL_ARG_ATTR_ZERO_POINTS | arg] = md;
    }
    ANYDNN_CHECK(po.init(attr, dst));
    po.add_args(args);
    return dnnl_success;
}

} // namespace matmul
} // namespace cpu
} // namespace anydnn
