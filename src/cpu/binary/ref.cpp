// Reference binary: any blocked layouts, data types, broadcasts (src0, src1 and select's
// src2), scales and post-ops. Walks dst in runs along its innermost axis.
#include "core/ops/binary/binary_conf.hpp"
#include "core/ops/binary/binary_math.hpp"
#include "core/ops/layout.hpp"
#include "core/ops/scales.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/tensor_run.hpp"

namespace anydnn {
namespace cpu {

namespace {

struct binary_ref_t;

struct binary_ref_pd_t : public primitive_desc_impl_t<binary_ref_pd_t, binary_ref_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:binary:ref"; }
    static status_t init(binary_ref_pd_t &pd) { return pd.conf.init(pd); }
    binary_conf_t conf;
};

constexpr dim_t max_run = 512;

struct binary_ref_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const binary_conf_t &c = static_cast<const binary_ref_pd_t &>(pd()).conf;
        if (nelems(c.dst) == 0) return dnnl_success;
        float scale0, scale1;
        ANYDNN_CHECK(read_common_scale(ctx, pd().attr, DNNL_ARG_SRC_0, scale0));
        ANYDNN_CHECK(read_common_scale(ctx, pd().attr, DNNL_ARG_SRC_1, scale1));
        const void *src0 = ctx.host_ptr(DNNL_ARG_SRC_0);
        const void *src1 = ctx.host_ptr(DNNL_ARG_SRC_1);
        const void *src2 = c.is_select ? ctx.host_ptr(DNNL_ARG_SRC_2) : nullptr;
        void *dst = ctx.host_ptr(DNNL_ARG_DST);
        const auto po_args = c.post_ops.bind(ctx);
        const size_t dst_esz = data_type_size(c.dst.data_type);
        const run_plan_t plan = make_run_plan(c.dst, max_run);
        const int axis = plan.axis;

        parallel_range(
                plan.nruns,
                [&](dim_t start, dim_t end) {
                    float a[max_run], b[max_run], cond[max_run];
                    dim_t pos[max_ndims];
                    for (dim_t r = start; r < end; ++r) {
                        const dim_t n = plan.run(r, pos);
                        load_run(c.src0, src0, c.bcast0, pos, axis, n, a);
                        load_run(c.src1, src1, c.bcast1, pos, axis, n, b);
                        if (c.is_select) load_run(c.src2, src2, c.bcast2, pos, axis, n, cond);
                        if (scale0 != 1.f)
                            for (dim_t k = 0; k < n; ++k)
                                a[k] *= scale0;
                        if (scale1 != 1.f)
                            for (dim_t k = 0; k < n; ++k)
                                b[k] *= scale1;
                        binary_apply_n(c.alg, a, b, c.is_select ? cond : nullptr, n);
                        if (!c.post_ops.empty()) {
                            const dim_t off = off_logical(c.dst, pos);
                            const dim_t stride = run_stride(c.dst, axis, pos[axis], n);
                            c.post_ops.apply(po_args, a, n, pos, axis,
                                    static_cast<const char *>(dst) + off * dst_esz, stride);
                        }
                        store_run(c.dst, dst, pos, axis, n, a);
                    }
                },
                std::max<dim_t>(1, 16384 / plan.len));
        zero_padding(c.dst, dst);
        return dnnl_success;
    }
};

} // namespace

impl_entry_t binary_ref_entry() {
    return make_impl_entry<binary_ref_pd_t>("cpu:binary:ref");
}

} // namespace cpu
} // namespace anydnn
