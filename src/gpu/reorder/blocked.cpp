#include "gpu/reorder/blocked.hpp"
#include "gpu/tuning/op_tuning.hpp"

#include <algorithm>

namespace anydnn {
namespace gpu {
namespace reorder {

namespace {

// Work-items of the local-memory kernel per work-group: TILE spatial points x BLOCK channels.
constexpr int local_group = 256;

// Product of dims[from..ndims).
int64_t inner_size(const memory_desc_t &md, int from) {
    int64_t p = 1;
    for (int d = from; d < md.ndims; ++d) p *= md.dims[d];
    return p;
}

bool is_plain(const memory_desc_t &md) {
    if (md.blocking.inner_nblks != 0 || md.blocking.strides[1] != inner_size(md, 2)) return false;
    for (int d = 0; d < md.ndims; ++d)
        if (md.padded_dims[d] != md.dims[d]) return false;
    for (int d = 2; d < md.ndims; ++d)
        if (md.blocking.strides[d] != inner_size(md, d + 1)) return false;
    return true;
}

// Channels blocked by `block`, spatial points dense behind them; channel padding allowed.
bool is_channel_blocked(const memory_desc_t &md, int &block) {
    const auto &b = md.blocking;
    if (b.inner_nblks != 1 || b.inner_idxs[0] != 1) return false;
    block = static_cast<int>(b.inner_blks[0]);
    if (block != 2 && block != 4 && block != 8 && block != 16) return false;
    for (int d = 0; d < md.ndims; ++d)
        if (d != 1 && md.padded_dims[d] != md.dims[d]) return false;
    for (int d = 2; d < md.ndims; ++d)
        if (b.strides[d] != block * inner_size(md, d + 1)) return false;
    return true;
}

} // namespace

bool blocked_shape(engine_t *engine, const memory_desc_t &src, const memory_desc_t &dst,
        blocked_shape_t &s) {
    if (src.ndims < 3 || src.ndims != dst.ndims || nelems(dst) == 0) return false;
    if (src.format_kind != dnnl_blocked || dst.format_kind != dnnl_blocked) return false;
    s.to_blocked = is_plain(src);
    const memory_desc_t &plain = s.to_blocked ? src : dst, &blocked = s.to_blocked ? dst : src;
    if (!is_plain(plain) || !is_channel_blocked(blocked, s.block)) return false;
    const device_caps_t &caps = engine_caps(engine);
    // The register kernel suits CPU devices and moves f32 only; the local-memory one needs
    // work-groups of local_group work-items.
    s.regs = op_tuning(caps).reorder_blocked_in_registers && src.data_type == dnnl_f32
            && dst.data_type == dnnl_f32;
    if (!s.regs && caps.max_work_group_size < static_cast<size_t>(local_group)) return false;
    // Where src and dst together outgrow the device's cache, dst's rows cannot stay there
    // for the next primitive anyway: writing them around the cache saves memory traffic.
    const uint64_t moved = size_in_bytes(src) + size_in_bytes(dst);
    s.stream_stores = s.regs && caps.global_mem_cache_size != 0
            && moved > caps.global_mem_cache_size;
    s.plain_off = plain.offset0;
    s.blocked_off = blocked.offset0;
    s.plain_n_stride = plain.blocking.strides[0];
    s.blocked_n_stride = blocked.blocking.strides[0];
    s.blocked_cb_stride = blocked.blocking.strides[1];
    s.channels = dst.dims[1];
    s.sp = inner_size(dst, 2);
    s.n = dst.dims[0];
    s.nblocks = blocked.padded_dims[1] / s.block;
    return true;
}

std::string blocked_options(const blocked_shape_t &s) {
    std::string opt = " -DBLOCK=" + std::to_string(s.block);
    if (s.to_blocked) opt += " -DTO_BLOCKED";
    opt += s.regs ? std::string(" -DREGS") : " -DTILE=" + std::to_string(local_group / s.block);
    if (s.stream_stores) opt += " -DSTREAM_STORES";
    return opt;
}

const char *blocked_kernel_name(const blocked_shape_t &s) {
    return s.regs ? "reorder_blocked_regs" : "reorder_blocked_local";
}

nd_range_t blocked_args(engine_t *engine, const blocked_shape_t &s, kernel_args_t &args) {
    for (int64_t v : {s.plain_off, s.blocked_off, s.plain_n_stride, s.blocked_n_stride,
                 s.blocked_cb_stride, s.channels, s.sp})
        args.add_value(v);
    nd_range_t r;
    r.ndims = 3;
    if (s.regs) {
        // Long tiles (whole channel panels where there are enough of them to keep every
        // core busy), one work-item per group: work-groups of several would be vectorized
        // across work-items, turning the vector loads into gathers.
        const int64_t panels = s.n * s.nblocks;
        const int64_t want = 4 * static_cast<int64_t>(engine_caps(engine).compute_units);
        const int64_t split = std::max<int64_t>(1, (want + panels - 1) / panels);
        int64_t tile = (s.sp + split - 1) / split;
        tile = (tile + s.block - 1) / s.block * s.block;
        args.add_value(tile);
        r.global[0] = static_cast<size_t>((s.sp + tile - 1) / tile);
        r.local[0] = r.local[1] = r.local[2] = 1;
    } else {
        const int64_t tile = local_group / s.block;
        r.global[0] = static_cast<size_t>((s.sp + tile - 1) / tile * tile);
        r.local[0] = static_cast<size_t>(tile);
        r.local[1] = static_cast<size_t>(s.block);
        r.local[2] = 1;
    }
    r.global[1] = static_cast<size_t>(s.nblocks * (s.regs ? 1 : s.block));
    r.global[2] = static_cast<size_t>(s.n);
    return r;
}

} // namespace reorder
} // namespace gpu
} // namespace anydnn
