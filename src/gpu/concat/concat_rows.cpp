// GPU concat of tensors that are rows, any OpenCL device: dense tensors without inner blocks
// whose dimensions outside the axis keep one memory order in every tensor, so each source is
// `outer` rows of (its axis length x inner) elements placed at a column of dst's rows (NCHW
// along channels, NHWC along channels, any plain layout along its outermost dimension...).
// One division per element or four-element group, where the generic kernel walks every
// dimension of both layouts per element.
#include <algorithm>
#include <string>

#include "core/compute/compute.hpp"
#include "core/ops/concat/concat_conf.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/kernel_layout.hpp"
#include "gpu/launch.hpp"
#include "gpu/tuning/op_tuning.hpp"
#include "gpu/zero_padding.hpp"

namespace anydnn {
namespace gpu {

namespace {

bool rows_type(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16 || dt == dnnl_s8 || dt == dnnl_u8
            || dt == dnnl_s32;
}

// Whether `md` is rows around `axis` laid out as `dst` is: dense, no inner blocks, the
// dimensions inside the axis with dst's strides, those outside in dst's order.
bool rows_like(const memory_desc_t &md, const memory_desc_t &dst, int axis) {
    if (md.format_kind != dnnl_blocked || md.blocking.inner_nblks != 0 || !is_dense(md)
            || nelems(md) != nelems(md, true) || md.ndims != dst.ndims)
        return false;
    const dim_t inner = dst.blocking.strides[axis];
    const dim_t row = md.dims[axis] * inner, dst_row = dst.dims[axis] * inner;
    if (row == 0 || dst_row == 0) return true; // nothing to copy
    if (md.blocking.strides[axis] != inner) return false;
    for (int d = 0; d < md.ndims; ++d) {
        if (d == axis || md.dims[d] == 1) continue;
        const dim_t s = md.blocking.strides[d], ds = dst.blocking.strides[d];
        const bool inside = ds < inner;
        if (inside ? s != ds : s % row != 0 || ds % dst_row != 0 || s / row != ds / dst_row)
            return false;
    }
    return true;
}

struct concat_rows_t;

struct concat_rows_pd_t : public primitive_desc_impl_t<concat_rows_pd_t, concat_rows_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "ocl:concat:rows"; }

    static status_t init(concat_rows_pd_t &pd) {
        cpu::concat_conf_t conf;
        ANYDNN_CHECK(conf.init(pd));
        const memory_desc_t &dst = conf.dst;
        ANYDNN_REQUIRE(rows_type(dst.data_type) && rows_like(dst, dst, conf.axis),
                dnnl_unimplemented, "ocl:concat:rows: dst is not dense rows around the axis");
        const dim_t inner = dst.blocking.strides[conf.axis];
        const op_tuning_t &t = op_tuning(engine_caps(pd.engine));
        for (int i = 0; i < static_cast<int>(conf.srcs.size()); ++i) {
            const memory_desc_t &md = conf.srcs[size_t(i)];
            ANYDNN_REQUIRE(rows_type(md.data_type) && rows_like(md, dst, conf.axis),
                    dnnl_unimplemented,
                    "ocl:concat:rows: a source is not laid out as dst's rows");
            const auto it = pd.attr.scales.find(DNNL_ARG_MULTIPLE_SRC + i);
            const bool scaled = it != pd.attr.scales.end();
            ANYDNN_REQUIRE(!scaled || (!it->second.is_host_scalar && it->second.data_type == dnnl_f32),
                    dnnl_unimplemented, "GPU concat: scales must be f32 device memory");
            source_t s;
            s.cols = md.dims[conf.axis] * inner;
            s.col0 = conf.offsets[size_t(i)] * inner;
            s.copy = md.data_type == dst.data_type && !scaled;
            s.scaled = scaled;
            const bool aligned = s.cols % 4 == 0 && s.col0 % 4 == 0
                    && dst.dims[conf.axis] * inner % 4 == 0 && md.offset0 % 4 == 0
                    && dst.offset0 % 4 == 0;
            s.vec = t.vector_elems == 4 && aligned ? 4 : 1;
            s.groups = s.vec == 4 ? vector_groups(t, std::max(data_type_size(md.data_type),
                                                              data_type_size(dst.data_type)))
                                  : 1;
            pd.sources.push_back(s);
        }
        pd.dst_cols = dst.dims[conf.axis] * inner;
        return dnnl_success;
    }

    struct source_t {
        dim_t cols = 0, col0 = 0; // its row width, and where its rows start in dst's
        bool copy = false, scaled = false;
        int vec = 1, groups = 1;
    };
    std::vector<source_t> sources;
    dim_t dst_cols = 0;
};

struct concat_rows_t : public primitive_t {
    using primitive_t::primitive_t;
    const concat_rows_pd_t &pd_() const { return static_cast<const concat_rows_pd_t &>(pd()); }

    status_t init() override {
        const concat_rows_pd_t &pd = pd_();
        const dnnl_data_type_t ddt = pd.arg_md(DNNL_ARG_DST).data_type;
        kernels_.resize(pd.sources.size());
        for (size_t i = 0; i < pd.sources.size(); ++i) {
            const auto &s = pd.sources[i];
            const dnnl_data_type_t sdt
                    = pd.arg_md(DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i)).data_type;
            std::string opt = " -DVEC=" + std::to_string(s.vec)
                    + " -DGROUPS=" + std::to_string(s.groups);
            if (s.copy)
                opt += std::string(" -DCOPY -DBITS_T=") + bits_type(ddt) + " -DSRC_DATA_T="
                        + bits_type(ddt) + " -DDST_DATA_T=" + bits_type(ddt);
            else
                opt += data_type_options("SRC", sdt) + data_type_options("DST", ddt)
                        + (s.scaled ? " -DSCALE" : "");
            ANYDNN_CHECK(create_kernel(
                    pd.engine, "concat/concat_rows.cl", opt, "concat_rows", kernels_[i]));
        }
        return dnnl_success;
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const concat_rows_pd_t &pd = pd_();
        const memory_desc_t &dst = pd.arg_md(DNNL_ARG_DST);
        for (int i = 0; i < static_cast<int>(kernels_.size()); ++i) {
            const auto &s = pd.sources[size_t(i)];
            const memory_desc_t &src = pd.arg_md(DNNL_ARG_MULTIPLE_SRC + i);
            const int64_t n = nelems(src);
            if (n == 0) continue;
            kernel_args_t args;
            args.add(storage_of(ctx, DNNL_ARG_MULTIPLE_SRC + i));
            args.add(storage_of(ctx, DNNL_ARG_DST));
            for (int64_t v : {src.offset0, dst.offset0, n, s.cols, pd.dst_cols, s.col0})
                args.add_value<int64_t>(v);
            args.add(s.scaled ? storage_of(ctx, DNNL_ARG_ATTR_SCALES | (DNNL_ARG_MULTIPLE_SRC + i))
                              : nullptr);
            const int64_t items = s.vec == 4 ? vector_items(n, s.groups) : n;
            ANYDNN_CHECK(kernels_[i]->launch(
                    ctx.stream, args, range_1d(static_cast<size_t>(items))));
        }
        return dnnl_success;
    }

private:
    std::vector<std::shared_ptr<kernel_t>> kernels_;
};

} // namespace

impl_entry_t concat_rows_entry() { return make_impl_entry<concat_rows_pd_t>("ocl:concat:rows"); }

} // namespace gpu
} // namespace anydnn
