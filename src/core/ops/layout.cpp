#include "core/ops/layout.hpp"

#include <algorithm>
#include <cstring>

#include "core/parallel.hpp"

namespace anydnn {
namespace cpu {

namespace {

// Product of the inner blocks of each dimension.
void blocks_per_dim(const memory_desc_t &md, dim_t blk[max_ndims]) {
    for (int d = 0; d < max_ndims; ++d)
        blk[d] = 1;
    if (!is_blocked(md)) return;
    for (int i = 0; i < md.blocking.inner_nblks; ++i)
        blk[md.blocking.inner_idxs[i]] *= md.blocking.inner_blks[i];
}

// Dimensions of a blocked layout from outermost to innermost. Equal strides (extent-one
// dimensions) are ordered with the extent-one dimension inside, then by index.
void physical_order(const memory_desc_t &md, int order[max_ndims]) {
    for (int d = 0; d < md.ndims; ++d)
        order[d] = d;
    if (!is_blocked(md)) return;
    const auto &s = md.blocking.strides;
    std::stable_sort(order, order + md.ndims, [&](int a, int b) {
        if (s[a] != s[b]) return s[a] > s[b];
        const bool unit_a = md.dims[a] == 1, unit_b = md.dims[b] == 1;
        if (unit_a != unit_b) return unit_b;
        return a < b;
    });
}

} // namespace

memory_desc_t md_like(const memory_desc_t &pattern, int ndims, const dim_t *dims,
        dnnl_data_type_t dt) {
    memory_desc_t r = zero_md();
    r.ndims = ndims;
    r.data_type = dt;
    r.format_kind = dnnl_blocked;
    for (int d = 0; d < ndims; ++d)
        r.dims[d] = dims[d];
    int order[max_ndims];
    for (int d = 0; d < ndims; ++d)
        order[d] = d;
    if (is_blocked(pattern) && pattern.ndims == ndims) {
        physical_order(pattern, order);
        r.blocking.inner_nblks = pattern.blocking.inner_nblks;
        for (int i = 0; i < pattern.blocking.inner_nblks; ++i) {
            r.blocking.inner_blks[i] = pattern.blocking.inner_blks[i];
            r.blocking.inner_idxs[i] = pattern.blocking.inner_idxs[i];
        }
    }
    dim_t blk[max_ndims];
    blocks_per_dim(r, blk);
    dim_t stride = 1;
    for (int d = 0; d < ndims; ++d) {
        r.padded_dims[d] = (dims[d] + blk[d] - 1) / blk[d] * blk[d];
        stride *= blk[d];
    }
    for (int k = ndims - 1; k >= 0; --k) {
        const int d = order[k];
        r.blocking.strides[d] = stride;
        stride *= std::max<dim_t>(1, r.padded_dims[d] / blk[d]);
    }
    return r;
}

bool same_layout(const memory_desc_t &a, const memory_desc_t &b) {
    if (!is_blocked(a) || !is_blocked(b) || a.ndims != b.ndims) return false;
    const auto &x = a.blocking, &y = b.blocking;
    if (x.inner_nblks != y.inner_nblks) return false;
    for (int i = 0; i < x.inner_nblks; ++i)
        if (x.inner_blks[i] != y.inner_blks[i] || x.inner_idxs[i] != y.inner_idxs[i])
            return false;
    for (int d = 0; d < a.ndims; ++d) {
        if (a.dims[d] != b.dims[d] || a.padded_dims[d] != b.padded_dims[d]
                || a.padded_offsets[d] != b.padded_offsets[d])
            return false;
        if (a.padded_dims[d] != 1 && x.strides[d] != y.strides[d]) return false;
    }
    return true;
}

bool is_dense_unpadded(const memory_desc_t &md) {
    if (!is_blocked(md) || has_runtime_dims_or_strides(md)) return false;
    for (int d = 0; d < md.ndims; ++d)
        if (md.padded_dims[d] != md.dims[d] || md.padded_offsets[d] != 0) return false;
    return is_dense(md);
}

unsigned bcast_mask(const memory_desc_t &op, const dim_t *dims) {
    unsigned mask = 0;
    for (int d = 0; d < op.ndims; ++d)
        if (op.dims[d] == 1 && dims[d] != 1) mask |= 1u << d;
    return mask;
}

dim_t run_stride(const memory_desc_t &md, int axis, dim_t start, dim_t n) {
    if (!is_blocked(md)) return -1;
    const auto &b = md.blocking;
    int blocked_at = -1, nblocks = 0;
    for (int i = 0; i < b.inner_nblks; ++i)
        if (b.inner_idxs[i] == axis) {
            blocked_at = i;
            ++nblocks;
        }
    if (nblocks == 0) return b.strides[axis];
    if (n <= 1) return 1;
    if (nblocks > 1) return -1;
    const dim_t blk = b.inner_blks[blocked_at];
    dim_t within = 1;
    for (int i = blocked_at + 1; i < b.inner_nblks; ++i)
        within *= b.inner_blks[i];
    const dim_t p = start + md.padded_offsets[axis];
    return p % blk + n <= blk ? within : -1;
}

dim_t run_plan_t::run(dim_t r, dim_t *pos) const {
    for (int k = ndims - 1; k >= 0; --k) {
        const int d = order[k];
        const dim_t cnt = d == axis ? (dims[d] + len - 1) / len : dims[d];
        pos[d] = r % cnt;
        r /= cnt;
    }
    pos[axis] *= len;
    return std::min(len, dims[axis] - pos[axis]);
}

run_plan_t make_run_plan(const memory_desc_t &md, dim_t max_len) {
    run_plan_t p;
    p.ndims = md.ndims;
    for (int d = 0; d < md.ndims; ++d)
        p.dims[d] = md.dims[d];
    physical_order(md, p.order);
    if (md.ndims == 0) return p;
    const auto &b = md.blocking;
    if (is_blocked(md) && b.inner_nblks > 0) {
        p.axis = static_cast<int>(b.inner_idxs[b.inner_nblks - 1]);
        p.len = b.inner_blks[b.inner_nblks - 1];
    } else {
        p.axis = md.ndims - 1;
        dim_t best = -1;
        for (int d = md.ndims - 1; d >= 0; --d) {
            if (md.dims[d] <= 1) continue;
            const dim_t s = is_blocked(md) ? b.strides[d] : 0;
            if (best < 0 || s < best) {
                best = s;
                p.axis = d;
            }
        }
        p.len = md.dims[p.axis];
    }
    p.len = std::max<dim_t>(1, std::min(p.len, max_len));
    p.nruns = 1;
    for (int d = 0; d < md.ndims; ++d)
        p.nruns *= d == p.axis ? (md.dims[d] + p.len - 1) / p.len : md.dims[d];
    return p;
}

flat_bcast_t analyze_flat_bcast(const memory_desc_t &dst, const memory_desc_t &op) {
    flat_bcast_t r;
    if (!is_dense_unpadded(dst) || !is_blocked(op) || op.ndims != dst.ndims) return r;
    const dim_t n = nelems(dst);
    if (nelems(op) == 1) {
        r.ok = true;
        r.period = 1;
        r.inner = std::max<dim_t>(1, n);
        return r;
    }
    bool same_dims = true;
    for (int d = 0; d < dst.ndims; ++d)
        same_dims = same_dims && op.dims[d] == dst.dims[d];
    if (same_dims) {
        r.ok = same_layout(op, dst);
        r.period = n;
        r.inner = 1;
        return r;
    }
    for (int d = 0; d < dst.ndims; ++d)
        if (op.dims[d] != 1 && op.dims[d] != dst.dims[d]) return r;
    if (op.blocking.inner_nblks != 0) return r;
    if (dst.blocking.inner_nblks == 1) {
        // Per-channel operand against dst blocked once on that channel (nChw16c + 1xCx1x1).
        const int c = static_cast<int>(dst.blocking.inner_idxs[0]);
        for (int d = 0; d < dst.ndims; ++d)
            if (d != c && op.dims[d] != 1) return r;
        if (op.blocking.strides[c] != 1) return r;
        r.ok = true;
        r.block = dst.blocking.inner_blks[0];
        r.period = dst.dims[c] / r.block;
        r.inner = dst.blocking.strides[c];
        return r;
    }
    if (dst.blocking.inner_nblks != 0) return r;
    int order[max_ndims];
    physical_order(dst, order);
    // The operand's dimensions must be one consecutive group of dst's order.
    int first = -1, last = -1;
    for (int k = 0; k < dst.ndims; ++k) {
        const int d = order[k];
        if (dst.dims[d] <= 1) continue;
        if (op.dims[d] > 1) {
            if (first < 0) first = k;
            if (last >= 0 && last != k - 1) {
                // A broadcast dimension sits between two of the operand's.
                bool gap = false;
                for (int j = last + 1; j < k; ++j)
                    gap = gap || dst.dims[order[j]] > 1;
                if (gap) return r;
            }
            last = k;
        }
    }
    dim_t inner = 1, period = 1, expect = 1;
    for (int k = dst.ndims - 1; k > last; --k)
        inner *= dst.dims[order[k]];
    for (int k = last; k >= first && k >= 0; --k) { // none (last < 0): a scalar operand
        const int d = order[k];
        if (dst.dims[d] <= 1) continue;
        if (op.blocking.strides[d] != expect) return r;
        expect *= op.dims[d];
        period *= op.dims[d];
    }
    r.ok = true;
    r.period = period;
    r.inner = inner;
    return r;
}

void zero_padding(const memory_desc_t &md, void *base) {
    if (!is_blocked(md) || !base) return;
    const size_t esz = data_type_size(md.data_type);
    for (int d = 0; d < md.ndims; ++d) {
        if (md.padded_dims[d] <= md.dims[d]) continue;
        // Every element with position d in the padding, the other dims over their padding too.
        dim_t cnt[max_ndims], total = 1;
        for (int e = 0; e < md.ndims; ++e) {
            cnt[e] = e == d ? md.padded_dims[d] - md.dims[d] : md.padded_dims[e];
            total *= cnt[e];
        }
        parallel_range(total, [&](dim_t start, dim_t end) {
            dim_t pos[max_ndims];
            for (dim_t i = start; i < end; ++i) {
                dim_t rem = i;
                for (int e = md.ndims - 1; e >= 0; --e) {
                    pos[e] = rem % cnt[e];
                    rem /= cnt[e];
                }
                pos[d] += md.dims[d];
                std::memset(static_cast<char *>(base) + off_logical(md, pos) * esz, 0, esz);
            }
        });
    }
}

} // namespace cpu
} // namespace anydnn
