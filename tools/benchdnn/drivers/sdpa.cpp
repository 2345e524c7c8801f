// --sdpa: oneDNN benchdnn's scaled dot-product attention problems, "Q:K:V" with Q B x H x S x D,
// K B x Hkv x D x T (already transposed) and V B x Hkv x T x Dv, stated as the graph API's SDPA
// pattern (MatMul, scale, mask, SoftMax, MatMul) and run as --graph runs a case: partitioned,
// compiled, executed and checked against the op-by-op double-precision reference. Grouped
// query attention (Hkv < H) is written in five dimensions, H split as Hkv x H/Hkv, with K and V
// broadcast over the group.
#include <cmath>
#include <limits>

#include "driver.hpp"
#include "graph_run.hpp"
#include "harness.hpp"
#include "knob_table.hpp"
#include "names.hpp"

namespace benchdnn {
namespace {

struct sdpa_cfg_t {
    std::string dir;
    std::vector<dnnl_data_type_t> dt; // one, or Q:K:V:DST
    std::string qtag, ktag, vtag, dtag, mask, scale;
    dnnl_data_type_t mdt;
    int64_t kv_heads;
};

// Strides of a plain tag over dims ("abx" and "any": row-major); empty when the tag is not a
// permutation of the tensor's dimensions.
dims_t plain_strides(const std::string &tag, const dims_t &dims) {
    std::string order = tag;
    if (tag == "abx" || tag == "any") {
        order.clear();
        for (size_t d = 0; d < dims.size(); ++d)
            order += static_cast<char>('a' + d);
    }
    if (order.size() != dims.size()) return {};
    dims_t stride(dims.size(), 0);
    std::vector<bool> seen(dims.size(), false);
    int64_t s = 1;
    for (size_t k = order.size(); k-- > 0;) {
        const int d = order[k] - 'a';
        if (d < 0 || d >= static_cast<int>(dims.size()) || seen[d]) return {};
        seen[d] = true;
        stride[d] = s;
        s *= std::max<int64_t>(dims[d], 1);
    }
    return stride;
}

// dims (and strides) with the head dimension (rank-3) split into heads x group: a tensor read
// by every query head of a group gets a group of 1.
void split_heads(dims_t &dims, dims_t &stride, int64_t kv, int64_t group) {
    const size_t h = dims.size() - 3;
    dims[h] = kv;
    dims.insert(dims.begin() + h + 1, group);
    stride.insert(stride.begin() + h + 1, stride[h]);
    stride[h] *= group;
}

class sdpa_problem_t {
public:
    sdpa_problem_t(const sdpa_cfg_t &c, std::vector<dims_t> dims, std::string name)
        : c_(c), q_(dims[0]), k_(dims[1]), v_(dims[2]), name_(std::move(name)) {}

    void run() {
        const std::string why = unimplemented_reason();
        if (!why.empty()) {
            const auto &s = settings();
            const int idx = begin_problem();
            if (s.list) return report_problem(idx, outcome_t::listed, "", repro());
            return report_problem(idx, outcome_t::unimplemented, why, repro());
        }
        run_graph_case(build(), repro(), constants_);
    }

private:
    sdpa_cfg_t c_;
    dims_t q_, k_, v_;
    std::string name_;
    std::map<size_t, double> constants_;

    dnnl_data_type_t dt(int i) const { return c_.dt.size() == 1 ? c_.dt[0] : c_.dt[i]; }

    std::string repro() const {
        std::string r = "--sdpa ";
        if (c_.dir != "FWD_I") r += "--dir=" + c_.dir + " ";
        std::string dts;
        for (size_t i = 0; i < c_.dt.size(); ++i)
            dts += std::string(i ? ":" : "") + dt2str(c_.dt[i]);
        if (dts != "f32") r += "--dt=" + dts + " ";
        const std::pair<const char *, const std::string *> tags[]
                = {{"qtag", &c_.qtag}, {"ktag", &c_.ktag}, {"vtag", &c_.vtag}, {"dtag", &c_.dtag}};
        for (const auto &t : tags)
            if (*t.second != "abx") r += std::string("--") + t.first + "=" + *t.second + " ";
        if (c_.mask != "none") r += "--mask=" + c_.mask + " ";
        if (c_.scale != "none") r += "--scale=" + c_.scale + " ";
        if (c_.mdt != dnnl_data_type_undef) r += std::string("--mdt=") + dt2str(c_.mdt) + " ";
        if (c_.kv_heads) r += "--kv_head_number=" + std::to_string(c_.kv_heads) + " ";
        r += dims2str(q_) + ":" + dims2str(k_) + ":" + dims2str(v_);
        if (!name_.empty()) r += "n" + name_;
        return r;
    }

    std::string unimplemented_reason() const {
        if (c_.dir != "FWD_I" && c_.dir != "FWD_D" && c_.dir != "FWD_B")
            return "backward attention (" + c_.dir
                   + ": dQ, dK, dV) is not stated as a graph by this driver";
        if (c_.dt.size() != 1 && c_.dt.size() != 4)
            return "--dt takes one type or Q:K:V:DST";
        if (dt(0) != dt(1) || dt(0) != dt(2))
            return "Q, K and V of different types (a quantized K or V) are not stated here";
        for (int i = 0; i < 4; ++i)
            if (dt(i) != dnnl_f32 && dt(i) != dnnl_f16 && dt(i) != dnnl_bf16)
                return std::string("data type ") + dt2str(dt(i))
                       + " (the graph SDPA pattern here is f32, f16 or bf16)";
        const size_t nd = q_.size();
        if (nd < 3 || k_.size() != nd || v_.size() != nd)
            return "Q, K and V need one rank of at least 3 (batch x heads x seq x head size)";
        for (size_t d = 0; d + 3 < nd; ++d)
            if (k_[d] != q_[d] || v_[d] != q_[d])
                return "K and V batch dimensions differ from Q's";
        const int64_t heads = q_[nd - 3], kv = k_[nd - 3];
        if (k_[nd - 2] != q_[nd - 1]) return "K's head size (dims[-2]) differs from Q's";
        if (v_[nd - 2] != k_[nd - 1]) return "V's sequence length differs from K's";
        if (v_[nd - 3] != kv) return "K and V have different head counts";
        if (kv <= 0 || heads % kv != 0) return "query heads are not a multiple of KV heads";
        if (c_.kv_heads && c_.kv_heads != kv)
            return "--kv_head_number differs from the head count of K and V";
        for (const auto *t : {&c_.qtag, &c_.ktag, &c_.vtag, &c_.dtag})
            if (plain_strides(*t, q_).empty())
                return "tag " + *t + " (plain tags of the tensor's rank only)";
        if (product(q_) == 0 || product(k_) == 0 || product(v_) == 0)
            return "zero-size attention";
        return {};
    }

    graph_lt_t lt(size_t id, dnnl_data_type_t t, const dims_t &shape, dims_t stride = {}) const {
        graph_lt_t l;
        l.id = id;
        l.dt = t;
        l.shape = shape;
        l.stride = stride.empty() ? plain_strides("abx", shape) : stride;
        return l;
    }

    graph_op_t op(size_t id, dnnl_graph_op_kind_t kind, std::vector<graph_lt_t> in,
            std::vector<graph_lt_t> out) const {
        graph_op_t o;
        o.id = id;
        o.kind = kind;
        o.name = graph_op_kind_name(kind);
        o.inputs = std::move(in);
        o.outputs = std::move(out);
        return o;
    }

    static graph_attr_t s64_attr(dnnl_graph_op_attr_t name, int64_t v) {
        graph_attr_t a;
        a.name = name;
        a.type = graph_attr_t::type_t::s64;
        a.i = {v};
        return a;
    }

    graph_case_t build() {
        const size_t nd = q_.size();
        const int64_t heads = q_[nd - 3], kv = k_[nd - 3], group = heads / kv;
        const int64_t sq = q_[nd - 2], d = q_[nd - 1], t = k_[nd - 1], dv = v_[nd - 1];
        dims_t qd = q_, kd = k_, vd = v_, od = q_;
        od[nd - 1] = dv;
        dims_t qs = plain_strides(c_.qtag, qd), ks = plain_strides(c_.ktag, kd),
               vs = plain_strides(c_.vtag, vd), os = plain_strides(c_.dtag, od);
        if (group > 1) { // heads -> kv x group; K and V broadcast over the group
            split_heads(qd, qs, kv, group);
            split_heads(od, os, kv, group);
            split_heads(kd, ks, kv, 1);
            split_heads(vd, vs, kv, 1);
        }
        const size_t r = qd.size();
        dims_t sd = qd; // scores: batch x heads [x group] x Sq x T
        sd[r - 1] = t;
        const dnnl_data_type_t st = dt(0);
        const dnnl_data_type_t mt = c_.mdt == dnnl_data_type_undef ? st : c_.mdt;

        graph_case_t c;
        enum : size_t { Q, K, V, S0, SCALE, S1, MASK, S2, P, O, ROW, COL, COND, NEG_INF, LK, LQ,
            ROW_LK, ROW_SHIFT };
        c.ops.push_back(op(0, dnnl_graph_op_matmul, {lt(Q, st, qd, qs), lt(K, dt(1), kd, ks)},
                {lt(S0, st, sd)}));
        // "none" is the library's own 1/sqrt(D); "mul" states it as a multiplier, "div" as
        // the divisor sqrt(D).
        const bool div = c_.scale == "div";
        constants_[SCALE] = div ? std::sqrt(double(d)) : 1.0 / std::sqrt(double(d));
        c.ops.push_back(op(1, div ? dnnl_graph_op_divide : dnnl_graph_op_multiply,
                {lt(S0, st, sd), lt(SCALE, st, {1})}, {lt(S1, st, sd)}));
        size_t scores = S1;
        if (c_.mask.compare(0, 6, "buffer") == 0) {
            dims_t md(r, 1); // buffer_1d: 1 x T; buffer_2d: Sq x T; buffer: every head
            md[r - 1] = t;
            if (c_.mask != "buffer_1d") md[r - 2] = sq;
            if (c_.mask == "buffer") md = sd;
            c.ops.push_back(op(2, dnnl_graph_op_add, {lt(S1, st, sd), lt(MASK, mt, md)},
                    {lt(S2, st, sd)}));
            scores = S2;
        } else if (c_.mask != "none") { // causal: keep key j for row i when i (+ T - Sq) >= j
            graph_op_t row = op(3, dnnl_graph_op_gen_index, {lt(S1, st, sd)},
                    {lt(ROW, dnnl_s32, sd)});
            row.attrs.push_back(s64_attr(dnnl_graph_op_attr_axis, -2));
            graph_op_t col = op(4, dnnl_graph_op_gen_index, {lt(S1, st, sd)},
                    {lt(COL, dnnl_s32, sd)});
            col.attrs.push_back(s64_attr(dnnl_graph_op_attr_axis, -1));
            c.ops.push_back(row);
            c.ops.push_back(col);
            size_t shifted = ROW;
            if (c_.mask == "causal_bottom_right") {
                constants_[LK] = static_cast<double>(t);
                constants_[LQ] = static_cast<double>(sq);
                c.ops.push_back(op(5, dnnl_graph_op_add,
                        {lt(ROW, dnnl_s32, sd), lt(LK, dnnl_s32, {1})}, {lt(ROW_LK, dnnl_s32, sd)}));
                c.ops.push_back(op(6, dnnl_graph_op_subtract,
                        {lt(ROW_LK, dnnl_s32, sd), lt(LQ, dnnl_s32, {1})},
                        {lt(ROW_SHIFT, dnnl_s32, sd)}));
                shifted = ROW_SHIFT;
            }
            c.ops.push_back(op(7, dnnl_graph_op_greater_equal,
                    {lt(shifted, dnnl_s32, sd), lt(COL, dnnl_s32, sd)},
                    {lt(COND, dnnl_boolean, sd)}));
            constants_[NEG_INF] = -std::numeric_limits<double>::infinity();
            c.ops.push_back(op(8, dnnl_graph_op_select,
                    {lt(COND, dnnl_boolean, sd), lt(S1, st, sd), lt(NEG_INF, st, {1})},
                    {lt(S2, st, sd)}));
            scores = S2;
        }
        graph_op_t softmax = op(9, dnnl_graph_op_softmax, {lt(scores, st, sd)}, {lt(P, st, sd)});
        softmax.attrs.push_back(s64_attr(dnnl_graph_op_attr_axis, -1));
        c.ops.push_back(softmax);
        c.ops.push_back(op(10, dnnl_graph_op_matmul, {lt(P, st, sd), lt(V, dt(2), vd, vs)},
                {lt(O, dt(3), od, os)}));
        return c;
    }
};

std::string mask_name(const std::string &v) {
    static const char *names[] = {"none", "buffer", "buffer_1d", "buffer_2d", "causal_top_left",
            "causal_bottom_right"};
    const std::string m = v == "causal:top_left" ? "causal_top_left"
            : v == "causal:bottom_right"         ? "causal_bottom_right"
                                                 : v;
    for (const char *n : names)
        if (m == n) return m;
    throw std::invalid_argument("mask is none, buffer, buffer_1d, buffer_2d, causal_top_left "
                                "or causal_bottom_right");
}

std::string scale_name(const std::string &v) {
    if (v != "none" && v != "mul" && v != "div")
        throw std::invalid_argument("scale is none, mul or div");
    return v;
}

std::string dir_name(const std::string &v) {
    return dir2str(str2dir(v));
}

class sdpa_driver_t : public knob_driver_t {
public:
    void run(const std::string &desc) override {
        // "Q:K:V", optionally followed by a name "nNAME" (oneDNN's shapes_basic).
        std::string body = desc, name = settings().problem_name;
        const size_t at = body.find('n');
        if (at != std::string::npos) {
            if (name.empty()) name = body.substr(at + 1);
            body.resize(at);
        }
        const std::vector<dims_t> dims = parse_dims_list(body);
        if (dims.size() != 3) throw std::invalid_argument("an sdpa problem is Q:K:V");
        for_each_problem([&] {
            sdpa_cfg_t c {dir_, dt_, qtag_, ktag_, vtag_, dtag_, mask_, scale_, mdt_, kv_heads_};
            sdpa_problem_t(c, dims, name).run();
        });
    }

private:
    const std::string &dir_ = knob({"--dir"}, {std::string("FWD_I")}, dir_name);
    const std::vector<dnnl_data_type_t> &dt_
            = knob_list({"--dt"}, {std::vector<dnnl_data_type_t> {dnnl_f32}}, parse_dt_lists);
    const std::string &qtag_ = knob({"--qtag"}, {std::string("abx")}, plain_tag);
    const std::string &ktag_ = knob({"--ktag"}, {std::string("abx")}, plain_tag);
    const std::string &vtag_ = knob({"--vtag"}, {std::string("abx")}, plain_tag);
    const std::string &dtag_ = knob({"--dtag"}, {std::string("abx")}, plain_tag);
    const std::string &mask_
            = knob({"--mask", "--mask_type", "--mask-type"}, {std::string("none")}, mask_name);
    const std::string &scale_
            = knob({"--scale", "--scale_type", "--scale-type"}, {std::string("none")}, scale_name);
    const dnnl_data_type_t &mdt_ = knob({"--mdt"}, {dnnl_data_type_undef}, str2dt);
    const int64_t &kv_heads_ = knob({"--kv_head_number", "--kv-head-number"}, {int64_t(0)},
            [](const std::string &v) { return parse_integer(v, "kv_head_number", 0); });

    static std::string plain_tag(const std::string &v) { return v; }
};

} // namespace

BENCHDNN_REGISTER_DRIVER("sdpa", sdpa_driver_t);

} // namespace benchdnn
