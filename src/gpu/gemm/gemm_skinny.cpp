#include "gpu/gemm/gemm_skinny.hpp"

#include <algorithm>

#include "gpu/gemm/gemm.hpp"
#include "core/verbose.hpp"
#include "gpu/launch.hpp"

namespace anydnn {
namespace gpu {

namespace {

static_assert(sizeof(skinny_params_t) == 10 * 8 + 2 * 4, "must match gemm/gemm_skinny.cl");

int64_t div_up(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Splits of K (and the K of one slice) for W's layout: enough work-groups for `tn` per compute
// unit, slices at least `kt` deep and whole steps of the kernel's K lanes.
int64_t splits_for(const gemm_tuning_t &t, int compute_units, bool nc, int64_t cols, int64_t K,
        int64_t batch, int64_t &k_split) {
    const int64_t grain = nc ? t.wg_m : 4 * t.wg_n;
    const int64_t groups = div_up(cols, nc ? 4 * t.wg_n : t.wg_m) * batch;
    int64_t splits = std::max<int64_t>(1, div_up(int64_t(t.tn) * compute_units, groups));
    splits = std::min(splits, std::max<int64_t>(1, K / std::max(1, t.kt)));
    k_split = std::max(grain, div_up(div_up(K, splits), grain) * grain);
    return K > 0 ? div_up(K, k_split) : 1;
}

bool multiple(int64_t v, int64_t of) { return v % of == 0; }

} // namespace

bool skinny_trans(int64_t m, int64_t n, int mmax, bool same_types) {
    return !(m > 0 && m <= mmax) && same_types && n > 0 && n <= mmax;
}

bool skinny_k_dense(int64_t sk, int64_t sc, int64_t cols) {
    return sk == 1 && (sc != 1 || cols == 1);
}

int skinny_rows_built(const gemm_tuning_t &t, int64_t rows) {
    int r = 1;
    while (r < rows && r < t.tm)
        r *= 2;
    return std::min(r, t.tm);
}

skinny_plan_t skinny_plan(const gemm_tuning_t &t, int compute_units, bool trans,
        const gemm_params_t &p, bool may_split) {
    skinny_plan_t pl;
    pl.trans = trans;
    skinny_params_t &s = pl.s;
    s.K = p.K;
    // X is rows x K, W is K x cols; batch offsets of X and W as A's and B's (or swapped).
    const int64_t *x_sb = trans ? p.b_sb : p.a_sb, *w_sb = trans ? p.a_sb : p.b_sb;
    const int64_t x_off = trans ? p.b_off : p.a_off, w_off = trans ? p.a_off : p.b_off;
    if (!trans) {
        s.rows = p.M, s.cols = p.N;
        s.x_sr = p.a_sm, s.x_sk = p.a_sk, s.w_sk = p.b_sk, s.w_sc = p.b_sn;
    } else {
        s.rows = p.N, s.cols = p.M;
        s.x_sr = p.b_sn, s.x_sk = p.b_sk, s.w_sk = p.a_sk, s.w_sc = p.a_sm;
    }
    pl.nc = !skinny_k_dense(s.w_sk, s.w_sc, s.cols);
    // Vectors of 4 along W's dense dimension where every start is a multiple of 4 elements.
    bool aligned = multiple(w_off, 4) && multiple(pl.nc ? s.w_sk : s.w_sc, 4);
    bool x_aligned = multiple(x_off, 4) && multiple(s.x_sr, 4);
    for (int i = 0; i < gemm_max_batch; ++i) {
        aligned = aligned && multiple(w_sb[i], 4);
        x_aligned = x_aligned && multiple(x_sb[i], 4);
    }
    s.vec = aligned && (pl.nc ? s.w_sc == 1 : s.w_sk == 1);
    s.xvec = !pl.nc && x_aligned && s.x_sk == 1;
    s.splits = may_split ? splits_for(t, compute_units, pl.nc, s.cols, s.K, p.batch(), s.k_split)
                         : 1;
    if (s.splits == 1) s.k_split = std::max<int64_t>(s.K, 1);
    pl.col_groups = div_up(s.cols, pl.nc ? 4 * t.wg_n : t.wg_m);
    return pl;
}

size_t skinny_scratchpad_bytes(const gemm_tuning_t &t, int compute_units, bool trans, int64_t m,
        int64_t n, int64_t k, int64_t batch) {
    const int64_t rows = trans ? n : m, cols = trans ? m : n;
    int64_t most = 1, k_split = 0;
    for (bool nc : {true, false})
        most = std::max(most, splits_for(t, compute_units, nc, cols, k, batch, k_split));
    return most > 1 ? size_t(most * batch * rows * cols) * sizeof(float) : 0;
}

status_t skinny_kernels_t::build(engine_t *engine, const std::string &options, gemm_tuning_t &t,
        int64_t m, int64_t n, bool same_types, std::string &note) {
    trans_ = skinny_trans(m, n, t.tm, same_types);
    mmax_ = skinny_rows_built(t, trans_ ? n : m);
    compute_units_ = std::max(1, int(engine_caps(engine).compute_units));
    for (;;) {
        std::string opt = options;
        auto def = [&](const char *name, int v) {
            opt += std::string(" -D") + name + "=" + std::to_string(v);
        };
        def("WG_M", t.wg_m);
        def("WG_N", t.wg_n);
        def("MMAX", mmax_);
        def("STAGES", t.stages);
        if (trans_) opt += " -DTRANS";
        if (t.regs > 0 && engine_caps(engine).nvidia_ptx)
            opt += " -cl-nv-maxrregcount=" + std::to_string(t.regs);
        const char *file = "gemm/gemm_skinny.cl";
        ANYDNN_CHECK(create_kernel(engine, file, opt, "gemm_skinny_nc", nc_));
        ANYDNN_CHECK(create_kernel(engine, file, opt, "gemm_skinny_kc", kc_));
        ANYDNN_CHECK(create_kernel(engine, file, opt, "gemm_skinny_sum", sum_));
        // The kernels' own limit (CL_KERNEL_WORK_GROUP_SIZE: registers), not only the device's.
        const size_t wg = size_t(t.wg_m) * t.wg_n;
        const size_t limit = std::min(nc_->max_work_group_size(), kc_->max_work_group_size());
        if (limit >= wg) break;
        ANYDNN_REQUIRE(t.wg_m > 1, dnnl_unimplemented,
                "the skinny GEMM's kernels take at most %zu work-items, fewer than %d lanes",
                limit, t.wg_n);
        note += "; the kernels take at most " + std::to_string(limit) + " work-items, not "
                + std::to_string(wg) + ": K lanes " + std::to_string(t.wg_m / 2);
        t.wg_m /= 2;
    }
    note += trans_ ? "; rows are C's columns (N small)" : "";
    note += "; built for " + std::to_string(mmax_) + " rows";
    t_ = t;
    return dnnl_success;
}

status_t skinny_kernels_t::launch(
        stream_t *stream, const gemm_operands_t &o, const gemm_params_t &p) const {
    const bool trans = trans_; // a build option
    ANYDNN_REQUIRE((trans ? p.N : p.M) <= mmax_, dnnl_runtime_error,
            "the skinny GEMM was built for at most %d rows, not %lld", mmax_,
            (long long)(trans ? p.N : p.M));
    skinny_plan_t pl = skinny_plan(t_, compute_units_, trans, p, true);
    skinny_params_t &s = pl.s;
    const size_t part_bytes = size_t(s.splits * p.batch() * s.rows * s.cols) * sizeof(float);
    if (s.splits > 1 && (!o.scratchpad || o.scratchpad_bytes < part_bytes)) {
        pl = skinny_plan(t_, compute_units_, trans, p, false); // no room for the slices
    }
    s.part_off = int64_t(o.scratchpad_off / sizeof(float));
    if (verbose_on(verbose_flag::dispatch))
        verbose_print("primitive,exec:dispatch",
                std::string("gemm,skinny ") + (pl.nc ? "columns-dense" : "K-dense") + " W"
                        + (s.vec ? " in vectors" : " in scalars") + ",rows "
                        + std::to_string(s.rows) + " cols " + std::to_string(s.cols) + " K "
                        + std::to_string(s.K) + ",K slices " + std::to_string(s.splits) + " of "
                        + std::to_string(s.k_split));
    auto args_of = [&](kernel_args_t &args) {
        for (const memory_storage_t *m :
                {o.a, o.b, o.c, o.bias, o.scale_a, o.scale_b, o.scale_c, o.zp_a, o.zp_b, o.zp_c})
            args.add(m);
        args.add_value(p);
        args.add_value(s);
        args.add(s.splits > 1 ? o.scratchpad : nullptr);
        if (o.post_ops) o.post_ops->add_args(args, *o.ctx, o.post_ops_buffer);
    };
    kernel_args_t args;
    args_of(args);
    nd_range_t r;
    r.ndims = 3;
    r.global[2] = size_t(p.batch());
    r.local[0] = size_t(t_.wg_n), r.local[1] = size_t(t_.wg_m), r.local[2] = 1;
    if (pl.nc) {
        r.global[0] = size_t(pl.col_groups * t_.wg_n);
        r.global[1] = size_t(s.splits * t_.wg_m);
    } else {
        r.global[0] = size_t(s.splits * t_.wg_n);
        r.global[1] = size_t(pl.col_groups * t_.wg_m);
    }
    ANYDNN_CHECK((pl.nc ? nc_ : kc_)->launch(stream, args, r));
    if (s.splits == 1) return dnnl_success;
    nd_range_t rs;
    rs.ndims = 3;
    rs.global[0] = size_t(s.cols), rs.global[1] = size_t(s.rows), rs.global[2] = size_t(p.batch());
    return sum_->launch(stream, args, rs);
}

} // namespace gpu
} // namespace anydnn
