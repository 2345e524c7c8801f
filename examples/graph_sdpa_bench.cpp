// Benchmark: a scaled dot-product attention graph (Q K^T / sqrt(d) + mask, softmax, x V)
// run as the fused sdpa partition and as separate primitives (debug policy: one partition
// per op), timed interleaved; prints the median of each and their ratio.
// Usage: graph_sdpa_bench [heads=16] [seq=1024] [head_dim=64] [f32|bf16] [iters=10]
//        [scalar|tensor: the scale as a host scalar or a one-element tensor]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl_graph.hpp"

using namespace dnnl::graph;
using dt = logical_tensor::data_type;

namespace {

struct compiled_graph_t {
    std::vector<compiled_partition> cps;
    std::vector<std::vector<logical_tensor>> ins, outs;
};

compiled_graph_t compile(graph &g, partition::policy policy, const dnnl::engine &eng) {
    compiled_graph_t c;
    for (auto &p : g.get_partitions(policy)) {
        auto ins = p.get_input_ports(), outs = p.get_output_ports();
        auto cp = p.compile(ins, outs, eng);
        std::vector<logical_tensor> routs;
        for (auto &o : outs)
            routs.push_back(cp.query_logical_tensor(o.get_id()));
        c.cps.push_back(cp);
        c.ins.push_back(ins);
        c.outs.push_back(routs);
    }
    return c;
}

double run_ms(compiled_graph_t &c, std::map<size_t, std::vector<char>> &buf,
        const dnnl::engine &eng, dnnl::stream &strm) {
    const auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < c.cps.size(); ++i) {
        std::vector<tensor> ti, to;
        for (auto &l : c.ins[i]) {
            if (l.get_property_type() == logical_tensor::property_type::host_scalar)
                ti.push_back(tensor::make_scalar_tensor(l, buf[l.get_id()].data()));
            else
                ti.emplace_back(l, eng, buf[l.get_id()].data());
        }
        for (auto &l : c.outs[i]) {
            buf[l.get_id()].resize(l.get_mem_size());
            to.emplace_back(l, eng, buf[l.get_id()].data());
        }
        c.cps[i].execute(strm, ti, to);
    }
    strm.wait();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
            .count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
    const int64_t H = argc > 1 ? std::atoll(argv[1]) : 16;
    const int64_t S = argc > 2 ? std::atoll(argv[2]) : 1024;
    const int64_t D = argc > 3 ? std::atoll(argv[3]) : 64;
    const dt type = argc > 4 && std::string(argv[4]) == "bf16" ? dt::bf16 : dt::f32;
    const int iters = argc > 5 ? std::atoi(argv[5]) : 10;
    const logical_tensor::dims qd {1, H, S, D}, sd {1, H, S, S};
    auto L = [](size_t id, dt t, const logical_tensor::dims &d) {
        return logical_tensor(id, t, d, logical_tensor::layout_type::strided);
    };
    const bool scalar = !(argc > 6 && std::string(argv[6]) == "tensor");
    const logical_tensor scale = scalar
            ? logical_tensor(3, dt::f32, logical_tensor::dims {},
                    logical_tensor::layout_type::strided,
                    logical_tensor::property_type::host_scalar)
            : logical_tensor(3, dt::f32, logical_tensor::dims {1},
                    logical_tensor::layout_type::strided);
    auto build = [&](graph &g) {
        op qk(1, op::kind::MatMul, {L(0, type, qd), L(1, type, qd)}, {L(5, dt::f32, sd)});
        qk.set_attr(op::attr::transpose_b, true);
        op div(2, op::kind::Divide, {L(5, dt::f32, sd), scale}, {L(6, dt::f32, sd)});
        op add(3, op::kind::Add, {L(6, dt::f32, sd), L(4, dt::f32, {1, 1, S, S})},
                {L(7, dt::f32, sd)});
        op sm(4, op::kind::SoftMax, {L(7, dt::f32, sd)}, {L(8, type, sd)});
        sm.set_attr(op::attr::axis, int64_t(-1));
        op pv(5, op::kind::MatMul, {L(8, type, sd), L(2, type, qd)}, {L(9, type, qd)});
        for (auto *o : {&qk, &div, &add, &sm, &pv})
            g.add_op(*o);
        g.finalize();
    };
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);
    graph gf(dnnl::engine::kind::cpu), gs(dnnl::engine::kind::cpu);
    build(gf);
    build(gs);
    auto fused = compile(gf, partition::policy::fusion, eng);
    auto separate = compile(gs, partition::policy::debug, eng);

    std::map<size_t, std::vector<char>> buf;
    const size_t esz = type == dt::f32 ? 4 : 2;
    for (size_t id : {0, 1, 2}) {
        buf[id].resize(H * S * D * esz);
        for (size_t i = 0; i < buf[id].size(); ++i)
            buf[id][i] = static_cast<char>((i * 2654435761u >> 13) & (esz == 4 ? 0x3f : 0x3c));
    }
    const float sc = std::sqrt((float)D);
    buf[3].resize(4);
    std::memcpy(buf[3].data(), &sc, 4);
    std::vector<float> mask(S * S);
    for (int64_t i = 0; i < S; ++i)
        for (int64_t j = 0; j < S; ++j)
            mask[i * S + j] = j > i ? -INFINITY : 0.f;
    buf[4].resize(mask.size() * 4);
    std::memcpy(buf[4].data(), mask.data(), buf[4].size());

    run_ms(fused, buf, eng, strm); // warm up both
    run_ms(separate, buf, eng, strm);
    std::vector<double> tf, ts;
    for (int i = 0; i < iters; ++i) {
        tf.push_back(run_ms(fused, buf, eng, strm));
        ts.push_back(run_ms(separate, buf, eng, strm));
    }
    std::printf("sdpa heads=%lld seq=%lld head_dim=%lld %s: fused %zu partition(s) %.2f ms "
                "[%.2f..%.2f], separate %zu primitives %.2f ms [%.2f..%.2f], speedup %.2fx\n",
            (long long)H, (long long)S, (long long)D, type == dt::f32 ? "f32" : "bf16",
            fused.cps.size(), median(tf), *std::min_element(tf.begin(), tf.end()),
            *std::max_element(tf.begin(), tf.end()), separate.cps.size(), median(ts),
            *std::min_element(ts.begin(), ts.end()), *std::max_element(ts.begin(), ts.end()),
            median(ts) / median(tf));
    return 0;
}
