// Sparse matmul on the CPU: src or weights in CSR or COO (core/ops/matmul/sparse.hpp), the
// other operand dense. Products are accumulated in f32 into the scratchpad (M x N), then
// converted into dst; COO entries may come in any order.
#include <algorithm>

#include "core/data_types.hpp"
#include "core/ops/matmul/sparse.hpp"
#include "core/parallel.hpp"
#include "core/primitive.hpp"
#include "cpu/impl_entries.hpp"

namespace anydnn {
namespace cpu {

namespace {

using matmul_sparse::conf_t;

struct sparse_t;

struct sparse_pd_t : public primitive_desc_impl_t<sparse_pd_t, sparse_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:matmul:sparse"; }
    conf_t conf;

    static status_t init(sparse_pd_t &pd) {
        ANYDNN_CHECK(matmul_sparse::init_conf(
                std::get<matmul_desc_t>(pd.desc), pd.attr, pd.conf, pd.args));
        pd.scratchpad_size = static_cast<size_t>(pd.conf.M * pd.conf.N) * sizeof(float);
        return dnnl_success;
    }
};

// A dense plain 2D operand read as f32 through its strides.
struct dense_t {
    const void *base;
    dnnl_data_type_t dt;
    dim_t s0, s1, off;
    float at(dim_t i, dim_t j) const { return load_as_f32(dt, base, off + i * s0 + j * s1); }
};

// The sparse operand: values and its metadata buffers (CSR: indices, pointers; COO: row and
// column indices).
struct sparse_operand_t {
    const void *values;
    dnnl_data_type_t dt;
    const int32_t *meta[2];
    float value(dim_t p) const { return load_as_f32(dt, values, p); }
};

// acc(M x N) = sparse src x dense weights.
void src_sparse(const conf_t &c, const sparse_operand_t &a, const dense_t &b, float *acc) {
    const dim_t N = c.N;
    if (c.encoding == dnnl_csr) {
        parallel_range(c.M, [&](dim_t m0, dim_t m1) {
            for (dim_t m = m0; m < m1; ++m) {
                float *row = acc + m * N;
                for (dim_t p = a.meta[1][m]; p < a.meta[1][m + 1]; ++p) {
                    const float v = a.value(p);
                    const dim_t k = a.meta[0][p];
                    for (dim_t n = 0; n < N; ++n)
                        row[n] += v * b.at(k, n);
                }
            }
        }, 1);
        return;
    }
    // COO in any order: each thread owns a range of columns and walks every entry.
    parallel_range(N, [&](dim_t n0, dim_t n1) {
        for (dim_t p = 0; p < c.nnz; ++p) {
            const float v = a.value(p);
            float *row = acc + a.meta[0][p] * N;
            const dim_t k = a.meta[1][p];
            for (dim_t n = n0; n < n1; ++n)
                row[n] += v * b.at(k, n);
        }
    }, 1);
}

// acc(M x N) = dense src x sparse weights.
void weights_sparse(const conf_t &c, const dense_t &a, const sparse_operand_t &b, float *acc) {
    const dim_t N = c.N;
    parallel_range(c.M, [&](dim_t m0, dim_t m1) {
        for (dim_t m = m0; m < m1; ++m) {
            float *row = acc + m * N;
            if (c.encoding == dnnl_csr) {
                for (dim_t k = 0; k < c.K; ++k) {
                    const float s = a.at(m, k);
                    if (s == 0.f) continue;
                    for (dim_t p = b.meta[1][k]; p < b.meta[1][k + 1]; ++p)
                        row[b.meta[0][p]] += s * b.value(p);
                }
            } else {
                for (dim_t p = 0; p < c.nnz; ++p)
                    row[b.meta[1][p]] += a.at(m, b.meta[0][p]) * b.value(p);
            }
        }
    }, 1);
}

struct sparse_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const conf_t &c = static_cast<const sparse_pd_t &>(pd()).conf;
        if (c.M == 0 || c.N == 0) return dnnl_success;
        const int sp_arg = c.src_sparse ? DNNL_ARG_SRC : DNNL_ARG_WEIGHTS;
        const int dn_arg = c.src_sparse ? DNNL_ARG_WEIGHTS : DNNL_ARG_SRC;
        const memory_t *sm = ctx.arg(sp_arg);
        sparse_operand_t sp {sm->host_ptr(0), c.dt,
                {static_cast<const int32_t *>(sm->host_ptr(1)),
                        static_cast<const int32_t *>(sm->host_ptr(2))}};
        ANYDNN_CHECK(matmul_sparse::check_metadata(c, sp.meta));
        ANYDNN_REQUIRE(c.nnz == 0 || sp.values, dnnl_invalid_arguments,
                "sparse matmul: the values of the sparse operand are missing");

        const memory_desc_t &dmd = ctx.md(dn_arg);
        dense_t dn {ctx.host_ptr(dn_arg), dmd.data_type, dmd.blocking.strides[0],
                dmd.blocking.strides[1], dmd.offset0};
        float *acc = static_cast<float *>(ctx.scratchpad);
        ANYDNN_REQUIRE(acc, dnnl_invalid_arguments, "sparse matmul: the scratchpad is missing");
        std::fill(acc, acc + c.M * c.N, 0.f);
        if (c.nnz > 0 && c.K > 0) {
            if (c.src_sparse)
                src_sparse(c, sp, dn, acc);
            else
                weights_sparse(c, dn, sp, acc);
        }

        const memory_desc_t &dst = ctx.md(DNNL_ARG_DST);
        void *d = ctx.host_ptr(DNNL_ARG_DST);
        const dim_t ld = dst.blocking.strides[0];
        parallel_range(c.M, [&](dim_t m0, dim_t m1) {
            for (dim_t m = m0; m < m1; ++m)
                for (dim_t n = 0; n < c.N; ++n)
                    store_from_f32(c.dst_dt, d, dst.offset0 + m * ld + n, acc[m * c.N + n]);
        }, 16);
        return dnnl_success;
    }
};

} // namespace

impl_entry_t matmul_sparse_entry() {
    return make_impl_entry<sparse_pd_t>("cpu:matmul:sparse");
}

} // namespace cpu
} // namespace anydnn
