// GPU sum, any OpenCL device: any number of sources with their scales, f32/bf16/f16/s8/u8/s32
// (accumulated in f32 in source order, like the CPU engine), any blocked layouts.
#include "core/compute/compute.hpp"
#include "core/ops/sum/sum_conf.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/kernel_layout.hpp"
#include "gpu/launch.hpp"

namespace anydnn {
namespace gpu {

namespace {

struct sum_t;

struct sum_pd_t : public primitive_desc_impl_t<sum_pd_t, sum_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "ocl:sum:generic"; }

    static status_t init(sum_pd_t &pd) {
        cpu::sum_conf_t conf;
        ANYDNN_CHECK(conf.init(pd));
        for (const memory_desc_t &md : conf.srcs) ANYDNN_CHECK(check_tensors({&md}));
        ANYDNN_CHECK(check_tensors({&conf.dst}));
        pd.scales = conf.scales;
        // The f32 accumulator shares dst's offsets.
        const size_t esize = data_type_size(conf.dst.data_type);
        pd.scratchpad_size = esize ? size_in_bytes(conf.dst) / esize * sizeof(float) : 0;
        return dnnl_success;
    }

    std::vector<float> scales;
};

struct sum_t : public primitive_t {
    using primitive_t::primitive_t;
    const sum_pd_t &pd_() const { return static_cast<const sum_pd_t &>(pd()); }

    status_t init() override {
        const sum_pd_t &pd = pd_();
        const dnnl_data_type_t ddt = pd.arg_md(DNNL_ARG_DST).data_type;
        kernels_.resize(pd.scales.size());
        for (size_t i = 0; i < pd.scales.size(); ++i) {
            const dnnl_data_type_t sdt
                    = pd.arg_md(DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i)).data_type;
            ANYDNN_CHECK(create_kernel(pd.engine, "sum/sum.cl",
                    data_type_options("SRC", sdt) + data_type_options("DST", ddt),
                    "sum_accumulate", kernels_[i]));
        }
        return dnnl_success;
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const sum_pd_t &pd = pd_();
        const memory_desc_t &dst = pd.arg_md(DNNL_ARG_DST);
        const int64_t n = nelems(dst, true);
        const int nsrc = static_cast<int>(pd.scales.size());
        for (int i = 0; i < nsrc; ++i) {
            kernel_args_t args;
            args.add(storage_of(ctx, DNNL_ARG_MULTIPLE_SRC + i));
            args.add(ctx.scratchpad_storage);
            args.add(storage_of(ctx, DNNL_ARG_DST));
            add_layout(args, pd.arg_md(DNNL_ARG_MULTIPLE_SRC + i));
            add_layout(args, dst);
            args.add_value(n);
            add_logical_dims(args, dst);
            args.add_value(pd.scales[i]);
            args.add_value<int32_t>(i == 0);
            args.add_value<int32_t>(i == nsrc - 1);
            ANYDNN_CHECK(kernels_[i]->launch(ctx.stream, args, range_1d(static_cast<size_t>(n))));
        }
        return dnnl_success;
    }

private:
    std::vector<std::shared_ptr<kernel_t>> kernels_;
};

} // namespace

impl_entry_t sum_entry() { return make_impl_entry<sum_pd_t>("ocl:sum:generic"); }

} // namespace gpu
} // namespace anydnn
