// Sum of tensors that all share dst's dense layout: one pass over memory in chunks,
// accumulating in f32. Padding is summed too (zeros stay zeros).
#include <algorithm>

#include "core/ops/layout.hpp"
#include "core/ops/sum/sum_conf.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/tensor_run.hpp"

namespace anydnn {
namespace cpu {

namespace {

struct sum_simple_t;

struct sum_simple_pd_t : public primitive_desc_impl_t<sum_simple_pd_t, sum_simple_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:sum:simple"; }

    static status_t init(sum_simple_pd_t &pd) {
        ANYDNN_CHECK(pd.conf.init(pd));
        const sum_conf_t &c = pd.conf;
        ANYDNN_REQUIRE(is_dense(c.dst, true), dnnl_unimplemented, "dst is not dense");
        for (size_t i = 0; i < c.srcs.size(); ++i)
            ANYDNN_REQUIRE(same_layout(c.srcs[i], c.dst), dnnl_unimplemented,
                    "src %zu and dst have different layouts", i);
        return dnnl_success;
    }

    sum_conf_t conf;
};

struct sum_simple_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const sum_conf_t &c = static_cast<const sum_simple_pd_t &>(pd()).conf;
        const dim_t total = nelems(c.dst, true);
        if (nelems(c.dst) == 0) return dnnl_success;
        const int n = static_cast<int>(c.srcs.size());
        std::vector<const void *> src(n);
        for (int i = 0; i < n; ++i)
            src[i] = ctx.host_ptr(DNNL_ARG_MULTIPLE_SRC + i);
        void *dst = ctx.host_ptr(DNNL_ARG_DST);

        parallel_range(total, [&](dim_t start, dim_t end) {
            constexpr dim_t chunk = 512;
            alignas(64) float acc[chunk], v[chunk];
            for (dim_t i = start; i < end; i += chunk) {
                const dim_t len = std::min(chunk, end - i);
                for (int s = 0; s < n; ++s) {
                    const float scale = c.scales[s];
                    load_f32(c.srcs[s].data_type, src[s], c.srcs[s].offset0 + i, 1, len,
                            s == 0 ? acc : v);
                    if (s == 0)
                        for (dim_t k = 0; k < len; ++k)
                            acc[k] *= scale;
                    else
                        for (dim_t k = 0; k < len; ++k)
                            acc[k] += scale * v[k];
                }
                store_f32(c.dst.data_type, dst, c.dst.offset0 + i, 1, len, acc);
            }
        }, 16384);
        return dnnl_success;
    }
};

} // namespace

impl_entry_t sum_simple_entry() {
    return make_impl_entry<sum_simple_pd_t>("cpu:sum:simple");
}

} // namespace cpu
} // namespace anydnn
