#include "core/ops/post_ops.hpp"

#include "core/data_types.hpp"
#include "core/ops/binary/binary_math.hpp"
#include "core/ops/eltwise/eltwise_math.hpp"

namespace anydnn {
namespace cpu {

namespace {

bool supported_operand_dt(dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_f32:
        case dnnl_bf16:
        case dnnl_f16:
        case dnnl_s32:
        case dnnl_s8:
        case dnnl_u8: return true;
        default: return false;
    }
}

// A binary operand: same rank as dst, each dim equal to dst's or 1, a layout we can read.
status_t check_operand(memory_desc_t &md, const memory_desc_t &dst, int index,
        const char *what) {
    ANYDNN_REQUIRE(!is_zero_md(md), dnnl_invalid_arguments, "post-op %d: %s is missing",
            index, what);
    ANYDNN_REQUIRE(md.ndims == dst.ndims, dnnl_invalid_arguments,
            "post-op %d: %s has %d dimensions, dst %d", index, what, md.ndims, dst.ndims);
    for (int d = 0; d < md.ndims; ++d)
        ANYDNN_REQUIRE(md.dims[d] == 1 || md.dims[d] == dst.dims[d], dnnl_invalid_arguments,
                "post-op %d: %s dimension %d is %lld, dst's is %lld (must match or be 1)",
                index, what, d, static_cast<long long>(md.dims[d]),
                static_cast<long long>(dst.dims[d]));
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(md), dnnl_unimplemented,
            "post-op %d: %s has runtime dimensions or strides", index, what);
    ANYDNN_REQUIRE(supported_operand_dt(md.data_type), dnnl_unimplemented,
            "post-op %d: %s data type %s is not supported", index, what,
            dnnl_dt2str(md.data_type));
    if (md.format_kind == dnnl_format_kind_any)
        md = md_like(dst, md.ndims, md.dims, md.data_type);
    ANYDNN_REQUIRE(is_blocked(md), dnnl_unimplemented,
            "post-op %d: %s is not a blocked layout", index, what);
    return dnnl_success;
}

} // namespace

status_t check_post_op_kinds(const primitive_attr_t &attr,
        std::initializer_list<dnnl_primitive_kind_t> kinds, const char *op) {
    const auto &list = attr.post_ops.entries;
    for (size_t i = 0; i < list.size(); ++i) {
        bool ok = false;
        for (auto k : kinds)
            ok = ok || list[i].kind == k;
        ANYDNN_REQUIRE(ok, dnnl_unimplemented, "post-op %d: %s is not supported by %s",
                int(i), dnnl_prim_kind2str(list[i].kind), op);
    }
    return dnnl_success;
}

status_t post_ops_chain_t::init(const primitive_attr_t &attr, const memory_desc_t &dst_md) {
    entries_.clear();
    dst_ = dst_md;
    has_sum_ = false;
    sum_dt_ = dst_md.data_type;
    const bool dst_flat = is_dense_unpadded(dst_md);
    flat_ok_ = dst_flat;
    const auto &list = attr.post_ops.entries;
    for (int i = 0; i < static_cast<int>(list.size()); ++i) {
        const post_op_t &p = list[i];
        entry_t e {};
        e.kind = p.kind;
        e.alg = p.alg;
        switch (p.kind) {
            case dnnl_sum: {
                const dnnl_data_type_t dt
                        = p.sum_dt == dnnl_data_type_undef ? dst_md.data_type : p.sum_dt;
                // dst's own type is always readable (f8 too); another must be an operand type.
                ANYDNN_REQUIRE(data_type_size(dt) == data_type_size(dst_md.data_type)
                                && (dt == dst_md.data_type || supported_operand_dt(dt)),
                        dnnl_unimplemented,
                        "post-op %d: sum data type %s cannot reinterpret dst's %s", i,
                        dnnl_dt2str(dt), dnnl_dt2str(dst_md.data_type));
                ANYDNN_REQUIRE(!has_sum_ || dt == sum_dt_, dnnl_unimplemented,
                        "post-op %d: sums with different data types", i);
                has_sum_ = true;
                sum_dt_ = dt;
                e.scale = p.sum_scale;
                e.zero_point = static_cast<float>(p.sum_zero_point);
                break;
            }
            case dnnl_eltwise:
                ANYDNN_REQUIRE(is_eltwise_alg(p.alg), dnnl_invalid_arguments,
                        "post-op %d: %s is not an eltwise algorithm", i,
                        dnnl_alg_kind2str(p.alg));
                e.alpha = p.alpha;
                e.beta = p.beta;
                break;
            case dnnl_binary: {
                ANYDNN_REQUIRE(is_binary_alg(p.alg), dnnl_invalid_arguments,
                        "post-op %d: %s is not a binary algorithm", i,
                        dnnl_alg_kind2str(p.alg));
                e.src1 = p.src1_md;
                ANYDNN_CHECK(check_operand(e.src1, dst_md, i, "src1"));
                e.arg1 = DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1;
                if (p.alg == dnnl_binary_select) {
                    e.src2 = p.src2_md;
                    ANYDNN_CHECK(check_operand(e.src2, dst_md, i, "src2"));
                    e.arg2 = DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_2;
                }
                break;
            }
            case dnnl_prelu: {
                dnnl_dims_t dims;
                for (int d = 0; d < dst_md.ndims; ++d) {
                    dims[d] = (p.prelu_mask >> d) & 1 ? dst_md.dims[d] : 1;
                    ANYDNN_REQUIRE(dims[d] != DNNL_RUNTIME_DIM_VAL, dnnl_unimplemented,
                            "post-op %d: prelu weights along runtime dimension %d", i, d);
                }
                ANYDNN_CHECK(md_init_with_strides(e.src1, dst_md.ndims, dims, dnnl_f32, nullptr));
                e.arg1 = DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_WEIGHTS;
                break;
            }
            default:
                return fail(dnnl_unimplemented, __func__, "post-op %d: %s is not supported", i,
                        dnnl_prim_kind2str(p.kind));
        }
        if (e.arg1) {
            e.bcast1 = bcast_mask(e.src1, dst_md.dims);
            if (dst_flat) e.flat1 = analyze_flat_bcast(dst_md, e.src1);
            flat_ok_ = flat_ok_ && e.flat1.ok;
        }
        if (e.arg2) {
            e.bcast2 = bcast_mask(e.src2, dst_md.dims);
            if (dst_flat) e.flat2 = analyze_flat_bcast(dst_md, e.src2);
            flat_ok_ = flat_ok_ && e.flat2.ok;
        }
        entries_.push_back(e);
    }
    return dnnl_success;
}

void post_ops_chain_t::add_args(std::map<int, memory_desc_t> &args) const {
    for (const auto &e : entries_) {
        if (e.arg1) args[e.arg1] = e.src1;
        if (e.arg2) args[e.arg2] = e.src2;
    }
}

} // namespace cpu
} // namespace anydnn
