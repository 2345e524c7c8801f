// Whether blocked16 applies, and how it walks the two layouts: which dimension gives the
// vector lanes, which run tiles advance along (merged where both layouts allow), and the rest.
#include "cpu/impl_entries.hpp"
#include "cpu/reorder/blocked16.hpp"
#include "runtime/cpu/isa.hpp"

namespace anydnn {
namespace cpu {
namespace reorder {

status_t blocked16_pd_t::init(blocked16_pd_t &pd) {
    const auto &d = reorder_desc(pd);
    const memory_desc_t &src = d.src_md, &dst = d.dst_md;
    ANYDNN_REQUIRE(isa_enabled(dnnl_cpu_isa_avx512_core), dnnl_unimplemented,
            "blocked16: needs avx512_core");
    ANYDNN_REQUIRE(src.format_kind == dnnl_blocked && dst.format_kind == dnnl_blocked,
            dnnl_unimplemented, "blocked16: layouts are not blocked");
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(src) && !has_runtime_dims_or_strides(dst),
            dnnl_unimplemented, "blocked16: run-time dimensions");
    ANYDNN_REQUIRE(is_vector_type(src.data_type) && is_vector_type(dst.data_type),
            dnnl_unimplemented, "blocked16: %s to %s is not vectorised", dnnl_dt2str(src.data_type),
            dnnl_dt2str(dst.data_type));
    const int sn = src.blocking.inner_nblks, dn = dst.blocking.inner_nblks;
    ANYDNN_REQUIRE((sn == 0) != (dn == 0), dnnl_unimplemented,
            "blocked16: not a plain layout and a blocked one");
    plan_t &p = pd.plan;
    p.to_blocked = sn == 0;
    const memory_desc_t &P = p.to_blocked ? src : dst, &B = p.to_blocked ? dst : src;
    const auto &bb = B.blocking;
    const int nb = bb.inner_nblks;
    // The innermost block gives the vector lanes; blocks further out may split other
    // dimensions (OIhw16i16o), each once and without padding.
    p.b = static_cast<int>(bb.inner_blks[nb - 1]);
    const int c = static_cast<int>(bb.inner_idxs[nb - 1]);
    ANYDNN_REQUIRE(
            p.b == 16 || p.b == 8, dnnl_unimplemented, "blocked16: innermost block of %d", p.b);
    const int nd = src.ndims;
    dim_t split[max_ndims], split_stride[max_ndims];
    for (int i = 0; i < nd; ++i)
        split[i] = 1;
    dim_t istride = p.b;
    for (int k = nb - 2; k >= 0; --k) {
        const int i = static_cast<int>(bb.inner_idxs[k]);
        ANYDNN_REQUIRE(i != c && split[i] == 1, dnnl_unimplemented,
                "blocked16: dimension %d is blocked more than once", i);
        split[i] = bb.inner_blks[k];
        split_stride[i] = istride;
        istride *= bb.inner_blks[k];
    }
    for (int i = 0; i < nd; ++i) {
        const dim_t want = i == c ? (P.dims[i] + p.b - 1) / p.b * p.b : P.dims[i];
        ANYDNN_REQUIRE(P.padded_dims[i] == P.dims[i] && B.padded_dims[i] == want
                               && P.dims[i] % split[i] == 0,
                dnnl_unimplemented, "blocked16: padding on dimension %d", i);
    }
    ANYDNN_REQUIRE(nelems(src) > 0, dnnl_unimplemented, "blocked16: empty tensor");
    ANYDNN_CHECK(init_args(pd, pd.q));
    ANYDNN_REQUIRE(pd.q.masks_within(1 << c), dnnl_unimplemented,
            "blocked16: scales or zero points vary along a dimension other than %d", c);

    p.channels = P.dims[c];
    p.nblocks = (p.channels + p.b - 1) / p.b;
    p.pc = P.blocking.strides[c];
    p.cbs = bb.strides[c];
    // Every other dimension as one or two (split) walks of (size, P stride, B stride).
    struct walk_t {
        dim_t size, ps, bs;
    } w[2 * max_ndims];
    int nw = 0;
    for (int i = 0; i < nd; ++i) {
        if (i == c || P.dims[i] == 1) continue;
        const dim_t ps = P.blocking.strides[i];
        if (split[i] == 1) {
            w[nw++] = {P.dims[i], ps, bb.strides[i]};
            continue;
        }
        w[nw++] = {split[i], ps, split_stride[i]};
        if (P.dims[i] > split[i]) w[nw++] = {P.dims[i] / split[i], ps * split[i], bb.strides[i]};
    }
    // The run: P's unit-stride walk for a transpose, else B's fastest one.
    int s = -1;
    p.transpose = !(p.pc == 1 && p.channels > 1);
    for (int k = 0; k < nw; ++k) {
        if (p.transpose) {
            if (w[k].ps == 1) s = k;
        } else if (s < 0 || w[k].bs < w[s].bs) {
            s = k;
        }
    }
    if (p.transpose && s < 0) {
        ANYDNN_REQUIRE(p.channels == 1 || nw == 0, dnnl_unimplemented,
                "blocked16: plain side is contiguous along no dimension");
        p.transpose = false; // a single channel (or point): move points one by one
        for (int k = 0; k < nw; ++k)
            if (s < 0 || w[k].bs < w[s].bs) s = k;
    }
    bool merged[2 * max_ndims] = {};
    if (s >= 0) {
        p.len = w[s].size;
        p.ps = w[s].ps;
        p.bs = w[s].bs;
        merged[s] = true;
        for (bool grew = true; grew;) {
            grew = false;
            for (int k = 0; k < nw; ++k) {
                if (merged[k] || w[k].ps != p.len * p.ps || w[k].bs != p.len * p.bs) continue;
                merged[k] = true;
                p.len *= w[k].size;
                grew = true;
            }
        }
    } else {
        p.len = 1;
        p.ps = p.bs = 0;
    }
    p.len0 = p.len;
    p.bs_hi = 0;
    // Short runs waste most of each 16-wide tile: extend them along P where B jumps.
    for (int k = 0; k < nw && s >= 0 && p.len < 64; ++k) {
        if (merged[k] || w[k].ps != p.len * p.ps) continue;
        merged[k] = true;
        p.bs_hi = w[k].bs;
        p.len *= w[k].size;
        break;
    }
    p.nouter = 0;
    for (int k = 0; k < nw; ++k) {
        if (merged[k]) continue;
        p.osize[p.nouter] = w[k].size;
        p.op[p.nouter] = w[k].ps;
        p.ob[p.nouter] = w[k].bs;
        ++p.nouter;
    }
    // Point by point, a chunk of all blocks' channels stays within L2 while it is read.
    p.chunk = std::min<dim_t>(p.len, p.transpose ? 1024 : 128);
    return dnnl_success;
}

} // namespace reorder

impl_entry_t reorder_blocked16_entry() {
    return make_impl_entry<reorder::blocked16_pd_t>("cpu:reorder:blocked16:avx512");
}

} // namespace cpu
} // namespace anydnn
