// The CPU layer normalization implementations: `dense` (rows contiguous in memory, AVX-512
// rows with non-temporal stores for large outputs) and `ref` (any blocked layouts, scalar).
// Both run lnorm::execute; they differ in what they accept and how rows are reached.
#include "core/ops/post_ops.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/lnorm/execute.hpp"

namespace anydnn {
namespace cpu {

namespace {

template <bool dense>
struct lnorm_t;

template <bool dense>
struct lnorm_pd_t : public primitive_desc_impl_t<lnorm_pd_t<dense>, lnorm_t<dense>> {
    using base = primitive_desc_impl_t<lnorm_pd_t<dense>, lnorm_t<dense>>;
    using base::base;
    const char *name() const override {
        return dense ? "cpu:lnorm:dense" : "cpu:lnorm:ref";
    }

    int nthr = 1;
    post_ops_chain_t post_ops; // forward only

    static status_t init(lnorm_pd_t &pd) {
        pd.nthr = max_threads();
        ANYDNN_CHECK(lnorm::init_args(pd, pd.nthr));
        if (dense) ANYDNN_CHECK(lnorm::check_dense(pd));
        if (lnorm::is_fwd(lnorm::desc_of(pd).prop_kind)) {
            ANYDNN_CHECK(pd.post_ops.init(pd.attr, pd.args[DNNL_ARG_DST]));
            pd.post_ops.add_args(pd.args);
        }
        return dnnl_success;
    }
};

template <bool dense>
struct lnorm_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const lnorm_pd_t<dense> &>(this->pd());
        return lnorm::execute(pd, ctx, pd.nthr, dense, pd.post_ops);
    }
};

} // namespace

impl_entry_t lnorm_dense_entry() {
    return make_impl_entry<lnorm_pd_t<true>>("cpu:lnorm:dense");
}
impl_entry_t lnorm_ref_entry() {
    return make_impl_entry<lnorm_pd_t<false>>("cpu:lnorm:ref");
}

} // namespace cpu
} // namespace anydnn
