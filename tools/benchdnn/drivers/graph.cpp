// benchdnn --graph --case=FILE.json: builds the graph of a case (oneDNN's graph JSON, as
// ONEDNN_GRAPH_DUMP=graph writes it), partitions it with the fusion policy, compiles every
// partition for the tested engine, runs them in order on random inputs and checks the graph
// outputs against the op-by-op double-precision reference (graph_ref); P mode times the
// compiled partitions.
#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>

#include "batch.hpp"
#include "capture.hpp"
#include "compare.hpp"
#include "data_types.hpp"
#include "driver.hpp"
#include "knob_table.hpp"
#include "fill.hpp"
#include "graph_case.hpp"
#include "graph_constants.hpp"
#include "graph_mem.hpp"
#include "graph_ref.hpp"
#include "graph_rewrite.hpp"
#include "graph_run.hpp"
#include "harness.hpp"
#include "perf.hpp"

namespace benchdnn {

namespace {

using graph_h = handle_t<dnnl_graph_graph_t, dnnl_graph_graph_destroy>;
using gop_h = handle_t<dnnl_graph_op_t, dnnl_graph_op_destroy>;
using partition_h = handle_t<dnnl_graph_partition_t, dnnl_graph_partition_destroy>;
using cpart_h = handle_t<dnnl_graph_compiled_partition_t, dnnl_graph_compiled_partition_destroy>;
using tensor_h = handle_t<dnnl_graph_tensor_t, dnnl_graph_tensor_destroy>;
using lt_t = dnnl_graph_logical_tensor_t;

// A failure the case reports as its result (not a tester error).
struct case_result_t {
    outcome_t outcome;
    std::string reason;
};

lt_t make_lt(const graph_lt_t &g) {
    lt_t lt;
    dnnl_dims_t dims = {}, strides = {};
    for (size_t d = 0; d < g.shape.size(); ++d)
        dims[d] = g.shape[d];
    const int nd = static_cast<int>(g.shape.size());
    if (g.unknown_shape) { // the library infers it
        BENCHDNN_CHECK(dnnl_graph_logical_tensor_init(&lt, g.id, g.dt, DNNL_GRAPH_UNKNOWN_NDIMS,
                g.layout == dnnl_graph_layout_type_any ? dnnl_graph_layout_type_any
                                                       : dnnl_graph_layout_type_strided,
                g.property));
    } else if (g.layout == dnnl_graph_layout_type_strided) {
        for (size_t d = 0; d < g.stride.size(); ++d)
            strides[d] = g.stride[d];
        BENCHDNN_CHECK(dnnl_graph_logical_tensor_init_with_strides(
                &lt, g.id, g.dt, nd, dims, strides, g.property));
    } else
        BENCHDNN_CHECK(dnnl_graph_logical_tensor_init_with_dims(
                &lt, g.id, g.dt, nd, dims, g.layout, g.property));
    return lt;
}

// The case's op as a library op; the status says what the library thought of it.
dnnl_status_t make_op(const graph_op_t &o, gop_h &op) {
    dnnl_status_t st = dnnl_graph_op_create(op.out(), o.id, o.kind, o.name.c_str());
    for (const auto &a : o.attrs) {
        if (st != dnnl_success) return st;
        switch (a.type) {
        case graph_attr_t::type_t::f32:
        case graph_attr_t::type_t::f32s:
            st = dnnl_graph_op_set_attr_f32(op.get(), a.name, a.f.data(), a.f.size());
            break;
        case graph_attr_t::type_t::s64:
        case graph_attr_t::type_t::s64s:
            st = dnnl_graph_op_set_attr_s64(op.get(), a.name, a.i.data(), a.i.size());
            break;
        case graph_attr_t::type_t::boolean: {
            const uint8_t b = !a.i.empty() && a.i[0] != 0;
            st = dnnl_graph_op_set_attr_bool(op.get(), a.name, &b, 1);
            break;
        }
        case graph_attr_t::type_t::str:
            st = dnnl_graph_op_set_attr_str(op.get(), a.name, a.s.c_str(), a.s.size());
            break;
        }
    }
    for (const auto &lt : o.inputs) {
        if (st != dnnl_success) return st;
        const lt_t l = make_lt(lt);
        st = dnnl_graph_op_add_input(op.get(), &l);
    }
    for (const auto &lt : o.outputs) {
        if (st != dnnl_success) return st;
        const lt_t l = make_lt(lt);
        st = dnnl_graph_op_add_output(op.get(), &l);
    }
    return st;
}

std::vector<lt_t> ports(dnnl_graph_partition_t p, bool inputs) {
    size_t n = 0;
    BENCHDNN_CHECK(inputs ? dnnl_graph_partition_get_input_ports_num(p, &n)
                          : dnnl_graph_partition_get_output_ports_num(p, &n));
    std::vector<lt_t> lts(n);
    if (n)
        BENCHDNN_CHECK(inputs ? dnnl_graph_partition_get_input_ports(p, n, lts.data())
                              : dnnl_graph_partition_get_output_ports(p, n, lts.data()));
    return lts;
}

// Inputs in a range that suits every op that reads them.
fill_range_t input_range(const graph_case_t &c, const graph_lt_t &lt) {
    fill_range_t r;
    if (lt.dt == dnnl_boolean) {
        r.lo = 0;
        r.hi = 1;
        r.integers = true;
        return r;
    }
    if (dt_is_int(lt.dt)) {
        r.lo = lt.dt == dnnl_u8 ? 0 : -8;
        r.hi = lt.dt == dnnl_u8 ? 16 : 8;
        return clamp_range(r, lt.dt);
    }
    r.lo = -1;
    r.hi = 1;
    for (const auto &op : c.ops)
        for (size_t i = 0; i < op.inputs.size(); ++i) {
            if (op.inputs[i].id != lt.id) continue;
            const bool variance = i == 3
                    && (op.kind == dnnl_graph_op_layer_norm_backward
                            || op.kind == dnnl_graph_op_batch_norm_backward);
            const bool positive = op.kind == dnnl_graph_op_log || op.kind == dnnl_graph_op_sqrt
                                  || op.kind == dnnl_graph_op_reciprocal
                                  || (op.kind == dnnl_graph_op_divide && i == 1) || variance;
            if (positive) {
                r.lo = 0.5;
                r.hi = 2;
                r.zero_share = 0;
            }
        }
    return r;
}

// The tolerance of an output of type dt; an f32 output of a graph whose fpmath mode allows
// lower precision gets the tolerance of that precision.
tolerance_t tolerance(dnnl_data_type_t dt, bool transcendental, dnnl_fpmath_mode_t fpmath) {
    if (dt == dnnl_f32) switch (fpmath) {
        case dnnl_fpmath_mode_bf16:
        case dnnl_fpmath_mode_any: dt = dnnl_bf16; break;
        case dnnl_fpmath_mode_f16: dt = dnnl_f16; break;
        case dnnl_fpmath_mode_tf32: dt = dnnl_f16; break; // tf32 keeps f16's 10 mantissa bits
        default: break;
        }
    tolerance_t t;
    switch (dt) {
    case dnnl_bf16: t.eps = 2e-2; break;
    case dnnl_f16: t.eps = 4e-3; break;
    case dnnl_f32: t.eps = transcendental ? 2e-5 : 1e-5; break;
    default: t.int_diff = 1; break; // integers after f32 scaling: one rounding step
    }
    return t;
}

class graph_problem_t {
public:
    graph_problem_t(std::string path, graph_rewrite_t rewrite, std::string repro,
            dnnl_graph_partition_policy_t policy)
        : path_(std::move(path)), rewrite_(std::move(rewrite)), repro_(std::move(repro)),
          policy_(policy) {}
    // A case built by another driver (--sdpa), run the same way.
    graph_problem_t(graph_case_t c, std::string repro, std::map<size_t, double> constants)
        : repro_(std::move(repro)), policy_(dnnl_graph_partition_policy_fusion),
          constants_(std::move(constants)), case_(std::move(c)) {}

    void run() {
        const auto &s = settings();
        const int idx = begin_problem();
        if (s.list) return report_problem(idx, outcome_t::listed, "", repro_);
        if (before_start(idx))
            return report_problem(idx, outcome_t::skipped, "before --start", repro_);
        // A bad case or rewrite is a bad command line (std::invalid_argument).
        bool reinfer = false;
        if (!path_.empty()) {
            case_ = load_graph_case(path_);
            try {
                reinfer = apply_graph_rewrite(case_, rewrite_);
            } catch (const std::invalid_argument &e) {
                throw std::invalid_argument(path_ + ": " + e.what());
            }
        }
        if (!test_engine())
            return report_problem(
                    idx, outcome_t::skipped, engine_name() + " engine not found", repro_);
        try {
            if (reinfer) {
                const case_result_t r = infer_shapes();
                if (r.outcome != outcome_t::passed)
                    return report_problem(idx, r.outcome, r.reason, repro_);
            }
            const case_result_t r = execute();
            report_problem(idx, r.outcome, r.reason, repro_);
        } catch (const missing_entry_error &e) {
            report_problem(idx, outcome_t::unimplemented, e.what(), repro_);
        } catch (const dnnl_error &e) {
            report_problem(idx, outcome_t::failed, e.what(), repro_);
        } catch (const std::exception &e) {
            report_problem(idx, outcome_t::failed, std::string("tester: ") + e.what(), repro_);
        }
    }

private:
    std::string path_;
    graph_rewrite_t rewrite_;
    std::string repro_;
    dnnl_graph_partition_policy_t policy_;
    std::map<size_t, double> constants_; // graph inputs that hold one value everywhere
    graph_case_t case_;
    graph_h graph_;
    std::vector<partition_h> parts_; // in execution order
    std::vector<cpart_h> compiled_;
    std::map<size_t, lt_t> resolved_; // every value's layout, as compiled
    std::map<size_t, std::unique_ptr<graph_buffer_t>> buffers_;
    std::vector<std::vector<tensor_h>> in_ts_, out_ts_;

    std::string ops_of(dnnl_graph_partition_t p) const {
        size_t n = 0;
        dnnl_graph_partition_get_op_num(p, &n);
        std::vector<size_t> ids(n);
        if (n) dnnl_graph_partition_get_ops(p, n, ids.data());
        std::string s;
        for (size_t id : ids)
            for (const auto &op : case_.ops)
                if (op.id == id)
                    s += (s.empty() ? "" : ",") + std::string(graph_op_kind_name(op.kind));
        return s;
    }

    // The shapes a rewrite left unknown, as the library infers them: the rewritten graph is
    // finalized one op per partition, and every port then carries its value's shape.
    case_result_t infer_shapes() {
        graph_h g;
        BENCHDNN_CHECK(dnnl_graph_graph_create_with_fpmath_mode(
                g.out(), settings().engine_kind, case_.fpmath));
        dnnl_status_t st = dnnl_success;
        std::string why;
        std::vector<partition_h> parts;
        {
            stdout_capture_t capture;
            for (const auto &o : case_.ops) {
                gop_h op;
                st = make_op(o, op);
                if (st == dnnl_success) st = dnnl_graph_add_op(g.get(), op.get());
                if (st != dnnl_success) break;
            }
            if (st == dnnl_success) st = dnnl_graph_graph_finalize(g.get());
            if (st == dnnl_success)
                st = dnnl_graph_graph_filter(g.get(), dnnl_graph_partition_policy_debug);
            size_t n = 0;
            if (st == dnnl_success) st = dnnl_graph_graph_get_partition_num(g.get(), &n);
            std::vector<dnnl_graph_partition_t> raw(n);
            if (st == dnnl_success && n)
                st = dnnl_graph_graph_get_partitions(g.get(), n, raw.data());
            if (st == dnnl_success)
                for (auto p : raw)
                    parts.emplace_back(p);
            why = capture.finish();
        }
        if (st != dnnl_success)
            return {outcome_t::failed, std::string("shape inference after the rewrite: ")
                                               + status_name(st) + (why.empty() ? "" : ": " + why)};
        std::map<size_t, lt_t> shapes;
        for (const auto &p : parts)
            for (bool in : {true, false})
                for (const auto &lt : ports(p.get(), in))
                    if (lt.ndims >= 0) shapes[lt.id] = lt;
        for (auto &op : case_.ops)
            for (auto *lts : {&op.inputs, &op.outputs})
                for (auto &lt : *lts) {
                    if (!lt.unknown_shape) continue;
                    auto it = shapes.find(lt.id);
                    if (it == shapes.end())
                        return {outcome_t::failed,
                                "shape inference after the rewrite: tensor "
                                        + std::to_string(lt.id) + " has no shape"};
                    lt.shape.assign(it->second.dims, it->second.dims + it->second.ndims);
                    for (int64_t d : lt.shape)
                        if (d < 0)
                            return {outcome_t::failed, "shape inference after the rewrite: tensor "
                                                               + std::to_string(lt.id)
                                                               + " has an unknown dimension"};
                    if (lt.layout == dnnl_graph_layout_type_strided)
                        lt.stride = dense_strides(lt.shape);
                    lt.unknown_shape = false;
                }
        return {outcome_t::passed, ""};
    }

    case_result_t execute() {
        const auto &s = settings();
        for (const auto &op : case_.ops)
            for (const auto *lts : {&op.inputs, &op.outputs})
                for (const auto &lt : *lts)
                    if (!dt_supported(lt.dt) && lt.dt != dnnl_boolean)
                        return {outcome_t::skipped,
                                "benchdnn does not handle the data type of tensor "
                                        + std::to_string(lt.id)};
        if (s.correctness)
            for (const auto &op : case_.ops) {
                const std::string why = ref_unsupported(op);
                if (!why.empty()) return {outcome_t::skipped, why};
            }
        case_result_t r = build();
        if (r.outcome != outcome_t::passed) return r;
        r = compile();
        if (r.outcome != outcome_t::passed || s.fast) return r;
        make_tensors();

        ref_values_t values;
        for (const auto &kv : pattern_constants(case_))
            constants_.emplace(kv.first, kv.second); // what the caller fixed comes first
        for (const auto &lt : case_.graph_inputs()) {
            ref_value_t &v = values[lt.id];
            v.dims = lt.shape;
            v.dt = lt.dt;
            auto k = constants_.find(lt.id);
            if (k != constants_.end())
                v.v.assign(product(lt.shape), round_to_dt(k->second, lt.dt));
            else
                v.v = fill_values(product(lt.shape), input_range(case_, lt),
                        lt.dt == dnnl_boolean ? dnnl_u8 : lt.dt, 1000 + lt.id);
            buffers_.at(lt.id)->write(v.v);
        }
        BENCHDNN_CHECK(run_once());
        if (s.correctness) {
            ref_run(case_, values);
            const bool transcendental = graph_has_transcendental(case_);
            for (const auto &lt : case_.graph_outputs()) {
                if (!buffers_.count(lt.id))
                    return {outcome_t::failed, "graph output " + std::to_string(lt.id)
                                                       + " is no partition's output port"};
                std::string msg;
                const dnnl_data_type_t dt = lt.dt == dnnl_boolean ? dnnl_u8 : lt.dt;
                const ref_value_t &want = values.at(lt.id);
                if (!compare(buffers_.at(lt.id)->read(), want.v, lt.shape, dt,
                            tolerance(dt, transcendental, case_.fpmath), msg,
                            want.mag.empty() ? nullptr : &want.mag))
                    return {outcome_t::failed, "tensor " + std::to_string(lt.id) + ": " + msg};
            }
        }
        if (s.performance) time_it();
        std::string info = std::to_string(parts_.size()) + " partition(s)";
        return {s.correctness ? outcome_t::passed : outcome_t::executed, s.verbose > 0 ? info : ""};
    }

    case_result_t build() {
        const dnnl_engine_kind_t kind = settings().engine_kind;
        BENCHDNN_CHECK(dnnl_graph_graph_create_with_fpmath_mode(graph_.out(), kind, case_.fpmath));
        if (case_.fpmath_apply_to_int)
            BENCHDNN_CHECK(BENCHDNN_REQUIRE_API(dnnl_graph_graph_set_fpmath_mode)(
                    graph_.get(), case_.fpmath, 1));
        std::string why;
        for (const auto &o : case_.ops) {
            gop_h op;
            dnnl_status_t st;
            {
                stdout_capture_t capture;
                st = make_op(o, op);
                if (st == dnnl_success) st = dnnl_graph_add_op(graph_.get(), op.get());
                why = capture.finish();
            }
            if (st != dnnl_success)
                return {outcome_t::failed,
                        "op " + std::to_string(o.id) + " (" + graph_op_kind_name(o.kind)
                                + "): " + status_name(st) + (why.empty() ? "" : ": " + why)};
        }
        dnnl_status_t st;
        {
            stdout_capture_t capture;
            st = dnnl_graph_graph_finalize(graph_.get());
            if (st == dnnl_success)
                st = dnnl_graph_graph_filter(graph_.get(), policy_);
            why = capture.finish();
        }
        if (st != dnnl_success)
            return {outcome_t::failed,
                    std::string("graph: ") + status_name(st) + (why.empty() ? "" : ": " + why)};
        size_t n = 0;
        BENCHDNN_CHECK(dnnl_graph_graph_get_partition_num(graph_.get(), &n));
        std::vector<dnnl_graph_partition_t> raw(n);
        if (n) BENCHDNN_CHECK(dnnl_graph_graph_get_partitions(graph_.get(), n, raw.data()));
        for (auto p : raw)
            parts_.emplace_back(p);
        for (const auto &p : parts_) {
            uint8_t ok = 0;
            BENCHDNN_CHECK(dnnl_graph_partition_is_supported(p.get(), &ok));
            if (!ok)
                return {outcome_t::unimplemented,
                        "unsupported partition (" + ops_of(p.get()) + ")"};
        }
        return {outcome_t::passed, ""};
    }

    // Compiles the partitions in dependency order; each input port takes the layout its
    // producer was compiled with.
    case_result_t compile() {
        for (const auto &lt : case_.graph_inputs()) {
            graph_lt_t dense = lt;
            dense.layout = dnnl_graph_layout_type_strided;
            if (lt.layout != dnnl_graph_layout_type_strided) dense.stride = dense_strides(lt.shape);
            resolved_[lt.id] = make_lt(dense);
        }
        std::vector<partition_h> order;
        while (!parts_.empty()) {
            auto ready = std::find_if(parts_.begin(), parts_.end(), [&](const partition_h &p) {
                for (const auto &lt : ports(p.get(), true))
                    if (!resolved_.count(lt.id)) return false;
                return true;
            });
            if (ready == parts_.end())
                throw std::runtime_error("partitions depend on each other in a cycle");
            case_result_t r = compile_one(ready->get());
            if (r.outcome != outcome_t::passed) return r;
            order.push_back(std::move(*ready));
            parts_.erase(ready);
        }
        parts_ = std::move(order);
        return {outcome_t::passed, ""};
    }

    case_result_t compile_one(dnnl_graph_partition_t p) {
        std::vector<lt_t> ins = ports(p, true), outs = ports(p, false);
        for (auto &lt : ins)
            lt = resolved_.at(lt.id);
        std::vector<const lt_t *> in_ptrs, out_ptrs;
        for (const auto &lt : ins)
            in_ptrs.push_back(&lt);
        for (const auto &lt : outs)
            out_ptrs.push_back(&lt);
        cpart_h cp;
        BENCHDNN_CHECK(dnnl_graph_compiled_partition_create(cp.out(), p));
        dnnl_status_t st;
        std::string why;
        {
            stdout_capture_t capture;
            st = dnnl_graph_partition_compile(p, cp.get(), ins.size(), in_ptrs.data(), outs.size(),
                    out_ptrs.data(), test_engine());
            why = capture.finish();
        }
        if (st != dnnl_success)
            return {st == dnnl_unimplemented ? outcome_t::unimplemented : outcome_t::failed,
                    "compile (" + ops_of(p) + "): " + status_name(st)
                            + (why.empty() ? "" : ": " + why)};
        for (const auto &lt : outs) {
            lt_t q;
            BENCHDNN_CHECK(dnnl_graph_compiled_partition_query_logical_tensor(cp.get(), lt.id, &q));
            resolved_[lt.id] = q;
        }
        compiled_.push_back(std::move(cp));
        return {outcome_t::passed, ""};
    }

    void make_tensors() {
        for (const auto &r : resolved_)
            buffers_[r.first].reset(new graph_buffer_t(test_engine(), r.second));
        for (const auto &p : parts_) {
            in_ts_.emplace_back();
            out_ts_.emplace_back();
            for (int side = 0; side < 2; ++side)
                for (const auto &port : ports(p.get(), side == 0)) {
                    const graph_buffer_t &b = *buffers_.at(port.id);
                    tensor_h t;
                    BENCHDNN_CHECK(
                            dnnl_graph_tensor_create(t.out(), &b.lt(), test_engine(), b.handle()));
                    (side == 0 ? in_ts_ : out_ts_).back().push_back(std::move(t));
                }
        }
    }

    dnnl_status_t run_once() {
        for (size_t i = 0; i < compiled_.size(); ++i) {
            std::vector<const_dnnl_graph_tensor_t> in, out;
            for (const auto &t : in_ts_[i])
                in.push_back(t.get());
            for (const auto &t : out_ts_[i])
                out.push_back(t.get());
            const dnnl_status_t st = dnnl_graph_compiled_partition_execute(compiled_[i].get(),
                    test_stream(), in.size(), in.data(), out.size(), out.data());
            if (st != dnnl_success) return st;
        }
        return dnnl_stream_wait(test_stream());
    }

    void time_it() {
        perf_result_t r;
        for (bool inputs : {true, false})
            for (const auto &lt : inputs ? case_.graph_inputs() : case_.graph_outputs())
                r.bytes += static_cast<double>(buffers_.at(lt.id)->bytes());
        r.flops = graph_flops(case_);
        r.impl = "graph:" + std::to_string(parts_.size()) + "_partitions";
        r.engine = engine_name();
        r.driver = "graph";
        r.prb = repro_.substr(repro_.find(' ') + 1);
        time_and_print([this] { return run_once(); }, r);
    }
};

// A comma list whose items may be empty ("--op-attrs=,0:kernel:2x2" runs the case as written
// and rewritten).
std::vector<std::string> alternatives(const std::string &value) {
    return split_rewrite(value, ',');
}

class graph_driver_t : public knob_driver_t {
public:
    graph_driver_t() {
        // --policy=debug: one op per partition, the same graph as separate primitives (what
        // the fused partitions are measured against).
        action({"--policy"},
                [this](const std::string &value) {
                    if (value == "fusion")
                        policy_ = dnnl_graph_partition_policy_fusion;
                    else if (value == "debug")
                        policy_ = dnnl_graph_partition_policy_debug;
                    else
                        throw std::invalid_argument("--policy is fusion or debug");
                },
                [this] { policy_ = dnnl_graph_partition_policy_fusion; });
        ignore({"--expected-n-partitions"}, "partition counts are not checked here");
        // The case runs when named, once per combination of the rewriting knobs' values.
        action({"--case"}, [this](const std::string &value) {
            if (value.empty()) throw std::invalid_argument("needs a file name");
            const std::string path = resolve_batch_path(value, settings().batch_dir);
            for_each_problem([&] {
                graph_rewrite_t r;
                r.mb = mb_;
                r.in_shapes = in_shapes_;
                r.op_attrs = op_attrs_;
                r.dt = dt_;
                r.op_kind = op_kind_;
                r.tensor_property = property_;
                r.fpmath = fpmath_;
                const std::string policy
                        = policy_ == dnnl_graph_partition_policy_debug ? "--policy=debug " : "";
                graph_problem_t(path, r, "--graph " + policy + r.knobs() + "--case=" + value,
                        policy_)
                        .run();
            });
        });
    }
    void run(const std::string &desc) override {
        throw std::invalid_argument("--graph takes its problem as --case=FILE.json");
    }

private:
    dnnl_graph_partition_policy_t policy_ = dnnl_graph_partition_policy_fusion;
    // oneDNN's case rewriting (graph_rewrite.hpp): each a list of alternatives.
    const int64_t &mb_ = knob({"--mb"}, {int64_t(0)}, [](const std::string &v) {
        size_t used = 0;
        const int64_t mb = std::stoll(v, &used);
        if (used != v.size() || mb < 0) throw std::invalid_argument("--mb takes N >= 0");
        return mb;
    });
    const std::string &in_shapes_ = knob_list({"--in-shapes", "--io-shapes"}, {""}, alternatives);
    const std::string &op_attrs_ = knob_list({"--op-attrs"}, {""}, alternatives);
    const std::string &dt_ = knob_list({"--dt"}, {""}, alternatives);
    const std::string &op_kind_ = knob_list({"--op-kind"}, {""}, alternatives);
    const std::string &property_ = knob_list({"--tensor-property"}, {""}, alternatives);
    const std::string &fpmath_ = knob_list({"--attr-fpmath"}, {""}, alternatives);
};

} // namespace

void run_graph_case(const graph_case_t &c, const std::string &repro,
        const std::map<size_t, double> &constants) {
    graph_problem_t(c, repro, constants).run();
}

BENCHDNN_REGISTER_DRIVER("graph", graph_driver_t);

} // namespace benchdnn
