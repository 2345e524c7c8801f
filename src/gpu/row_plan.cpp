#include "gpu/row_plan.hpp"

#include <algorithm>

#include "gpu/tuning/op_tuning.hpp"

namespace anydnn {
namespace gpu {

std::string row_plan_t::options() const {
    return " -DVEC=" + std::to_string(vec) + " -DT=" + std::to_string(t)
           + (streamed ? std::string(" -DSTREAMED") : " -DNREG=" + std::to_string(nreg));
}

bool row_plan_t::range(size_t rows, size_t kernel_limit, nd_range_t &r, size_t &local) const {
    local = kernel_limit >= group ? group : size_t(t);
    if (kernel_limit < local) return false;
    const size_t per_group = local / size_t(t);
    r = nd_range_t();
    r.global[0] = (rows + per_group - 1) / per_group * local;
    r.local[0] = local;
    return true;
}

namespace {

// The largest work-group a row may take.
size_t row_group_limit(engine_t *engine, const op_tuning_t &tune) {
    return std::min<size_t>(
            engine_caps(engine).max_work_group_size, size_t(std::max(1, tune.row_group_max)));
}

} // namespace

bool plan_rows(engine_t *engine, int64_t C, bool aligned, row_plan_t &plan, bool backward,
        int max_vec) {
    const op_tuning_t &tune = op_tuning(engine_caps(engine));
    if (tune.bandwidth_group <= 1) return false;
    plan.vec = tune.vector_elems == 4 && aligned && C % 4 == 0 ? 4 : 1;
    if (plan.vec == 4 && max_vec == 8 && C % 8 == 0) plan.vec = 8;
    plan.streamed = false;
    const size_t max_group = row_group_limit(engine, tune);
    const int64_t want = std::max<int64_t>(1, (C + tune.row_elems - 1) / tune.row_elems);
    size_t t = 1;
    while (int64_t(t) < want && t * 2 <= max_group)
        t *= 2;
    plan.t = int(t);
    const int64_t per_pass = int64_t(t) * plan.vec;
    plan.nreg = int(std::max<int64_t>(1, (C + per_pass - 1) / per_pass));
    const int max_elems = backward ? std::max(1, tune.row_elems_max / 2) : tune.row_elems_max;
    if (plan.nreg * plan.vec > max_elems) return false;
    plan.group = std::max(t, std::min<size_t>(size_t(tune.bandwidth_group), max_group));
    return true;
}

bool plan_streamed_rows(engine_t *engine, int64_t C, bool aligned, row_plan_t &plan) {
    const op_tuning_t &tune = op_tuning(engine_caps(engine));
    if (tune.bandwidth_group <= 1) return false;
    plan.vec = tune.vector_elems == 4 && aligned && C % 4 == 0 ? 4 : 1;
    size_t t = 1;
    while (t * 2 <= row_group_limit(engine, tune))
        t *= 2;
    plan.t = int(t);
    plan.nreg = 0;
    plan.group = t;
    plan.streamed = true;
    return true;
}

} // namespace gpu
} // namespace anydnn
