// A transformer block's attention through the graph API, the way oneDNN's graph examples
// build one, and one training step of it. Forward: LayerNorm, the Q, K and V projections,
// heads split by StaticReshape and StaticTranspose, scaled Q K^T with the causal mask as
// oneDNN's documentation writes it (GenIndex of rows and columns, GreaterEqual, Select with
// -inf), SoftMax with its stats output for training, the context times the output
// projection, and the residual Add. Backward: the probabilities recomputed from the masked
// scores and the stats (Exp of Subtract), SoftMaxBackward, and the MatMuls that give the
// gradients of the four projection weights. The program then takes one SGD step and runs the
// forward again.
//
// Every partition is compiled and executed in the order get_partitions gives, with a buffer
// per logical tensor, as users write it. A partition the library does not support is reported
// the way a user sees it and fails the program. Values are checked against plain loops.
// Usage: transformer_block_training [cpu|gpu]; exits 0 when the results match, 1 when they
// do not, 77 when the engine is absent.
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
using dims = logical_tensor::dims;
using ldt = logical_tensor::data_type;

namespace {

// Sizes: odd on purpose. B sequences of S tokens, model width D in H heads of DH.
const int64_t B = 2, S = 5, H = 2, DH = 3, D = H * DH;
const float EPS = 1e-5f, LR = 0.01f;

std::vector<float> random_vector(size_t n, unsigned seed, float range) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-range, range);
    std::vector<float> v(n);
    for (float &x : v)
        x = dist(gen);
    return v;
}

// Value ids of the forward graph.
enum : size_t {
    X, GAMMA, BETA, WQ, WK, WV, WO, SCALE, NEG_INF,
    XN = 10, Q, K, V, Q4R, K4R, V4R, Q4, K4, V4, SCORES, SCALED, ROW, COL, COND, MASKED,
    PROBS, STATS, CTX, CTX_T, CTX2, PROJ, Y,
    // backward graph
    DY = 60, DY2, CTX2D, DWO, DCTX2, DCTXR, DCTX4, DIFF, P, DV4, DP, DS, DSS, DQ4, DK4,
    DQT, DKT, DVT, DQ2, DK2, DV2, XN2, DWQ, DWK, DWV,
};

logical_tensor lt(size_t id, const dims &d, ldt t = ldt::f32) {
    return logical_tensor(id, t, d, logical_tensor::layout_type::strided);
}

// Buffers by value id: engine memory (USM on OpenCL engines) that graph tensors wrap.
struct buffers_t {
    dnnl::engine eng;
    std::map<size_t, dnnl::memory> mem;
    std::map<size_t, logical_tensor> desc;

    dnnl::memory &make(const logical_tensor &l) {
        const dnnl::memory::desc md({static_cast<int64_t>(l.get_mem_size())},
                dnnl::memory::data_type::u8, dnnl::memory::format_tag::a);
        mem[l.get_id()] = eng.get_kind() == dnnl::engine::kind::gpu
                ? dnnl::ocl_interop::make_memory(md, eng, dnnl::ocl_interop::memory_kind::usm)
                : dnnl::memory(md, eng);
        desc.emplace(l.get_id(), l);
        desc.at(l.get_id()) = l;
        return mem[l.get_id()];
    }
    void set(const logical_tensor &l, const std::vector<float> &v) {
        dnnl::memory &m = make(l);
        void *p = m.map_data();
        std::memcpy(p, v.data(), v.size() * sizeof(float));
        m.unmap_data(p);
    }
    std::vector<float> get(size_t id) {
        dnnl::memory &m = mem.at(id);
        std::vector<float> v(desc.at(id).get_mem_size() / sizeof(float));
        void *p = m.map_data();
        std::memcpy(v.data(), p, v.size() * sizeof(float));
        m.unmap_data(p);
        return v;
    }
    tensor wrap(const logical_tensor &l) { return tensor(l, eng, mem.at(l.get_id()).get_data_handle()); }
};

// Compiles and runs every partition of g; false (with the reason printed) when one is not
// supported.
bool run_graph(graph &g, buffers_t &buf, dnnl::stream &strm, const char *what) {
    g.finalize();
    auto parts = g.get_partitions();
    for (auto &p : parts) {
        if (!p.is_supported()) {
            std::printf("%s: partition %zu (%zu ops) is not supported\n", what, p.get_id(),
                    p.get_ops_num());
            return false;
        }
        auto ins = p.get_input_ports();
        std::vector<logical_tensor> in_lts, out_any;
        for (auto &i : ins)
            in_lts.push_back(buf.desc.at(i.get_id()));
        for (auto &o : p.get_output_ports())
            out_any.emplace_back(o.get_id(), o.get_data_type(), o.get_dims(),
                    logical_tensor::layout_type::any);
        compiled_partition cp = p.compile(in_lts, out_any, buf.eng);
        std::vector<tensor> in_ts, out_ts;
        for (auto &l : in_lts)
            in_ts.push_back(buf.wrap(l));
        for (auto &o : out_any) {
            const logical_tensor r = cp.query_logical_tensor(o.get_id());
            buf.make(r);
            out_ts.push_back(buf.wrap(r));
        }
        cp.execute(strm, in_ts, out_ts);
    }
    strm.wait();
    return true;
}

void add(graph &g, op o) {
    g.add_op(o);
}

// The forward graph; keeps (through End ops) what the backward reads.
void build_forward(graph &g) {
    const dims x3 {B, S, D}, w {D, D}, r4 {B, S, H, DH}, h4 {B, H, S, DH}, s4 {B, H, S, S};
    op ln(0, op::kind::LayerNorm, {lt(X, x3), lt(GAMMA, {D}), lt(BETA, {D})}, {lt(XN, x3)});
    ln.set_attr(op::attr::begin_norm_axis, int64_t(-1));
    ln.set_attr(op::attr::keep_stats, false);
    ln.set_attr(op::attr::epsilon, EPS);
    add(g, ln);
    const size_t wid[3] = {WQ, WK, WV}, pid[3] = {Q, K, V}, rid[3] = {Q4R, K4R, V4R},
                 hid[3] = {Q4, K4, V4};
    for (int i = 0; i < 3; ++i) {
        add(g, op(1 + i, op::kind::MatMul, {lt(XN, x3), lt(wid[i], w)}, {lt(pid[i], x3)}));
        op rs(4 + i, op::kind::StaticReshape, {lt(pid[i], x3)}, {lt(rid[i], r4)});
        rs.set_attr(op::attr::shape, r4);
        rs.set_attr(op::attr::special_zero, false);
        add(g, rs);
        op tr(7 + i, op::kind::StaticTranspose, {lt(rid[i], r4)}, {lt(hid[i], h4)});
        tr.set_attr(op::attr::order, std::vector<int64_t> {0, 2, 1, 3});
        add(g, tr);
    }
    op qk(10, op::kind::MatMul, {lt(Q4, h4), lt(K4, h4)}, {lt(SCORES, s4)});
    qk.set_attr(op::attr::transpose_b, true);
    add(g, qk);
    add(g, op(11, op::kind::Multiply, {lt(SCORES, s4), lt(SCALE, {1})}, {lt(SCALED, s4)}));
    // The causal mask: keep column <= row.
    op row(12, op::kind::GenIndex, {lt(SCALED, s4)}, {lt(ROW, s4, ldt::s32)});
    row.set_attr(op::attr::axis, int64_t(-2));
    op col(13, op::kind::GenIndex, {lt(SCALED, s4)}, {lt(COL, s4, ldt::s32)});
    col.set_attr(op::attr::axis, int64_t(-1));
    add(g, row);
    add(g, col);
    add(g, op(14, op::kind::GreaterEqual, {lt(ROW, s4, ldt::s32), lt(COL, s4, ldt::s32)},
                   {lt(COND, s4, ldt::boolean)}));
    add(g, op(15, op::kind::Select,
                   {lt(COND, s4, ldt::boolean), lt(SCALED, s4), lt(NEG_INF, {1})},
                   {lt(MASKED, s4)}));
    op sm(16, op::kind::SoftMax, {lt(MASKED, s4)}, {lt(PROBS, s4), lt(STATS, {B, H, S, 1})});
    sm.set_attr(op::attr::axis, int64_t(-1));
    add(g, sm);
    add(g, op(17, op::kind::MatMul, {lt(PROBS, s4), lt(V4, h4)}, {lt(CTX, h4)}));
    op tr(18, op::kind::StaticTranspose, {lt(CTX, h4)}, {lt(CTX_T, r4)});
    tr.set_attr(op::attr::order, std::vector<int64_t> {0, 2, 1, 3});
    add(g, tr);
    op rs(19, op::kind::StaticReshape, {lt(CTX_T, r4)}, {lt(CTX2, x3)});
    rs.set_attr(op::attr::shape, x3);
    rs.set_attr(op::attr::special_zero, false);
    add(g, rs);
    add(g, op(20, op::kind::MatMul, {lt(CTX2, x3), lt(WO, w)}, {lt(PROJ, x3)}));
    add(g, op(21, op::kind::Add, {lt(PROJ, x3), lt(X, x3)}, {lt(Y, x3)}));
    // What the backward reads becomes an output of the forward.
    size_t end_id = 30;
    for (size_t id : {XN, Q4, K4, V4, MASKED, STATS, CTX2}) {
        const dims d = id == XN || id == CTX2 ? x3 : id == MASKED ? s4 : id == STATS ? dims {B, H, S, 1} : h4;
        add(g, op(end_id++, op::kind::End, {lt(id, d)}, {}));
    }
}

void reshape(graph &g, size_t op_id, size_t in, const dims &din, size_t out, const dims &dout) {
    op rs(op_id, op::kind::StaticReshape, {lt(in, din)}, {lt(out, dout)});
    rs.set_attr(op::attr::shape, dout);
    rs.set_attr(op::attr::special_zero, false);
    g.add_op(rs);
}

void transpose(graph &g, size_t op_id, size_t in, const dims &din, size_t out, const dims &dout) {
    op tr(op_id, op::kind::StaticTranspose, {lt(in, din)}, {lt(out, dout)});
    tr.set_attr(op::attr::order, std::vector<int64_t> {0, 2, 1, 3});
    g.add_op(tr);
}

op matmul(size_t id, size_t a, const dims &da, size_t b, const dims &db, size_t c,
        const dims &dc, bool ta, bool tb) {
    op m(id, op::kind::MatMul, {lt(a, da), lt(b, db)}, {lt(c, dc)});
    m.set_attr(op::attr::transpose_a, ta);
    m.set_attr(op::attr::transpose_b, tb);
    return m;
}

// The backward graph: gradients of WQ, WK, WV and WO from DY.
void build_backward(graph &g) {
    const dims x3 {B, S, D}, x2 {B * S, D}, w {D, D}, r4 {B, S, H, DH}, h4 {B, H, S, DH},
            s4 {B, H, S, S};
    reshape(g, 100, DY, x3, DY2, x2);
    reshape(g, 101, CTX2, x3, CTX2D, x2);
    add(g, matmul(102, CTX2D, x2, DY2, x2, DWO, w, true, false));
    add(g, matmul(103, DY, x3, WO, w, DCTX2, x3, false, true));
    reshape(g, 104, DCTX2, x3, DCTXR, r4);
    transpose(g, 105, DCTXR, r4, DCTX4, h4);
    // The probabilities again, from the masked scores and the forward's stats.
    add(g, op(106, op::kind::Subtract, {lt(MASKED, s4), lt(STATS, {B, H, S, 1})}, {lt(DIFF, s4)}));
    add(g, op(107, op::kind::Exp, {lt(DIFF, s4)}, {lt(P, s4)}));
    add(g, matmul(108, P, s4, DCTX4, h4, DV4, h4, true, false));
    add(g, matmul(109, DCTX4, h4, V4, h4, DP, s4, false, true));
    op smb(110, op::kind::SoftMaxBackward, {lt(DP, s4), lt(P, s4)}, {lt(DS, s4)});
    smb.set_attr(op::attr::axis, int64_t(-1));
    add(g, smb);
    add(g, op(111, op::kind::Multiply, {lt(DS, s4), lt(SCALE, {1})}, {lt(DSS, s4)}));
    add(g, matmul(112, DSS, s4, K4, h4, DQ4, h4, false, false));
    add(g, matmul(113, DSS, s4, Q4, h4, DK4, h4, true, false));
    reshape(g, 114, XN, x3, XN2, x2);
    const size_t h[3] = {DQ4, DK4, DV4}, t[3] = {DQT, DKT, DVT}, f[3] = {DQ2, DK2, DV2},
                 dw[3] = {DWQ, DWK, DWV};
    for (int i = 0; i < 3; ++i) {
        transpose(g, 115 + i, h[i], h4, t[i], r4);
        reshape(g, 118 + i, t[i], r4, f[i], x2);
        add(g, matmul(121 + i, XN2, x2, f[i], x2, dw[i], w, true, false));
    }
}

// Plain loops in double: the forward's values and the weights' gradients.
struct reference_t {
    std::vector<double> xn, q, k, v, probs, stats, ctx, y;
    std::vector<double> dw[4]; // WQ, WK, WV, WO

    void forward(const std::vector<float> &x, const std::vector<float> &gamma,
            const std::vector<float> &beta, const std::vector<float> *wts, double scale) {
        const int64_t T = B * S;
        xn.assign(T * D, 0);
        for (int64_t t = 0; t < T; ++t) {
            double m = 0, var = 0;
            for (int64_t c = 0; c < D; ++c)
                m += x[t * D + c];
            m /= D;
            for (int64_t c = 0; c < D; ++c)
                var += (x[t * D + c] - m) * (x[t * D + c] - m);
            var /= D;
            for (int64_t c = 0; c < D; ++c)
                xn[t * D + c] = (x[t * D + c] - m) / std::sqrt(var + EPS) * gamma[c] + beta[c];
        }
        std::vector<double> *proj[3] = {&q, &k, &v};
        for (int i = 0; i < 3; ++i) {
            proj[i]->assign(T * D, 0);
            for (int64_t t = 0; t < T; ++t)
                for (int64_t o = 0; o < D; ++o)
                    for (int64_t c = 0; c < D; ++c)
                        (*proj[i])[t * D + o] += xn[t * D + c] * wts[i][c * D + o];
        }
        probs.assign(B * H * S * S, 0);
        stats.assign(B * H * S, 0);
        ctx.assign(T * D, 0);
        for (int64_t b = 0; b < B; ++b)
            for (int64_t h = 0; h < H; ++h)
                for (int64_t i = 0; i < S; ++i) {
                    std::vector<double> s(S);
                    double m = -INFINITY, sum = 0;
                    for (int64_t j = 0; j <= i; ++j) {
                        s[j] = 0;
                        for (int64_t e = 0; e < DH; ++e)
                            s[j] += q[(b * S + i) * D + h * DH + e] * k[(b * S + j) * D + h * DH + e];
                        s[j] *= scale;
                        m = std::max(m, s[j]);
                    }
                    for (int64_t j = 0; j <= i; ++j)
                        sum += std::exp(s[j] - m);
                    stats[(b * H + h) * S + i] = m + std::log(sum);
                    for (int64_t j = 0; j <= i; ++j) {
                        const double p = std::exp(s[j] - m) / sum;
                        probs[((b * H + h) * S + i) * S + j] = p;
                        for (int64_t e = 0; e < DH; ++e)
                            ctx[(b * S + i) * D + h * DH + e] += p * v[(b * S + j) * D + h * DH + e];
                    }
                }
        y.assign(T * D, 0);
        for (int64_t t = 0; t < T; ++t)
            for (int64_t o = 0; o < D; ++o) {
                double a = x[t * D + o];
                for (int64_t c = 0; c < D; ++c)
                    a += ctx[t * D + c] * wts[3][c * D + o];
                y[t * D + o] = a;
            }
    }

    void backward(const std::vector<float> &dy, const std::vector<float> *wts, double scale) {
        const int64_t T = B * S;
        for (auto &g : dw)
            g.assign(D * D, 0);
        std::vector<double> dctx(T * D, 0), dq(T * D, 0), dk(T * D, 0), dv(T * D, 0);
        for (int64_t t = 0; t < T; ++t)
            for (int64_t o = 0; o < D; ++o)
                for (int64_t c = 0; c < D; ++c) {
                    dw[3][c * D + o] += ctx[t * D + c] * dy[t * D + o];
                    dctx[t * D + c] += dy[t * D + o] * wts[3][c * D + o];
                }
        for (int64_t b = 0; b < B; ++b)
            for (int64_t h = 0; h < H; ++h)
                for (int64_t i = 0; i < S; ++i) {
                    const double *p = &probs[((b * H + h) * S + i) * S];
                    std::vector<double> dp(S, 0);
                    double dot = 0;
                    for (int64_t j = 0; j < S; ++j) {
                        for (int64_t e = 0; e < DH; ++e) {
                            dp[j] += dctx[(b * S + i) * D + h * DH + e] * v[(b * S + j) * D + h * DH + e];
                            dv[(b * S + j) * D + h * DH + e] += p[j] * dctx[(b * S + i) * D + h * DH + e];
                        }
                        dot += dp[j] * p[j];
                    }
                    for (int64_t j = 0; j < S; ++j) {
                        const double ds = p[j] * (dp[j] - dot) * scale;
                        for (int64_t e = 0; e < DH; ++e) {
                            dq[(b * S + i) * D + h * DH + e] += ds * k[(b * S + j) * D + h * DH + e];
                            dk[(b * S + j) * D + h * DH + e] += ds * q[(b * S + i) * D + h * DH + e];
                        }
                    }
                }
        const std::vector<double> *d[3] = {&dq, &dk, &dv};
        for (int i = 0; i < 3; ++i)
            for (int64_t t = 0; t < T; ++t)
                for (int64_t c = 0; c < D; ++c)
                    for (int64_t o = 0; o < D; ++o)
                        dw[i][c * D + o] += xn[t * D + c] * (*d[i])[t * D + o];
    }
};

bool close(const char *what, const std::vector<float> &got, const std::vector<double> &want,
        double tol) {
    if (got.size() != want.size()) {
        std::printf("%s: %zu values, expected %zu\n", what, got.size(), want.size());
        return false;
    }
    double scale = 1e-30;
    for (double w : want)
        scale = std::max(scale, std::fabs(w));
    for (size_t i = 0; i < got.size(); ++i)
        if (!(std::fabs(got[i] - want[i]) <= tol * scale)) {
            std::printf("%s[%zu] = %g, expected %g\n", what, i, got[i], want[i]);
            return false;
        }
    return true;
}

double loss_of(const std::vector<float> &y, const std::vector<float> &target) {
    double l = 0;
    for (size_t i = 0; i < y.size(); ++i)
        l += 0.5 * (double(y[i]) - target[i]) * (double(y[i]) - target[i]);
    return l;
}

int run(dnnl::engine::kind kind) {
    dnnl::engine eng(kind, 0);
    dnnl::stream strm(eng);
    const dims x3 {B, S, D}, w {D, D};
    const auto x = random_vector(B * S * D, 1, 1.f), target = random_vector(B * S * D, 2, 1.f);
    const auto gamma = random_vector(D, 3, 1.f), beta = random_vector(D, 4, 0.5f);
    std::vector<float> wts[4];
    for (int i = 0; i < 4; ++i)
        wts[i] = random_vector(D * D, 10 + i, 0.6f);
    const float scale = 1.f / std::sqrt(float(DH));
    const size_t wid[4] = {WQ, WK, WV, WO};

    buffers_t buf {eng, {}, {}};
    auto set_inputs = [&] {
        buf.set(lt(X, x3), x);
        buf.set(lt(GAMMA, {D}), gamma);
        buf.set(lt(BETA, {D}), beta);
        for (int i = 0; i < 4; ++i)
            buf.set(lt(wid[i], w), wts[i]);
        buf.set(lt(SCALE, {1}), {scale});
        buf.set(lt(NEG_INF, {1}), {-INFINITY});
    };
    set_inputs();
    graph fwd(kind);
    build_forward(fwd);
    if (!run_graph(fwd, buf, strm, "forward")) return 1;

    reference_t ref;
    ref.forward(x, gamma, beta, wts, scale);
    bool ok = close("y", buf.get(Y), ref.y, 1e-4) && close("stats", buf.get(STATS), ref.stats, 1e-4)
            && close("xn", buf.get(XN), ref.xn, 1e-4);
    const std::vector<float> y = buf.get(Y);
    std::vector<float> dy(y.size());
    for (size_t i = 0; i < y.size(); ++i)
        dy[i] = y[i] - target[i];
    const double loss0 = loss_of(y, target);

    buf.set(lt(DY, x3), dy);
    graph bwd(kind);
    build_backward(bwd);
    if (ok && !run_graph(bwd, buf, strm, "backward")) return 1;
    ref.backward(dy, wts, scale);
    const size_t dwid[4] = {DWQ, DWK, DWV, DWO};
    const char *names[4] = {"dWq", "dWk", "dWv", "dWo"};
    std::vector<float> grads[4];
    for (int i = 0; i < 4 && ok; ++i) {
        grads[i] = buf.get(dwid[i]);
        ok = close(names[i], grads[i], ref.dw[i], 1e-4);
    }

    // One SGD step, then the forward again: the loss must go down.
    double loss1 = 0;
    if (ok) {
        for (int i = 0; i < 4; ++i)
            for (size_t j = 0; j < wts[i].size(); ++j)
                wts[i][j] -= LR * grads[i][j];
        set_inputs();
        graph again(kind);
        build_forward(again);
        if (!run_graph(again, buf, strm, "forward after the step")) return 1;
        loss1 = loss_of(buf.get(Y), target);
        ref.forward(x, gamma, beta, wts, scale);
        ok = close("y after the step", buf.get(Y), ref.y, 1e-4);
        if (ok && !(loss1 < loss0)) {
            std::printf("the loss did not go down: %g then %g\n", loss0, loss1);
            ok = false;
        }
    }
    std::printf("transformer_block_training on %s: loss %g -> %g, %s\n",
            kind == dnnl::engine::kind::cpu ? "cpu" : "gpu", loss0, loss1,
            ok ? "passed" : "FAILED");
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
