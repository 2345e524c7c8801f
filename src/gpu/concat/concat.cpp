// GPU concat, any OpenCL device: any axis, any number of sources in any blocked layouts,
// per-source scales, kernel data types (same types without scales copy bits).
#include "core/compute/compute.hpp"
#include "core/ops/concat/concat_conf.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/kernel_layout.hpp"
#include "gpu/launch.hpp"
#include "gpu/zero_padding.hpp"

namespace anydnn {
namespace gpu {

namespace {

struct concat_t;

struct concat_pd_t : public primitive_desc_impl_t<concat_pd_t, concat_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "ocl:concat:generic"; }

    static status_t init(concat_pd_t &pd) {
        cpu::concat_conf_t conf;
        ANYDNN_CHECK(conf.init(pd));
        for (const memory_desc_t &md : conf.srcs) ANYDNN_CHECK(check_tensors({&md}));
        ANYDNN_CHECK(check_tensors({&conf.dst}));
        for (int i = 0; i < static_cast<int>(conf.srcs.size()); ++i) {
            const auto it = pd.attr.scales.find(DNNL_ARG_MULTIPLE_SRC + i);
            if (it == pd.attr.scales.end()) continue;
            ANYDNN_REQUIRE(!it->second.is_host_scalar && it->second.data_type == dnnl_f32,
                    dnnl_unimplemented, "GPU concat: scales must be f32 device memory");
        }
        pd.axis = conf.axis;
        pd.offsets = conf.offsets;
        return dnnl_success;
    }

    int axis = 0;
    std::vector<dim_t> offsets;
};

struct concat_t : public primitive_t {
    using primitive_t::primitive_t;
    const concat_pd_t &pd_() const { return static_cast<const concat_pd_t &>(pd()); }
    bool scaled(int i) const {
        return pd_().attr.scales.count(DNNL_ARG_MULTIPLE_SRC + i) != 0;
    }

    status_t init() override {
        const concat_pd_t &pd = pd_();
        const dnnl_data_type_t ddt = pd.arg_md(DNNL_ARG_DST).data_type;
        const int nsrc = static_cast<int>(pd.offsets.size());
        kernels_.resize(nsrc);
        for (int i = 0; i < nsrc; ++i) {
            const dnnl_data_type_t sdt = pd.arg_md(DNNL_ARG_MULTIPLE_SRC + i).data_type;
            std::string opt;
            if (sdt == ddt && !scaled(i))
                opt = std::string(" -DCOPY -DSRC_DATA_T=") + bits_type(ddt) + " -DDST_DATA_T="
                        + bits_type(ddt);
            else
                opt = data_type_options("SRC", sdt) + data_type_options("DST", ddt)
                        + (scaled(i) ? " -DSCALE" : "");
            ANYDNN_CHECK(create_kernel(
                    pd.engine, "concat/concat.cl", opt, "concat_source", kernels_[i]));
        }
        return zero_.init(pd.engine, pd.arg_md(DNNL_ARG_DST));
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const concat_pd_t &pd = pd_();
        const memory_desc_t &dst = pd.arg_md(DNNL_ARG_DST);
        for (int i = 0; i < static_cast<int>(kernels_.size()); ++i) {
            const memory_desc_t &src = pd.arg_md(DNNL_ARG_MULTIPLE_SRC + i);
            tensor_layout_t sl;
            make_layout(src, sl);
            for (int d = 0; d < src.ndims; ++d) sl.dims[d] = src.dims[d];
            const int64_t n = nelems(src);
            kernel_args_t args;
            args.add(storage_of(ctx, DNNL_ARG_MULTIPLE_SRC + i));
            args.add(storage_of(ctx, DNNL_ARG_DST));
            args.add_value(sl);
            add_layout(args, dst);
            args.add_value(n);
            args.add_value<int32_t>(pd.axis);
            args.add_value<int64_t>(pd.offsets[i]);
            args.add(scaled(i) ? storage_of(ctx, DNNL_ARG_ATTR_SCALES | (DNNL_ARG_MULTIPLE_SRC + i))
                               : nullptr);
            ANYDNN_CHECK(kernels_[i]->launch(ctx.stream, args, range_1d(static_cast<size_t>(n))));
        }
        return zero_.launch(ctx, DNNL_ARG_DST, dst);
    }

private:
    std::vector<std::shared_ptr<kernel_t>> kernels_;
    zero_padding_t zero_;
};

} // namespace

impl_entry_t concat_entry() { return make_impl_entry<concat_pd_t>("ocl:concat:generic"); }

} // namespace gpu
} // namespace anydnn
