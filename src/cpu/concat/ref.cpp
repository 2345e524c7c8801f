// Reference concat: any blocked layouts, dst data type may differ from the sources', scales.
// Same type and no scale: elements are copied bit for bit (s32 keeps every value).
#include <cstring>

#include "core/ops/concat/concat_conf.hpp"
#include "core/ops/layout.hpp"
#include "core/ops/scales.hpp"
#include "core/parallel.hpp"
#include "cpu/impl_entries.hpp"
#include "cpu/tensor_run.hpp"

namespace anydnn {
namespace cpu {

namespace {

struct concat_ref_t;

struct concat_ref_pd_t : public primitive_desc_impl_t<concat_ref_pd_t, concat_ref_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "cpu:concat:ref"; }
    static status_t init(concat_ref_pd_t &pd) { return pd.conf.init(pd); }
    concat_conf_t conf;
};

constexpr dim_t max_run = 512;

void copy_elems(const char *src, dim_t s_stride, char *dst, dim_t d_stride, dim_t n,
        size_t esz) {
    for (dim_t k = 0; k < n; ++k)
        std::memcpy(dst + k * d_stride * esz, src + k * s_stride * esz, esz);
}

struct concat_ref_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const concat_conf_t &c = static_cast<const concat_ref_pd_t &>(pd()).conf;
        if (nelems(c.dst) == 0) return dnnl_success;
        void *dst = ctx.host_ptr(DNNL_ARG_DST);
        const size_t esz = data_type_size(c.dst.data_type);
        for (size_t i = 0; i < c.srcs.size(); ++i) {
            const memory_desc_t &smd = c.srcs[i];
            if (nelems(smd) == 0) continue;
            const int arg = DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i);
            float scale;
            ANYDNN_CHECK(read_common_scale(ctx, pd().attr, arg, scale));
            const void *src = ctx.host_ptr(arg);
            const bool bitwise = smd.data_type == c.dst.data_type && scale == 1.f;
            const run_plan_t plan = make_run_plan(smd, max_run);
            const int axis = plan.axis;
            const dim_t shift = c.offsets[i];

            parallel_range(
                    plan.nruns,
                    [&](dim_t start, dim_t end) {
                        float v[max_run];
                        dim_t pos[max_ndims], dpos[max_ndims];
                        for (dim_t r = start; r < end; ++r) {
                            const dim_t len = plan.run(r, pos);
                            for (int d = 0; d < smd.ndims; ++d)
                                dpos[d] = pos[d];
                            dpos[c.axis] += shift;
                            if (!bitwise) {
                                load_run(smd, src, 0, pos, axis, len, v);
                                for (dim_t k = 0; k < len; ++k)
                                    v[k] *= scale;
                                store_run(c.dst, dst, dpos, axis, len, v);
                                continue;
                            }
                            const dim_t ss = run_stride(smd, axis, pos[axis], len);
                            const dim_t ds = run_stride(c.dst, axis, dpos[axis], len);
                            if (ss >= 0 && ds >= 0) {
                                copy_elems(static_cast<const char *>(src)
                                                + off_logical(smd, pos) * esz,
                                        ss, static_cast<char *>(dst) + off_logical(c.dst, dpos) * esz,
                                        ds, len, esz);
                                continue;
                            }
                            for (dim_t k = 0; k < len; ++k, ++pos[axis], ++dpos[axis])
                                std::memcpy(static_cast<char *>(dst) + off_logical(c.dst, dpos) * esz,
                                        static_cast<const char *>(src) + off_logical(smd, pos) * esz,
                                        esz);
                        }
                    },
                    std::max<dim_t>(1, 16384 / plan.len));
        }
        zero_padding(c.dst, dst);
        return dnnl_success;
    }
};

} // namespace

impl_entry_t concat_ref_entry() {
    return make_impl_entry<concat_ref_pd_t>("cpu:concat:ref");
}

} // namespace cpu
} // namespace anydnn
