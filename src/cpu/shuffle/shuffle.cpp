// Shuffle, forward and backward: a permutation of one axis, copied bit for bit (any data
// type). `dense` moves whole runs of the dims inside the axis with memcpy when src and dst
// share one plain dense layout; `ref` maps every element through its logical position.
#include <cstring>
#include <vector>

#include "core/ops/eltwise/layout.hpp"
#include "core/parallel.hpp"
#include "core/primitive.hpp"
#include "cpu/impl_entries.hpp"

namespace anydnn {
namespace cpu {

namespace {

const shuffle_desc_t &shuffle_of(const primitive_desc_t &pd) {
    return std::get<shuffle_desc_t>(pd.desc);
}

bool is_fwd(const shuffle_desc_t &d) { return d.prop_kind != dnnl_backward_data; }
int in_arg(const shuffle_desc_t &d) { return is_fwd(d) ? DNNL_ARG_SRC : DNNL_ARG_DIFF_DST; }
int out_arg(const shuffle_desc_t &d) { return is_fwd(d) ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC; }

// Index along the axis of the input element that lands at output index i. Forward views the
// axis as [C/G][G] and transposes it to [G][C/G]; backward undoes that.
std::vector<dim_t> make_perm(const shuffle_desc_t &d, dim_t C) {
    const dim_t G = d.group_size, n = C / G;
    std::vector<dim_t> perm(C);
    for (dim_t i = 0; i < C; ++i)
        perm[i] = is_fwd(d) ? (i % n) * G + i / n : (i % G) * n + i / G;
    return perm;
}

// Common checks; resolves any and fills args.
status_t init_common(primitive_desc_t &pd, memory_desc_t &in, memory_desc_t &out) {
    const auto &d = shuffle_of(pd);
    in = is_fwd(d) ? d.src_md : d.diff_dst_md;
    out = is_fwd(d) ? d.dst_md : d.diff_src_md;
    ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::scratchpad), dnnl_unimplemented,
            "shuffle takes no attributes");
    if (in.format_kind == dnnl_format_kind_any && pd.hint)
        in = md_like(pd.hint->arg_md(DNNL_ARG_DST), in.ndims, in.dims, in.data_type);
    if (in.format_kind == dnnl_format_kind_any)
        in = md_like(out, in.ndims, in.dims, in.data_type);
    eltwise::resolve_any(out, in);
    for (const memory_desc_t *md : {&in, &out}) {
        ANYDNN_REQUIRE(md->format_kind == dnnl_blocked, dnnl_unimplemented,
                "tensors must have a blocked layout");
        // The kernels move whole elements of data_type_size bytes: two 4-bit elements share
        // one byte, so those types would be read and written past the tensors.
        const dnnl_data_type_t dt = md->data_type;
        ANYDNN_REQUIRE(dt != dnnl_s4 && dt != dnnl_u4 && dt != dnnl_f4_e2m1 && dt != dnnl_f4_e3m0,
                dnnl_unimplemented, "4-bit data types are not supported");
        ANYDNN_REQUIRE(!has_runtime_dims_or_strides(*md), dnnl_unimplemented,
                "runtime dimensions or strides are not supported");
    }
    pd.args[in_arg(d)] = in;
    pd.args[out_arg(d)] = out;
    return dnnl_success;
}

char *base_of(void *p, const memory_desc_t &md) {
    return static_cast<char *>(p) + md.offset0 * data_type_size(md.data_type);
}

template <typename T>
void gather(const char *in, char *out, const dim_t *perm, dim_t C, dim_t start, dim_t end) {
    const T *s = reinterpret_cast<const T *>(in);
    T *t = reinterpret_cast<T *>(out);
    // Walks (outer, channel) pairs without a division per element.
    dim_t base = (start / C) * C, c = start % C;
    for (dim_t r = start; r < end; ++r) {
        t[r] = s[base + perm[c]];
        if (++c == C) {
            c = 0;
            base += C;
        }
    }
}

struct dense_t;

struct dense_pd_t : public primitive_desc_impl_t<dense_pd_t, dense_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:shuffle:dense"; }

    static status_t init(dense_pd_t &pd) {
        memory_desc_t in, out;
        ANYDNN_CHECK(init_common(pd, in, out));
        ANYDNN_REQUIRE(same_layout(in, out) && is_dense_unpadded(in) && is_plain(in),
                dnnl_unimplemented, "src and dst are not one plain dense layout");
        return dnnl_success;
    }
};

struct dense_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &d = shuffle_of(pd());
        const memory_desc_t &in_md = pd().arg_md(in_arg(d));
        const memory_desc_t &out_md = pd().arg_md(out_arg(d));
        const dim_t total = nelems(in_md);
        if (total == 0) return dnnl_success;
        const char *in = base_of(ctx.host_ptr(in_arg(d)), in_md);
        char *out = base_of(ctx.host_ptr(out_arg(d)), out_md);
        const size_t es = data_type_size(in_md.data_type);
        const dim_t C = in_md.dims[d.axis];
        if (C == 1 || d.group_size == 1 || d.group_size == C) { // the identity
            parallel_range(total * es, [&](dim_t s, dim_t e) {
                std::memcpy(out + s, in + s, e - s);
            }, 1 << 16);
            return dnnl_success;
        }
        const std::vector<dim_t> perm = make_perm(d, C);
        const dim_t inner = in_md.blocking.strides[d.axis];
        const dim_t rows = total / inner; // (outer, axis index) pairs
        if (inner == 1) {
            parallel_range(rows, [&](dim_t s, dim_t e) {
                switch (es) {
                    case 1: gather<uint8_t>(in, out, perm.data(), C, s, e); break;
                    case 2: gather<uint16_t>(in, out, perm.data(), C, s, e); break;
                    case 4: gather<uint32_t>(in, out, perm.data(), C, s, e); break;
                    default: gather<uint64_t>(in, out, perm.data(), C, s, e); break;
                }
            });
            return dnnl_success;
        }
        const size_t run = inner * es;
        parallel_range(rows, [&](dim_t s, dim_t e) {
            for (dim_t r = s; r < e; ++r) {
                const dim_t o = r / C, c = r % C;
                std::memcpy(out + r * run, in + (o * C + perm[c]) * run, run);
            }
        }, std::max<dim_t>(1, 16384 / inner));
        return dnnl_success;
    }
};

struct ref_t;

struct ref_pd_t : public primitive_desc_impl_t<ref_pd_t, ref_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:shuffle:ref"; }
    static status_t init(ref_pd_t &pd) {
        memory_desc_t in, out;
        return init_common(pd, in, out);
    }
};

struct ref_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &d = shuffle_of(pd());
        const memory_desc_t &in_md = pd().arg_md(in_arg(d));
        const memory_desc_t &out_md = pd().arg_md(out_arg(d));
        const dim_t total = nelems(in_md);
        if (total == 0) return dnnl_success;
        const char *in = static_cast<const char *>(ctx.host_ptr(in_arg(d)));
        char *out = static_cast<char *>(ctx.host_ptr(out_arg(d)));
        const size_t es = data_type_size(in_md.data_type);
        const std::vector<dim_t> perm = make_perm(d, in_md.dims[d.axis]);
        const int nd = in_md.ndims;
        parallel_range(total, [&](dim_t s, dim_t e) {
            dim_t pos[max_ndims];
            for (dim_t i = s; i < e; ++i) {
                dim_t r = i;
                for (int k = nd - 1; k >= 0; --k) {
                    pos[k] = r % out_md.dims[k];
                    r /= out_md.dims[k];
                }
                const dim_t to = off_logical(out_md, pos);
                pos[d.axis] = perm[pos[d.axis]];
                const dim_t from = off_logical(in_md, pos);
                std::memcpy(out + to * es, in + from * es, es);
            }
        });
        zero_padding(out_md, out);
        return dnnl_success;
    }
};

} // namespace

impl_entry_t shuffle_dense_entry() {
    return make_impl_entry<dense_pd_t>("cpu:shuffle:dense");
}
impl_entry_t shuffle_ref_entry() {
    return make_impl_entry<ref_pd_t>("cpu:shuffle:ref");
}

} // namespace cpu
} // namespace anydnn
