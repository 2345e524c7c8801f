// Equality, cache-key bytes and verbose text of primitive attributes.
#include "core/primitive_attr.hpp"

#include <cstdio>

#include "core/serializer.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

namespace anydnn {

namespace {

void write_quant(serializer_t &s, const quant_entry_t &q) {
    s.write(q.mask);
    s.write(q.group_ndims);
    for (int i = 0; i < q.group_ndims; ++i)
        s.write(q.groups[i]);
    s.write(q.data_type);
    s.write(q.qmode);
    s.write(q.is_host_scalar);
}

void write_quant_map(serializer_t &s, const std::map<int, quant_entry_t> &m) {
    s.write(m.size());
    for (const auto &e : m) {
        s.write(e.first);
        write_quant(s, e.second);
    }
}

// Only the fields the kind uses: an entry is what the append call that made it said.
void write_post_op(serializer_t &s, const post_op_t &p) {
    s.write(p.kind);
    switch (p.kind) {
        case dnnl_sum:
            s.write(p.sum_scale);
            s.write(p.sum_zero_point);
            s.write(p.sum_dt);
            break;
        case dnnl_eltwise:
            s.write(p.alg);
            s.write(p.alpha);
            s.write(p.beta);
            break;
        case dnnl_binary:
            s.write(p.alg);
            s.write(p.src1_md);
            if (p.alg == dnnl_binary_select) s.write(p.src2_md);
            break;
        case dnnl_prelu: s.write(p.prelu_mask); break;
        case dnnl_convolution:
            s.write(p.dw_weights_dt);
            s.write(p.dw_bias_dt);
            s.write(p.dw_dst_dt);
            s.write(p.dw_kernel);
            s.write(p.dw_stride);
            s.write(p.dw_padding);
            break;
        default: break;
    }
}

dnnl_fpmath_mode_t global_fpmath_mode() {
    dnnl_fpmath_mode_t mode = dnnl_fpmath_mode_strict;
    dnnl_get_default_fpmath_mode(&mode);
    return mode;
}

std::string float_str(float v) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%g", static_cast<double>(v));
    return buf;
}

std::string indexed(const char *base, int i) {
    return i == 0 ? std::string(base) : base + std::to_string(i);
}

std::string quant_arg_name(int arg) {
    if (arg & DNNL_ARG_ATTR_POST_OP_DW)
        return "attr_post_op_dw_" + quant_arg_name(arg & ~DNNL_ARG_ATTR_POST_OP_DW);
    if (arg >= DNNL_ARG_SRC_0 && arg <= DNNL_ARG_SRC_3)
        return "src" + std::to_string(arg - DNNL_ARG_SRC_0);
    if (arg >= DNNL_ARG_DST_0 && arg <= DNNL_ARG_DST_2) return indexed("dst", arg - DNNL_ARG_DST_0);
    if (arg >= DNNL_ARG_WEIGHTS_0 && arg <= DNNL_ARG_WEIGHTS_3)
        return indexed("wei", arg - DNNL_ARG_WEIGHTS_0);
    if (arg >= DNNL_ARG_DIFF_SRC_0 && arg <= DNNL_ARG_DIFF_SRC_3)
        return indexed("diff_src", arg - DNNL_ARG_DIFF_SRC_0);
    if (arg >= DNNL_ARG_DIFF_DST_0 && arg <= DNNL_ARG_DIFF_DST_2)
        return indexed("diff_dst", arg - DNNL_ARG_DIFF_DST_0);
    if (arg >= DNNL_ARG_DIFF_WEIGHTS_0 && arg <= DNNL_ARG_DIFF_WEIGHTS_3)
        return indexed("diff_wei", arg - DNNL_ARG_DIFF_WEIGHTS_0);
    switch (arg) {
        case DNNL_ARG_BIAS: return "bia";
        case DNNL_ARG_DIFF_BIAS: return "diff_bia";
        case DNNL_ARG_REDUCE: return "reduce";
        case DNNL_ARG_MEAN: return "mean";
        case DNNL_ARG_VARIANCE: return "var";
        case DNNL_ARG_SCALE: return "scale";
        case DNNL_ARG_SHIFT: return "shift";
        case DNNL_ARG_DIFF_SCALE: return "diff_scale";
        case DNNL_ARG_DIFF_SHIFT: return "diff_shift";
        case DNNL_ARG_WORKSPACE: return "ws";
        default: break;
    }
    if (arg >= DNNL_ARG_MULTIPLE_SRC && arg < DNNL_ARG_MULTIPLE_DST)
        return "msrc" + std::to_string(arg - DNNL_ARG_MULTIPLE_SRC);
    if (arg >= DNNL_ARG_MULTIPLE_DST && arg < DNNL_ARG_MULTIPLE_DST + DNNL_ARG_MULTIPLE_SRC)
        return "mdst" + std::to_string(arg - DNNL_ARG_MULTIPLE_DST);
    return "arg" + std::to_string(arg);
}

// "<arg>:<mask>[:<dt>[:<groups>][:<qmode>][:host]]"; the data type is shown only when it or
// something after it differs from the default.
std::string quant_map_str(const std::map<int, quant_entry_t> &m, dnnl_data_type_t default_dt) {
    std::string s;
    for (const auto &e : m) {
        const quant_entry_t &q = e.second;
        if (!s.empty()) s += "+";
        s += quant_arg_name(e.first) + ":" + std::to_string(q.mask);
        const bool plain_qmode = q.qmode == dnnl_quantization_mode_undef
                || q.qmode == dnnl_quantization_mode_static_sazp;
        if (q.data_type == default_dt && q.group_ndims == 0 && plain_qmode && !q.is_host_scalar)
            continue;
        s += ":";
        s += dnnl_dt2str(q.data_type);
        if (q.group_ndims > 0) {
            s += ":";
            for (int i = 0; i < q.group_ndims; ++i) {
                if (i) s += "x";
                s += std::to_string(q.groups[i]);
            }
        }
        if (!plain_qmode) {
            s += ":";
            s += dnnl_quantization_mode2str(q.qmode);
        }
        if (q.is_host_scalar) s += ":host";
    }
    return s;
}

// Broadcast mask of a binary post-op operand: bit d set where the operand is not 1 wide.
int broadcast_mask(const memory_desc_t &md) {
    int mask = 0;
    for (int d = 0; d < md.ndims; ++d)
        if (md.dims[d] != 1) mask |= 1 << d;
    return mask;
}

std::string post_op_str(const post_op_t &p) {
    std::string s;
    switch (p.kind) {
        case dnnl_sum:
            s = "sum:" + float_str(p.sum_scale);
            if (p.sum_zero_point != 0 || p.sum_dt != dnnl_data_type_undef)
                s += ":" + std::to_string(p.sum_zero_point);
            if (p.sum_dt != dnnl_data_type_undef) s += std::string(":") + dnnl_dt2str(p.sum_dt);
            break;
        case dnnl_eltwise:
            s = dnnl_alg_kind2str(p.alg);
            if (p.alpha != 0.f || p.beta != 0.f) s += ":" + float_str(p.alpha);
            if (p.beta != 0.f) s += ":" + float_str(p.beta);
            break;
        case dnnl_binary:
            s = dnnl_alg_kind2str(p.alg);
            s += std::string(":") + dnnl_dt2str(p.src1_md.data_type) + ":"
                    + std::to_string(broadcast_mask(p.src1_md));
            if (p.alg == dnnl_binary_select)
                s += std::string(":") + dnnl_dt2str(p.src2_md.data_type);
            break;
        case dnnl_prelu: s = "prelu:" + std::to_string(p.prelu_mask); break;
        case dnnl_convolution:
            s = "dw:k" + std::to_string(p.dw_kernel) + "s" + std::to_string(p.dw_stride) + "p"
                    + std::to_string(p.dw_padding) + ":" + dnnl_dt2str(p.dw_weights_dt) + ":"
                    + dnnl_dt2str(p.dw_bias_dt) + ":" + dnnl_dt2str(p.dw_dst_dt);
            break;
        default: s = "unknown"; break;
    }
    return s;
}

void append_section(std::string &out, const std::string &section) {
    if (!out.empty()) out += " ";
    out += section;
}

} // namespace

bool quant_entry_t::operator==(const quant_entry_t &o) const {
    serializer_t a, b;
    write_quant(a, *this);
    write_quant(b, o);
    return a.bytes() == b.bytes();
}

// Equality is defined by the serialized bytes, so equal entries always give equal cache
// keys (floats compare bit for bit; fields the kind does not use are not compared).
bool post_op_t::operator==(const post_op_t &o) const {
    serializer_t a, b;
    write_post_op(a, *this);
    write_post_op(b, o);
    return a.bytes() == b.bytes();
}

std::string attr_serialize(const primitive_attr_t &attr) {
    serializer_t s;
    write_quant_map(s, attr.scales);
    write_quant_map(s, attr.zero_points);
    write_quant_map(s, attr.precomputed_reductions);
    s.write(attr.post_ops.entries.size());
    for (const auto &p : attr.post_ops.entries)
        write_post_op(s, p);
    s.write(attr.fpmath_mode);
    s.write(attr.fpmath_apply_to_int);
    s.write(attr.acc_mode);
    s.write(attr.deterministic);
    s.write(attr.scratchpad_mode);
    s.write(attr.rounding.size());
    for (const auto &r : attr.rounding) {
        s.write(r.first);
        s.write(r.second);
    }
    s.write(attr.dropout_enabled);
    if (attr.dropout_enabled) {
        s.write(attr.dropout_mask_md);
        s.write(attr.dropout_seed_dt);
        s.write(attr.dropout_use_offset);
        s.write(attr.dropout_use_host_scalars);
    }
    s.write(attr.rnn_data_scale);
    s.write(attr.rnn_data_shift);
    s.write(attr.rnn_weights_scales);
    s.write(attr.rnn_weights_mask);
    s.write(attr.rnn_weights_projection_scales);
    s.write(attr.rnn_weights_projection_mask);
    return s.bytes();
}

std::string attr_to_string(const primitive_attr_t &attr) {
    std::string out;
    if (attr.acc_mode != dnnl_accumulation_mode_strict)
        append_section(
                out, std::string("attr-acc-mode:") + dnnl_accumulation_mode2str(attr.acc_mode));
    if (attr.deterministic) append_section(out, "attr-deterministic:true");
    if (attr.dropout_enabled) {
        std::string s = "attr-dropout";
        if (attr.dropout_mask_md.ndims > 0)
            s += std::string(":mask_") + dnnl_dt2str(attr.dropout_mask_md.data_type);
        if (attr.dropout_seed_dt != dnnl_s32)
            s += std::string(":seed_") + dnnl_dt2str(attr.dropout_seed_dt);
        if (attr.dropout_use_offset) s += ":offset";
        if (attr.dropout_use_host_scalars) s += ":host";
        append_section(out, s);
    }
    if (!attr.rounding.empty()) {
        std::string s = "attr-rounding-mode:";
        bool first = true;
        for (const auto &r : attr.rounding) {
            if (!first) s += "+";
            first = false;
            s += quant_arg_name(r.first) + ":" + dnnl_rounding_mode2str(r.second);
        }
        append_section(out, s);
    }
    if (!attr.scales.empty())
        append_section(out, "attr-scales:" + quant_map_str(attr.scales, dnnl_f32));
    if (!attr.zero_points.empty())
        append_section(out, "attr-zero-points:" + quant_map_str(attr.zero_points, dnnl_s32));
    if (!attr.precomputed_reductions.empty())
        append_section(out,
                "attr-precomputed-reductions:"
                        + quant_map_str(attr.precomputed_reductions, dnnl_f32));
    if (!attr.post_ops.entries.empty()) {
        std::string s = "attr-post-ops:";
        for (size_t i = 0; i < attr.post_ops.entries.size(); ++i) {
            if (i) s += "+";
            s += post_op_str(attr.post_ops.entries[i]);
        }
        append_section(out, s);
    }
    // Shown whenever math is not strict, also when that comes from the global default:
    // the line should say what the primitive was allowed to do.
    if (attr.fpmath_mode != dnnl_fpmath_mode_strict || attr.fpmath_apply_to_int) {
        std::string s = std::string("attr-fpmath:") + dnnl_fpmath_mode2str(attr.fpmath_mode);
        if (attr.fpmath_apply_to_int) s += ":true";
        append_section(out, s);
    }
    if (attr.rnn_data_scale != 1.f || attr.rnn_data_shift != 0.f)
        append_section(out,
                "attr-rnn-data-qparams:" + float_str(attr.rnn_data_scale) + ":"
                        + float_str(attr.rnn_data_shift));
    if (!attr.rnn_weights_scales.empty())
        append_section(out,
                "attr-rnn-weights-qparams:" + std::to_string(attr.rnn_weights_mask) + ":"
                        + std::to_string(attr.rnn_weights_scales.size()));
    if (!attr.rnn_weights_projection_scales.empty())
        append_section(out,
                "attr-rnn-weights-projection-qparams:"
                        + std::to_string(attr.rnn_weights_projection_mask) + ":"
                        + std::to_string(attr.rnn_weights_projection_scales.size()));
    if (attr.scratchpad_mode != dnnl_scratchpad_mode_library)
        append_section(out,
                std::string("attr-scratchpad:") + dnnl_scratchpad_mode2str(attr.scratchpad_mode));
    return out;
}

} // namespace anydnn

using namespace anydnn;

int dnnl_post_ops::find(dnnl_primitive_kind_t kind, int start) const {
    for (int i = start < 0 ? 0 : start; i < static_cast<int>(entries.size()); ++i)
        if (entries[i].kind == kind) return i;
    return -1;
}

dnnl_primitive_attr::dnnl_primitive_attr() : fpmath_mode(global_fpmath_mode()) {}

bool dnnl_primitive_attr::operator==(const dnnl_primitive_attr &o) const {
    return attr_serialize(*this) == attr_serialize(o);
}

bool dnnl_primitive_attr::has_default_values() const {
    return has_default_values(0);
}

bool dnnl_primitive_attr::has_default_values(unsigned ignore) const {
    auto checked = [ignore](unsigned field) { return (ignore & field) == 0; };
    if (checked(attr_skip::scales) && !scales.empty()) return false;
    if (checked(attr_skip::zero_points) && !zero_points.empty()) return false;
    if (checked(attr_skip::precomputed_reductions) && !precomputed_reductions.empty())
        return false;
    if (checked(attr_skip::post_ops) && !post_ops.entries.empty()) return false;
    if (checked(attr_skip::fpmath)
            && (fpmath_mode != global_fpmath_mode() || fpmath_apply_to_int))
        return false;
    if (checked(attr_skip::acc_mode) && acc_mode != dnnl_accumulation_mode_strict) return false;
    if (checked(attr_skip::deterministic) && deterministic) return false;
    if (checked(attr_skip::scratchpad) && scratchpad_mode != dnnl_scratchpad_mode_library)
        return false;
    if (checked(attr_skip::rounding) && !rounding.empty()) return false;
    if (checked(attr_skip::dropout) && dropout_enabled) return false;
    if (checked(attr_skip::rnn_qparams)
            && (rnn_data_scale != 1.f || rnn_data_shift != 0.f || !rnn_weights_scales.empty()
                    || rnn_weights_mask != 0 || !rnn_weights_projection_scales.empty()
                    || rnn_weights_projection_mask != 0))
        return false;
    return true;
}
