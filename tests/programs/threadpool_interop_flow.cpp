// An application that runs the library's CPU work on its own threads, as oneDNN's threadpool
// examples do: it implements dnnl::threadpool_interop::threadpool_iface over a pool of its
// own, makes the stream from it (threadpool_interop::make_stream), and runs a convolution with
// a ReLU post-op, a matmul with a bias and an inner product on that stream, then the
// threadpool sgemm. The pool counts the jobs it was handed, so work that silently ran
// elsewhere is caught; it runs once synchronous and once asynchronous (the library must wait).
//
// Every output is checked against plain loops. Usage: threadpool_interop_flow cpu; exits 0
// when the results match, 1 when they do not, 77 for any other engine kind.
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_threadpool.hpp"
#include "oneapi/dnnl/dnnl_threadpool_iface.hpp"

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

namespace {

int failures = 0;

// The application's pool: a fixed set of workers and a queue of (fn, i, n) jobs. parallel_for
// spreads the n calls over the workers; a synchronous pool waits for them before returning.
class app_threadpool_t : public threadpool_interop::threadpool_iface {
public:
    app_threadpool_t(int nthreads, bool asynchronous) : async_(asynchronous) {
        for (int t = 0; t < nthreads; ++t)
            workers_.emplace_back([this] { work(); });
    }
    ~app_threadpool_t() override {
        {
            std::lock_guard<std::mutex> lock(mu_);
            stopping_ = true;
        }
        cv_.notify_all();
        for (auto &w : workers_)
            w.join();
    }
    int get_num_threads() const override {
        return int(workers_.size());
    }
    bool get_in_parallel() const override {
        for (const auto &w : workers_)
            if (w.get_id() == std::this_thread::get_id()) return true;
        return false;
    }
    uint64_t get_flags() const override {
        return async_ ? ASYNCHRONOUS : 0;
    }
    void parallel_for(int n, const std::function<void(int, int)> &fn) override {
        {
            std::lock_guard<std::mutex> lock(mu_);
            for (int i = 0; i < n; ++i)
                jobs_.push_back({fn, i, n});
            pending_ += n;
            handed_ += n;
        }
        cv_.notify_all();
        if (!async_) wait();
    }
    void wait() override {
        std::unique_lock<std::mutex> lock(mu_);
        idle_.wait(lock, [this] { return pending_ == 0; });
    }
    long jobs_handed() const {
        return handed_;
    }

private:
    struct job_t {
        std::function<void(int, int)> fn;
        int i, n;
    };
    void work() {
        for (;;) {
            job_t job;
            {
                std::unique_lock<std::mutex> lock(mu_);
                cv_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
                if (jobs_.empty()) return;
                job = std::move(jobs_.front());
                jobs_.pop_front();
            }
            job.fn(job.i, job.n);
            std::lock_guard<std::mutex> lock(mu_);
            if (--pending_ == 0) idle_.notify_all();
        }
    }

    bool async_;
    std::vector<std::thread> workers_;
    std::mutex mu_;
    std::condition_variable cv_, idle_;
    std::deque<job_t> jobs_;
    long pending_ = 0;
    std::atomic<long> handed_{0};
    bool stopping_ = false;
};

// Deterministic values in [-1, 1) that differ from element to element.
std::vector<float> values(size_t n, unsigned seed) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = float((i * 29 + seed * 17) % 64) / 32.f - 1.f;
    return v;
}

void write(memory &m, const std::vector<float> &v) {
    float *p = static_cast<float *>(m.get_data_handle());
    std::copy(v.begin(), v.end(), p);
}

std::vector<float> read(const memory &m) {
    const float *p = static_cast<const float *>(m.get_data_handle());
    return std::vector<float>(p, p + m.get_desc().get_size() / sizeof(float));
}

void check(const std::string &what, const std::vector<float> &got, const std::vector<double> &want,
        double terms) {
    if (got.size() != want.size()) {
        std::printf("%s: %zu values, expected %zu\n", what.c_str(), got.size(), want.size());
        ++failures;
        return;
    }
    // f32 sums of `terms` products of values below 1 in magnitude.
    const double tol = 4e-7 * terms;
    for (size_t i = 0; i < want.size(); ++i)
        if (std::fabs(got[i] - want[i]) > tol * (1.0 + std::fabs(want[i]))) {
            std::printf(
                    "%s: element %zu is %.8g, expected %.8g\n", what.c_str(), i, got[i], want[i]);
            ++failures;
            return;
        }
}

// 2-D convolution (nchw / oihw, stride 1, padding 1) + bias, then ReLU.
void conv_relu(const engine &eng, stream &s, const char *what) {
    const memory::dim N = 2, IC = 5, OC = 7, H = 6, W = 9, K = 3, P = 1;
    memory::desc src_md({N, IC, H, W}, dt::f32, tag::nchw),
            wei_md({OC, IC, K, K}, dt::f32, tag::oihw), bia_md({OC}, dt::f32, tag::a),
            dst_md({N, OC, H, W}, dt::f32, tag::nchw);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    primitive_attr attr;
    attr.set_post_ops(po);
    convolution_forward::primitive_desc pd(eng, prop_kind::forward_inference,
            algorithm::convolution_direct, src_md, wei_md, bia_md, dst_md, {1, 1}, {P, P}, {P, P},
            attr);
    memory src(src_md, eng), wei(wei_md, eng), bia(bia_md, eng), dst(dst_md, eng);
    auto x = values(N * IC * H * W, 1), w = values(OC * IC * K * K, 2), b = values(OC, 3);
    write(src, x);
    write(wei, w);
    write(bia, b);
    convolution_forward(pd).execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei},
                                               {DNNL_ARG_BIAS, bia}, {DNNL_ARG_DST, dst}});
    s.wait();

    std::vector<double> want(N * OC * H * W);
    for (memory::dim n = 0; n < N; ++n)
        for (memory::dim oc = 0; oc < OC; ++oc)
            for (memory::dim oh = 0; oh < H; ++oh)
                for (memory::dim ow = 0; ow < W; ++ow) {
                    double acc = b[oc];
                    for (memory::dim ic = 0; ic < IC; ++ic)
                        for (memory::dim kh = 0; kh < K; ++kh)
                            for (memory::dim kw = 0; kw < K; ++kw) {
                                const memory::dim ih = oh + kh - P, iw = ow + kw - P;
                                if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                                acc += double(x[((n * IC + ic) * H + ih) * W + iw])
                                       * w[((oc * IC + ic) * K + kh) * K + kw];
                            }
                    want[((n * OC + oc) * H + oh) * W + ow] = acc > 0 ? acc : 0;
                }
    check(std::string(what) + ": convolution + relu", read(dst), want, IC * K * K);
}

// Matmul with a bias broadcast over rows, then an inner product on its output.
void matmul_then_inner_product(const engine &eng, stream &s, const char *what) {
    const memory::dim M = 33, K = 17, N = 11, O = 5;
    memory::desc a_md({M, K}, dt::f32, tag::ab), b_md({K, N}, dt::f32, tag::ab),
            bias_md({1, N}, dt::f32, tag::ab), c_md({M, N}, dt::f32, tag::ab),
            ipw_md({O, N}, dt::f32, tag::ab), ipb_md({O}, dt::f32, tag::a),
            ipd_md({M, O}, dt::f32, tag::ab);
    memory a(a_md, eng), b(b_md, eng), bias(bias_md, eng), c(c_md, eng), ipw(ipw_md, eng),
            ipb(ipb_md, eng), ipd(ipd_md, eng);
    auto av = values(M * K, 4), bv = values(K * N, 5), biasv = values(N, 6), wv = values(O * N, 7),
         wbv = values(O, 8);
    write(a, av);
    write(b, bv);
    write(bias, biasv);
    write(ipw, wv);
    write(ipb, wbv);
    matmul(matmul::primitive_desc(eng, a_md, b_md, bias_md, c_md))
            .execute(s, {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_BIAS, bias},
                                {DNNL_ARG_DST, c}});
    inner_product_forward(inner_product_forward::primitive_desc(
                                  eng, prop_kind::forward_inference, c_md, ipw_md, ipb_md, ipd_md))
            .execute(s, {{DNNL_ARG_SRC, c}, {DNNL_ARG_WEIGHTS, ipw}, {DNNL_ARG_BIAS, ipb},
                                {DNNL_ARG_DST, ipd}});
    s.wait();

    std::vector<double> want_c(M * N), want_d(M * O);
    for (memory::dim m = 0; m < M; ++m)
        for (memory::dim n = 0; n < N; ++n) {
            double acc = biasv[n];
            for (memory::dim k = 0; k < K; ++k)
                acc += double(av[m * K + k]) * bv[k * N + n];
            want_c[m * N + n] = acc;
        }
    for (memory::dim m = 0; m < M; ++m)
        for (memory::dim o = 0; o < O; ++o) {
            double acc = wbv[o];
            for (memory::dim n = 0; n < N; ++n)
                acc += want_c[m * N + n] * wv[o * N + n];
            want_d[m * O + o] = acc;
        }
    check(std::string(what) + ": matmul + bias", read(c), want_c, K);
    check(std::string(what) + ": inner product", read(ipd), want_d, K * N);
}

// The BLAS-like call on the pool: C = alpha A^T B + beta C, row major.
void sgemm_on_pool(app_threadpool_t &pool, const char *what) {
    const dnnl_dim_t M = 257, N = 131, K = 67; // large enough to be split
    auto a = values(K * M, 9), b = values(K * N, 10), c = values(M * N, 11);
    const float alpha = 0.5f, beta = -1.f;
    std::vector<double> want(M * N);
    for (dnnl_dim_t m = 0; m < M; ++m)
        for (dnnl_dim_t n = 0; n < N; ++n) {
            double acc = 0;
            for (dnnl_dim_t k = 0; k < K; ++k)
                acc += double(a[k * M + m]) * b[k * N + n];
            want[m * N + n] = alpha * acc + beta * c[m * N + n];
        }
    status st = threadpool_interop::sgemm(
            'T', 'N', M, N, K, alpha, a.data(), M, b.data(), N, beta, c.data(), N, &pool);
    if (st != status::success) {
        std::printf("%s: threadpool sgemm returned %d\n", what, int(st));
        ++failures;
        return;
    }
    check(std::string(what) + ": sgemm", c, want, K);
}

void run_on(bool asynchronous) {
    const char *what = asynchronous ? "asynchronous pool" : "synchronous pool";
    app_threadpool_t pool(3, asynchronous);
    engine eng(engine::kind::cpu, 0);
    stream s = threadpool_interop::make_stream(eng, &pool);
    if (threadpool_interop::get_threadpool(s) != &pool) {
        std::printf("%s: the stream does not hand back the application's pool\n", what);
        ++failures;
    }
    conv_relu(eng, s, what);
    matmul_then_inner_product(eng, s, what);
    const long after_primitives = pool.jobs_handed();
    sgemm_on_pool(pool, what);
    // The primitives and the sgemm are large enough to be split: the pool must have run them.
    if (after_primitives == 0 || pool.jobs_handed() == after_primitives) {
        std::printf("%s: the pool was handed %ld jobs by the primitives, %ld by sgemm\n", what,
                after_primitives, pool.jobs_handed() - after_primitives);
        ++failures;
    }
    std::printf("%s: %ld jobs on the application's threads\n", what, pool.jobs_handed());
}

} // namespace

int main(int argc, char **argv) {
    if (argc > 1 && std::string(argv[1]) != "cpu") return 77; // a CPU-engine feature
    try {
        // The bound the library respects on the calling thread's parallel regions.
        int concurrency = 0;
        if (dnnl_threadpool_interop_set_max_concurrency(3) != dnnl_success
                || dnnl_threadpool_interop_get_max_concurrency(&concurrency) != dnnl_success
                || concurrency != 3) {
            std::printf("max concurrency is %d after setting 3\n", concurrency);
            ++failures;
        }
        run_on(false);
        run_on(true);
    } catch (const dnnl::error &e) {
        std::printf("dnnl::error: %s (status %d)\n", e.what(), int(e.status));
        return 1;
    }
    std::printf("threadpool_interop_flow: %s\n", failures ? "MISMATCH" : "all match");
    return failures ? 1 : 0;
}
