// The graph API from fuzzed ops: kinds, attributes of every type and logical tensors (ids
// shared between ops so that chains form, shapes known or not, strided or any), then
// finalize, partition, compile and, where compilation succeeds, execute on the CPU engine.
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "oneapi/dnnl/dnnl_graph.h"

namespace {

dnnl_engine_t engine() {
    static dnnl_engine_t e = [] {
        dnnl_engine_t en = nullptr;
        dnnl_engine_create(&en, dnnl_cpu, 0);
        return en;
    }();
    return e;
}

dnnl_stream_t stream() {
    static dnnl_stream_t s = [] {
        dnnl_stream_t st = nullptr;
        dnnl_stream_create(&st, engine(), dnnl_stream_default_flags);
        return st;
    }();
    return s;
}

// One logical tensor per id, made the first time the id is named; now and then a later use
// disagrees with it, which the graph must refuse.
class tensors_t {
public:
    explicit tensors_t(fuzz::input_t &in) : in_(in) {}
    dnnl_graph_logical_tensor_t get() {
        const size_t id = in_.ConsumeIntegralInRange<size_t>(0, 7);
        auto it = lts_.find(id);
        if (it != lts_.end() && in_.ConsumeIntegralInRange<int>(0, 15) != 0) return it->second;
        dnnl_graph_logical_tensor_t lt {};
        const int nd = in_.ConsumeIntegralInRange<int>(0, 15) == 0
                ? in_.ConsumeIntegralInRange<int>(-1, 13)
                : in_.ConsumeIntegralInRange<int>(0, 4);
        dnnl_dims_t dims {};
        for (int i = 0; i < nd && i < DNNL_MAX_NDIMS; ++i)
            dims[i] = in_.ConsumeIntegralInRange<int>(0, 15) == 0 ? DNNL_GRAPH_UNKNOWN_DIM
                                                                  : in_.dim(6);
        const auto ptype = in_.enum_in<dnnl_graph_tensor_property_t>(0, 3);
        const dnnl_data_type_t dt = in_.data_type();
        switch (in_.ConsumeIntegralInRange<int>(0, 3)) {
            case 0: {
                dnnl_dims_t strides {};
                for (int i = 0; i < nd && i < DNNL_MAX_NDIMS; ++i) strides[i] = in_.dim(40);
                dnnl_graph_logical_tensor_init_with_strides(&lt, id, dt, nd, dims, strides, ptype);
                break;
            }
            case 1:
                dnnl_graph_logical_tensor_init_with_dims(&lt, id, dt, nd, dims,
                        dnnl_graph_layout_type_any, ptype);
                break;
            default:
                dnnl_graph_logical_tensor_init_with_dims(&lt, id, dt, nd, dims,
                        dnnl_graph_layout_type_strided, ptype);
                break;
        }
        if (it == lts_.end()) lts_[id] = lt;
        return lt;
    }

private:
    fuzz::input_t &in_;
    std::map<size_t, dnnl_graph_logical_tensor_t> lts_;
};

void set_attrs(fuzz::input_t &in, dnnl_graph_op_t op) {
    static const char *const words[] = {"NCX", "NXC", "OIX", "XIO", "IOX", "XOI", "none",
            "numpy", "SAME_UPPER", "SAME_LOWER", "VALID", "EXPLICIT", "half_pixel", "nearest",
            "linear", "bilinear", "per_tensor", "per_channel", "per_group", "floor", "ceil",
            "strict", "relaxed", "any", "f32", ""};
    const int n = in.ConsumeIntegralInRange<int>(0, 6);
    for (int i = 0; i < n; ++i) {
        const auto name = in.enum_in<dnnl_graph_op_attr_t>(0, 0x90);
        const size_t len = in.ConsumeIntegralInRange<size_t>(0, 5);
        const int type = name >= 0x80 ? 4 : name >= 0x60 ? 3 : name >= 0x30 ? 2 : 1;
        switch (in.ConsumeIntegralInRange<int>(0, 7) == 0 ? in.ConsumeIntegralInRange<int>(1, 4)
                                                          : type) {
            case 1: {
                std::vector<float> v(len + 1);
                for (auto &x : v) x = in.ConsumeFloatingPointInRange<float>(-4, 4);
                dnnl_graph_op_set_attr_f32(op, name, v.data(), len);
                break;
            }
            case 2: {
                std::vector<int64_t> v(len + 1);
                for (auto &x : v) x = in.dim(4);
                dnnl_graph_op_set_attr_s64(op, name, v.data(), len);
                break;
            }
            case 3: {
                std::vector<uint8_t> v(len + 1);
                for (auto &x : v) x = in.ConsumeIntegral<uint8_t>() % 3;
                dnnl_graph_op_set_attr_bool(op, name, v.data(), len);
                break;
            }
            default: {
                std::string s = in.ConsumeBool() ? std::string(in.PickValueInArray(words))
                                                 : in.ConsumeRandomLengthString(12);
                dnnl_graph_op_set_attr_str(op, name, s.c_str(), s.size());
                break;
            }
        }
    }
}

// Compiles one partition with its own ports as inputs and outputs, and runs it.
void compile_and_run(fuzz::input_t &in, dnnl_graph_partition_t part) {
    uint8_t supported = 0;
    if (dnnl_graph_partition_is_supported(part, &supported) != dnnl_success || !supported) return;
    size_t nin = 0, nout = 0;
    if (dnnl_graph_partition_get_input_ports_num(part, &nin) != dnnl_success
            || dnnl_graph_partition_get_output_ports_num(part, &nout) != dnnl_success
            || nin > 64 || nout > 64)
        return;
    std::vector<dnnl_graph_logical_tensor_t> ins(nin), outs(nout);
    if (dnnl_graph_partition_get_input_ports(part, nin, ins.data()) != dnnl_success
            || dnnl_graph_partition_get_output_ports(part, nout, outs.data()) != dnnl_success)
        return;
    for (auto &o : outs) // let the library choose the layout of some outputs
        if (in.ConsumeBool()) o.layout_type = dnnl_graph_layout_type_any;
    std::vector<const dnnl_graph_logical_tensor_t *> pin, pout;
    for (auto &i : ins) pin.push_back(&i);
    for (auto &o : outs) pout.push_back(&o);
    dnnl_graph_compiled_partition_t cp = nullptr;
    if (dnnl_graph_compiled_partition_create(&cp, part) != dnnl_success) return;
    if (dnnl_graph_partition_compile(part, cp, nin, pin.data(), nout, pout.data(), engine())
            == dnnl_success) {
        std::vector<std::vector<float>> buffers;
        std::vector<dnnl_graph_tensor_t> tin, tout;
        bool ok = true;
        auto make = [&](dnnl_graph_logical_tensor_t lt, std::vector<dnnl_graph_tensor_t> &ts) {
            dnnl_graph_compiled_partition_query_logical_tensor(cp, lt.id, &lt);
            size_t size = 0;
            if (dnnl_graph_logical_tensor_get_mem_size(&lt, &size) != dnnl_success
                    || size > (size_t(16) << 20)) {
                ok = false;
                return;
            }
            buffers.emplace_back(size / sizeof(float) + 1, 0.5f);
            dnnl_graph_tensor_t t = nullptr;
            if (dnnl_graph_tensor_create(&t, &lt, engine(), buffers.back().data())
                    != dnnl_success) {
                ok = false;
                return;
            }
            ts.push_back(t);
        };
        buffers.reserve(nin + nout);
        for (auto &i : ins) make(i, tin);
        for (auto &o : outs) make(o, tout);
        if (ok
                && dnnl_graph_compiled_partition_execute(cp, stream(), tin.size(),
                           const_cast<const_dnnl_graph_tensor_t *>(tin.data()), tout.size(),
                           const_cast<const_dnnl_graph_tensor_t *>(tout.data()))
                        == dnnl_success)
            dnnl_stream_wait(stream());
        for (auto t : tin) dnnl_graph_tensor_destroy(t);
        for (auto t : tout) dnnl_graph_tensor_destroy(t);
    }
    dnnl_graph_compiled_partition_destroy(cp);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz::input_t in(data, size);
    dnnl_graph_graph_t graph = nullptr;
    if (dnnl_graph_graph_create_with_fpmath_mode(&graph, dnnl_cpu,
                in.enum_in<dnnl_fpmath_mode_t>(0, 5)) != dnnl_success)
        return 0;
    tensors_t lts(in);
    const int n_ops = in.ConsumeIntegralInRange<int>(1, 5);
    for (int i = 0; i < n_ops; ++i) {
        dnnl_graph_op_t op = nullptr;
        const auto kind = in.enum_in<dnnl_graph_op_kind_t>(0, dnnl_graph_op_last_symbol);
        if (dnnl_graph_op_create(&op, in.ConsumeIntegralInRange<size_t>(0, 5), kind, "fuzzed")
                != dnnl_success)
            continue;
        for (int k = in.ConsumeIntegralInRange<int>(0, 4); k > 0; --k) {
            auto lt = lts.get();
            dnnl_graph_op_add_input(op, &lt);
        }
        for (int k = in.ConsumeIntegralInRange<int>(0, 2); k > 0; --k) {
            auto lt = lts.get();
            dnnl_graph_op_add_output(op, &lt);
        }
        set_attrs(in, op);
        dnnl_graph_add_op(graph, op);
        dnnl_graph_op_destroy(op);
    }
    if (dnnl_graph_graph_finalize(graph) == dnnl_success) {
        size_t n = 0;
        if (dnnl_graph_graph_get_partition_num(graph, &n) == dnnl_success && n > 0 && n < 64) {
            std::vector<dnnl_graph_partition_t> parts(n);
            if (dnnl_graph_graph_get_partitions(graph, n, parts.data()) == dnnl_success) {
                for (auto p : parts) compile_and_run(in, p);
                for (auto p : parts) dnnl_graph_partition_destroy(p);
            }
        }
    }
    dnnl_graph_graph_destroy(graph);
    return 0;
}
