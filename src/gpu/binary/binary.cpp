// GPU binary, any OpenCL device: every algorithm including select, broadcast of any source
// along any dimensions, per-tensor scales of src0 / src1, post-ops, f32/bf16/f16/s8/u8/s32
// (computed in f32), any blocked layouts. Sources sharing dst's dense layout (or a single
// value) without post-ops take a flat kernel.
#include "core/compute/compute.hpp"
#include "core/ops/binary/binary_conf.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/kernel_layout.hpp"
#include "gpu/launch.hpp"
#include "gpu/post_ops.hpp"

namespace anydnn {
namespace gpu {

namespace {

struct binary_t;

struct binary_pd_t : public primitive_desc_impl_t<binary_pd_t, binary_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return dense ? "ocl:binary:dense" : "ocl:binary:generic"; }

    static status_t init(binary_pd_t &pd) {
        cpu::binary_conf_t conf;
        ANYDNN_CHECK(conf.init(pd));
        pd.alg = conf.alg;
        pd.select = conf.is_select;
        const memory_desc_t &src2 = pd.select ? conf.src2 : conf.src0;
        ANYDNN_CHECK(check_tensors({&conf.src0, &conf.src1, &src2, &conf.dst}));
        for (int arg : {DNNL_ARG_SRC_0, DNNL_ARG_SRC_1}) {
            const auto it = pd.attr.scales.find(arg);
            if (it == pd.attr.scales.end()) continue;
            ANYDNN_REQUIRE(!it->second.is_host_scalar, dnnl_unimplemented,
                    "GPU binary: host-scalar scales are not supported");
            (arg == DNNL_ARG_SRC_0 ? pd.scale0_dt : pd.scale1_dt) = it->second.data_type;
        }
        ANYDNN_CHECK(pd.post_ops.init(pd.attr, conf.dst, pd.args));
        auto same_or_single = [&](const memory_desc_t &md) {
            return nelems(md) == 1 || same_dense_layout({&md, &conf.dst});
        };
        pd.dense = pd.post_ops.empty() && same_dense_layout({&conf.src0, &conf.dst})
                && same_or_single(conf.src1) && (!pd.select || same_or_single(conf.src2));
        return dnnl_success;
    }

    dnnl_alg_kind_t alg = dnnl_alg_kind_undef;
    bool select = false, dense = false;
    dnnl_data_type_t scale0_dt = dnnl_data_type_undef, scale1_dt = dnnl_data_type_undef;
    post_ops_t post_ops;
};

std::string scale_options(const char *name, dnnl_data_type_t dt) {
    if (dt == dnnl_data_type_undef) return data_type_options(name, dnnl_f32);
    return data_type_options(name, dt) + " -D" + name;
}

struct binary_t : public primitive_t {
    using primitive_t::primitive_t;
    const binary_pd_t &pd_() const { return static_cast<const binary_pd_t &>(pd()); }

    status_t init() override {
        const binary_pd_t &pd = pd_();
        const int src2_arg = pd.select ? DNNL_ARG_SRC_2 : DNNL_ARG_SRC_0;
        std::string opt = " -DALG=" + std::to_string(static_cast<int>(pd.alg))
                + data_type_options("SRC0", pd.arg_md(DNNL_ARG_SRC_0).data_type)
                + data_type_options("SRC1", pd.arg_md(DNNL_ARG_SRC_1).data_type)
                + data_type_options("SRC2", pd.arg_md(src2_arg).data_type)
                + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
                + scale_options("SCALE0", pd.scale0_dt) + scale_options("SCALE1", pd.scale1_dt)
                + pd.post_ops.build_options();
        ANYDNN_CHECK(pd.post_ops.upload(pd.engine, post_ops_buffer_));
        return create_kernel(pd.engine, "binary/binary.cl", opt,
                pd.dense ? "binary_dense" : "binary_generic", kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const binary_pd_t &pd = pd_();
        const memory_desc_t &s0 = pd.arg_md(DNNL_ARG_SRC_0), &s1 = pd.arg_md(DNNL_ARG_SRC_1),
                            &dst = pd.arg_md(DNNL_ARG_DST);
        const memory_desc_t &s2 = pd.select ? pd.arg_md(DNNL_ARG_SRC_2) : s0;
        kernel_args_t args;
        args.add(storage_of(ctx, DNNL_ARG_SRC_0));
        args.add(storage_of(ctx, DNNL_ARG_SRC_1));
        args.add(storage_of(ctx, pd.select ? DNNL_ARG_SRC_2 : DNNL_ARG_SRC_0));
        args.add(storage_of(ctx, DNNL_ARG_DST));
        int64_t n = 0;
        if (pd.dense) {
            n = nelems(dst);
            for (const memory_desc_t *md : {&s0, &s1, &s2, &dst})
                args.add_value<int64_t>(md->offset0);
            args.add_value<int64_t>(nelems(s1) == 1 ? 0 : 1);
            args.add_value<int64_t>(nelems(s2) == 1 ? 0 : 1);
            args.add_value(n);
        } else {
            n = nelems(dst, true);
            for (const memory_desc_t *md : {&s0, &s1, &s2})
                add_source_layout(args, *md);
            add_layout(args, dst);
            args.add_value(n);
            add_logical_dims(args, dst);
        }
        args.add(storage_of(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC_0));
        args.add(storage_of(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC_1));
        if (!pd.dense) pd.post_ops.add_args(args, ctx, post_ops_buffer_.get());
        return kernel_->launch(ctx.stream, args, range_1d(static_cast<size_t>(n)));
    }

private:
    // A source's layout with its logical sizes, which say where it broadcasts.
    static void add_source_layout(kernel_args_t &args, const memory_desc_t &md) {
        tensor_layout_t l;
        make_layout(md, l);
        for (int d = 0; d < md.ndims; ++d) l.dims[d] = md.dims[d];
        args.add_value(l);
    }

    std::shared_ptr<kernel_t> kernel_;
    std::unique_ptr<memory_storage_t> post_ops_buffer_;
};

} // namespace

impl_entry_t binary_entry() { return make_impl_entry<binary_pd_t>("ocl:binary:generic"); }

} // namespace gpu
} // namespace anydnn
