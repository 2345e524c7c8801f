// Reference reorder: any blocked layout to any other, every data type (4-bit ones packed two
// a byte), every attribute a reorder takes, run-time dimensions. Walks dst's padded index space row by row along its
// innermost dimension and writes zeros into dst's padding.
#include <cstring>

#include "core/data_types_narrow.hpp"
#include "core/ops/reorder/common.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/reorder/layout.hpp"

namespace anydnn {
namespace cpu {
namespace reorder {

namespace {

constexpr int chunk = 64; // elements converted per step of a row

template <typename T> void gather_as_f32(const void *base, const dim_t *off, int n, float *out) {
    const T *p = static_cast<const T *>(base);
    for (int k = 0; k < n; ++k)
        out[k] = static_cast<float>(p[off[k]]);
}

void load_row(dnnl_data_type_t dt, const void *base, const dim_t *off, int n, float *out) {
    switch (dt) {
    case dnnl_f32: gather_as_f32<float>(base, off, n, out); break;
    case dnnl_s32: gather_as_f32<int32_t>(base, off, n, out); break;
    case dnnl_s8: gather_as_f32<int8_t>(base, off, n, out); break;
    case dnnl_u8: gather_as_f32<uint8_t>(base, off, n, out); break;
    case dnnl_f64: gather_as_f32<double>(base, off, n, out); break;
    default:
        for (int k = 0; k < n; ++k)
            out[k] = load_any_as_f32(dt, base, off[k]);
        break;
    }
}

void store_row(dnnl_data_type_t dt, void *base, const dim_t *off, int n, const float *in) {
    switch (dt) {
    case dnnl_f32:
        for (int k = 0; k < n; ++k)
            static_cast<float *>(base)[off[k]] = in[k];
        break;
    case dnnl_s8:
        for (int k = 0; k < n; ++k)
            static_cast<int8_t *>(base)[off[k]] = saturate_round<int8_t>(in[k]);
        break;
    case dnnl_u8:
        for (int k = 0; k < n; ++k)
            static_cast<uint8_t *>(base)[off[k]] = saturate_round<uint8_t>(in[k]);
        break;
    default:
        for (int k = 0; k < n; ++k)
            store_any_from_f32(dt, base, off[k], in[k]);
        break;
    }
}

template <typename T>
void copy_raw(const void *src, const dim_t *soff, void *dst, const dim_t *doff, int n) {
    const T *s = static_cast<const T *>(src);
    T *d = static_cast<T *>(dst);
    for (int k = 0; k < n; ++k)
        d[doff[k]] = s[soff[k]];
}

void zero_elems(void *dst, dnnl_data_type_t dt, size_t esize, const dim_t *doff, int n) {
    if (is_4bit(dt)) {
        for (int k = 0; k < n; ++k)
            store_nibble(dst, doff[k], 0);
        return;
    }
    char *d = static_cast<char *>(dst);
    for (int k = 0; k < n; ++k)
        std::memset(d + doff[k] * esize, 0, esize);
}

// The dimension dst varies fastest along: the innermost block, else the smallest stride.
int inner_dim(const memory_desc_t &md) {
    const auto &b = md.blocking;
    if (b.inner_nblks > 0) return static_cast<int>(b.inner_idxs[b.inner_nblks - 1]);
    int best = md.ndims - 1;
    for (int d = md.ndims - 1; d >= 0; --d) {
        if (md.padded_dims[d] <= 1) continue;
        if (md.padded_dims[best] <= 1 || b.strides[d] < b.strides[best]) best = d;
    }
    return best;
}

struct ref_t;

struct ref_pd_t : public primitive_desc_impl_t<ref_pd_t, ref_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return "cpu:reorder:ref";
    }

    static status_t init(ref_pd_t &pd) {
        const auto &d = reorder_desc(pd);
        ANYDNN_REQUIRE(d.src_md.format_kind == dnnl_blocked && d.dst_md.format_kind == dnnl_blocked,
                dnnl_unimplemented, "reorder: only blocked layouts are supported");
        ANYDNN_REQUIRE(is_ref_type(d.src_md.data_type) && is_ref_type(d.dst_md.data_type),
                dnnl_unimplemented, "reorder: %s to %s is not supported",
                dnnl_dt2str(d.src_md.data_type), dnnl_dt2str(d.dst_md.data_type));
        return init_args(pd, pd.q);
    }

    quant_t q;
};

struct ref_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;
};

// Per-argument quantization index walk: base from the outer position plus the row part.
struct quant_walk_t {
    const quant_arg_t *a;
    const void *data;
    dim_t strides[max_ndims];
    dim_t base = 0;

    void init(const quant_arg_t &arg, const void *p, int ndims, const dim_t *dims) {
        a = &arg;
        data = p;
        quant_strides(arg, ndims, dims, strides);
    }
    void set_outer(int ndims, int row_dim, const dim_t *pos) {
        base = 0;
        for (int d = 0; d < ndims; ++d)
            if (d != row_dim) base += pos[d] / a->groups[d] * strides[d];
    }
    float at(int row_dim, dim_t x) const {
        return quant_value(*a, data, base + x / a->groups[row_dim] * strides[row_dim]);
    }
    bool varies(int row_dim) const {
        return strides[row_dim] != 0;
    }
};

status_t ref_t::execute(const exec_ctx_t &ctx) const {
    const auto &pd = static_cast<const ref_pd_t &>(this->pd());
    const memory_desc_t &smd = ctx.md(DNNL_ARG_SRC), &dmd = ctx.md(DNNL_ARG_DST);
    ANYDNN_CHECK(check_exec_mds(smd, dmd));
    if (padded_nelems(dmd) == 0) return dnnl_success;

    const void *src = ctx.host_ptr<const void>(DNNL_ARG_SRC);
    void *dst = ctx.host_ptr<void>(DNNL_ARG_DST);
    const layout_t S(smd), D(dmd);
    const int nd = D.ndims;
    const int L = inner_dim(dmd);
    const dim_t row = D.padded[L], valid = D.dims[L];
    dim_t outer = 1;
    for (int d = 0; d < nd; ++d)
        if (d != L) outer *= D.padded[d];

    const quant_t &q = pd.q;
    const dnnl_data_type_t sdt = smd.data_type, ddt = dmd.data_type;
    const size_t esize = data_type_size(ddt);
    // 4-bit elements share bytes: converted one by one, on one thread when written.
    const bool raw = sdt == ddt && q.trivial() && !is_4bit(ddt);
    quant_data_t qd;
    ANYDNN_CHECK(quant_data(q, ctx, qd));

    const int nthr = is_4bit(ddt) ? 1
                                  : static_cast<int>(std::min<dim_t>(
                                          max_threads(), std::max<dim_t>(1, outer * row / 16384)));
    parallel(nthr, [&](int ithr, int nt) {
        dim_t start, end;
        balance211(outer, nt, ithr, start, end);
        if (start >= end) return;
        dim_t pos[max_ndims] = {};
        dim_t rest = start;
        for (int d = nd - 1; d >= 0; --d) {
            if (d == L) continue;
            pos[d] = rest % D.padded[d];
            rest /= D.padded[d];
        }

        quant_walk_t ss, szp, ds, dzp;
        if (q.src_scale.present) ss.init(q.src_scale, qd.src_scale, nd, D.dims);
        if (q.src_zp.present) szp.init(q.src_zp, qd.src_zp, nd, D.dims);
        if (q.dst_scale.present) ds.init(q.dst_scale, qd.dst_scale, nd, D.dims);
        if (q.dst_zp.present) dzp.init(q.dst_zp, qd.dst_zp, nd, D.dims);

        dim_t soff[chunk], doff[chunk];
        float val[chunk], old[chunk];
        for (dim_t it = start; it < end; ++it) {
            bool inside = true;
            dim_t sbase = S.offset0, dbase = D.offset0;
            for (int d = 0; d < nd; ++d) {
                if (d == L) continue;
                if (pos[d] >= D.dims[d]) inside = false;
                dbase += D.dim_off(d, pos[d]);
                if (inside) sbase += S.dim_off(d, pos[d]);
            }
            if (inside) {
                if (q.src_scale.present) ss.set_outer(nd, L, pos);
                if (q.src_zp.present) szp.set_outer(nd, L, pos);
                if (q.dst_scale.present) ds.set_outer(nd, L, pos);
                if (q.dst_zp.present) dzp.set_outer(nd, L, pos);
            }
            for (dim_t x0 = 0; x0 < row; x0 += chunk) {
                const int n = static_cast<int>(std::min<dim_t>(chunk, row - x0));
                D.row_offsets(L, x0, n, dbase, doff);
                // Padding of dst (rows outside the tensor, or the tail of this row).
                const int nv = inside ? static_cast<int>(
                                       std::max<dim_t>(0, std::min<dim_t>(n, valid - x0)))
                                      : 0;
                if (nv < n) zero_elems(dst, ddt, esize, doff + nv, n - nv);
                if (nv == 0) continue;
                S.row_offsets(L, x0, nv, sbase, soff);
                if (raw) {
                    switch (esize) {
                    case 1: copy_raw<uint8_t>(src, soff, dst, doff, nv); break;
                    case 2: copy_raw<uint16_t>(src, soff, dst, doff, nv); break;
                    case 4: copy_raw<uint32_t>(src, soff, dst, doff, nv); break;
                    default: copy_raw<uint64_t>(src, soff, dst, doff, nv); break;
                    }
                    continue;
                }
                load_row(sdt, src, soff, nv, val);
                if (!q.trivial()) {
                    if (q.sum) load_row(q.sum_dt, dst, doff, nv, old);
                    for (int k = 0; k < nv; ++k) {
                        const dim_t x = x0 + k;
                        float f = val[k];
                        if (q.src_zp.present) f -= szp.at(L, x);
                        if (q.src_scale.present) f *= ss.at(L, x);
                        if (q.sum) f += q.sum_scale * (old[k] - q.sum_zp);
                        if (q.dst_scale.present) f /= ds.at(L, x);
                        if (q.dst_zp.present) f += dzp.at(L, x);
                        val[k] = f;
                    }
                }
                store_row(ddt, dst, doff, nv, val);
            }
            // Next outer position (odometer over every dimension but L).
            for (int d = nd - 1; d >= 0; --d) {
                if (d == L) continue;
                if (++pos[d] < D.padded[d]) break;
                pos[d] = 0;
            }
        }
    });
    return dnnl_success;
}

} // namespace
} // namespace reorder

impl_entry_t reorder_ref_entry() {
    return make_impl_entry<reorder::ref_pd_t>("cpu:reorder:ref");
}

} // namespace cpu
} // namespace anydnn
