#include "attr.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "data_types.hpp"
#include "harness.hpp"
#include "knobs.hpp"
#include "names.hpp"
#include "ref_math.hpp"

namespace benchdnn {

namespace {

int arg_of(const std::string &name) {
    static const struct {
        const char *name;
        int arg;
    } args[] = {{"src", DNNL_ARG_SRC}, {"src0", DNNL_ARG_SRC_0}, {"src1", DNNL_ARG_SRC_1},
            {"src2", DNNL_ARG_SRC_2}, {"wei", DNNL_ARG_WEIGHTS}, {"bia", DNNL_ARG_BIAS},
            {"dst", DNNL_ARG_DST}};
    for (const auto &a : args)
        if (name == a.name) return a.arg;
    if (name.rfind("msrc", 0) == 0 && name.size() > 4) {
        int i = static_cast<int>(parse_integer(name.substr(4), "argument index", 0, 1000));
        return DNNL_ARG_MULTIPLE_SRC + i;
    }
    throw std::invalid_argument("unknown argument '" + name + "'");
}

} // namespace

int policy_mask(const std::string &p, int ndims) {
    const int all = (1 << ndims) - 1;
    if (p == "common" || p == "host_scalar") return 0;
    if (!p.empty() && p.find_first_not_of("0123456789") == std::string::npos)
        return static_cast<int>(parse_integer(p, "mask", 0, 0xffff)) & all;
    if (p == "per_ocic") return 3 & all;
    if (p == "per_oc") return 1 << 1;
    if (p == "per_tensor") return all;
    if (p == "per_mb_spatial") return all & ~(1 << 1);
    if (p == "per_mb_w") return 1 | (1 << (ndims - 1));
    if (p == "per_w") return 1 << (ndims - 1);
    if (p.rfind("per_dim_", 0) == 0 && p.size() > 8) {
        int mask = 0;
        for (char c : p.substr(8)) {
            if (c < '0' || c > '9') throw std::invalid_argument("unknown policy '" + p + "'");
            mask |= 1 << (c - '0');
        }
        return mask & all;
    }
    throw std::invalid_argument("unknown policy '" + p + "'");
}

dims_t masked_dims(const dims_t &dims, int mask) {
    dims_t d = dims;
    for (size_t i = 0; i < d.size(); ++i)
        if (!(mask & (1 << i))) d[i] = 1;
    return d;
}

int64_t masked_index(const dims_t &masked, const int64_t *pos) {
    int64_t l = 0;
    for (size_t d = 0; d < masked.size(); ++d)
        l = l * masked[d] + (masked[d] == 1 ? 0 : pos[d]);
    return l;
}

std::vector<post_op_t> parse_post_ops(const std::string &text) {
    std::vector<post_op_t> ops;
    // Older batch files quote the chain and separate it with ';': 'sum;relu'.
    std::string s;
    for (char c : text)
        if (c != '\'' && c != '"') s += c == ';' ? '+' : c;
    if (s.empty()) return ops;
    for (const auto &item : split(s, '+')) {
        auto f = split(item, ':');
        if (f.empty() || f[0].empty()) throw std::invalid_argument("empty post-op");
        post_op_t po;
        std::string name = lowercase(f[0]);
        if (name == "sum") {
            po.kind = post_op_t::kind_t::sum;
            if (f.size() > 1) po.scale = parse_number(f[1], "sum scale");
            if (f.size() > 2) po.zero_point = static_cast<int>(parse_integer(f[2], "sum zero point"));
            if (f.size() > 3) po.dt = str2dt(f[3]);
            if (f.size() > 4) throw std::invalid_argument("too many fields in '" + item + "'");
        } else if (name == "prelu") {
            po.kind = post_op_t::kind_t::prelu;
            if (f.size() > 1) po.policy = f[1];
            policy_mask(po.policy, 4);
            if (f.size() > 2) throw std::invalid_argument("too many fields in '" + item + "'");
        } else if (name == "dw") {
            // dw:kKsSpP[:DT]: a fused depthwise convolution.
            po.kind = post_op_t::kind_t::sum;
            po.unsupported = "the depthwise post-op is not handled by the tester";
            if (f.size() < 2 || f.size() > 5) throw std::invalid_argument("bad post-op '" + item + "'");
        } else if (str2binary_alg(name, po.alg)) {
            po.kind = post_op_t::kind_t::binary;
            // DT:POLICY, or DT.POLICY as some files write it.
            if (f.size() > 1 && f[1].find('.') != std::string::npos) {
                const auto dp = split(f[1], '.');
                f[1] = dp[0];
                f.insert(f.begin() + 2, dp.size() > 1 ? dp[1] : "common");
            }
            po.dt = f.size() > 1 ? str2dt(f[1]) : dnnl_f32;
            if (f.size() > 2) po.policy = f[2];
            if (po.alg == dnnl_binary_select)
                po.unsupported = "the select post-op's condition operand is not handled by the tester";
            policy_mask(po.policy, 4);
            if (f.size() > 3) po.tag = f[3];
            if (f.size() > 4) throw std::invalid_argument("too many fields in '" + item + "'");
        } else if (str2eltwise_alg(name, po.alg)) {
            po.kind = post_op_t::kind_t::eltwise;
            if (f.size() > 1) po.alpha = parse_number(f[1], "alpha");
            if (f.size() > 2) po.beta = parse_number(f[2], "beta");
            if (f.size() > 4) throw std::invalid_argument("too many fields in '" + item + "'");
            // Older files scale the eltwise result (ALG:ALPHA:BETA:SCALE), which the v3 API
            // left out: the same value comes from a linear post-op after it.
            const double scale = f.size() > 3 ? parse_number(f[3], "scale") : 1;
            if (scale != 1) {
                ops.push_back(po);
                po = post_op_t();
                po.kind = post_op_t::kind_t::eltwise;
                po.alg = dnnl_eltwise_linear;
                po.alpha = scale;
            }
        } else
            throw std::invalid_argument("unknown post-op '" + f[0] + "'");
        ops.push_back(po);
    }
    return ops;
}

std::vector<quant_entry_t> parse_quant(const std::string &s, bool zero_points) {
    std::vector<quant_entry_t> out;
    if (s.empty()) return out;
    for (const auto &item : split(s, '+')) {
        auto f = split(item, ':');
        if (f.size() < 2) throw std::invalid_argument("'" + item + "' needs ARG:POLICY");
        quant_entry_t e;
        e.arg_name = f[0];
        e.arg = arg_of(f[0]);
        e.policy = f[1];
        policy_mask(e.policy, 4);
        e.value = zero_points ? 0 : 1;
        // ARG:POLICY[:VALUE][:DT][:GROUPS]; older files mark a run-time value with '*'.
        size_t next = 2;
        if (f.size() > next && !f[next].empty()
                && std::string("0123456789-+.").find(f[next][0]) != std::string::npos) {
            std::string v = f[next];
            if (v.back() == '*') v.pop_back();
            e.value = parse_number(v, zero_points ? "zero point" : "scale");
            ++next;
        }
        if (f.size() > next) e.dt = str2dt(f[next++]);
        if (f.size() > next) {
            e.groups = parse_dims(f[next++]);
            for (auto g : e.groups)
                if (g < 1) throw std::invalid_argument("bad groups in '" + item + "'");
        }
        if (f.size() > next) throw std::invalid_argument("too many fields in '" + item + "'");
        out.push_back(e);
    }
    return out;
}

void parse_fpmath(const std::string &s, attr_desc_t &a) {
    a.has_fpmath = !s.empty();
    a.fpmath_str = s;
    if (s.empty()) return;
    auto f = split(s, ':');
    std::string m = lowercase(f[0]);
    if (m == "strict") a.fpmath = dnnl_fpmath_mode_strict;
    else if (m == "bf16") a.fpmath = dnnl_fpmath_mode_bf16;
    else if (m == "f16" || m == "fp16") a.fpmath = dnnl_fpmath_mode_f16;
    else if (m == "tf32") a.fpmath = dnnl_fpmath_mode_tf32;
    else if (m == "any") a.fpmath = dnnl_fpmath_mode_any;
    else throw std::invalid_argument("unknown fpmath mode '" + f[0] + "'");
    a.fpmath_apply_to_int = f.size() > 1 && (f[1] == "true" || f[1] == "1");
}

std::string attr_desc_t::unsupported() const {
    for (const auto &p : post_ops)
        if (!p.unsupported.empty()) return p.unsupported;
    for (const auto *q : {&scales, &zero_points})
        for (const auto &e : *q)
            if (!e.unsupported.empty()) return e.unsupported;
    return {};
}

bool attr_desc_t::is_default() const {
    return post_ops.empty() && scales.empty() && zero_points.empty() && !has_fpmath;
}

std::string attr_desc_t::repro() const {
    std::string r;
    if (!post_ops_str.empty()) r += " --attr-post-ops=" + post_ops_str;
    if (!scales_str.empty()) r += " --attr-scales=" + scales_str;
    if (!zero_points_str.empty()) r += " --attr-zero-points=" + zero_points_str;
    if (!fpmath_str.empty()) r += " --attr-fpmath=" + fpmath_str;
    return r;
}

const quant_entry_t *attr_desc_t::scale(int arg) const {
    for (const auto &e : scales)
        if (e.arg == arg) return &e;
    return nullptr;
}

const quant_entry_t *attr_desc_t::zero_point(int arg) const {
    for (const auto &e : zero_points)
        if (e.arg == arg) return &e;
    return nullptr;
}

attr_bundle_t::attr_bundle_t(const attr_desc_t &a, const dims_t &dst_dims,
        std::function<dims_t(int arg)> arg_dims)
    : desc_(a), dst_dims_(dst_dims) {
    const int nd = static_cast<int>(dst_dims.size());
    BENCHDNN_CHECK(dnnl_primitive_attr_create(attr_.out()));
    if (!a.post_ops.empty()) {
        post_ops_h po;
        BENCHDNN_CHECK(dnnl_post_ops_create(po.out()));
        for (size_t i = 0; i < a.post_ops.size(); ++i) {
            const auto &p = a.post_ops[i];
            operand_t op;
            op.arg = 0;
            switch (p.kind) {
                case post_op_t::kind_t::sum:
                    BENCHDNN_CHECK(dnnl_post_ops_append_sum(po.get(), static_cast<float>(p.scale),
                            p.zero_point, p.dt));
                    break;
                case post_op_t::kind_t::eltwise:
                    BENCHDNN_CHECK(dnnl_post_ops_append_eltwise(po.get(), p.alg,
                            static_cast<float>(p.alpha), static_cast<float>(p.beta)));
                    break;
                case post_op_t::kind_t::binary: {
                    op.arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(static_cast<int>(i)) | DNNL_ARG_SRC_1;
                    op.dims = masked_dims(dst_dims, policy_mask(p.policy, nd));
                    dnnl_format_tag_t tag = dnnl_format_tag_undef;
                    if (!p.tag.empty() && p.tag != "abx" && p.tag != "any") {
                        if (!str2tag(p.tag, tag))
                            throw std::invalid_argument("unknown tag '" + p.tag + "'");
                        BENCHDNN_CHECK(dnnl_memory_desc_create_with_tag(
                                op.md.out(), nd, op.dims.data(), p.dt, tag));
                    } else {
                        dims_t st = dense_strides(op.dims);
                        BENCHDNN_CHECK(dnnl_memory_desc_create_with_strides(
                                op.md.out(), nd, op.dims.data(), p.dt, st.data()));
                    }
                    BENCHDNN_CHECK(dnnl_post_ops_append_binary(po.get(), p.alg, op.md.get()));
                    break;
                }
                case post_op_t::kind_t::prelu: {
                    int mask = policy_mask(p.policy, nd);
                    op.arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(static_cast<int>(i))
                            | DNNL_ARG_WEIGHTS;
                    op.dims = masked_dims(dst_dims, mask);
                    dims_t st = dense_strides(op.dims);
                    BENCHDNN_CHECK(dnnl_memory_desc_create_with_strides(
                            op.md.out(), nd, op.dims.data(), dnnl_f32, st.data()));
                    BENCHDNN_CHECK(dnnl_post_ops_append_prelu(po.get(), mask));
                    break;
                }
            }
            operands_.push_back(std::move(op));
        }
        BENCHDNN_CHECK(dnnl_primitive_attr_set_post_ops(attr_.get(), po.get()));
    }
    auto add_quant = [&](const quant_entry_t &e, bool zp) {
        quant_data_t q;
        q.arg = e.arg;
        q.arg_dims = arg_dims(e.arg);
        q.mask = policy_mask(e.policy, static_cast<int>(q.arg_dims.size()));
        q.dims = masked_dims(q.arg_dims, q.mask);
        // Groups cover the last dims; a dim the mask leaves out keeps its single value.
        const int nd_arg = static_cast<int>(q.arg_dims.size());
        const int ng = static_cast<int>(e.groups.size());
        if (ng > nd_arg)
            throw std::invalid_argument("groups of " + e.arg_name + " have more dims than it");
        q.group.assign(q.arg_dims.size(), 1);
        for (int g = 0; g < ng; ++g) {
            const int d = nd_arg - ng + g;
            q.group[d] = e.groups[g];
            if (q.dims[d] > 1) q.dims[d] = std::max<int64_t>(1, q.dims[d] / e.groups[g]);
        }
        dnnl_data_type_t dt = e.dt == dnnl_data_type_undef ? (zp ? dnnl_s32 : dnnl_f32) : e.dt;
        const bool plain = e.dt == dnnl_data_type_undef && e.groups.empty();
        const dnnl_dim_t *groups = ng ? e.groups.data() : nullptr;
        if (zp) {
            if (plain)
                BENCHDNN_CHECK(dnnl_primitive_attr_set_zero_points_mask(attr_.get(), e.arg, q.mask));
            else
                BENCHDNN_CHECK(BENCHDNN_REQUIRE_API(dnnl_primitive_attr_set_zero_points)(
                        attr_.get(), e.arg, q.mask, ng, groups, dt));
        } else {
            if (plain)
                BENCHDNN_CHECK(dnnl_primitive_attr_set_scales_mask(attr_.get(), e.arg, q.mask));
            else
                BENCHDNN_CHECK(BENCHDNN_REQUIRE_API(dnnl_primitive_attr_set_scales)(
                        attr_.get(), e.arg, q.mask, ng, groups, dt));
        }
        // Per-channel values vary (powers of two for scales keep products exact).
        const int64_t n = product(q.dims);
        q.values.resize(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) {
            double v = q.mask == 0 ? e.value
                    : zp           ? e.value + static_cast<double>(i % 3) - 1
                                   : e.value * std::ldexp(1.0, static_cast<int>(i % 5) - 2);
            q.values[i] = round_to_dt(v, dt);
        }
        (zp ? zero_points_ : scales_).push_back(std::move(q));
    };
    for (const auto &e : a.scales) add_quant(e, false);
    for (const auto &e : a.zero_points) add_quant(e, true);
    if (a.has_fpmath) {
        auto v2 = BENCHDNN_API(dnnl_primitive_attr_set_fpmath_mode_v2);
        if (v2)
            BENCHDNN_CHECK(v2(attr_.get(), a.fpmath, a.fpmath_apply_to_int));
        else
            BENCHDNN_CHECK(dnnl_primitive_attr_set_fpmath_mode(attr_.get(), a.fpmath));
    }
}

fill_range_t attr_bundle_t::operand_range(const post_op_t &po) {
    fill_range_t r;
    if (po.kind == post_op_t::kind_t::prelu) {
        r.lo = -1;
        r.hi = 1;
        return r;
    }
    r.lo = -4;
    r.hi = 4;
    if (po.alg == dnnl_binary_div) {
        r.lo = 0.5;
        r.hi = 4;
        r.random_sign = true;
    } else if (binary_is_compare(po.alg) || po.alg == dnnl_binary_max
            || po.alg == dnnl_binary_min)
        r.integers = true;
    return r;
}

void attr_bundle_t::prepare(args_t &args) {
    if (args.has(DNNL_ARG_DST)) dst_dt_ = args.at(DNNL_ARG_DST).dt();
    for (size_t i = 0; i < operands_.size(); ++i) {
        auto &op = operands_[i];
        if (!op.md) continue;
        auto &m = args.add(op.arg, op.md.get());
        fill_range_t r = clamp_range(operand_range(desc_.post_ops[i]), m.dt());
        op.values = fill_values(m.nelems(), r, m.dt(), 1000 + i);
        m.write(op.values);
    }
    auto add_quant = [&](const quant_data_t &q, int base, dnnl_data_type_t dt) {
        md_h md;
        dnnl_dims_t d = {static_cast<dnnl_dim_t>(q.values.size())};
        dnnl_dims_t s = {1};
        BENCHDNN_CHECK(dnnl_memory_desc_create_with_strides(md.out(), 1, d, dt, s));
        args.add(base | q.arg, md.get()).write(q.values);
    };
    for (const auto &q : scales_) {
        auto *e = desc_.scale(q.arg);
        add_quant(q, DNNL_ARG_ATTR_SCALES, e->dt == dnnl_data_type_undef ? dnnl_f32 : e->dt);
    }
    for (const auto &q : zero_points_) {
        auto *e = desc_.zero_point(q.arg);
        add_quant(q, DNNL_ARG_ATTR_ZERO_POINTS, e->dt == dnnl_data_type_undef ? dnnl_s32 : e->dt);
    }
}

double attr_bundle_t::masked_value(
        const dims_t &dims, const std::vector<double> &v, const int64_t *pos) {
    return v[static_cast<size_t>(masked_index(dims, pos))];
}

const attr_bundle_t::quant_data_t *attr_bundle_t::find(
        const std::vector<quant_data_t> &q, int arg) const {
    for (const auto &e : q)
        if (e.arg == arg) return &e;
    return nullptr;
}

double attr_bundle_t::quant_data_t::at(const int64_t *pos) const {
    int64_t l = 0;
    for (size_t d = 0; d < dims.size(); ++d)
        l = l * dims[d] + (dims[d] == 1 ? 0 : pos[d] / group[d]);
    return values[static_cast<size_t>(l)];
}

double attr_bundle_t::scale(int arg, const int64_t *pos) const {
    auto *q = find(scales_, arg);
    return q ? q->at(pos) : 1.0;
}

double attr_bundle_t::zero_point(int arg, const int64_t *pos) const {
    auto *q = find(zero_points_, arg);
    return q ? q->at(pos) : 0.0;
}

bool attr_bundle_t::has_sum() const {
    for (const auto &p : desc_.post_ops)
        if (p.kind == post_op_t::kind_t::sum) return true;
    return false;
}

double attr_bundle_t::apply_post_ops(double d, const int64_t *pos, double prev) const {
    for (size_t i = 0; i < desc_.post_ops.size(); ++i) {
        const auto &p = desc_.post_ops[i];
        switch (p.kind) {
            case post_op_t::kind_t::sum: {
                // A sum data type reads dst's bytes as that type (one of the same size).
                double pv = prev;
                if (p.dt != dnnl_data_type_undef && dst_dt_ != dnnl_data_type_undef
                        && p.dt != dst_dt_ && dt_size(p.dt) == dt_size(dst_dt_)) {
                    unsigned char bytes[8] = {};
                    store_elem(bytes, 0, dst_dt_, prev);
                    pv = load_elem(bytes, 0, p.dt);
                }
                d += p.scale * (pv - p.zero_point);
                break;
            }
            case post_op_t::kind_t::eltwise: d = eltwise_fwd(p.alg, d, p.alpha, p.beta); break;
            case post_op_t::kind_t::binary:
                d = binary_op(p.alg, d, masked_value(operands_[i].dims, operands_[i].values, pos));
                break;
            case post_op_t::kind_t::prelu: {
                double w = masked_value(operands_[i].dims, operands_[i].values, pos);
                d = d > 0 ? d : d * w;
                break;
            }
        }
    }
    return d;
}

} // namespace benchdnn
