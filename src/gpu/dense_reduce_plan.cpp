#include "gpu/dense_reduce_plan.hpp"

#include <algorithm>

#include "gpu/launch.hpp"
#include "gpu/reduce_launch.hpp"
#include "gpu/tuning/op_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

int64_t div_up(int64_t a, int64_t b) { return (a + b - 1) / b; }

size_t pow2_floor(size_t v) {
    size_t p = 1;
    while (p * 2 <= v)
        p *= 2;
    return p;
}

} // namespace

bool dense_reduce_plan_t::init(engine_t *engine, const dense_split_t &s, size_t elem_bytes,
        bool aligned, bool lanes_share_b) {
    *this = dense_reduce_plan_t();
    A = s.batch;
    R1 = s.outer;
    B = s.kept;
    R2 = s.inner;
    if (A * B == 0) return false;
    const op_tuning_t &t = op_tuning(engine_caps(engine));
    const int width = t.vector_elems == 1 ? 1 : vector_width(t, elem_bytes);
    const bool groups = group_reduce(engine);
    const int64_t target = t.reduce_groups;
    // Rows where a row fills at least a warp's worth of loads, where nothing else is kept, or
    // where there are too few rows to walk down (columns would write partial results about as
    // large as src).
    rows = R2 >= 32 * int64_t(width) || (A * B == 1 && R2 > 1) || (R1 < 16 && R2 > 1)
            || !groups;
    if (rows) {
        vec = aligned && R2 % width == 0 ? width : (aligned && R2 % 4 == 0 && width > 1 ? 4 : 1);
        unroll = groups ? 4 : 1;
        // Enough work-items that each keeps `unroll` loads in flight along a row, at least a
        // warp's worth, at most the tuned group.
        local = groups ? std::min<size_t>(size_t(std::max(1, t.bandwidth_group)),
                                 std::max<size_t>(32, pow2_floor(size_t(R2 / (vec * unroll)))))
                       : 0;
        // Slices: first along R1 (whole rows), then along R2, until about `target` groups.
        const int64_t want = std::max<int64_t>(1, div_up(target, A * B));
        const int64_t s1 = std::min(std::max<int64_t>(R1, 1), want);
        rows1 = div_up(std::max<int64_t>(R1, 1), s1);
        const int64_t slices1 = div_up(std::max<int64_t>(R1, 1), rows1);
        const int64_t piece = int64_t(std::max<size_t>(local, 1)) * vec * unroll;
        const int64_t s2 = std::max<int64_t>(1,
                std::min(div_up(want, slices1), R2 / std::max<int64_t>(piece, 1)));
        len2 = div_up(div_up(std::max<int64_t>(R2, 1), s2), vec) * vec;
        S2 = div_up(std::max<int64_t>(R2, 1), len2);
        S = slices1 * S2;
        K = 1;
        return true;
    }
    const int64_t M = B * R2;
    vec = aligned && M % width == 0 ? width : (aligned && M % 4 == 0 && width > 1 ? 4 : 1);
    if (lanes_share_b && R2 > 1)
        while (vec > 1 && R2 % vec)
            vec = vec == 8 ? 4 : 1; // kernels take groups of 8, 4 or 1
    unroll = 4;
    const int64_t items = A * M / vec;
    const int64_t want_items = target * std::max(1, t.bandwidth_group);
    const int64_t slices = std::min(std::max<int64_t>(R1, 1),
            std::max<int64_t>(1, div_up(want_items, items)));
    rows1 = div_up(std::max<int64_t>(R1, 1), slices);
    S = div_up(std::max<int64_t>(R1, 1), rows1);
    K = R2;
    return true;
}

std::string dense_reduce_plan_t::options() const {
    return std::string(rows ? " -DROWS" : " -DCOLS") + " -DVEC=" + std::to_string(vec)
            + " -DGROUPS=" + std::to_string(unroll);
}

nd_range_t dense_reduce_plan_t::range(size_t limit, size_t &local_out) const {
    if (!rows) {
        local_out = 0;
        return range_1d(size_t(col_items()));
    }
    local_out = local ? std::min(local, pow2_floor(limit)) : 0;
    return rows_range(size_t(S * A * B), local_out);
}

bool dense_reduce_plan_t::join_in_groups(engine_t *engine) const {
    return group_reduce(engine) && S * K > 16;
}

nd_range_t dense_reduce_plan_t::join_range(
        engine_t *engine, size_t limit, size_t &local_out) const {
    local_out = 0;
    if (!join_in_groups(engine)) return range_1d(size_t(A * B));
    const size_t group = size_t(std::max(1, op_tuning(engine_caps(engine)).bandwidth_group));
    local_out = std::min({pow2_floor(limit), group, pow2_floor(size_t(S * K))});
    return rows_range(size_t(A * B), local_out);
}

} // namespace gpu
} // namespace anydnn
