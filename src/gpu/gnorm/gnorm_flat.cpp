// GPU group normalization forward over dense channels-first tensors (NCX, row-major), where
// each (mb, group) is one contiguous run: statistics in one pass, wide loads
// (gnorm_flat.cl). Training and inference, global statistics, scale and shift; no post-ops.
// ocl:gnorm:groups takes every other case.
#include <algorithm>

#include "core/compute/compute.hpp"
#include "core/ops/gnorm/common.hpp"
#include "core/primitive.hpp"
#include "gpu/gnorm/gnorm_flags.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"
#include "gpu/reduce_launch.hpp"
#include "gpu/tuning/op_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

namespace gn = cpu::gnorm;

struct gnorm_flat_t;

struct gnorm_flat_pd_t : public primitive_desc_impl_t<gnorm_flat_pd_t, gnorm_flat_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "ocl:gnorm:flat"; }
    int vec = 1;

    static status_t init(gnorm_flat_pd_t &pd) {
        const auto &d = gn::desc_of(pd);
        ANYDNN_REQUIRE(gn::is_fwd(d), dnnl_unimplemented, "the flat kernel is forward only");
        ANYDNN_REQUIRE(pd.attr.has_default_values(attr_skip::scratchpad), dnnl_unimplemented,
                "the flat kernel takes no attributes");
        ANYDNN_CHECK(gn::resolve(pd));
        for (const auto &a : pd.args)
            ANYDNN_CHECK(check_tensors({&a.second}));
        const memory_desc_t &src = pd.arg_md(DNNL_ARG_SRC), &dst = pd.arg_md(DNNL_ARG_DST);
        ANYDNN_REQUIRE(row_major_dense(src) && row_major_dense(dst), dnnl_unimplemented,
                "src and dst are not both dense channels-first");
        for (int a : {DNNL_ARG_MEAN, DNNL_ARG_VARIANCE}) {
            const auto it = pd.args.find(a);
            ANYDNN_REQUIRE(it == pd.args.end()
                            || (row_major_dense(it->second) && it->second.offset0 == 0),
                    dnnl_unimplemented, "statistics are not dense (mb, group)");
        }
        int64_t sp = 1;
        for (int i = 2; i < src.ndims; ++i)
            sp *= src.dims[i];
        // Groups of four, or of eight where the tuning row's access_bytes takes eight 2-byte
        // elements in one access (bf16, f16: 16-byte accesses).
        const op_tuning_t &t = op_tuning(engine_caps(pd.engine));
        const size_t widest = std::max(data_type_size(src.data_type),
                data_type_size(dst.data_type));
        auto aligned = [&](int w) {
            return sp % w == 0 && src.offset0 % w == 0 && dst.offset0 % w == 0;
        };
        const int wide = vector_width(t, widest);
        pd.vec = t.vector_elems != 4 ? 1 : aligned(wide) ? wide : aligned(4) ? 4 : 1;
        return dnnl_success;
    }
};

struct gnorm_flat_t : public primitive_t {
    using primitive_t::primitive_t;
    const gnorm_flat_pd_t &pd_() const { return static_cast<const gnorm_flat_pd_t &>(pd()); }

    status_t init() override {
        const gnorm_flat_pd_t &pd = pd_();
        const std::string opt = data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type)
                + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
                + row_options(pd.engine) + " -DVEC=" + std::to_string(pd.vec);
        return create_kernel(pd.engine, "gnorm/gnorm_flat.cl", opt, "gnorm_flat_fwd", kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const gnorm_flat_pd_t &pd = pd_();
        const auto &d = gn::desc_of(pd);
        const memory_desc_t &src = pd.arg_md(DNNL_ARG_SRC);
        if (nelems(src) == 0) return dnnl_success;
        int64_t sp = 1;
        for (int i = 2; i < src.ndims; ++i)
            sp *= src.dims[i];
        kernel_args_t args;
        for (int a : {DNNL_ARG_SRC, DNNL_ARG_DST, DNNL_ARG_MEAN, DNNL_ARG_VARIANCE,
                     DNNL_ARG_SCALE, DNNL_ARG_SHIFT})
            args.add(storage_of(ctx, a));
        args.add_value<int64_t>(src.offset0);
        args.add_value<int64_t>(pd.arg_md(DNNL_ARG_DST).offset0);
        args.add_value<int64_t>(src.dims[1]);
        args.add_value<int64_t>(sp);
        args.add_value<int64_t>(d.groups);
        args.add_value<int32_t>(gnorm_kernel_flags(pd));
        args.add_value(d.epsilon);
        const size_t local = row_group_size(*kernel_, pd.engine);
        add_row_buffer(args, local);
        return kernel_->launch(
                ctx.stream, args, rows_range(size_t(src.dims[0] * d.groups), local));
    }

private:
    std::shared_ptr<kernel_t> kernel_;
};

} // namespace

impl_entry_t gnorm_flat_entry() { return make_impl_entry<gnorm_flat_pd_t>("ocl:gnorm:flat"); }

} // namespace gpu
} // namespace anydnn
