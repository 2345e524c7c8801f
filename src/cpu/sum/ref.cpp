// Reference sum: any mix of blocked layouts and data types, walking dst in runs.
#include <vector>

#include "core/ops/layout.hpp"
#include "core/ops/sum/sum_conf.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/tensor_run.hpp"

namespace anydnn {
namespace cpu {

namespace {

struct sum_ref_t;

struct sum_ref_pd_t : public primitive_desc_impl_t<sum_ref_pd_t, sum_ref_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:sum:ref"; }
    static status_t init(sum_ref_pd_t &pd) { return pd.conf.init(pd); }
    sum_conf_t conf;
};

constexpr dim_t max_run = 512;

struct sum_ref_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const sum_conf_t &c = static_cast<const sum_ref_pd_t &>(pd()).conf;
        if (nelems(c.dst) == 0) return dnnl_success;
        const int n = static_cast<int>(c.srcs.size());
        std::vector<const void *> src(n);
        for (int i = 0; i < n; ++i)
            src[i] = ctx.host_ptr(DNNL_ARG_MULTIPLE_SRC + i);
        void *dst = ctx.host_ptr(DNNL_ARG_DST);
        const run_plan_t plan = make_run_plan(c.dst, max_run);

        parallel_range(
                plan.nruns,
                [&](dim_t start, dim_t end) {
                    float acc[max_run], v[max_run];
                    dim_t pos[max_ndims];
                    for (dim_t r = start; r < end; ++r) {
                        const dim_t len = plan.run(r, pos);
                        for (dim_t k = 0; k < len; ++k)
                            acc[k] = 0.f;
                        for (int s = 0; s < n; ++s) {
                            load_run(c.srcs[s], src[s], 0, pos, plan.axis, len, v);
                            for (dim_t k = 0; k < len; ++k)
                                acc[k] += c.scales[s] * v[k];
                        }
                        store_run(c.dst, dst, pos, plan.axis, len, acc);
                    }
                },
                std::max<dim_t>(1, 16384 / plan.len));
        zero_padding(c.dst, dst);
        return dnnl_success;
    }
};

} // namespace

impl_entry_t sum_ref_entry() {
    return make_impl_entry<sum_ref_pd_t>("cpu:sum:ref");
}

} // namespace cpu
} // namespace anydnn
