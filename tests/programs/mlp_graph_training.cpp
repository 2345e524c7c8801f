// A three-layer perceptron trained through the graph API alone, in the style of oneDNN's graph
// examples: logical tensors and ops by id, one graph for the forward and one for the backward,
// each partitioned, compiled once and executed every step.
//
//   forward:  h1 = x W1 + b1, a1 = ReLU(h1), n1 = LayerNorm(a1) (keeping its statistics),
//             h2 = n1 W2 + b2, a2 = GELU(h2), h3 = a2 W3 + b3, y = Sigmoid(h3)
//   loss:     mean over the batch of 0.5 * |y - target|^2, so dy = (y - target) / N
//   backward: SigmoidBackward (from y), BiasAddBackward, MatMuls for the weights and data
//             gradients, GELUBackward (from h2), LayerNormBackward (diff_gamma, diff_beta),
//             ReLUBackward (from a1)
//
// Every step the program checks y and all eleven gradients against plain loops in double, then
// takes an SGD step on the host; the loss must fall to under half its first value.
// Usage: mlp_graph_training [cpu|gpu]; exits 0 when the results match, 1 when they do not, 77
// when the engine is absent.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_graph.hpp"
#include "oneapi/dnnl/dnnl_ocl.hpp"

using namespace dnnl::graph;
using data_type = logical_tensor::data_type;
using layout_type = logical_tensor::layout_type;
using dims = logical_tensor::dims;

namespace {

// Batch, input width, the two hidden widths and the output width: odd on purpose.
const int64_t N = 9, IN = 5, H1 = 7, H2 = 6, OUT = 3;
const float EPS = 1e-5f, LR = 0.5f;
const int STEPS = 40;

// The model's parameters, by their names in the graphs.
struct params_t {
    std::vector<float> w1, b1, gamma, beta, w2, b2, w3, b3;
};

std::vector<float> uniform(size_t n, unsigned seed, float lo, float hi) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (float &x : v)
        x = dist(gen);
    return v;
}

// The logical tensors of both graphs, ids assigned in order as oneDNN's examples do.
struct tensors_t {
    size_t next = 0;
    logical_tensor make(const dims &shape) {
        return logical_tensor(next++, data_type::f32, shape, layout_type::strided);
    }
    // forward
    logical_tensor x = make({N, IN}), w1 = make({IN, H1}), b1 = make({H1}), h1b = make({N, H1}),
                   h1 = make({N, H1}), a1 = make({N, H1}), gamma = make({H1}),
                   beta = make({H1}), n1 = make({N, H1}), mean = make({N}), var = make({N}),
                   w2 = make({H1, H2}), b2 = make({H2}), h2m = make({N, H2}),
                   h2 = make({N, H2}), a2 = make({N, H2}), w3 = make({H2, OUT}),
                   b3 = make({OUT}), h3m = make({N, OUT}), h3 = make({N, OUT}),
                   y = make({N, OUT});
    // backward
    logical_tensor dy = make({N, OUT}), dh3 = make({N, OUT}), dw3 = make({H2, OUT}),
                   db3 = make({OUT}), da2 = make({N, H2}), dh2 = make({N, H2}),
                   dw2 = make({H1, H2}), db2 = make({H2}), dn1 = make({N, H1}),
                   da1 = make({N, H1}), dgamma = make({H1}), dbeta = make({H1}),
                   dh1 = make({N, H1}), dw1 = make({IN, H1}), db1 = make({H1});
};

op matmul(size_t id, const logical_tensor &a, const logical_tensor &b, const logical_tensor &c,
        bool ta, bool tb, const char *name) {
    op m(id, op::kind::MatMul, {a, b}, {c}, name);
    m.set_attr<bool>(op::attr::transpose_a, ta);
    m.set_attr<bool>(op::attr::transpose_b, tb);
    return m;
}

void build_forward(graph &g, const tensors_t &t) {
    g.add_op(matmul(0, t.x, t.w1, t.h1b, false, false, "fc1"));
    g.add_op(op(1, op::kind::BiasAdd, {t.h1b, t.b1}, {t.h1}, "fc1_bias"));
    g.add_op(op(2, op::kind::ReLU, {t.h1}, {t.a1}, "relu"));
    op ln(3, op::kind::LayerNorm, {t.a1, t.gamma, t.beta}, {t.n1, t.mean, t.var}, "norm");
    ln.set_attr<bool>(op::attr::keep_stats, true);
    ln.set_attr<int64_t>(op::attr::begin_norm_axis, -1);
    ln.set_attr<float>(op::attr::epsilon, EPS);
    g.add_op(ln);
    g.add_op(matmul(4, t.n1, t.w2, t.h2m, false, false, "fc2"));
    g.add_op(op(5, op::kind::BiasAdd, {t.h2m, t.b2}, {t.h2}, "fc2_bias"));
    g.add_op(op(6, op::kind::GELU, {t.h2}, {t.a2}, "gelu"));
    // GELUBackward reads h2: an End keeps it an output instead of folding GELU into fc2.
    g.add_op(op(7, op::kind::End, {t.h2}, {}, "keep_h2"));
    g.add_op(matmul(8, t.a2, t.w3, t.h3m, false, false, "fc3"));
    g.add_op(op(9, op::kind::BiasAdd, {t.h3m, t.b3}, {t.h3}, "fc3_bias"));
    g.add_op(op(10, op::kind::Sigmoid, {t.h3}, {t.y}, "sigmoid"));
}

void build_backward(graph &g, const tensors_t &t) {
    op sig(20, op::kind::SigmoidBackward, {t.y, t.dy}, {t.dh3}, "sigmoid_bwd");
    sig.set_attr<bool>(op::attr::use_dst, true);
    g.add_op(sig);
    g.add_op(matmul(21, t.a2, t.dh3, t.dw3, true, false, "fc3_bwd_weights"));
    g.add_op(op(22, op::kind::BiasAddBackward, {t.dh3}, {t.db3}, "fc3_bwd_bias"));
    g.add_op(matmul(23, t.dh3, t.w3, t.da2, false, true, "fc3_bwd_data"));
    g.add_op(op(24, op::kind::GELUBackward, {t.h2, t.da2}, {t.dh2}, "gelu_bwd"));
    g.add_op(matmul(25, t.n1, t.dh2, t.dw2, true, false, "fc2_bwd_weights"));
    g.add_op(op(26, op::kind::BiasAddBackward, {t.dh2}, {t.db2}, "fc2_bwd_bias"));
    g.add_op(matmul(27, t.dh2, t.w2, t.dn1, false, true, "fc2_bwd_data"));
    op lnb(28, op::kind::LayerNormBackward, {t.a1, t.dn1, t.mean, t.var, t.gamma, t.beta},
            {t.da1, t.dgamma, t.dbeta}, "norm_bwd");
    lnb.set_attr<int64_t>(op::attr::begin_norm_axis, -1);
    lnb.set_attr<float>(op::attr::epsilon, EPS);
    g.add_op(lnb);
    op relu(29, op::kind::ReLUBackward, {t.a1, t.da1}, {t.dh1}, "relu_bwd");
    relu.set_attr<bool>(op::attr::use_dst, true);
    g.add_op(relu);
    g.add_op(matmul(30, t.x, t.dh1, t.dw1, true, false, "fc1_bwd_weights"));
    g.add_op(op(31, op::kind::BiasAddBackward, {t.dh1}, {t.db1}, "fc1_bwd_bias"));
}

// One buffer per logical tensor id on the engine (USM on OpenCL engines, which graph tensors
// require there), with host access through mapping.
class memory_pool_t {
public:
    explicit memory_pool_t(const dnnl::engine &eng) : eng_(eng) {}

    tensor bind(const logical_tensor &lt) {
        auto it = mem_.find(lt.get_id());
        if (it == mem_.end()) {
            const dnnl::memory::desc md({static_cast<int64_t>(lt.get_mem_size())},
                    dnnl::memory::data_type::u8, dnnl::memory::format_tag::a);
            dnnl::memory m = eng_.get_kind() == dnnl::engine::kind::gpu
                    ? dnnl::ocl_interop::make_memory(md, eng_, dnnl::ocl_interop::memory_kind::usm)
                    : dnnl::memory(md, eng_);
            it = mem_.emplace(lt.get_id(), m).first;
        }
        return tensor(lt, eng_, it->second.get_data_handle());
    }
    void write(const logical_tensor &lt, const std::vector<float> &v) {
        bind(lt);
        dnnl::memory &m = mem_.at(lt.get_id());
        void *p = m.map_data();
        std::memcpy(p, v.data(), v.size() * sizeof(float));
        m.unmap_data(p);
    }
    std::vector<float> read(const logical_tensor &lt) {
        dnnl::memory &m = mem_.at(lt.get_id());
        std::vector<float> v(lt.get_mem_size() / sizeof(float));
        void *p = m.map_data();
        std::memcpy(v.data(), p, v.size() * sizeof(float));
        m.unmap_data(p);
        return v;
    }

private:
    dnnl::engine eng_;
    std::map<size_t, dnnl::memory> mem_;
};

// A graph's partitions compiled once, in the order get_partitions gives, with the logical
// tensors each one's ports resolved to.
struct compiled_graph_t {
    std::vector<compiled_partition> parts;
    std::vector<std::vector<logical_tensor>> inputs, outputs;

    // False (the partition reported) when the library does not support one.
    bool compile(graph &g, const dnnl::engine &eng, std::map<size_t, logical_tensor> &known,
            const char *what) {
        g.finalize();
        for (auto &p : g.get_partitions()) {
            if (!p.is_supported()) {
                std::printf("%s: partition %zu (%zu ops) is not supported\n", what, p.get_id(),
                        p.get_ops_num());
                return false;
            }
            std::vector<logical_tensor> ins, outs;
            for (auto &in : p.get_input_ports())
                ins.push_back(known.count(in.get_id()) ? known.at(in.get_id()) : in);
            for (auto &out : p.get_output_ports())
                outs.emplace_back(out.get_id(), out.get_data_type(), out.get_dims(),
                        layout_type::any);
            parts.push_back(p.compile(ins, outs, eng));
            for (auto &out : outs)
                out = parts.back().query_logical_tensor(out.get_id());
            for (auto &out : outs)
                known[out.get_id()] = out;
            inputs.push_back(ins);
            outputs.push_back(outs);
        }
        return true;
    }

    void execute(dnnl::stream &strm, memory_pool_t &pool) {
        for (size_t i = 0; i < parts.size(); ++i) {
            std::vector<tensor> in_ts, out_ts;
            for (auto &lt : inputs[i])
                in_ts.push_back(pool.bind(lt));
            for (auto &lt : outputs[i])
                out_ts.push_back(pool.bind(lt));
            parts[i].execute(strm, in_ts, out_ts);
        }
        strm.wait();
    }
};

// The same model in plain loops, in double.
struct reference_t {
    std::vector<double> h1, a1, mean, rstd, n1, h2, a2, y;
    std::vector<double> dw1, db1, dgamma, dbeta, dw2, db2, dw3, db3;

    static void affine(const std::vector<double> &in, const std::vector<float> &w,
            const std::vector<float> &b, int64_t k, int64_t m, std::vector<double> &out) {
        out.assign(N * m, 0.0);
        for (int64_t n = 0; n < N; ++n)
            for (int64_t j = 0; j < m; ++j) {
                double s = b[j];
                for (int64_t i = 0; i < k; ++i)
                    s += in[n * k + i] * w[i * m + j];
                out[n * m + j] = s;
            }
    }
    static double gelu(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }
    static double gelu_grad(double x) {
        return 0.5 * (1.0 + std::erf(x / std::sqrt(2.0)))
                + x * std::exp(-0.5 * x * x) / std::sqrt(2.0 * 3.14159265358979323846);
    }
    // The weights gradient of in (N x k) to out (N x m) and the bias gradient.
    static void weight_grads(const std::vector<double> &in, const std::vector<double> &dout,
            int64_t k, int64_t m, std::vector<double> &dw, std::vector<double> &db) {
        dw.assign(k * m, 0.0);
        db.assign(m, 0.0);
        for (int64_t n = 0; n < N; ++n)
            for (int64_t j = 0; j < m; ++j) {
                db[j] += dout[n * m + j];
                for (int64_t i = 0; i < k; ++i)
                    dw[i * m + j] += in[n * k + i] * dout[n * m + j];
            }
    }
    static std::vector<double> data_grad(const std::vector<double> &dout,
            const std::vector<float> &w, int64_t k, int64_t m) {
        std::vector<double> din(N * k, 0.0);
        for (int64_t n = 0; n < N; ++n)
            for (int64_t i = 0; i < k; ++i)
                for (int64_t j = 0; j < m; ++j)
                    din[n * k + i] += dout[n * m + j] * w[i * m + j];
        return din;
    }

    void forward(const std::vector<float> &x, const params_t &p) {
        const std::vector<double> xd(x.begin(), x.end());
        affine(xd, p.w1, p.b1, IN, H1, h1);
        a1.resize(h1.size());
        for (size_t i = 0; i < h1.size(); ++i)
            a1[i] = std::max(0.0, h1[i]);
        mean.assign(N, 0.0);
        rstd.assign(N, 0.0);
        n1.resize(a1.size());
        for (int64_t n = 0; n < N; ++n) {
            double m = 0, v = 0;
            for (int64_t c = 0; c < H1; ++c)
                m += a1[n * H1 + c] / H1;
            for (int64_t c = 0; c < H1; ++c)
                v += (a1[n * H1 + c] - m) * (a1[n * H1 + c] - m) / H1;
            mean[n] = m;
            rstd[n] = 1.0 / std::sqrt(v + EPS);
            for (int64_t c = 0; c < H1; ++c)
                n1[n * H1 + c] = (a1[n * H1 + c] - m) * rstd[n] * p.gamma[c] + p.beta[c];
        }
        affine(n1, p.w2, p.b2, H1, H2, h2);
        a2.resize(h2.size());
        for (size_t i = 0; i < h2.size(); ++i)
            a2[i] = gelu(h2[i]);
        std::vector<double> h3;
        affine(a2, p.w3, p.b3, H2, OUT, h3);
        y.resize(h3.size());
        for (size_t i = 0; i < h3.size(); ++i)
            y[i] = 1.0 / (1.0 + std::exp(-h3[i]));
    }

    void backward(const std::vector<float> &x, const std::vector<float> &dy, const params_t &p) {
        std::vector<double> dh3(y.size());
        for (size_t i = 0; i < y.size(); ++i)
            dh3[i] = dy[i] * y[i] * (1.0 - y[i]);
        weight_grads(a2, dh3, H2, OUT, dw3, db3);
        std::vector<double> dh2 = data_grad(dh3, p.w3, H2, OUT);
        for (size_t i = 0; i < dh2.size(); ++i)
            dh2[i] *= gelu_grad(h2[i]);
        weight_grads(n1, dh2, H1, H2, dw2, db2);
        const std::vector<double> dn1 = data_grad(dh2, p.w2, H1, H2);
        dgamma.assign(H1, 0.0);
        dbeta.assign(H1, 0.0);
        std::vector<double> dh1(N * H1);
        for (int64_t n = 0; n < N; ++n) {
            double s1 = 0, s2 = 0;
            for (int64_t c = 0; c < H1; ++c) {
                const double xhat = (a1[n * H1 + c] - mean[n]) * rstd[n];
                const double g = p.gamma[c] * dn1[n * H1 + c];
                dgamma[c] += dn1[n * H1 + c] * xhat;
                dbeta[c] += dn1[n * H1 + c];
                s1 += g;
                s2 += g * xhat;
            }
            for (int64_t c = 0; c < H1; ++c) {
                const double xhat = (a1[n * H1 + c] - mean[n]) * rstd[n];
                const double g = p.gamma[c] * dn1[n * H1 + c];
                const double da1 = rstd[n] * (g - s1 / H1 - xhat * s2 / H1);
                dh1[n * H1 + c] = a1[n * H1 + c] > 0 ? da1 : 0.0;
            }
        }
        weight_grads(std::vector<double>(x.begin(), x.end()), dh1, IN, H1, dw1, db1);
    }
};

bool close(const char *what, int step, const std::vector<float> &got,
        const std::vector<double> &want, double tol) {
    if (got.size() != want.size()) {
        std::printf("step %d, %s: %zu values, expected %zu\n", step, what, got.size(),
                want.size());
        return false;
    }
    double scale = 1e-12;
    for (double w : want)
        scale = std::max(scale, std::fabs(w));
    for (size_t i = 0; i < got.size(); ++i)
        if (!(std::fabs(got[i] - want[i]) <= tol * scale)) {
            std::printf("step %d, %s[%zu] = %.8g, expected %.8g\n", step, what, i, got[i],
                    want[i]);
            return false;
        }
    return true;
}

void sgd(std::vector<float> &w, const std::vector<float> &g) {
    for (size_t i = 0; i < w.size(); ++i)
        w[i] -= LR * g[i];
}

int run(dnnl::engine::kind kind) {
    dnnl::engine eng(kind, 0);
    dnnl::stream strm(eng);
    tensors_t t;

    const auto x = uniform(N * IN, 1, -1.f, 1.f), target = uniform(N * OUT, 2, 0.1f, 0.9f);
    params_t p {uniform(IN * H1, 3, -0.8f, 0.8f), uniform(H1, 4, 0.f, 0.3f),
            uniform(H1, 5, 0.8f, 1.2f), uniform(H1, 6, -0.1f, 0.1f),
            uniform(H1 * H2, 7, -0.6f, 0.6f), uniform(H2, 8, -0.1f, 0.1f),
            uniform(H2 * OUT, 9, -0.6f, 0.6f), uniform(OUT, 10, -0.1f, 0.1f)};

    std::map<size_t, logical_tensor> known;
    graph fwd(kind), bwd(kind);
    build_forward(fwd, t);
    build_backward(bwd, t);
    compiled_graph_t fwd_cp, bwd_cp;
    if (!fwd_cp.compile(fwd, eng, known, "forward")) return 1;
    if (!bwd_cp.compile(bwd, eng, known, "backward")) return 1;

    memory_pool_t pool(eng);
    pool.write(t.x, x);
    reference_t ref;
    double first_loss = 0, loss = 0;
    bool ok = true;
    for (int step = 0; step < STEPS && ok; ++step) {
        pool.write(t.w1, p.w1);
        pool.write(t.b1, p.b1);
        pool.write(t.gamma, p.gamma);
        pool.write(t.beta, p.beta);
        pool.write(t.w2, p.w2);
        pool.write(t.b2, p.b2);
        pool.write(t.w3, p.w3);
        pool.write(t.b3, p.b3);
        fwd_cp.execute(strm, pool);
        const std::vector<float> y = pool.read(t.y);
        ref.forward(x, p);
        ok = close("y", step, y, ref.y, 1e-4);
        std::vector<float> dy(y.size());
        loss = 0;
        for (size_t i = 0; i < y.size(); ++i) {
            dy[i] = (y[i] - target[i]) / float(N);
            loss += 0.5 * (double(y[i]) - target[i]) * (double(y[i]) - target[i]) / N;
        }
        if (step == 0) first_loss = loss;
        pool.write(t.dy, dy);
        bwd_cp.execute(strm, pool);
        ref.backward(x, dy, p);
        const struct {
            const char *name;
            const logical_tensor &lt;
            const std::vector<double> &want;
            std::vector<float> &param;
        } grads[] = {{"dW1", t.dw1, ref.dw1, p.w1}, {"db1", t.db1, ref.db1, p.b1},
                {"dgamma", t.dgamma, ref.dgamma, p.gamma}, {"dbeta", t.dbeta, ref.dbeta, p.beta},
                {"dW2", t.dw2, ref.dw2, p.w2}, {"db2", t.db2, ref.db2, p.b2},
                {"dW3", t.dw3, ref.dw3, p.w3}, {"db3", t.db3, ref.db3, p.b3}};
        for (const auto &g : grads) {
            const std::vector<float> got = pool.read(g.lt);
            ok = ok && close(g.name, step, got, g.want, 1e-4);
            if (ok) sgd(g.param, got);
        }
    }
    if (ok && !(loss < 0.5 * first_loss)) {
        std::printf("the loss fell from %g only to %g in %d steps\n", first_loss, loss, STEPS);
        ok = false;
    }
    std::printf("mlp_graph_training on %s: %zu forward and %zu backward partitions, loss %g -> "
                "%g, %s\n",
            kind == dnnl::engine::kind::cpu ? "cpu" : "gpu", fwd_cp.parts.size(),
            bwd_cp.parts.size(), first_loss, loss, ok ? "passed" : "FAILED");
    return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
    const std::string which = argc > 1 ? argv[1] : "cpu";
    const dnnl::engine::kind kind
            = which == "gpu" ? dnnl::engine::kind::gpu : dnnl::engine::kind::cpu;
    if (dnnl::engine::get_count(kind) == 0) {
        std::printf("no %s engine: skipped\n", which.c_str());
        return 77;
    }
    try {
        return run(kind);
    } catch (const dnnl::error &e) {
        std::printf("oneDNN error: %s (status %d)\n", e.what(), static_cast<int>(e.status));
        return 1;
    }
}
