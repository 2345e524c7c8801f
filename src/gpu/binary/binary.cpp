// GPU binary, any OpenCL device: every algorithm including select, broadcast of any source
// along any dimensions, per-tensor scales of src0 / src1, post-ops, f32/bf16/f16/s8/u8/s32
// (computed in f32), any blocked layouts. Sources sharing dst's dense layout (or a single
// value) without post-ops take a flat kernel.
#include <algorithm>
#include <vector>

#include "core/compute/compute.hpp"
#include "core/ops/binary/binary_conf.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/kernel_layout.hpp"
#include "gpu/launch.hpp"
#include "gpu/post_ops.hpp"
#include "gpu/tuning/op_tuning.hpp"

namespace anydnn {
namespace gpu {

namespace {

struct binary_t;

struct binary_pd_t : public primitive_desc_impl_t<binary_pd_t, binary_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        return vec ? "ocl:binary:bcast_vec" : dense ? "ocl:binary:dense" : "ocl:binary:generic";
    }

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
        pd.vec = op_tuning(engine_caps(pd.engine)).vector_elems == 4 && !pd.select
                && pd.post_ops.empty() && same_dense_layout({&conf.src0, &conf.dst})
                && conf.src0.offset0 % 4 == 0 && conf.dst.offset0 % 4 == 0
                && broadcast_band(conf.src1, conf.dst, pd.inner, pd.mid);
        if (pd.vec) {
            pd.dense = false;
            size_t widest = 0;
            for (const memory_desc_t *md : {&conf.src0, &conf.src1, &conf.dst})
                widest = std::max(widest, data_type_size(md->data_type));
            const op_tuning_t &tune = op_tuning(engine_caps(pd.engine));
            pd.width = vector_width(tune, widest);
            // Eight-element groups only where src0 and dst start on one and src1 is not
            // looked up element by element where groups of four would not be.
            if (conf.src0.offset0 % pd.width || conf.dst.offset0 % pd.width
                    || (pd.b_mode_for(pd.width, conf.src1) == 0 && pd.b_mode_for(4, conf.src1) != 0))
                pd.width = 4;
            pd.b_mode = pd.b_mode_for(pd.width, conf.src1);
            pd.groups = vector_groups(tune, widest, pd.width);
        }
        return dnnl_success;
    }

    // binary_bcast_vec's B_MODE for groups of `width` elements.
    int b_mode_for(int width, const memory_desc_t &s1) const {
        if (inner % width == 0) return 1;
        return inner == 1 && mid % width == 0 && s1.offset0 % width == 0 ? 2 : 0;
    }

    // Whether src1's non-1 dimensions are one band of dst's memory order, laid out in that
    // order densely: then dst element i takes src1's (i / inner) % mid.
    static bool broadcast_band(
            const memory_desc_t &s1, const memory_desc_t &dst, int64_t &inner, int64_t &mid) {
        if (s1.format_kind != dnnl_blocked || s1.blocking.inner_nblks != 0
                || dst.blocking.inner_nblks != 0 || s1.ndims != dst.ndims)
            return false;
        // dst's dims from the outermost in memory (dense: strides order them).
        std::vector<int> order;
        for (int d = 0; d < dst.ndims; ++d)
            if (dst.dims[d] > 1) order.push_back(d);
        std::sort(order.begin(), order.end(), [&](int a, int b) {
            return dst.blocking.strides[a] > dst.blocking.strides[b];
        });
        int first = -1, last = -1;
        for (int k = 0; k < int(order.size()); ++k) {
            const int64_t n1 = s1.dims[order[k]];
            if (n1 != 1 && n1 != dst.dims[order[k]]) return false;
            if (n1 == 1) continue;
            if (first >= 0 && last != k - 1) return false; // not one band
            if (first < 0) first = k;
            last = k;
        }
        inner = 1;
        mid = 1;
        if (first < 0) { // a single value
            inner = 8; // any group width shares it
            return true;
        }
        for (int k = int(order.size()) - 1; k > last; --k)
            inner *= dst.dims[order[k]];
        for (int k = last; k >= first; --k) {
            if (s1.blocking.strides[order[k]] != mid) return false;
            mid *= dst.dims[order[k]];
        }
        return true;
    }

    dnnl_alg_kind_t alg = dnnl_alg_kind_undef;
    bool select = false, dense = false;
    bool vec = false; // binary_bcast_vec: groups of four elements per work-item
    int width = 4; // elements per group (vector_width)
    int groups = 1; // how many (vector_groups)
    int b_mode = 0;
    int64_t inner = 1, mid = 1;
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
        if (pd.vec)
            opt += " -DVEC=" + std::to_string(pd.width) + " -DB_MODE=" + std::to_string(pd.b_mode)
                    + " -DGROUPS=" + std::to_string(pd.groups);
        return create_kernel(pd.engine, "binary/binary.cl", opt,
                pd.vec ? "binary_bcast_vec" : pd.dense ? "binary_dense" : "binary_generic",
                kernel_);
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
        if (pd.vec) {
            n = nelems(dst);
            kernel_args_t v;
            v.add(storage_of(ctx, DNNL_ARG_SRC_0));
            v.add(storage_of(ctx, DNNL_ARG_SRC_1));
            v.add(storage_of(ctx, DNNL_ARG_DST));
            for (int64_t a : {s0.offset0, s1.offset0, dst.offset0, pd.inner, pd.mid, n})
                v.add_value<int64_t>(a);
            v.add(storage_of(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC_0));
            v.add(storage_of(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC_1));
            return kernel_->launch(ctx.stream, v, range_1d(static_cast<size_t>(vector_items(n, pd.groups, pd.width))));
        }
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
