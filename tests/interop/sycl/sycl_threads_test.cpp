// Threads that share one SYCL stream, as oneDNN allows: each runs sums of its own size, whose
// library-mode scratchpad (an f32 accumulator the size of dst) differs from thread to thread,
// so a scratchpad kept by the stream would be replaced under another thread's execution.
#include <atomic>
#include <cmath>

#include "interop/sycl/sycl_fixture.hpp"

using namespace sycl_test;

namespace {

// dst = 2 a + 0.5 b, as the sum primitive computes it in f32.
std::vector<float> sum_ref(const std::vector<float> &a, const std::vector<float> &b) {
    std::vector<float> d(a.size());
    for (size_t i = 0; i < a.size(); ++i)
        d[i] = 2.f * a[i] + 0.5f * b[i];
    return d;
}

} // namespace

using sycl_threads = sycl_app_t;

TEST_F(sycl_threads, threads_sharing_a_stream_get_right_sums_of_their_own_sizes) {
    const int threads = 4, iterations = 12;
    std::atomic<int> wrong {0}, errors {0};
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t)
        ts.emplace_back([&, t] {
            for (int it = 0; it < iterations; ++it) {
                // Sizes grow and shrink across threads and iterations.
                const int64_t n = 17 + 4099 * ((t + it) % threads);
                try {
                    auto a = random_floats(n, unsigned(t * 100 + it)),
                         b = random_floats(n, unsigned(t * 100 + it + 50));
                    memory::desc md = vec_md(n);
                    dnnl::sum::primitive_desc pd(eng, md, {2.f, 0.5f}, {md, md});
                    memory ma(md, eng), mb(md, eng), mdst(md, eng);
                    auto fill = [](memory &m, const std::vector<float> &v) {
                        float *p = m.map_data<float>();
                        std::copy(v.begin(), v.end(), p);
                        m.unmap_data(p);
                    };
                    fill(ma, a);
                    fill(mb, b);
                    dnnl::sum(pd).execute(strm, {{DNNL_ARG_MULTIPLE_SRC, ma},
                            {DNNL_ARG_MULTIPLE_SRC + 1, mb}, {DNNL_ARG_DST, mdst}});
                    strm.wait();
                    auto want = sum_ref(a, b);
                    const float *p = mdst.map_data<float>();
                    for (int64_t i = 0; i < n; ++i)
                        if (std::fabs(p[i] - want[i]) > 1e-5f * (1.f + std::fabs(want[i]))) {
                            ++wrong;
                            break;
                        }
                    mdst.unmap_data(const_cast<float *>(p));
                } catch (const std::exception &) {
                    ++errors;
                }
            }
        });
    for (auto &th : ts)
        th.join();
    EXPECT_EQ(errors.load(), 0);
    EXPECT_EQ(wrong.load(), 0);
}
