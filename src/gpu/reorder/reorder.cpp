// GPU reorder, any OpenCL device: any blocked layouts, f32/bf16/f16/s8/u8/s32 (and f8, f4,
// s4, u4 element by element), scales and zero points of src and dst with any mask and groups, a sum
// post-op. A 4-bit dst (two elements a byte) must be dense: each work-item writes one byte. Tensors of one dense layout
// with per-tensor attributes take a flat kernel that handles several elements per work-item;
// layouts without an inner block on the last dimension take a kernel that walks its rows.
#include "gpu/reorder/reorder.hpp"

#include <algorithm>
#include <vector>

#include "core/data_types_narrow.hpp"
#include "core/ops/reorder/common.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/kernel_layout.hpp"
#include "gpu/launch.hpp"
#include "gpu/tuning/op_tuning.hpp"

namespace anydnn {
namespace gpu {
namespace reorder {

namespace {

// Mirrors quant_index_t of reorder.cl.
struct quant_index_t {
    int64_t stride[max_kernel_ndims];
    int64_t group[max_kernel_ndims];
};

quant_index_t quant_index(const cpu::reorder::quant_arg_t &a, const memory_desc_t &md) {
    quant_index_t q {};
    dim_t strides[max_ndims] = {};
    if (a.present) cpu::reorder::quant_strides(a, md.ndims, md.dims, strides);
    for (int d = 0; d < max_kernel_ndims; ++d) {
        q.stride[d] = d < md.ndims ? strides[d] : 0;
        q.group[d] = d < md.ndims && a.present ? a.groups[d] : 1;
    }
    return q;
}

bool has_inner_block_on(const memory_desc_t &md, int dim) {
    for (int b = 0; b < md.blocking.inner_nblks; ++b)
        if (md.blocking.inner_idxs[b] == dim) return true;
    return false;
}

// Mirrors row_order_t of reorder.cl.
constexpr int max_row_digits = max_kernel_ndims + max_kernel_blks;
struct row_order_t {
    int64_t extent[max_row_digits];
    int64_t mult[max_row_digits];
    int32_t dim[max_row_digits];
    int32_t count, pad;
};

// dst's rows (every dimension but the last, which has no inner block) in memory order: outer
// dimensions by decreasing stride, then the inner blocks, outermost first.
row_order_t row_order(const memory_desc_t &md) {
    row_order_t o {};
    const int last = md.ndims - 1;
    const auto &b = md.blocking;
    std::vector<int> outer;
    for (int d = 0; d < last; ++d) outer.push_back(d);
    std::stable_sort(outer.begin(), outer.end(),
            [&](int x, int y) { return b.strides[x] > b.strides[y]; });
    dim_t inner_of[max_ndims];
    for (int d = 0; d < md.ndims; ++d) inner_of[d] = 1;
    for (int k = 0; k < b.inner_nblks; ++k) inner_of[b.inner_idxs[k]] *= b.inner_blks[k];
    for (int d : outer) {
        o.extent[o.count] = md.padded_dims[d] / inner_of[d];
        o.mult[o.count] = inner_of[d];
        o.dim[o.count++] = d;
    }
    for (int k = 0; k < b.inner_nblks; ++k) {
        const int d = static_cast<int>(b.inner_idxs[k]);
        dim_t further_in = 1; // blocks of d inside this one
        for (int j = k + 1; j < b.inner_nblks; ++j)
            if (b.inner_idxs[j] == d) further_in *= b.inner_blks[j];
        o.extent[o.count] = b.inner_blks[k];
        o.mult[o.count] = further_in;
        o.dim[o.count++] = d;
    }
    return o;
}

// Every digit of md's element offsets (outer dimensions by decreasing stride, then the inner
// blocks) in memory order, for a layout without gaps: the offset p of an element, taken
// digit by digit from the innermost, gives its logical index. False where md has gaps.
bool digit_order(const memory_desc_t &md, row_order_t &o) {
    o = row_order_t {};
    const auto &b = md.blocking;
    std::vector<int> outer;
    for (int d = 0; d < md.ndims; ++d) outer.push_back(d);
    std::stable_sort(outer.begin(), outer.end(),
            [&](int x, int y) { return b.strides[x] > b.strides[y]; });
    dim_t inner_of[max_ndims];
    for (int d = 0; d < md.ndims; ++d) inner_of[d] = 1;
    for (int k = 0; k < b.inner_nblks; ++k) inner_of[b.inner_idxs[k]] *= b.inner_blks[k];
    std::vector<dim_t> stride;
    for (int d : outer) {
        o.extent[o.count] = md.padded_dims[d] / inner_of[d];
        o.mult[o.count] = inner_of[d];
        o.dim[o.count++] = d;
        stride.push_back(b.strides[d]);
    }
    dim_t inner_stride = 1;
    for (int k = b.inner_nblks - 1; k >= 0; --k) inner_stride *= b.inner_blks[k];
    for (int k = 0; k < b.inner_nblks; ++k) {
        const int d = static_cast<int>(b.inner_idxs[k]);
        dim_t further_in = 1;
        for (int j = k + 1; j < b.inner_nblks; ++j)
            if (b.inner_idxs[j] == d) further_in *= b.inner_blks[j];
        inner_stride /= b.inner_blks[k];
        o.extent[o.count] = b.inner_blks[k];
        o.mult[o.count] = further_in;
        o.dim[o.count++] = d;
        stride.push_back(inner_stride);
    }
    // No gaps: each digit (of more than one value) steps over all the digits inside it.
    dim_t span = 1;
    for (int k = o.count - 1; k >= 0; --k) {
        if (o.extent[k] == 1) continue;
        if (stride[size_t(k)] != span) return false;
        span *= o.extent[k];
    }
    return true;
}

std::string quant_options(const char *name, const cpu::reorder::quant_arg_t &a) {
    std::string opt = data_type_options(name, a.present ? a.dt : dnnl_f32);
    if (a.present) opt += std::string(" -D") + name;
    return opt;
}

} // namespace

status_t reorder_pd_t::init_tensors(
        reorder_pd_t &pd, const memory_desc_t &src, const memory_desc_t &dst, bool want_dense) {
    pd.f8 = is_f8(src.data_type) || is_f8(dst.data_type) || is_4bit(src.data_type)
            || is_4bit(dst.data_type);
    for (const memory_desc_t *md : {&src, &dst}) {
        const dnnl_data_type_t dt = md->data_type;
        if (is_f8(dt) || is_4bit(dt)) {
            tensor_layout_t l;
            ANYDNN_CHECK(make_layout(*md, l));
        } else {
            ANYDNN_CHECK(check_tensors({md}));
        }
    }
    pd.nibbles = is_4bit(dst.data_type);
    if (pd.nibbles) {
        row_order_t o;
        ANYDNN_REQUIRE(digit_order(dst, o) && dst.offset0 % 2 == 0, dnnl_unimplemented,
                "GPU reorder: a %s dst needs a layout without gaps, starting on a byte",
                dnnl_dt2str(dst.data_type));
    }
    ANYDNN_CHECK(cpu::reorder::quant_init(pd.q, pd.attr, src, dst));
    const cpu::reorder::quant_t &q = pd.q;
    for (const auto *a : {&q.src_scale, &q.dst_scale, &q.src_zp, &q.dst_zp})
        ANYDNN_REQUIRE(!a->present || !a->host_scalar, dnnl_unimplemented,
                "GPU reorder: host-scalar scales or zero points are not supported");
    ANYDNN_REQUIRE(!q.sum || q.sum_dt == dst.data_type, dnnl_unimplemented,
            "GPU reorder: a sum reads dst as its own type");
    pd.dense = same_dense_layout({&src, &dst}) && q.masks_within(0) && !pd.nibbles
            && !is_4bit(src.data_type);
    pd.blocked = !pd.dense && !pd.f8 && q.trivial()
            && blocked_shape(pd.engine, src, dst, pd.shape);
    pd.rows = !has_inner_block_on(src, src.ndims - 1)
            && !has_inner_block_on(dst, dst.ndims - 1);
    if (want_dense)
        ANYDNN_REQUIRE(pd.dense, dnnl_unimplemented,
                "GPU dense reorder: layouts differ or attributes vary across the tensor");
    pd.args[DNNL_ARG_SRC] = src;
    pd.args[DNNL_ARG_DST] = dst;
    return cpu::reorder::quant_add_args(q, pd, src);
}

namespace {
status_t check_gpu_to_gpu(const reorder_pd_t &pd) {
    const auto &d = cpu::reorder::reorder_desc(pd);
    ANYDNN_REQUIRE(d.src_engine_kind == dnnl_gpu && d.dst_engine_kind == dnnl_gpu
                    && !d.cross_engine,
            dnnl_unimplemented, "GPU reorder: src and dst on another engine");
    return dnnl_success;
}
} // namespace

status_t reorder_pd_t::init_dense(reorder_pd_t &pd) {
    ANYDNN_CHECK(check_gpu_to_gpu(pd));
    const auto &d = cpu::reorder::reorder_desc(pd);
    return init_tensors(pd, d.src_md, d.dst_md, true);
}

status_t reorder_pd_t::init_generic(reorder_pd_t &pd) {
    ANYDNN_CHECK(check_gpu_to_gpu(pd));
    const auto &d = cpu::reorder::reorder_desc(pd);
    return init_tensors(pd, d.src_md, d.dst_md, false);
}

status_t reorder_t::init() {
    const reorder_pd_t &pd = pd_();
    const cpu::reorder::quant_t &q = pd.q;
    std::string opt = data_type_options("SRC", pd.arg_md(DNNL_ARG_SRC).data_type)
            + data_type_options("DST", pd.arg_md(DNNL_ARG_DST).data_type)
            + quant_options("SRC_SCALE", q.src_scale) + quant_options("DST_SCALE", q.dst_scale)
            + quant_options("SRC_ZP", q.src_zp) + quant_options("DST_ZP", q.dst_zp);
    if (q.sum) opt += " -DSUM";
    if (pd.nibbles)
        opt += std::string(" -DDST_NIBBLE=nibble_")
                + dnnl_dt2str(pd.arg_md(DNNL_ARG_DST).data_type);
    if (pd.blocked)
        return create_kernel(pd.engine, "reorder/blocked.cl", opt + blocked_options(pd.shape),
                blocked_kernel_name(pd.shape), kernel_);
    // CPU devices run a work-group as vector lanes over its work-items: one element each
    // keeps that vectorizable; other devices gain from a few loads in flight per work-item.
    vec_ = pd.f8 ? 1 : op_tuning(engine_caps(pd.engine)).reorder_vector;
    const auto &smd = pd.arg_md(DNNL_ARG_SRC), &dmd = pd.arg_md(DNNL_ARG_DST);
    groups_ = vec_ == 4 ? vector_groups(op_tuning(engine_caps(pd.engine)),
                                  std::max(data_type_size(smd.data_type),
                                          data_type_size(dmd.data_type)))
                        : 1;
    opt += " -DVEC=" + std::to_string(vec_) + " -DGROUPS=" + std::to_string(groups_);
    return create_kernel(pd.engine, "reorder/reorder.cl", opt,
            pd.dense        ? "reorder_dense"
                    : pd.nibbles ? "reorder_nibbles"
                    : pd.rows    ? "reorder_rows"
                                 : "reorder_generic",
            kernel_);
}

status_t reorder_t::run(const exec_ctx_t &ctx, stream_t *stream, const memory_storage_t *src,
        const memory_storage_t *dst) const {
    const reorder_pd_t &pd = pd_();
    const cpu::reorder::quant_t &q = pd.q;
    const memory_desc_t &smd = pd.arg_md(DNNL_ARG_SRC), &dmd = pd.arg_md(DNNL_ARG_DST);
    kernel_args_t args;
    args.add(src);
    args.add(dst);
    nd_range_t range;
    if (pd.dense) {
        const int64_t n = nelems(dmd);
        args.add_value<int64_t>(smd.offset0);
        args.add_value<int64_t>(dmd.offset0);
        args.add_value(n);
        range = range_1d(vec_ == 4 ? vector_items(n, groups_) : (n + vec_ - 1) / vec_);
    } else if (pd.blocked) {
        return kernel_->launch(stream, args, blocked_args(pd.engine, pd.shape, args));
    } else if (pd.nibbles) {
        // One work-item per byte of dst (its padded elements, two a byte).
        const int64_t padded = nelems(dmd, true), bytes = (padded + 1) / 2;
        row_order_t o;
        digit_order(dmd, o);
        add_layout(args, smd);
        add_layout(args, dmd);
        args.add_value(padded);
        add_logical_dims(args, dmd);
        args.add_value(o);
        for (const auto *a : {&q.src_scale, &q.dst_scale, &q.src_zp, &q.dst_zp})
            args.add_value(quant_index(*a, dmd));
        range = range_1d(bytes);
    } else {
        // Generic: one work-item per padded element; rows: one per row of the last dimension.
        const int64_t padded = nelems(dmd, true);
        const int64_t last = dmd.ndims > 0 ? dmd.padded_dims[dmd.ndims - 1] : 1;
        const int64_t n = pd.rows ? (last ? padded / last : 0) : padded;
        add_layout(args, smd);
        add_layout(args, dmd);
        args.add_value(n);
        add_logical_dims(args, dmd);
        if (pd.rows) args.add_value(row_order(dmd));
        for (const auto *a : {&q.src_scale, &q.dst_scale, &q.src_zp, &q.dst_zp})
            args.add_value(quant_index(*a, dmd));
        range = range_1d(n);
    }
    for (const auto *a : {&q.src_scale, &q.dst_scale, &q.src_zp, &q.dst_zp})
        args.add(a->present ? storage_of(ctx, a->arg) : nullptr);
    args.add_value(q.sum ? q.sum_scale : 0.f);
    args.add_value(q.sum_zp);
    return kernel_->launch(stream, args, range);
}

status_t reorder_t::execute(const exec_ctx_t &ctx) const {
    for (const auto &a : ctx.args)
        ANYDNN_REQUIRE(!a.second->engine() || a.second->engine()->kind() == dnnl_gpu,
                dnnl_invalid_arguments, "GPU reorder: argument %s is memory of another engine",
                arg_name(a.first).c_str());
    return run(ctx, ctx.stream, storage_of(ctx, DNNL_ARG_SRC), storage_of(ctx, DNNL_ARG_DST));
}

} // namespace reorder

impl_entry_t reorder_dense_entry() {
    return {"ocl:reorder:dense",
            [](std::unique_ptr<primitive_desc_t> &pd, const op_desc_t &desc,
                    const primitive_attr_t &attr, engine_t *engine,
                    const primitive_desc_t *) -> status_t {
                auto p = std::make_unique<reorder::reorder_pd_t>(desc, attr, engine);
                ANYDNN_CHECK(reorder::reorder_pd_t::init_dense(*p));
                pd = std::move(p);
                return dnnl_success;
            }};
}

impl_entry_t reorder_generic_entry() {
    return {"ocl:reorder:generic",
            [](std::unique_ptr<primitive_desc_t> &pd, const op_desc_t &desc,
                    const primitive_attr_t &attr, engine_t *engine,
                    const primitive_desc_t *) -> status_t {
                auto p = std::make_unique<reorder::reorder_pd_t>(desc, attr, engine);
                ANYDNN_CHECK(reorder::reorder_pd_t::init_generic(*p));
                // The row or element kernels, also where the dense one applies.
                p->dense = false;
                pd = std::move(p);
                return dnnl_success;
            }};
}

} // namespace gpu
} // namespace anydnn
