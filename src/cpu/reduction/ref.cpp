// Reference reduction: any blocked layouts, every data type, any set of reduced dims,
// post-ops. Integer sums and means accumulate exactly in 64-bit integers, the rest in f32.
#include <vector>

#include "core/data_types.hpp"
#include "core/ops/post_ops.hpp"
#include "core/ops/reduction/common.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"

namespace anydnn {
namespace cpu {

namespace {

using namespace reduction;

struct ref_t;

struct ref_pd_t : public primitive_desc_impl_t<ref_pd_t, ref_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:reduction:ref"; }

    post_ops_chain_t post_ops;

    static status_t init(ref_pd_t &pd) {
        memory_desc_t src, dst;
        ANYDNN_CHECK(resolve(pd, src, dst));
        ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst));
        pd.args[DNNL_ARG_SRC] = src;
        pd.args[DNNL_ARG_DST] = dst;
        pd.post_ops.add_args(pd.args);
        return dnnl_success;
    }
};

struct ref_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const ref_pd_t &>(this->pd());
        const auto &d = desc_of(pd);
        const memory_desc_t &src_md = pd.arg_md(DNNL_ARG_SRC);
        const memory_desc_t &dst_md = pd.arg_md(DNNL_ARG_DST);
        const dim_t n_dst = nelems(dst_md);
        if (n_dst == 0) return dnnl_success;
        const void *src = ctx.host_ptr(DNNL_ARG_SRC);
        void *dst = ctx.host_ptr(DNNL_ARG_DST);
        const auto &po = pd.post_ops;
        const auto po_args = po.bind(ctx);
        const int nd = src_md.ndims;
        int rdims[max_ndims];
        int nr = 0;
        dim_t r_total = 1;
        for (int i = 0; i < nd; ++i)
            if (dst_md.dims[i] != src_md.dims[i]) {
                rdims[nr++] = i;
                r_total *= src_md.dims[i];
            }
        const dnnl_data_type_t sdt = src_md.data_type, ddt = dst_md.data_type;
        const bool int_sum = (d.alg_kind == dnnl_reduction_sum || d.alg_kind == dnnl_reduction_mean)
                && (sdt == dnnl_s8 || sdt == dnnl_u8 || sdt == dnnl_s32);
        const acc_kind_t k = acc_kind(d.alg_kind, d.p);
        const size_t dsize = data_type_size(ddt);
        parallel_range(n_dst, [&](dim_t start, dim_t end) {
            dim_t pos[max_ndims], spos[max_ndims];
            for (dim_t i = start; i < end; ++i) {
                dim_t rest = i;
                for (int j = nd - 1; j >= 0; --j) {
                    pos[j] = rest % dst_md.dims[j];
                    rest /= dst_md.dims[j];
                }
                for (int j = 0; j < nd; ++j)
                    spos[j] = pos[j];
                float acc = acc_init(k);
                int64_t iacc = 0;
                for (dim_t r = 0; r < r_total; ++r) {
                    dim_t rr = r;
                    for (int j = nr - 1; j >= 0; --j) {
                        spos[rdims[j]] = rr % src_md.dims[rdims[j]];
                        rr /= src_md.dims[rdims[j]];
                    }
                    const dim_t so = off_logical(src_md, spos);
                    if (int_sum) {
                        iacc += static_cast<int64_t>(load_as_f32(sdt, src, so));
                        continue;
                    }
                    const float x = load_as_f32(sdt, src, so);
                    switch (k) {
                        case acc_kind_t::max: acc = acc_step<acc_kind_t::max>(acc, x, d.p); break;
                        case acc_kind_t::min: acc = acc_step<acc_kind_t::min>(acc, x, d.p); break;
                        case acc_kind_t::sum: acc = acc_step<acc_kind_t::sum>(acc, x, d.p); break;
                        case acc_kind_t::mul: acc = acc_step<acc_kind_t::mul>(acc, x, d.p); break;
                        case acc_kind_t::abs_sum:
                            acc = acc_step<acc_kind_t::abs_sum>(acc, x, d.p);
                            break;
                        case acc_kind_t::sq_sum:
                            acc = acc_step<acc_kind_t::sq_sum>(acc, x, d.p);
                            break;
                        case acc_kind_t::pow_sum:
                            acc = acc_step<acc_kind_t::pow_sum>(acc, x, d.p);
                            break;
                    }
                }
                float v;
                if (int_sum)
                    v = d.alg_kind == dnnl_reduction_mean && r_total
                            ? static_cast<float>(static_cast<double>(iacc) / r_total)
                            : static_cast<float>(iacc);
                else
                    v = finalize(d.alg_kind, acc, r_total, d.p, d.eps);
                const dim_t to = off_logical(dst_md, pos);
                if (!po.empty())
                    po.apply(po_args, &v, 1, pos, nd - 1, static_cast<char *>(dst) + to * dsize,
                            1);
                store_from_f32(ddt, dst, to, v);
            }
        }, std::max<dim_t>(1, 4096 / std::max<dim_t>(1, r_total)));
        zero_padding(dst_md, dst);
        return dnnl_success;
    }
};

} // namespace

impl_entry_t reduction_ref_entry() {
    return make_impl_entry<ref_pd_t>("cpu:reduction:ref");
}

} // namespace cpu
} // namespace anydnn
