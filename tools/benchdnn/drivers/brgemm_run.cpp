// --brgemm through the public ukernel API. How the problem's knobs reach the API:
//  - A, B, C, D are the brgemm's own: C is s32 for integer B, else f32; D is the accumulator
//    itself when nothing follows the product (brgemm_cfg_t::dst_is_acc), otherwise C is a
//    separate M x N buffer and D comes from execute_postops.
//  - beta is add_C (0 or 1); alpha is folded into the A scale, and where C is added too
//    (which the A scale would scale) C comes in as an M x N binary post-op instead.
//  - B is given as ab (or ba with --wtag) and packed by the transform into the layout
//    get_B_pack_type names, one batch block at a time; an unpacked ab B is read in place.
//  - bias, and common zero points of A and D, which the API lacks, are binary post-ops as an
//    application would write them: bias[n] and -zp_A * scales * column sums of B first,
//    zp_D * d_scale last (D is divided by its scale after the post-ops).
//  - --attr-fpmath has no ukernel counterpart: the brgemm is checked at full precision.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "brgemm_problem.hpp"
#include "capture.hpp"
#include "compare.hpp"
#include "data_types.hpp"
#include "fill.hpp"
#include "harness.hpp"
#include "perf.hpp"
#include "ref_math.hpp"

#if __has_include("oneapi/dnnl/dnnl_ukernel.h")
#include "oneapi/dnnl/dnnl_ukernel.h"
#endif

namespace benchdnn {

#ifndef DNNL_EXPERIMENTAL_UKERNEL

void run_brgemm_problem(const brgemm_cfg_t &, const std::string &repro) {
    const int idx = begin_problem();
    report_problem(idx, settings().list ? outcome_t::listed : outcome_t::unimplemented,
            settings().list ? "" : "library has no ukernel API (dnnl_ukernel.h)", repro);
}

#else

namespace {

#define UK(fn) BENCHDNN_REQUIRE_API(fn)

// A refusal of the problem: UNIMPLEMENTED (what the API or the library does not do),
// SKIPPED (what the tester does not build, or an invalid problem).
struct refusal_t {
    outcome_t outcome;
    std::string why;
};

// Bytes of one tensor, 8-byte aligned.
class buffer_t {
public:
    buffer_t() = default;
    explicit buffer_t(size_t bytes) : data_((bytes + 7) / 8 + 1) {}
    void *get() { return data_.data(); }
    const void *get() const { return data_.data(); }
    size_t bytes() const { return data_.size() * 8; }
    bool same(const buffer_t &o) const { return data_ == o.data_; }

private:
    std::vector<uint64_t> data_;
};

// A value the library must never read: NaN for floating point, the largest for integers.
double poison(dnnl_data_type_t dt) {
    return dt_is_int(dt) ? dt_max(dt) : std::nan("");
}

// rows x ld elements of dt: logical rows x cols values, the rest poisoned.
void write_matrix(buffer_t &buf, dnnl_data_type_t dt, int64_t rows, int64_t cols, int64_t ld,
        const std::vector<double> &v) {
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t x = 0; x < ld; ++x)
            store_elem(buf.get(), r * ld + x, dt, x < cols ? v[r * cols + x] : poison(dt));
}

fill_range_t value_range(dnnl_data_type_t dt) {
    fill_range_t r;
    r.lo = -4;
    r.hi = 4;
    r.step = 0.25;
    if (dt_is_int(dt)) {
        r.integers = true;
        r.step = 0;
    }
    return clamp_range(r, dt);
}

class brgemm_run_t {
public:
    brgemm_run_t(const brgemm_cfg_t &c) : c_(c) {}
    ~brgemm_run_t() {
        if (params_) BENCHDNN_API(dnnl_ukernel_attr_params_destroy)(params_);
        if (transform_) BENCHDNN_API(dnnl_transform_destroy)(transform_);
        if (brg_) BENCHDNN_API(dnnl_brgemm_destroy)(brg_);
        if (po_) dnnl_post_ops_destroy(po_);
    }

    // What stops the problem before the library sees it; empty why: nothing.
    refusal_t screen() const {
        const auto skip = [](const std::string &w) { return refusal_t {outcome_t::skipped, w}; };
        const auto unimpl
                = [](const std::string &w) { return refusal_t {outcome_t::unimplemented, w}; };
        for (auto t : {c_.dt[0], c_.dt[1], c_.dt[2]})
            if (!dt_supported(t)) return skip("data type not handled by the tester");
        if (c_.bdt != dnnl_data_type_undef && !dt_supported(c_.bdt))
            return skip("bias data type not handled by the tester");
        const std::string why = c_.attr.unsupported();
        if (!why.empty()) return skip(why);
        for (const auto *qs : {&c_.attr.scales, &c_.attr.zero_points})
            for (const auto &q : *qs)
                if (!q.groups.empty())
                    return skip("grouped scales and zero points are not handled by this tester");
        if (settings().engine_kind != dnnl_cpu)
            return unimpl("the ukernel API runs on the CPU engine only");
        if (!is_row_major(c_.stag) || !is_row_major(c_.dtag))
            return unimpl("the ukernel API takes A and D row by row (lda, ldd): no --stag/--dtag "
                          "layouts");
        if (!is_row_major(c_.wtag) && c_.wtag != "ba")
            return unimpl("B is given as ab or ba to the transform, not " + c_.wtag);
        if (c_.lda() < c_.bs * c_.K || c_.ldd() < c_.N || c_.ldb() < c_.N)
            return skip("invalid problem: leading dimensions below bs*K:N:N");
        if (c_.beta != 0 && c_.beta != 1)
            return unimpl("the ukernel adds C or not (add_C): beta " + std::to_string(c_.beta));
        if (c_alone_after_scale() && (c_.attr.scale(DNNL_ARG_SRC) || c_.attr.scale(DNNL_ARG_WEIGHTS)))
            return unimpl("the ukernel API has no alpha: folded into the A scale, it would scale "
                          "the added C too, and C as a post-op operand would miss the scales");
        for (const auto &q : c_.attr.scales)
            if (q.dt != dnnl_data_type_undef && q.dt != dnnl_f32)
                return unimpl("ukernel scales are f32");
        for (const auto &q : c_.attr.zero_points) {
            if (q.arg != DNNL_ARG_SRC && q.arg != DNNL_ARG_DST)
                return unimpl("the ukernel API has no zero points; the tester composes those "
                              "of A and D only");
            if (q.policy != "common")
                return unimpl("the ukernel API has no zero points; the tester composes common "
                              "ones only");
        }
        for (const auto &p : c_.attr.post_ops)
            if (p.kind == post_op_t::kind_t::binary) {
                if (!dt_supported(p.dt)) return skip("post-op data type not handled by the tester");
                if (!p.tag.empty() && !is_row_major(p.tag))
                    return unimpl("ukernel binary post-op operands are plain row-major");
            }
        return {outcome_t::passed, ""};
    }

    // Library calls up to a generated kernel; a refusal carries the library's reason.
    refusal_t create() {
        fill_values_for_problem();
        std::string why;
        dnnl_status_t st;
        {
            stdout_capture_t capture;
            st = configure();
            why = capture.finish();
        }
        if (st == dnnl_success) return {outcome_t::passed, ""};
        if (st == dnnl_unimplemented)
            return {outcome_t::unimplemented, why.empty() ? "no implementation" : why};
        return {outcome_t::failed, status_name(st) + (why.empty() ? "" : ": " + why)};
    }

    void prepare() {
        const int64_t M = c_.M, N = c_.N, K = c_.K, KB = c_.bs * c_.K;
        const auto adt = c_.dt[0], bdt = c_.dt[1], ddt = c_.dt[2], cdt = c_.acc_dt();
        a_ = buffer_t(M * c_.lda() * dt_size(adt));
        write_matrix(a_, adt, M, KB, c_.lda(), v_.a);
        const size_t bsz = dt_size(bdt);
        if (transform_) {
            // The user's B, one K x N block per batch element (ab) or N x K (ba).
            buffer_t user(KB * N * bsz);
            const bool ba = c_.wtag == "ba";
            for (int64_t i = 0; i < c_.bs; ++i)
                for (int64_t k = 0; k < K; ++k)
                    for (int64_t n = 0; n < N; ++n)
                        store_elem(user.get(), i * K * N + (ba ? n * K + k : k * N + n), bdt,
                                v_.b[(i * K + k) * N + n]);
            b_ = buffer_t(c_.bs * b_rows_ * c_.ldb() * bsz);
            for (int64_t i = 0; i < c_.bs; ++i)
                BENCHDNN_CHECK(UK(dnnl_transform_execute)(transform_,
                        static_cast<const char *>(user.get()) + i * K * N * bsz,
                        static_cast<char *>(b_.get()) + i * b_rows_ * c_.ldb() * bsz));
        } else {
            b_ = buffer_t(KB * c_.ldb() * bsz);
            write_matrix(b_, bdt, KB, N, c_.ldb(), v_.b);
        }
        for (int64_t i = 0; i < c_.bs; ++i) {
            offsets_.push_back(i * K * static_cast<int64_t>(dt_size(adt)));
            offsets_.push_back(i * b_rows_ * c_.ldb() * static_cast<int64_t>(bsz));
        }
        d_ = buffer_t(M * c_.ldd() * dt_size(ddt));
        write_matrix(d_, ddt, M, N, c_.ldd(), c_.dst_is_acc() ? v_.c : v_.d);
        if (!c_.dst_is_acc()) {
            c_buf_ = buffer_t(M * N * dt_size(cdt));
            write_matrix(c_buf_, cdt, M, N, N, v_.c);
            c_before_ = c_buf_;
        }
        d_before_ = d_;
        scratch_ = buffer_t(scratch_size_);
        if (!c_.dst_is_acc()) {
            BENCHDNN_CHECK(UK(dnnl_ukernel_attr_params_create)(&params_));
            op_ptrs_.clear();
            for (auto &o : op_bufs_) op_ptrs_.push_back(o.get());
            if (!op_ptrs_.empty())
                BENCHDNN_CHECK(UK(dnnl_ukernel_attr_params_set_post_ops_args)(
                        params_, op_ptrs_.data()));
            if (a_scale_set_)
                BENCHDNN_CHECK(UK(dnnl_ukernel_attr_params_set_A_scales)(params_, &a_scale_f_));
            if (b_scale_set_)
                BENCHDNN_CHECK(
                        UK(dnnl_ukernel_attr_params_set_B_scales)(params_, b_scales_f_.data()));
            if (d_scale_set_)
                BENCHDNN_CHECK(UK(dnnl_ukernel_attr_params_set_D_scales)(params_, &d_scale_f_));
        }
    }

    dnnl_status_t execute() {
        dnnl_status_t st = UK(dnnl_brgemm_set_hw_context)(brg_);
        if (st != dnnl_success) return st;
        if (c_.dst_is_acc())
            st = UK(dnnl_brgemm_execute)(
                    brg_, a_.get(), b_.get(), offsets_.data(), d_.get(), scratch_.get());
        else
            st = UK(dnnl_brgemm_execute_postops)(brg_, a_.get(), b_.get(), offsets_.data(),
                    c_buf_.get(), d_.get(), scratch_.get(), params_);
        const dnnl_status_t rel = UK(dnnl_brgemm_release_hw_context)();
        return st != dnnl_success ? st : rel;
    }

    bool check(std::string &msg) const {
        const int64_t M = c_.M, N = c_.N, ld = c_.ldd();
        const auto ddt = c_.dt[2];
        std::vector<double> mag;
        const std::vector<double> exp = brgemm_reference(c_, v_, mag);
        std::vector<double> got(M * N);
        for (int64_t m = 0; m < M; ++m)
            for (int64_t n = 0; n < N; ++n) got[m * N + n] = load_elem(d_.get(), m * ld + n, ddt);
        tolerance_t tol;
        tol.eps = 2e-6;
        for (const auto &p : c_.attr.post_ops)
            if (p.kind == post_op_t::kind_t::eltwise && eltwise_is_transcendental(p.alg))
                tol.eps = 1e-5;
        tol.int_diff = 1;
        // Accumulation error grows with the terms (mag) at f32's precision; D's own rounding
        // with the value: scale mag so that compare's eps(D) * mag is tol.eps * mag.
        const double d_eps = std::max(tol.eps, dt_epsilon(ddt));
        for (double &x : mag) x *= tol.eps / d_eps;
        if (!compare(got, exp, {M, N}, ddt, tol, msg, &mag)) return false;
        // Columns N..ldd-1 of D are not the brgemm's to write; C is only read.
        const size_t esz = dt_size(ddt);
        for (int64_t m = 0; m < M; ++m)
            if (std::memcmp(static_cast<const char *>(d_.get()) + (m * ld + N) * esz,
                        static_cast<const char *>(d_before_.get()) + (m * ld + N) * esz,
                        (ld - N) * esz)) {
                msg = "D changed past column N (row " + std::to_string(m) + ")";
                return false;
            }
        if (!c_.dst_is_acc() && !c_buf_.same(c_before_)) {
            msg = "execute_postops changed C";
            return false;
        }
        return true;
    }

    perf_result_t perf_info() const {
        perf_result_t r;
        r.bytes = static_cast<double>(a_.bytes() + b_.bytes() + d_.bytes() + c_buf_.bytes());
        r.flops = 2.0 * c_.M * c_.N * c_.K * c_.bs;
        r.impl = "ukernel:brgemm";
        r.engine = engine_name();
        r.driver = "brgemm";
        return r;
    }

private:
    static bool is_row_major(const std::string &t) { return t == "abx" || t == "ab" || t == "any"; }

    // alpha != 1 with beta: alpha rides on the A scale, which add_C would apply to C too, so C
    // is added by a binary post-op instead (exact only without other scales).
    bool c_alone_after_scale() const { return c_.alpha != 1 && c_.beta != 0; }

    void fill_values_for_problem() {
        const int64_t M = c_.M, N = c_.N, KB = c_.bs * c_.K;
        v_.a = fill_values(M * KB, value_range(c_.dt[0]), c_.dt[0], 1);
        v_.b = fill_values(KB * N, value_range(c_.dt[1]), c_.dt[1], 2);
        v_.c = fill_values(M * N, value_range(c_.acc_dt()), c_.acc_dt(), 3);
        v_.d = fill_values(M * N, value_range(c_.dt[2]), c_.dt[2], 4);
        if (c_.bdt != dnnl_data_type_undef)
            v_.bias = fill_values(N, value_range(c_.bdt), c_.bdt, 5);
        if (auto *q = c_.attr.scale(DNNL_ARG_SRC)) v_.a_scale = q->value;
        if (auto *q = c_.attr.scale(DNNL_ARG_DST)) v_.d_scale = q->value;
        if (auto *q = c_.attr.zero_point(DNNL_ARG_SRC)) v_.a_zp = q->value;
        if (auto *q = c_.attr.zero_point(DNNL_ARG_DST)) v_.d_zp = q->value;
        v_.b_scales.assign(1, 1.0);
        if (auto *q = c_.attr.scale(DNNL_ARG_WEIGHTS)) {
            // Per column: the value times powers of two, exact in f32.
            static const double f[] = {1, 0.5, 2, 0.25};
            if (policy_mask(q->policy, 2) == 2) {
                v_.b_scales.resize(N);
                for (int64_t n = 0; n < N; ++n) v_.b_scales[n] = q->value * f[n % 4];
            } else
                v_.b_scales[0] = q->value;
        }
        v_.operand_dims.assign(c_.attr.post_ops.size(), dims_t {});
        v_.operands.assign(c_.attr.post_ops.size(), {});
        for (size_t i = 0; i < c_.attr.post_ops.size(); ++i) {
            const auto &p = c_.attr.post_ops[i];
            if (p.kind != post_op_t::kind_t::binary) continue;
            v_.operand_dims[i] = masked_dims({c_.M, c_.N}, policy_mask(p.policy, 2));
            v_.operands[i] = fill_values(product(v_.operand_dims[i]),
                    clamp_range(attr_bundle_t::operand_range(p), p.dt), p.dt, 10 + i);
        }
    }

    // A binary post-op operand of dims {rows, cols} and type dt holding values.
    dnnl_status_t append_operand(dnnl_alg_kind_t alg, int64_t rows, int64_t cols,
            dnnl_data_type_t dt, const std::vector<double> &values) {
        md_h md;
        const dnnl_dims_t dims = {rows, cols};
        dnnl_status_t st = dnnl_memory_desc_create_with_tag(md.out(), 2, dims, dt, dnnl_ab);
        if (st == dnnl_success) st = dnnl_post_ops_append_binary(po_, alg, md.get());
        if (st != dnnl_success) return st;
        op_bufs_.emplace_back(rows * cols * dt_size(dt));
        write_matrix(op_bufs_.back(), dt, rows, cols, cols, values);
        return dnnl_success;
    }

    // The post-op chain the problem needs (see the file comment), the user's in the middle.
    dnnl_status_t build_post_ops() {
        const int64_t N = c_.N;
        dnnl_status_t st = dnnl_post_ops_create(&po_);
        if (st != dnnl_success) return st;
        const double a_scale = v_.a_scale * c_.alpha;
        if (v_.a_zp != 0) {
            std::vector<double> comp(N);
            for (int64_t n = 0; n < N; ++n) {
                double colsum = 0;
                for (int64_t kb = 0; kb < c_.bs * c_.K; ++kb) colsum += v_.b[kb * N + n];
                comp[n] = -v_.a_zp * colsum * a_scale
                        * v_.b_scales[v_.b_scales.size() == 1 ? 0 : n];
            }
            if ((st = append_operand(dnnl_binary_add, 1, N, dnnl_f32, comp)) != dnnl_success)
                return st;
        }
        if (c_alone_after_scale()
                && (st = append_operand(dnnl_binary_add, c_.M, N, c_.acc_dt(), v_.c))
                        != dnnl_success)
            return st;
        if (c_.bdt != dnnl_data_type_undef
                && (st = append_operand(dnnl_binary_add, 1, N, c_.bdt, v_.bias)) != dnnl_success)
            return st;
        for (size_t i = 0; i < c_.attr.post_ops.size(); ++i) {
            const auto &p = c_.attr.post_ops[i];
            switch (p.kind) {
                case post_op_t::kind_t::sum:
                    st = dnnl_post_ops_append_sum(po_, static_cast<float>(p.scale), p.zero_point,
                            p.dt);
                    break;
                case post_op_t::kind_t::eltwise:
                    st = dnnl_post_ops_append_eltwise(po_, p.alg, static_cast<float>(p.alpha),
                            static_cast<float>(p.beta));
                    break;
                case post_op_t::kind_t::binary:
                    st = append_operand(p.alg, v_.operand_dims[i][0], v_.operand_dims[i][1], p.dt,
                            v_.operands[i]);
                    break;
                case post_op_t::kind_t::prelu:
                    st = dnnl_post_ops_append_prelu(po_, policy_mask(p.policy, 2));
                    has_prelu_ = true;
                    break;
            }
            if (st != dnnl_success) return st;
        }
        if (v_.d_zp != 0)
            st = append_operand(dnnl_binary_add, 1, 1, dnnl_f32, {v_.d_zp * v_.d_scale});
        return st;
    }

    dnnl_status_t configure() {
        const auto cdt = c_.acc_dt();
        const int64_t ldc = c_.dst_is_acc() ? c_.ldd() : c_.N;
        dnnl_status_t st = UK(dnnl_brgemm_create)(&brg_, c_.M, c_.N, c_.K, c_.bs, c_.lda(),
                c_.ldb(), ldc, c_.dt[0], c_.dt[1], cdt);
        if (st != dnnl_success) return st;
        st = UK(dnnl_brgemm_set_add_C)(brg_, c_.beta != 0 && !c_alone_after_scale());
        if (st != dnnl_success) return st;
        if (!c_.dst_is_acc()) {
            if ((st = build_post_ops()) != dnnl_success) return st;
            st = UK(dnnl_brgemm_set_post_ops)(brg_, c_.ldd(), c_.dt[2], po_);
            if (st != dnnl_success) return st;
            auto *sa = c_.attr.scale(DNNL_ARG_SRC);
            if (sa || c_.alpha != 1) {
                a_scale_set_ = true;
                a_scale_f_ = static_cast<float>(v_.a_scale * c_.alpha);
                st = UK(dnnl_brgemm_set_A_scales)(brg_, sa ? policy_mask(sa->policy, 2) : 0);
                if (st != dnnl_success) return st;
            }
            if (auto *sb = c_.attr.scale(DNNL_ARG_WEIGHTS)) {
                b_scale_set_ = true;
                for (double s : v_.b_scales) b_scales_f_.push_back(static_cast<float>(s));
                st = UK(dnnl_brgemm_set_B_scales)(brg_, policy_mask(sb->policy, 2));
                if (st != dnnl_success) return st;
            }
            if (auto *sd = c_.attr.scale(DNNL_ARG_DST)) {
                d_scale_set_ = true;
                d_scale_f_ = static_cast<float>(v_.d_scale);
                st = UK(dnnl_brgemm_set_D_scales)(brg_, policy_mask(sd->policy, 2));
                if (st != dnnl_success) return st;
            }
        }
        if ((st = UK(dnnl_brgemm_finalize)(brg_)) != dnnl_success) return st;
        dnnl_pack_type_t pack = dnnl_pack_type_undef;
        if ((st = UK(dnnl_brgemm_get_B_pack_type)(&pack, c_.dt[0], c_.dt[1])) != dnnl_success)
            return st;
        if ((st = UK(dnnl_brgemm_generate)(brg_)) != dnnl_success) return st;
        if ((st = UK(dnnl_brgemm_get_scratchpad_size)(brg_, &scratch_size_)) != dnnl_success)
            return st;
        if (has_prelu_) return dnnl_unimplemented; // accepted, but the tester has no operand
        // Packed B holds K rounded up to 32-bit groups of k per block.
        const int64_t g = pack == dnnl_pack_type_pack32
                ? std::max<int64_t>(1, 4 / static_cast<int64_t>(dt_size(c_.dt[1])))
                : 1;
        b_rows_ = (c_.K + g - 1) / g * g;
        if (pack == dnnl_pack_type_no_trans && is_row_major(c_.wtag)) return dnnl_success;
        const bool ba = c_.wtag == "ba";
        st = UK(dnnl_transform_create)(&transform_, c_.K, c_.N,
                ba ? dnnl_pack_type_trans : dnnl_pack_type_no_trans, ba ? c_.K : c_.N, c_.ldb(),
                c_.dt[1], c_.dt[1]);
        if (st != dnnl_success) return st;
        return UK(dnnl_transform_generate)(transform_);
    }

    const brgemm_cfg_t &c_;
    brgemm_values_t v_;
    dnnl_brgemm_t brg_ = nullptr;
    dnnl_transform_t transform_ = nullptr;
    dnnl_ukernel_attr_params_t params_ = nullptr;
    dnnl_post_ops_t po_ = nullptr;
    bool has_prelu_ = false;
    bool a_scale_set_ = false, b_scale_set_ = false, d_scale_set_ = false;
    float a_scale_f_ = 1, d_scale_f_ = 1;
    std::vector<float> b_scales_f_;
    std::vector<buffer_t> op_bufs_;
    std::vector<const void *> op_ptrs_;
    size_t scratch_size_ = 0;
    int64_t b_rows_ = 0;
    buffer_t a_, b_, c_buf_, d_, c_before_, d_before_, scratch_;
    std::vector<dnnl_dim_t> offsets_;
};

} // namespace

void run_brgemm_problem(const brgemm_cfg_t &c, const std::string &repro) {
    const auto &s = settings();
    const int idx = begin_problem();
    if (s.list) return report_problem(idx, outcome_t::listed, "", repro);
    if (before_start(idx)) return report_problem(idx, outcome_t::skipped, "before --start", repro);
    try {
        brgemm_run_t run(c);
        refusal_t r = run.screen();
        if (r.outcome != outcome_t::passed) return report_problem(idx, r.outcome, r.why, repro);
        r = run.create();
        if (r.outcome != outcome_t::passed) return report_problem(idx, r.outcome, r.why, repro);
        if (s.fast) return report_problem(idx, outcome_t::passed, "", repro);
        run.prepare();
        const dnnl_status_t st = run.execute();
        if (st != dnnl_success)
            return report_problem(
                    idx, outcome_t::failed, std::string("execution: ") + status_name(st), repro);
        std::string msg;
        const bool ok = !s.correctness || run.check(msg);
        if (ok && s.performance) {
            perf_result_t p = run.perf_info();
            p.prb = repro.substr(repro.find(' ') + 1);
            time_and_print([&] { return run.execute(); }, p);
        }
        if (!ok) return report_problem(idx, outcome_t::failed, msg, repro);
        report_problem(idx, s.correctness ? outcome_t::passed : outcome_t::executed, "", repro);
    } catch (const missing_entry_error &e) {
        report_problem(idx, outcome_t::unimplemented, e.what(), repro);
    } catch (const dnnl_error &e) {
        report_problem(idx, outcome_t::failed, e.what(), repro);
    } catch (const std::exception &e) {
        report_problem(idx, outcome_t::failed, std::string("tester: ") + e.what(), repro);
    }
}

#endif

} // namespace benchdnn
