// Sparse matmul problems: the sparse operand is made of nnz = max(1, elements x (1 -
// sparsity)) entries at random places, written into the library's buffers in CSR or COO
// (sorted), or reordered from a dense tensor into the primitive's packed layout. Values are
// multiples of 0.25 in [-2, 2] given by a hash of their index, so the dense operand of
// 10^6 x 100 elements is never held by the tester and sums stay exact in f32.
#include "matmul_sparse.hpp"

#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

#include "compare.hpp"
#include "data_types.hpp"
#include "driver.hpp"
#include "knobs.hpp"
#include "names.hpp"

namespace benchdnn {

encoding_t parse_encoding(const std::string &s) {
    encoding_t e;
    e.text = s;
    size_t start = 0;
    for (int i = 0; i < 3; ++i) {
        const size_t colon = s.find(':', start);
        const std::string f = s.substr(start, colon == std::string::npos ? colon : colon - start);
        start = colon == std::string::npos ? s.size() : colon + 1;
        if (f.empty()) continue;
        const size_t plus = f.find('+');
        const std::string name = f.substr(0, plus);
        if (name == "csr") e.enc[i] = dnnl_csr;
        else if (name == "coo") e.enc[i] = dnnl_coo;
        else if (name == "packed") e.enc[i] = dnnl_packed;
        else throw std::invalid_argument("unknown sparse encoding '" + name + "' in " + s);
        if (plus != std::string::npos) {
            e.sparsity[i] = std::stod(f.substr(plus + 1));
            if (!(e.sparsity[i] >= 0.0 && e.sparsity[i] <= 1.0))
                throw std::invalid_argument("sparsity outside [0, 1] in " + s);
        }
    }
    return e;
}

namespace {

uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// Element i of a tensor seeded `seed`: 0.25 * [-8, 8], or in [-8, 8] for integer types (u8:
// [0, 8]); `nonzero` leaves zero out.
double value_at(uint64_t seed, int64_t i, dnnl_data_type_t dt, bool nonzero) {
    const uint64_t h = mix(seed * 0x100000001b3ull + static_cast<uint64_t>(i));
    int q = static_cast<int>(h % 17) - 8;
    if (nonzero && q == 0) q = (h >> 32) & 1 ? 1 : -1;
    if (dt == dnnl_u8) q = std::abs(q);
    return dt_is_int(dt) ? q : 0.25 * q;
}

class sparse_matmul_prb_t : public problem_t {
public:
    explicit sparse_matmul_prb_t(const sparse_matmul_cfg_t &c) : c_(c) {
        const int nd = static_cast<int>(c_.sd.size());
        dd_ = c_.sd;
        for (int i = 0; i < nd - 2; ++i) dd_[i] = std::max(c_.sd[i], c_.wd[i]);
        dd_[nd - 1] = c_.wd[nd - 1];
        sparse_arg_ = c_.enc.enc[0] != dnnl_sparse_encoding_undef ? 0 : 1;
        const dims_t &sp = sparse_arg_ == 0 ? c_.sd : c_.wd;
        const double n = static_cast<double>(product(sp));
        nnz_ = std::max<int64_t>(1, static_cast<int64_t>(n * (1.0 - c_.enc.sparsity[sparse_arg_])));
        nnz_ = std::min<int64_t>(nnz_, product(sp));
    }

    std::string repro() const override {
        std::string dt = dt2str(c_.sdt);
        if (c_.wdt != c_.sdt || c_.ddt != c_.sdt)
            dt += std::string(":") + dt2str(c_.wdt) + ":" + dt2str(c_.ddt);
        repro_t r("matmul");
        r.knob("dt", dt, "f32")
                .knob("stag", c_.stag, "any")
                .knob("wtag", c_.wtag, "any")
                .knob("dtag", c_.dtag, "any")
                .knob("encoding", c_.enc.text, "");
        return r.str(dims2str(c_.sd) + ":" + dims2str(c_.wd));
    }

    std::string skip_reason() const override {
        for (auto t : {c_.sdt, c_.wdt, c_.ddt})
            if (!dt_supported(t)) return "data type not handled by the tester";
        if (c_.enc.enc[2] != dnnl_sparse_encoding_undef)
            return "a sparse dst is not handled by the tester";
        if (c_.enc.enc[0] != dnnl_sparse_encoding_undef
                && c_.enc.enc[1] != dnnl_sparse_encoding_undef)
            return "two sparse operands are not handled by the tester";
        if (c_.enc.enc[0] == dnnl_packed) return "a packed src is not handled by the tester";
        if (encoding() != dnnl_packed && c_.sd.size() != 2)
            return "CSR and COO tensors are 2D here";
        return c_.unsupported;
    }

    double flops() const override {
        // Products of non-zeros only: each meets a row of weights (src sparse) or a column
        // of every batch's src (weights sparse).
        const double other = sparse_arg_ == 0 ? dd_.back() : product(dd_) / dd_.back();
        return 2.0 * nnz_ * other;
    }

    dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) override {
        md_h s, w, d;
        dnnl_status_t st = dnnl_success;
        const dims_t &sp = sparse_arg_ == 0 ? c_.sd : c_.wd;
        const dnnl_data_type_t sdt = sparse_arg_ == 0 ? c_.sdt : c_.wdt;
        md_h &sparse_md = sparse_arg_ == 0 ? s : w;
        const int nd = static_cast<int>(sp.size());
        if (encoding() == dnnl_csr) {
            auto f = BENCHDNN_API(dnnl_memory_desc_create_with_csr_encoding);
            if (!f) return missing("dnnl_memory_desc_create_with_csr_encoding");
            st = f(sparse_md.out(), nd, sp.data(), sdt, nnz_, dnnl_s32, dnnl_s32);
        } else if (encoding() == dnnl_coo) {
            auto f = BENCHDNN_API(dnnl_memory_desc_create_with_coo_encoding);
            if (!f) return missing("dnnl_memory_desc_create_with_coo_encoding");
            st = f(sparse_md.out(), nd, sp.data(), sdt, nnz_, dnnl_s32);
        } else {
            auto f = BENCHDNN_API(dnnl_memory_desc_create_with_packed_encoding);
            if (!f) return missing("dnnl_memory_desc_create_with_packed_encoding");
            st = f(sparse_md.out(), nd, sp.data(), sdt, nnz_);
        }
        if (st != dnnl_success) return st;
        if (sparse_arg_ == 1) st = make_md(s, c_.sd, c_.sdt, c_.stag);
        else st = make_md(w, c_.wd, c_.wdt, c_.wtag);
        if (st == dnnl_success) st = make_md(d, dd_, c_.ddt, c_.dtag);
        if (st != dnnl_success) return st;
        return BENCHDNN_CALL_OP(*this, dnnl_matmul_primitive_desc_create, pd.out(), engine,
                s.get(), w.get(), nullptr, d.get(), nullptr);
    }

    void prepare(const_dnnl_primitive_desc_t pd, args_t &args) override {
        auto md_of = [&](int arg) {
            return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
        };
        pick_entries();
        const int dense_arg = sparse_arg_ == 0 ? DNNL_ARG_WEIGHTS : DNNL_ARG_SRC;
        const dnnl_data_type_t ddt = sparse_arg_ == 0 ? c_.wdt : c_.sdt;
        args.add(dense_arg, md_of(dense_arg)).write_fn([&](int64_t i) {
            return value_at(dense_seed, i, ddt, false);
        });
        args.add(DNNL_ARG_DST, md_of(DNNL_ARG_DST));
        const int sp_arg = sparse_arg_ == 0 ? DNNL_ARG_SRC : DNNL_ARG_WEIGHTS;
        test_mem_t &m = args.add(sp_arg, md_of(sp_arg));
        if (encoding() == dnnl_packed) return pack_into(m);
        const size_t vsz = dt_size(sparse_dt());
        std::vector<char> values(nnz_ * vsz);
        for (int64_t p = 0; p < nnz_; ++p)
            store_elem(values.data(), static_cast<size_t>(p), sparse_dt(), sparse_value(p));
        m.write_handle(0, values.data(), values.size());
        const int64_t cols = sparse_dims().back();
        std::vector<int32_t> a(nnz_), b;
        if (encoding() == dnnl_csr) {
            b.assign(sparse_dims()[0] + 1, 0);
            for (int64_t p = 0; p < nnz_; ++p) {
                a[p] = static_cast<int32_t>(pos_[p] % cols);
                ++b[pos_[p] / cols + 1];
            }
            for (size_t r = 1; r < b.size(); ++r) b[r] += b[r - 1];
        } else {
            b.resize(nnz_);
            for (int64_t p = 0; p < nnz_; ++p) {
                a[p] = static_cast<int32_t>(pos_[p] / cols);
                b[p] = static_cast<int32_t>(pos_[p] % cols);
            }
        }
        m.write_handle(1, a.data(), a.size() * 4);
        m.write_handle(2, b.data(), b.size() * 4);
    }

    bool check(const args_t &args, std::string &msg) override {
        const int64_t M = dd_[dd_.size() - 2], N = dd_.back(), K = c_.sd.back();
        const int64_t batch = product(dd_) / (M * N);
        std::vector<double> exp(product(dd_), 0.0), mag(exp.size(), 0.0);
        const dnnl_data_type_t ddt = sparse_arg_ == 0 ? c_.wdt : c_.sdt;
        for (int64_t p = 0; p < nnz_; ++p) {
            const double v = sparse_value(p);
            const int64_t r = pos_[p] / sparse_dims().back(), q = pos_[p] % sparse_dims().back();
            for (int64_t b = 0; b < batch; ++b) {
                // Batch dims of the sparse (packed) weights are ones here; src has them all.
                const int64_t sb = product(c_.sd) == M * K ? 0 : b;
                if (sparse_arg_ == 0) {
                    for (int64_t n = 0; n < N; ++n) {
                        const double t = v * value_at(dense_seed, q * N + n, ddt, false);
                        exp[b * M * N + r * N + n] += t;
                        mag[b * M * N + r * N + n] += std::fabs(t);
                    }
                } else {
                    for (int64_t m = 0; m < M; ++m) {
                        const double t = value_at(dense_seed, (sb * M + m) * K + r, ddt, false) * v;
                        exp[b * M * N + m * N + q] += t;
                        mag[b * M * N + m * N + q] += std::fabs(t);
                    }
                }
            }
        }
        tolerance_t tol;
        tol.eps = 2e-6;
        tol.int_diff = 0;
        return check_output(args.at(DNNL_ARG_DST), exp, tol, msg, &mag);
    }

private:
    static constexpr uint64_t dense_seed = 11, sparse_seed = 7;

    dnnl_status_t missing(const char *fn) {
        missing_entry = std::string("library has no ") + fn;
        return dnnl_unimplemented;
    }
    dnnl_sparse_encoding_t encoding() const { return c_.enc.enc[sparse_arg_]; }
    dnnl_data_type_t sparse_dt() const { return sparse_arg_ == 0 ? c_.sdt : c_.wdt; }
    // The sparse operand as a matrix: packed weights' batch dims are ones.
    dims_t sparse_dims() const {
        const dims_t &d = sparse_arg_ == 0 ? c_.sd : c_.wd;
        return {product(d) / d.back(), d.back()};
    }
    double sparse_value(int64_t p) const { return value_at(sparse_seed, p, sparse_dt(), true); }

    // nnz_ distinct row-major positions, in order (selection sampling).
    void pick_entries() {
        const int64_t total = product(sparse_dims());
        pos_.clear();
        pos_.reserve(nnz_);
        std::mt19937_64 gen(sparse_seed);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        for (int64_t i = 0; i < total && static_cast<int64_t>(pos_.size()) < nnz_; ++i) {
            const double need = static_cast<double>(nnz_ - pos_.size());
            if (u(gen) * static_cast<double>(total - i) < need) pos_.push_back(i);
        }
    }

    // Packed weights: the dense tensor with its zeros, reordered into the primitive's layout.
    void pack_into(test_mem_t &m) {
        md_h dense;
        BENCHDNN_CHECK(make_md(dense, c_.wd, c_.wdt, "abx"));
        test_mem_t src(dense.get(), test_engine());
        std::vector<double> v(product(c_.wd), 0.0);
        for (int64_t p = 0; p < nnz_; ++p) v[pos_[p]] = sparse_value(p);
        src.write(v);
        pd_h rpd;
        BENCHDNN_CHECK(dnnl_reorder_primitive_desc_create(
                rpd.out(), dense.get(), test_engine(), m.md(), test_engine(), nullptr));
        prim_h r;
        BENCHDNN_CHECK(dnnl_primitive_create(r.out(), rpd.get()));
        dnnl_exec_arg_t a[2] = {{DNNL_ARG_FROM, src.get()}, {DNNL_ARG_TO, m.get()}};
        BENCHDNN_CHECK(dnnl_primitive_execute(r.get(), test_stream(), 2, a));
        BENCHDNN_CHECK(dnnl_stream_wait(test_stream()));
    }

    sparse_matmul_cfg_t c_;
    dims_t dd_;
    int sparse_arg_ = 0; // 0: src, 1: weights
    int64_t nnz_ = 1;
    std::vector<int64_t> pos_;
};

} // namespace

std::unique_ptr<problem_t> make_sparse_matmul(const sparse_matmul_cfg_t &c) {
    return std::unique_ptr<problem_t>(new sparse_matmul_prb_t(c));
}

} // namespace benchdnn
