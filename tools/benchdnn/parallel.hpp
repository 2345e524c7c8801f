// Host loops over large tensors (fills, writes into mapped memory) split over the machine's
// threads: a 1 GiB problem was filled element by element in one thread, ~20 s per problem.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace benchdnn {

// fn(begin, end) over [0, n) in contiguous chunks, one per thread; serial below `grain`.
template <typename F>
void parallel_chunks(int64_t n, const F &fn, int64_t grain = int64_t(1) << 20) {
    const int64_t hw = std::max<int64_t>(1, std::thread::hardware_concurrency());
    const int64_t nthr = std::min<int64_t>(hw, std::max<int64_t>(1, n / grain));
    if (nthr <= 1) {
        if (n > 0) fn(int64_t(0), n);
        return;
    }
    std::vector<std::thread> threads;
    const int64_t chunk = (n + nthr - 1) / nthr;
    for (int64_t t = 0; t < nthr; ++t) {
        const int64_t b = t * chunk, e = std::min(n, b + chunk);
        if (b < e) threads.emplace_back([&fn, b, e] { fn(b, e); });
    }
    for (auto &th : threads)
        th.join();
}

} // namespace benchdnn
