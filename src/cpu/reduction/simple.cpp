// Fast reduction of dense plain tensors whose reduced dims form one contiguous group in
// memory: dst[a][b] = reduce over r of src[a][r][b]. B == 1 reduces contiguous runs (16
// accumulator lanes), B > 1 accumulates rows of the kept inner dims as vectors. Threads
// split a, b and, when those are too few, r (partial results joined at the end).
// f32/bf16/f16 sources; AVX-512 code generation where the CPU has it.
#include <algorithm>
#include <vector>

#include "core/data_types.hpp"
#include "core/ops/post_ops.hpp"
#include "core/ops/reduction/common.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {

namespace {

using namespace reduction;

constexpr dim_t bchunk = 256; // kept inner elements accumulated at a time
constexpr int lanes = 16;

struct shape_t {
    dim_t A = 1, R = 1, B = 1;
};

// Dims of `md` from outermost to innermost stride (extent-one dims left out).
int physical_order(const memory_desc_t &md, int *order) {
    int n = 0;
    for (int d = 0; d < md.ndims; ++d)
        if (md.dims[d] > 1) order[n++] = d;
    std::stable_sort(order, order + n,
            [&](int x, int y) { return md.blocking.strides[x] > md.blocking.strides[y]; });
    return n;
}

status_t analyze(const memory_desc_t &src, const memory_desc_t &dst, shape_t &s) {
    ANYDNN_REQUIRE(is_plain(src) && is_dense_unpadded(src) && is_plain(dst)
                    && is_dense_unpadded(dst),
            dnnl_unimplemented, "src and dst must be dense plain layouts");
    int order[max_ndims];
    const int n = physical_order(src, order);
    // Classes along memory order: kept, reduced, kept; at most one reduced group.
    int stage = 0;
    for (int i = 0; i < n; ++i) {
        const int d = order[i];
        const bool red = dst.dims[d] != src.dims[d];
        if (red) {
            ANYDNN_REQUIRE(stage <= 1, dnnl_unimplemented,
                    "reduced dims are not one contiguous group in memory");
            stage = 1;
            s.R *= src.dims[d];
        } else {
            if (stage == 1) stage = 2;
            (stage == 0 ? s.A : s.B) *= src.dims[d];
        }
    }
    // dst must keep the kept dims in src's memory order, densely.
    dim_t expected = 1;
    for (int i = n - 1; i >= 0; --i) {
        const int d = order[i];
        if (dst.dims[d] == 1) continue;
        ANYDNN_REQUIRE(dst.blocking.strides[d] == expected, dnnl_unimplemented,
                "dst does not keep src's dimension order");
        expected *= dst.dims[d];
    }
    return dnnl_success;
}

struct simple_t;

struct simple_pd_t : public primitive_desc_impl_t<simple_pd_t, simple_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return isa_enabled(dnnl_cpu_isa_avx512_core) ? "cpu:reduction:simple:avx512"
                                                     : "cpu:reduction:simple";
    }

    post_ops_chain_t post_ops;
    shape_t shape;

    static status_t init(simple_pd_t &pd) {
        memory_desc_t src, dst;
        ANYDNN_CHECK(resolve(pd, src, dst));
        const dnnl_data_type_t sdt = src.data_type;
        ANYDNN_REQUIRE(sdt == dnnl_f32 || sdt == dnnl_bf16 || sdt == dnnl_f16,
                dnnl_unimplemented, "src data type %s: only f32, bf16, f16",
                dnnl_dt2str(sdt));
        ANYDNN_REQUIRE(nelems(src) > 0 || nelems(dst) == 0, dnnl_unimplemented,
                "empty src with a non-empty dst");
        ANYDNN_CHECK(analyze(src, dst, pd.shape));
        ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst));
        ANYDNN_REQUIRE(pd.post_ops.flat_ok(), dnnl_unimplemented,
                "post-op operands do not broadcast along dst's memory order");
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_DST] = dst;
        pd.post_ops.add_args(pd.args);
        return dnnl_success;
    }
};

// n source values from element i, as f32 (buf holds converted ones).
inline const float *as_f32(dnnl_data_type_t dt, const char *base, dim_t i, dim_t n, float *buf) {
    if (dt == dnnl_f32) return reinterpret_cast<const float *>(base) + i;
    for (dim_t k = 0; k < n; ++k)
        buf[k] = load_as_f32(dt, base, i + k);
    return buf;
}

// acc[0, nb) folds src[a][r][b0 + k] for r in [r0, r1).
template <acc_kind_t K>
__attribute__((always_inline)) inline void accumulate(const char *src, dnnl_data_type_t dt,
        const shape_t &s, dim_t a, dim_t b0, dim_t nb, dim_t r0, dim_t r1, float p, float *acc) {
    float buf[bchunk];
    if (s.B == 1) {
        float l[lanes];
        for (int j = 0; j < lanes; ++j)
            l[j] = acc_init(K);
        const dim_t base = a * s.R;
        for (dim_t r = r0; r < r1; r += bchunk) {
            const dim_t n = std::min(bchunk, r1 - r);
            const float *x = as_f32(dt, src, base + r, n, buf);
            dim_t k = 0;
            for (; k + lanes <= n; k += lanes)
                for (int j = 0; j < lanes; ++j)
                    l[j] = acc_step<K>(l[j], x[k + j], p);
            for (; k < n; ++k)
                l[0] = acc_step<K>(l[0], x[k], p);
        }
        float v = l[0];
        for (int j = 1; j < lanes; ++j)
            v = acc_join(K, v, l[j]);
        acc[0] = v;
        return;
    }
    for (dim_t k = 0; k < nb; ++k)
        acc[k] = acc_init(K);
    for (dim_t r = r0; r < r1; ++r) {
        const float *x = as_f32(dt, src, (a * s.R + r) * s.B + b0, nb, buf);
        for (dim_t k = 0; k < nb; ++k)
            acc[k] = acc_step<K>(acc[k], x[k], p);
    }
}

using acc_fn_t = void (*)(const char *, dnnl_data_type_t, const shape_t &, dim_t, dim_t,
        dim_t, dim_t, dim_t, float, float *);

template <acc_kind_t K>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"))) void accumulate_avx512(
        const char *src, dnnl_data_type_t dt, const shape_t &s, dim_t a, dim_t b0, dim_t nb,
        dim_t r0, dim_t r1, float p, float *acc) {
    accumulate<K>(src, dt, s, a, b0, nb, r0, r1, p, acc);
}

template <acc_kind_t K>
void accumulate_generic(const char *src, dnnl_data_type_t dt, const shape_t &s, dim_t a,
        dim_t b0, dim_t nb, dim_t r0, dim_t r1, float p, float *acc) {
    accumulate<K>(src, dt, s, a, b0, nb, r0, r1, p, acc);
}

template <acc_kind_t K>
acc_fn_t pick(bool avx512) {
    return avx512 ? accumulate_avx512<K> : accumulate_generic<K>;
}

acc_fn_t pick(acc_kind_t k, bool avx512) {
    switch (k) {
        case acc_kind_t::max: return pick<acc_kind_t::max>(avx512);
        case acc_kind_t::min: return pick<acc_kind_t::min>(avx512);
        case acc_kind_t::sum: return pick<acc_kind_t::sum>(avx512);
        case acc_kind_t::mul: return pick<acc_kind_t::mul>(avx512);
        case acc_kind_t::abs_sum: return pick<acc_kind_t::abs_sum>(avx512);
        case acc_kind_t::sq_sum: return pick<acc_kind_t::sq_sum>(avx512);
        default: return pick<acc_kind_t::pow_sum>(avx512);
    }
}

struct simple_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const simple_pd_t &>(this->pd());
        const auto &d = desc_of(pd);
        const memory_desc_t &src_md = pd.arg_md(DNNL_ARG_SRC);
        const memory_desc_t &dst_md = pd.arg_md(DNNL_ARG_DST);
        if (nelems(dst_md) == 0) return dnnl_success;
        const shape_t &s = pd.shape;
        const char *src = static_cast<const char *>(ctx.host_ptr(DNNL_ARG_SRC))
                + src_md.offset0 * data_type_size(src_md.data_type);
        char *dst = static_cast<char *>(ctx.host_ptr(DNNL_ARG_DST))
                + dst_md.offset0 * data_type_size(dst_md.data_type);
        const auto &po = pd.post_ops;
        const auto po_args = po.bind(ctx);
        const dnnl_data_type_t sdt = src_md.data_type, ddt = dst_md.data_type;
        const size_t dsize = data_type_size(ddt);
        const acc_kind_t k = acc_kind(d.alg_kind, d.p);
        const acc_fn_t fn = pick(k, isa_enabled(dnnl_cpu_isa_avx512_core));
        const dim_t nbc = (s.B + bchunk - 1) / bchunk;
        const dim_t items = s.A * nbc;
        const int nthr = max_threads();
        // Split r too when there are fewer (a, b-chunk) items than threads and r is long.
        dim_t nsplit = 1;
        if (items < nthr && s.R * std::min(s.B, bchunk) >= 32768)
            nsplit = std::min<dim_t>((nthr + items - 1) / items, s.R / 64);
        nsplit = std::max<dim_t>(1, nsplit);
        const float p = d.p, eps = d.eps;

        auto finish = [&](dim_t a, dim_t b0, dim_t nb, float *v) {
            for (dim_t j = 0; j < nb; ++j)
                v[j] = finalize(d.alg_kind, v[j], s.R, p, eps);
            const dim_t flat = a * s.B + b0;
            if (!po.empty()) po.apply_flat(po_args, v, nb, flat, dst + flat * dsize);
            for (dim_t j = 0; j < nb; ++j)
                store_from_f32(ddt, dst, flat + j, v[j]);
        };
        const dim_t work_per_item = s.R * std::min(s.B, bchunk);
        const dim_t grain = std::max<dim_t>(1, 16384 / std::max<dim_t>(1, work_per_item));
        if (nsplit == 1) {
            parallel_range(items, [&](dim_t start, dim_t end) {
                float acc[bchunk];
                for (dim_t it = start; it < end; ++it) {
                    const dim_t a = it / nbc, b0 = (it % nbc) * bchunk;
                    const dim_t nb = std::min(bchunk, s.B - b0);
                    fn(src, sdt, s, a, b0, nb, 0, s.R, p, acc);
                    finish(a, b0, nb, acc);
                }
            }, grain);
            return dnnl_success;
        }
        // Partial accumulators: [split][item][bchunk].
        std::vector<float> part(static_cast<size_t>(nsplit * items * bchunk));
        parallel_range(nsplit * items, [&](dim_t start, dim_t end) {
            for (dim_t w = start; w < end; ++w) {
                const dim_t sp = w / items, it = w % items;
                const dim_t a = it / nbc, b0 = (it % nbc) * bchunk;
                const dim_t nb = std::min(bchunk, s.B - b0);
                dim_t r0, r1;
                balance211(s.R, static_cast<int>(nsplit), static_cast<int>(sp), r0, r1);
                fn(src, sdt, s, a, b0, nb, r0, r1, p, &part[w * bchunk]);
            }
        }, 1);
        for (dim_t it = 0; it < items; ++it) {
            const dim_t a = it / nbc, b0 = (it % nbc) * bchunk;
            const dim_t nb = std::min(bchunk, s.B - b0);
            float v[bchunk];
            for (dim_t j = 0; j < nb; ++j) {
                v[j] = part[it * bchunk + j];
                for (dim_t sp = 1; sp < nsplit; ++sp)
                    v[j] = acc_join(k, v[j], part[(sp * items + it) * bchunk + j]);
            }
            finish(a, b0, nb, v);
        }
        return dnnl_success;
    }
};

} // namespace

impl_entry_t reduction_simple_entry() {
    return make_impl_entry<simple_pd_t>("cpu:reduction:simple");
}

} // namespace cpu
} // namespace anydnn
