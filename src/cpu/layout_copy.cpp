#include "cpu/layout_copy.hpp"

#include "core/ops/layout.hpp"
#include "core/parallel.hpp"
#include "cpu/tensor_run.hpp"

namespace anydnn {
namespace cpu {

void copy_layout(
        const memory_desc_t &from, const void *from_base, const memory_desc_t &to, void *to_base) {
    constexpr dim_t max_run = 256;
    if (nelems(from) == 0) return;
    const run_plan_t plan = make_run_plan(from, max_run);
    parallel_range(
            plan.nruns,
            [&](dim_t start, dim_t end) {
                float v[max_run];
                dim_t pos[max_ndims];
                for (dim_t r = start; r < end; ++r) {
                    const dim_t len = plan.run(r, pos);
                    load_run(from, from_base, 0, pos, plan.axis, len, v);
                    store_run(to, to_base, pos, plan.axis, len, v);
                }
            },
            64);
}

} // namespace cpu
} // namespace anydnn
