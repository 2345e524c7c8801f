// Threadpool interop: primitives and GEMMs on an application's threadpool (synchronous and
// asynchronous) give the results of the OpenMP path, and their parallel work really runs on
// the pool's threads; the per-thread max concurrency; bad arguments.
#include <atomic>
#include <cmath>
#include <functional>
#include <unordered_map>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_threadpool.hpp"

namespace {

using dnnl::threadpool_interop::threadpool_iface;

// A plain pool of worker threads fed from one queue; asynchronous or not. Records which
// threads ran jobs.
class test_pool_t : public threadpool_iface {
public:
    test_pool_t(int nthreads, bool async) : async_(async) {
        for (int i = 0; i < nthreads; ++i)
            workers_.emplace_back([this] { work(); });
    }
    ~test_pool_t() override {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        for (auto &t : workers_)
            t.join();
    }
    int get_num_threads() const override { return static_cast<int>(workers_.size()); }
    bool get_in_parallel() const override {
        for (const auto &t : workers_)
            if (t.get_id() == std::this_thread::get_id()) return true;
        return false;
    }
    void parallel_for(int n, const std::function<void(int, int)> &fn) override {
        auto shared = std::make_shared<std::function<void(int, int)>>(fn);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            for (int i = 0; i < n; ++i)
                queue_.push_back([shared, i, n] { (*shared)(i, n); });
            pending_ += n;
        }
        wake_.notify_all();
        calls_++;
        if (!async_) wait();
    }
    uint64_t get_flags() const override { return async_ ? ASYNCHRONOUS : 0; }
    void wait() override {
        std::unique_lock<std::mutex> lock(mutex_);
        idle_.wait(lock, [&] { return pending_ == 0; });
    }
    int calls() const { return calls_; }
    bool only_workers_ran_jobs() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return !job_threads_.empty() && job_threads_.count(std::this_thread::get_id()) == 0;
    }

private:
    void work() {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) return;
            auto job = std::move(queue_.front());
            queue_.pop_front();
            job_threads_.insert(std::this_thread::get_id());
            lock.unlock();
            job();
            lock.lock();
            if (--pending_ == 0) idle_.notify_all();
        }
    }

    bool async_;
    std::vector<std::thread> workers_;
    mutable std::mutex mutex_;
    std::condition_variable wake_, idle_;
    std::deque<std::function<void()>> queue_;
    std::set<std::thread::id> job_threads_;
    int pending_ = 0;
    bool stopping_ = false;
    std::atomic<int> calls_ {0};
};

std::vector<float> random_floats(size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    std::vector<float> v(n);
    for (auto &x : v)
        x = dist(gen);
    return v;
}

// dnnl_threadpool_interop_sgemm on `pool` against a double-precision reference.
void check_sgemm(threadpool_iface *pool) {
    const int64_t M = 97, N = 130, K = 75;
    const auto A = random_floats(M * K, 1), B = random_floats(K * N, 2);
    std::vector<float> C(M * N, 0.f);
    ASSERT_EQ(dnnl::threadpool_interop::sgemm('N', 'N', M, N, K, 1.f, A.data(), K, B.data(), N,
                      0.f, C.data(), N, pool),
            dnnl::status::success);
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
            double s = 0;
            for (int64_t k = 0; k < K; ++k)
                s += double(A[i * K + k]) * B[k * N + j];
            ASSERT_NEAR(C[i * N + j], s, 1e-4) << i << "," << j;
        }
}

TEST(threadpool_interop, sgemm_on_sync_and_async_pools) {
    for (bool async : {false, true}) {
        test_pool_t pool(3, async);
        check_sgemm(&pool);
        EXPECT_GT(pool.calls(), 0) << "async " << async;
        EXPECT_TRUE(pool.only_workers_ran_jobs()) << "async " << async;
    }
    check_sgemm(nullptr); // no pool: OpenMP
}

TEST(threadpool_interop, integer_gemms_on_a_pool) {
    test_pool_t pool(2, true);
    const int64_t M = 33, N = 70, K = 45;
    std::mt19937 gen(3);
    std::vector<uint8_t> au(M * K);
    std::vector<int8_t> as(M * K), b(K * N);
    for (auto &x : au)
        x = static_cast<uint8_t>(gen() % 200);
    for (auto &x : as)
        x = static_cast<int8_t>(int(gen() % 200) - 100);
    for (auto &x : b)
        x = static_cast<int8_t>(int(gen() % 200) - 100);
    const int32_t co = 7;
    std::vector<int32_t> cu(M * N), cs(M * N);
    ASSERT_EQ(dnnl::threadpool_interop::gemm_u8s8s32('N', 'N', 'F', M, N, K, 1.f, au.data(), K,
                      uint8_t(3), b.data(), N, int8_t(-2), 0.f, cu.data(), N, &co, &pool),
            dnnl::status::success);
    ASSERT_EQ(dnnl::threadpool_interop::gemm_s8s8s32('N', 'N', 'F', M, N, K, 1.f, as.data(), K,
                      int8_t(-5), b.data(), N, int8_t(4), 0.f, cs.data(), N, &co, &pool),
            dnnl::status::success);
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
            int64_t su = co, ss = co;
            for (int64_t k = 0; k < K; ++k) {
                su += (int64_t(au[i * K + k]) - 3) * (int64_t(b[k * N + j]) + 2);
                ss += (int64_t(as[i * K + k]) + 5) * (int64_t(b[k * N + j]) - 4);
            }
            ASSERT_EQ(cu[i * N + j], su) << i << "," << j;
            ASSERT_EQ(cs[i * N + j], ss) << i << "," << j;
        }
}

// Runs primitive `pd` on `stream` with its inputs from fixed seeds; returns its outputs, one
// after the other.
std::vector<float> run(const dnnl::primitive_desc &pd, dnnl::stream &stream,
        const std::vector<int> &inputs, const std::vector<int> &outputs) {
    const dnnl::engine &eng = stream.get_engine();
    std::unordered_map<int, dnnl::memory> args;
    unsigned seed = 10;
    for (int arg : inputs) {
        dnnl::memory m(pd.query_md(dnnl::query::exec_arg_md, arg), eng);
        const size_t n = m.get_desc().get_size() / sizeof(float);
        const auto v = random_floats(n, seed++);
        std::copy(v.begin(), v.end(), static_cast<float *>(m.get_data_handle()));
        args[arg] = m;
    }
    for (int arg : outputs)
        args[arg] = dnnl::memory(pd.query_md(dnnl::query::exec_arg_md, arg), eng);
    const dnnl::memory::desc scratch = pd.query_md(dnnl::query::scratchpad_md);
    if (scratch.get_size() > 0) args[DNNL_ARG_SCRATCHPAD] = dnnl::memory(scratch, eng);
    dnnl::primitive(pd).execute(stream, args);
    stream.wait();
    std::vector<float> values;
    for (int arg : outputs) {
        const float *p = static_cast<const float *>(args[arg].get_data_handle());
        values.insert(values.end(), p, p + args[arg].get_desc().get_size() / sizeof(float));
    }
    return values;
}

// The same primitive on a plain stream and on a threadpool stream gives the same values.
void compare_streams(const dnnl::primitive_desc &pd, const std::vector<int> &inputs,
        const std::vector<int> &outputs, bool expect_pool_use = true) {
    const dnnl::engine eng = pd.get_engine();
    dnnl::stream plain(eng);
    const auto expected = run(pd, plain, inputs, outputs);
    for (bool async : {false, true}) {
        test_pool_t pool(3, async);
        dnnl::stream on_pool = dnnl::threadpool_interop::make_stream(eng, &pool);
        EXPECT_EQ(dnnl::threadpool_interop::get_threadpool(on_pool), &pool);
        const auto got = run(pd, on_pool, inputs, outputs);
        ASSERT_EQ(got.size(), expected.size());
        for (size_t i = 0; i < got.size(); ++i)
            ASSERT_NEAR(got[i], expected[i], 1e-5f * (1.f + std::fabs(expected[i])))
                    << pd.impl_info_str() << " element " << i << " async " << async;
        if (expect_pool_use) {
            EXPECT_GT(pool.calls(), 0) << pd.impl_info_str();
        }
    }
}

using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

TEST(threadpool_interop, primitives_match_the_openmp_path) {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    {
        dnnl::memory::desc a({4, 96, 80}, dt::f32, tag::abc), b({4, 80, 72}, dt::f32, tag::abc),
                c({4, 96, 72}, dt::f32, tag::abc);
        compare_streams(dnnl::matmul::primitive_desc(eng, a, b, c),
                {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS}, {DNNL_ARG_DST});
    }
    {
        dnnl::memory::desc src({2, 16, 15, 13}, dt::f32, tag::nchw),
                wei({24, 16, 3, 3}, dt::f32, tag::oihw), dst({2, 24, 15, 13}, dt::f32, tag::nchw);
        compare_streams(dnnl::convolution_forward::primitive_desc(eng,
                                dnnl::prop_kind::forward_inference,
                                dnnl::algorithm::convolution_direct, src, wei, dst, {1, 1},
                                {1, 1}, {1, 1}),
                {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS}, {DNNL_ARG_DST});
    }
    {
        dnnl::memory::desc d({512, 1031}, dt::f32, tag::ab);
        compare_streams(dnnl::softmax_forward::primitive_desc(eng,
                                dnnl::prop_kind::forward_inference,
                                dnnl::algorithm::softmax_accurate, d, d, 1),
                {DNNL_ARG_SRC}, {DNNL_ARG_DST});
    }
}

// The LSTM's single parallel region synchronises with barriers: on a pool it must run on one
// thread (pool jobs need not run at the same time) and still give the OpenMP answer.
TEST(threadpool_interop, lstm_runs_on_a_pool) {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    const int64_t T = 3, N = 2, C = 40, G = 4;
    dnnl::memory::desc src({T, N, C}, dt::f32, tag::tnc), iter({1, 1, N, C}, dt::f32, tag::ldnc),
            wl({1, 1, C, G, C}, dt::f32, tag::ldigo), wi({1, 1, C, G, C}, dt::f32, tag::ldigo),
            bias({1, 1, G, C}, dt::f32, tag::ldgo);
    dnnl::lstm_forward::primitive_desc pd(eng, dnnl::prop_kind::forward_inference,
            dnnl::rnn_direction::unidirectional_left2right, src, iter, iter, wl, wi, bias, src,
            iter, iter);
    compare_streams(pd,
            {DNNL_ARG_SRC_LAYER, DNNL_ARG_SRC_ITER, DNNL_ARG_SRC_ITER_C,
                    DNNL_ARG_WEIGHTS_LAYER, DNNL_ARG_WEIGHTS_ITER, DNNL_ARG_BIAS},
            {DNNL_ARG_DST_LAYER, DNNL_ARG_DST_ITER, DNNL_ARG_DST_ITER_C}, false);
}

TEST(threadpool_interop, max_concurrency_is_per_thread) {
    std::thread([] {
        int n = 0;
        ASSERT_EQ(dnnl_threadpool_interop_get_max_concurrency(&n), dnnl_success);
        EXPECT_GE(n, 1);
        ASSERT_EQ(dnnl_threadpool_interop_set_max_concurrency(1), dnnl_success);
        ASSERT_EQ(dnnl_threadpool_interop_get_max_concurrency(&n), dnnl_success);
        EXPECT_EQ(n, 1);
        // With one thread planned, a GEMM still answers right.
        check_sgemm(nullptr);
        std::thread([] {
            int m = 0;
            ASSERT_EQ(dnnl_threadpool_interop_get_max_concurrency(&m), dnnl_success);
            EXPECT_GE(m, 1); // the other thread's setting does not leak here
        }).join();
    }).join();
    EXPECT_EQ(dnnl_threadpool_interop_set_max_concurrency(0), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_threadpool_interop_set_max_concurrency(-3), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_threadpool_interop_get_max_concurrency(nullptr), dnnl_invalid_arguments);
}

TEST(threadpool_interop, bad_arguments) {
    test_pool_t pool(1, false);
    dnnl_engine_t cpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&cpu, dnnl_cpu, 0), dnnl_success);
    dnnl_stream_t s = nullptr;
    EXPECT_EQ(dnnl_threadpool_interop_stream_create(nullptr, cpu, &pool), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_threadpool_interop_stream_create(&s, nullptr, &pool), dnnl_invalid_arguments);
    void *got = &pool;
    // A plain CPU stream has no threadpool.
    ASSERT_EQ(dnnl_stream_create(&s, cpu, dnnl_stream_default_flags), dnnl_success);
    ASSERT_EQ(dnnl_threadpool_interop_stream_get_threadpool(s, &got), dnnl_success);
    EXPECT_EQ(got, nullptr);
    EXPECT_EQ(dnnl_threadpool_interop_stream_get_threadpool(s, nullptr), dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_stream_destroy(s), dnnl_success);
    EXPECT_EQ(dnnl_threadpool_interop_stream_get_threadpool(s, &got), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_threadpool_interop_stream_get_threadpool(nullptr, &got),
            dnnl_invalid_arguments);
    // A null threadpool is a stream on OpenMP threads.
    ASSERT_EQ(dnnl_threadpool_interop_stream_create(&s, cpu, nullptr), dnnl_success);
    ASSERT_EQ(dnnl_threadpool_interop_stream_get_threadpool(s, &got), dnnl_success);
    EXPECT_EQ(got, nullptr);
    ASSERT_EQ(dnnl_stream_destroy(s), dnnl_success);
    ASSERT_EQ(dnnl_engine_destroy(cpu), dnnl_success);
    EXPECT_EQ(dnnl_threadpool_interop_stream_create(&s, cpu, &pool), dnnl_invalid_arguments);
    // A GPU engine has no threadpool streams.
    if (dnnl_engine_get_count(dnnl_gpu) > 0) {
        dnnl_engine_t gpu = nullptr;
        ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
        EXPECT_EQ(dnnl_threadpool_interop_stream_create(&s, gpu, &pool), dnnl_invalid_arguments);
        ASSERT_EQ(dnnl_stream_create(&s, gpu, dnnl_stream_default_flags), dnnl_success);
        EXPECT_EQ(dnnl_threadpool_interop_stream_get_threadpool(s, &got),
                dnnl_invalid_arguments);
        ASSERT_EQ(dnnl_stream_destroy(s), dnnl_success);
        ASSERT_EQ(dnnl_engine_destroy(gpu), dnnl_success);
    }
    // Bad GEMM arguments are refused as dnnl_sgemm refuses them.
    float x = 0;
    EXPECT_EQ(dnnl_threadpool_interop_sgemm('X', 'N', 1, 1, 1, 1.f, &x, 1, &x, 1, 0.f, &x, 1,
                      &pool),
            dnnl_invalid_arguments);
}

} // namespace
