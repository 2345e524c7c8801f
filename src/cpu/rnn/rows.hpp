// Threads a per-row body over the N rows of one RNN step; small steps stay on one thread.
#pragma once

#include <algorithm>

#include "core/parallel.hpp"

namespace anydnn {
namespace cpu {
namespace rnn {

template <typename F>
void for_rows(dim_t N, dim_t cols_per_row, F f) {
    const dim_t min_rows = std::max<dim_t>(1, 8192 / std::max<dim_t>(1, cols_per_row));
    parallel_split(N, max_threads(), min_rows, [&](int, dim_t s, dim_t e) {
        for (dim_t n = s; n < e; ++n)
            f(n);
    });
}

} // namespace rnn
} // namespace cpu
} // namespace anydnn
