// GPU sum over dense tensors, any OpenCL device: every source and dst in one dense layout
// without padding, at most 8 sources, summed in one launch (the generic sum makes one pass
// over an f32 accumulator per source). Wide accesses where the tuning table's row has them.
#include <algorithm>
#include <string>

#include "core/compute/compute.hpp"
#include "core/ops/sum/sum_conf.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/kernel_layout.hpp"
#include "gpu/launch.hpp"
#include "gpu/tuning/op_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

constexpr int max_sources = 8; // the kernel's source parameters

struct sum_dense_t;

struct sum_dense_pd_t : public primitive_desc_impl_t<sum_dense_pd_t, sum_dense_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "ocl:sum:dense"; }

    static status_t init(sum_dense_pd_t &pd) {
        cpu::sum_conf_t conf;
        ANYDNN_CHECK(conf.init(pd));
        const int nsrc = static_cast<int>(conf.srcs.size());
        ANYDNN_REQUIRE(nsrc <= max_sources, dnnl_unimplemented,
                "ocl:sum:dense: more than 8 sources");
        bool aligned = conf.dst.offset0 % 4 == 0;
        size_t widest = data_type_size(conf.dst.data_type);
        for (const memory_desc_t &md : conf.srcs) {
            ANYDNN_REQUIRE(same_dense_layout({&md, &conf.dst}), dnnl_unimplemented,
                    "ocl:sum:dense: a source and dst differ in layout, or one is padded");
            aligned = aligned && md.offset0 % 4 == 0;
            widest = std::max(widest, data_type_size(md.data_type));
        }
        const op_tuning_t &t = op_tuning(engine_caps(pd.engine));
        pd.vec = t.vector_elems == 4 && aligned ? 4 : 1;
        pd.groups = pd.vec == 4 ? vector_groups(t, widest) : 1;
        pd.scales = conf.scales;
        return dnnl_success;
    }

    std::vector<float> scales;
    int vec = 1; // elements per access
    int groups = 1; // with vec 4, groups of four per work-item
};

struct sum_dense_t : public primitive_t {
    using primitive_t::primitive_t;
    const sum_dense_pd_t &pd_() const { return static_cast<const sum_dense_pd_t &>(pd()); }

    status_t init() override {
        const sum_dense_pd_t &pd = pd_();
        const int nsrc = static_cast<int>(pd.scales.size());
        std::string opt = data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
                + " -DNSRC=" + std::to_string(nsrc) + " -DVEC=" + std::to_string(pd.vec)
                + " -DGROUPS=" + std::to_string(pd.groups);
        for (int i = 0; i < max_sources; ++i)
            opt += data_type_options(("SRC" + std::to_string(i)).c_str(),
                    i < nsrc ? pd.arg_md(DNNL_ARG_MULTIPLE_SRC + i).data_type : dnnl_f32);
        return create_kernel(pd.engine, "sum/sum_dense.cl", opt, "sum_dense", kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const sum_dense_pd_t &pd = pd_();
        const memory_desc_t &dst = pd.arg_md(DNNL_ARG_DST);
        const int64_t n = nelems(dst);
        if (n == 0) return dnnl_success;
        const int nsrc = static_cast<int>(pd.scales.size());
        struct {
            int64_t v[max_sources];
        } offsets {};
        struct {
            float v[max_sources];
        } scales {};
        kernel_args_t args;
        args.add(storage_of(ctx, DNNL_ARG_DST));
        args.add_value<int64_t>(dst.offset0);
        args.add_value(n);
        for (int i = 0; i < max_sources; ++i) {
            const int k = i < nsrc ? i : 0; // absent sources: the first again, never read
            args.add(storage_of(ctx, DNNL_ARG_MULTIPLE_SRC + k));
            if (i < nsrc) {
                offsets.v[i] = pd.arg_md(DNNL_ARG_MULTIPLE_SRC + i).offset0;
                scales.v[i] = pd.scales[size_t(i)];
            }
        }
        args.add_value(offsets);
        args.add_value(scales);
        const int64_t items = pd.vec == 4 ? vector_items(n, pd.groups) : n;
        return kernel_->launch(ctx.stream, args, range_1d(static_cast<size_t>(items)));
    }

private:
    std::shared_ptr<kernel_t> kernel_;
};

} // namespace

impl_entry_t sum_dense_entry() { return make_impl_entry<sum_dense_pd_t>("ocl:sum:dense"); }

} // namespace gpu
} // namespace anydnn
