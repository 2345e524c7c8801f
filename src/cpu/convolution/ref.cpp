// Reference convolution and deconvolution, all three directions: 1D/2D/3D, groups, strides,
// dilation, asymmetric padding, bias, post-ops, f32/bf16/f16 (f32 math) and int8 forward
// (s32 accumulation) with scales and zero points. Any blocked-kind layout (plain ones through
// strides, blocked ones element by element); `any` resolves to the src layout, else nchw /
// (g)oihw.
//
// Every direction works on a "conv view": the big spatial side I (conv src, deconv dst), the
// small side O (conv dst, deconv src) and weights (G, OCv, ICv, K...), where deconvolution
// swaps the weights' two channel dims. Tensors are copied into dense canonical buffers in the
// scratchpad (zero points subtracted), one of three kernels runs, the result is written back
// through the epilogue (scales, bias, post-ops, dst zero point). Deconvolution forward is the
// conv backward-data kernel and vice versa.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/data_types.hpp"
#include "core/ops/layout.hpp"
#include "core/ops/post_ops.hpp"
#include "core/parallel.hpp"
#include "core/primitive.hpp"
#include "cpu/convolution/dense_geom.hpp"
#include "cpu/impl_entries.hpp"

namespace anydnn {
namespace cpu {

namespace {

using geom_t = conv::dense_geom_t;

// First and one-past-last output index o with 0 <= o * s + c < n.
inline void valid_range(dim_t n_out, dim_t s, dim_t c, dim_t n, dim_t &lo, dim_t &hi) {
    lo = c >= 0 ? 0 : (-c + s - 1) / s;
    hi = n - 1 - c < 0 ? 0 : (n - 1 - c) / s + 1;
    hi = std::min(hi, n_out);
    if (lo > hi) lo = hi;
}

// small = conv(big): one thread item per (n, g, oc) output plane.
template <typename T>
void kernel_fwd(const geom_t &q, const T *big, const T *wei, T *small) {
    const dim_t ospat = q.o[0] * q.o[1] * q.o[2], ispat = q.i[0] * q.i[1] * q.i[2];
    const dim_t ksz = q.k[0] * q.k[1] * q.k[2];
    parallel_range(q.mb * q.g * q.ocv, [&](dim_t start, dim_t end) {
        for (dim_t it = start; it < end; ++it) {
            const dim_t oc = it % q.ocv, g = it / q.ocv % q.g, n = it / (q.ocv * q.g);
            T *out = small + it * ospat;
            std::fill(out, out + ospat, T(0));
            for (dim_t ic = 0; ic < q.icv; ++ic) {
                const T *in = big + ((n * q.g + g) * q.icv + ic) * ispat;
                const T *w = wei + ((g * q.ocv + oc) * q.icv + ic) * ksz;
                for (dim_t kd = 0; kd < q.k[0]; ++kd) {
                    dim_t d_lo, d_hi;
                    const dim_t cd = kd * q.dl[0] - q.p[0];
                    valid_range(q.o[0], q.s[0], cd, q.i[0], d_lo, d_hi);
                    for (dim_t kh = 0; kh < q.k[1]; ++kh) {
                        dim_t h_lo, h_hi;
                        const dim_t ch = kh * q.dl[1] - q.p[1];
                        valid_range(q.o[1], q.s[1], ch, q.i[1], h_lo, h_hi);
                        for (dim_t kw = 0; kw < q.k[2]; ++kw) {
                            dim_t w_lo, w_hi;
                            const dim_t cw = kw * q.dl[2] - q.p[2];
                            valid_range(q.o[2], q.s[2], cw, q.i[2], w_lo, w_hi);
                            const T wv = w[(kd * q.k[1] + kh) * q.k[2] + kw];
                            const dim_t sw = q.s[2];
                            for (dim_t od = d_lo; od < d_hi; ++od)
                                for (dim_t oh = h_lo; oh < h_hi; ++oh) {
                                    T *orow = out + (od * q.o[1] + oh) * q.o[2];
                                    const T *irow = in
                                            + ((od * q.s[0] + cd) * q.i[1] + oh * q.s[1] + ch)
                                                    * q.i[2]
                                            + cw;
                                    if (sw == 1)
                                        for (dim_t ow = w_lo; ow < w_hi; ++ow)
                                            orow[ow] += wv * irow[ow];
                                    else
                                        for (dim_t ow = w_lo; ow < w_hi; ++ow)
                                            orow[ow] += wv * irow[ow * sw];
                                }
                        }
                    }
                }
            }
        }
    }, 1);
}

// big = conv^T(small): one thread item per (n, g, ic) plane of the big side.
template <typename T>
void kernel_bwd_data(const geom_t &q, const T *small, const T *wei, T *big) {
    const dim_t ospat = q.o[0] * q.o[1] * q.o[2], ispat = q.i[0] * q.i[1] * q.i[2];
    const dim_t ksz = q.k[0] * q.k[1] * q.k[2];
    parallel_range(q.mb * q.g * q.icv, [&](dim_t start, dim_t end) {
        for (dim_t it = start; it < end; ++it) {
            const dim_t ic = it % q.icv, g = it / q.icv % q.g, n = it / (q.icv * q.g);
            T *out = big + it * ispat;
            std::fill(out, out + ispat, T(0));
            for (dim_t oc = 0; oc < q.ocv; ++oc) {
                const T *dd = small + ((n * q.g + g) * q.ocv + oc) * ospat;
                const T *w = wei + ((g * q.ocv + oc) * q.icv + ic) * ksz;
                for (dim_t kd = 0; kd < q.k[0]; ++kd) {
                    dim_t d_lo, d_hi;
                    const dim_t cd = kd * q.dl[0] - q.p[0];
                    valid_range(q.o[0], q.s[0], cd, q.i[0], d_lo, d_hi);
                    for (dim_t kh = 0; kh < q.k[1]; ++kh) {
                        dim_t h_lo, h_hi;
                        const dim_t ch = kh * q.dl[1] - q.p[1];
                        valid_range(q.o[1], q.s[1], ch, q.i[1], h_lo, h_hi);
                        for (dim_t kw = 0; kw < q.k[2]; ++kw) {
                            dim_t w_lo, w_hi;
                            const dim_t cw = kw * q.dl[2] - q.p[2];
                            valid_range(q.o[2], q.s[2], cw, q.i[2], w_lo, w_hi);
                            const T wv = w[(kd * q.k[1] + kh) * q.k[2] + kw];
                            const dim_t sw = q.s[2];
                            for (dim_t od = d_lo; od < d_hi; ++od)
                                for (dim_t oh = h_lo; oh < h_hi; ++oh) {
                                    const T *drow = dd + (od * q.o[1] + oh) * q.o[2];
                                    T *irow = out
                                            + ((od * q.s[0] + cd) * q.i[1] + oh * q.s[1] + ch)
                                                    * q.i[2]
                                            + cw;
                                    if (sw == 1)
                                        for (dim_t ow = w_lo; ow < w_hi; ++ow)
                                            irow[ow] += wv * drow[ow];
                                    else
                                        for (dim_t ow = w_lo; ow < w_hi; ++ow)
                                            irow[ow * sw] += wv * drow[ow];
                                }
                        }
                    }
                }
            }
        }
    }, 1);
}

// wei = sum over n, o of small(o) * big(o * s + k * dl - p): one item per (g, oc, ic).
template <typename T>
void kernel_bwd_weights(const geom_t &q, const T *big, const T *small, T *wei) {
    const dim_t ospat = q.o[0] * q.o[1] * q.o[2], ispat = q.i[0] * q.i[1] * q.i[2];
    const dim_t ksz = q.k[0] * q.k[1] * q.k[2];
    parallel_range(q.g * q.ocv * q.icv, [&](dim_t start, dim_t end) {
        for (dim_t it = start; it < end; ++it) {
            const dim_t ic = it % q.icv, oc = it / q.icv % q.ocv, g = it / (q.icv * q.ocv);
            T *w = wei + it * ksz;
            for (dim_t kd = 0; kd < q.k[0]; ++kd) {
                dim_t d_lo, d_hi;
                const dim_t cd = kd * q.dl[0] - q.p[0];
                valid_range(q.o[0], q.s[0], cd, q.i[0], d_lo, d_hi);
                for (dim_t kh = 0; kh < q.k[1]; ++kh) {
                    dim_t h_lo, h_hi;
                    const dim_t ch = kh * q.dl[1] - q.p[1];
                    valid_range(q.o[1], q.s[1], ch, q.i[1], h_lo, h_hi);
                    for (dim_t kw = 0; kw < q.k[2]; ++kw) {
                        dim_t w_lo, w_hi;
                        const dim_t cw = kw * q.dl[2] - q.p[2];
                        valid_range(q.o[2], q.s[2], cw, q.i[2], w_lo, w_hi);
                        const dim_t sw = q.s[2];
                        T acc = 0;
                        for (dim_t n = 0; n < q.mb; ++n) {
                            const T *dd = small + ((n * q.g + g) * q.ocv + oc) * ospat;
                            const T *in = big + ((n * q.g + g) * q.icv + ic) * ispat;
                            for (dim_t od = d_lo; od < d_hi; ++od)
                                for (dim_t oh = h_lo; oh < h_hi; ++oh) {
                                    const T *drow = dd + (od * q.o[1] + oh) * q.o[2];
                                    const T *irow = in
                                            + ((od * q.s[0] + cd) * q.i[1] + oh * q.s[1] + ch)
                                                    * q.i[2]
                                            + cw;
                                    for (dim_t ow = w_lo; ow < w_hi; ++ow)
                                        acc += drow[ow] * irow[ow * sw];
                                }
                        }
                        w[(kd * q.k[1] + kh) * q.k[2] + kw] = acc;
                    }
                }
            }
        }
    }, 1);
}

bool is_int8(dnnl_data_type_t dt) {
    return dt == dnnl_s8 || dt == dnnl_u8;
}
bool is_float(dnnl_data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}
// Floating-point data computed in f32: also the 8-bit floats (oneDNN's f8 convolution).
bool is_float_data(dnnl_data_type_t dt) {
    return is_float(dt) || dt == dnnl_f8_e5m2 || dt == dnnl_f8_e4m3;
}
bool is_out_type(dnnl_data_type_t dt) {
    return is_float_data(dt) || is_int8(dt) || dt == dnnl_s32;
}

// How canonical indices (n, c, d, h, w) or (g, o, i, kd, kh, kw) reach a tensor: physical
// strides of plain layouts (missing dims stride 0), or the logical dim each canonical one is
// (-1: missing) for blocked layouts, whose offsets come from off_logical.
struct canon_view_t {
    const memory_desc_t *md = nullptr;
    int n = 0;
    dim_t st[6] = {};
    int map[6] = {-1, -1, -1, -1, -1, -1};
    bool plain = true;

    dim_t off(const dim_t *idx) const {
        dim_t o = md->offset0;
        if (plain) {
            for (int d = 0; d < n; ++d)
                o += idx[d] * st[d];
            return o;
        }
        dim_t pos[max_ndims] = {};
        for (int d = 0; d < n; ++d)
            if (map[d] >= 0) pos[map[d]] = idx[d];
        return off_logical(*md, pos);
    }
    // Canonical index of row r (all dims but the last) of extents ext.
    void row_index(const dim_t *ext, dim_t r, dim_t *idx) const {
        for (int d = n - 2; d >= 0; --d) {
            idx[d] = r % ext[d];
            r /= ext[d];
        }
        idx[n - 1] = 0;
    }
};

canon_view_t make_view(const memory_desc_t &md, int n, const int *map) {
    canon_view_t v;
    v.md = &md;
    v.n = n;
    v.plain = is_plain(md);
    for (int d = 0; d < n; ++d) {
        v.map[d] = map[d];
        v.st[d] = map[d] >= 0 ? md.blocking.strides[map[d]] : 0;
    }
    return v;
}
canon_view_t act_view(const memory_desc_t &md) {
    const int nd = md.ndims;
    const int map[5] = {0, 1, nd == 5 ? 2 : -1, nd >= 4 ? nd - 2 : -1, nd - 1};
    return make_view(md, 5, map);
}
canon_view_t wei_view(const memory_desc_t &md, bool grouped, bool swap) {
    const int w0 = grouped ? 1 : 0, ns = md.ndims - w0 - 2;
    const int map[6] = {grouped ? 0 : -1, w0 + (swap ? 1 : 0), w0 + (swap ? 0 : 1),
            ns == 3 ? w0 + 2 : -1, ns >= 2 ? w0 + 2 + ns - 2 : -1, w0 + 2 + ns - 1};
    return make_view(md, 6, map);
}

// Zero points of one argument: one value, or one per channel (canonical dim 1).
struct zero_points_t {
    std::vector<float> v;
    float at(dim_t c) const { return v.empty() ? 0.f : v[v.size() == 1 ? 0 : c]; }
};

// Copies a tensor with canonical extents `ext` into dense `out`, subtracting the zero point
// of each row's channel.
template <typename T>
void to_canonical(const canon_view_t &v, const void *base, const dim_t *ext, T *out,
        const zero_points_t *zps = nullptr) {
    const int n = v.n;
    dim_t outer = 1;
    for (int d = 0; d < n - 1; ++d)
        outer *= ext[d];
    const dim_t inner = ext[n - 1], ist = v.st[n - 1];
    const dnnl_data_type_t dt = v.md->data_type;
    parallel_range(outer, [&](dim_t start, dim_t end) {
        dim_t idx[6];
        for (dim_t r = start; r < end; ++r) {
            v.row_index(ext, r, idx);
            T *o = out + r * inner;
            const float zp = zps ? zps->at(idx[1]) : 0.f;
            if (!v.plain) {
                for (dim_t x = 0; x < inner; ++x) {
                    idx[n - 1] = x;
                    o[x] = static_cast<T>(load_as_f32(dt, base, v.off(idx)) - zp);
                }
                continue;
            }
            const dim_t off = v.off(idx);
            if (dt == dnnl_f32 && std::is_same<T, float>::value && ist == 1) {
                // Rows of an empty tensor have no base pointer (null): nothing to copy.
                if (inner > 0)
                    std::memcpy(o, static_cast<const float *>(base) + off, inner * sizeof(float));
                continue;
            }
            for (dim_t x = 0; x < inner; ++x)
                o[x] = static_cast<T>(load_as_f32(dt, base, off + x * ist) - zp);
        }
    }, 64);
}

// Quantization parameters of one execution.
struct quant_vals_t {
    float src_scale = 1.f, dst_scale = 1.f;
    zero_points_t src_zp, dst_zp;
    std::vector<float> wei_scales; // one per output channel (or one)
};

struct conv_ref_t;

struct conv_ref_pd_t : public primitive_desc_impl_t<conv_ref_pd_t, conv_ref_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override {
        if (use_gemm) return deconv ? "cpu:deconvolution:gemm" : "cpu:convolution:gemm";
        return deconv ? "cpu:deconvolution:ref" : "cpu:convolution:ref";
    }

    // use_gemm: f32 math through a column matrix on the shared GEMM (dense_geom.hpp) instead
    // of the loop kernels; the same staging, epilogue and checks.
    bool use_gemm = false;
    bool deconv = false, grouped = false, int8 = false;
    dnnl_prop_kind_t prop = dnnl_forward_training;
    geom_t q;
    post_ops_chain_t post_ops;
    int wei_scale_mask = -1; // -1: none

    const convolution_desc_t &cd() const {
        if (deconv) return std::get<deconvolution_desc_t>(desc);
        return std::get<convolution_desc_t>(desc);
    }
    bool fwd() const { return prop == dnnl_forward_training || prop == dnnl_forward_inference; }

    static status_t resolve(memory_desc_t &md, const memory_desc_t &like, dnnl_format_tag_t tag,
            const char *name) {
        if (md.format_kind == dnnl_format_kind_any) {
            if (like.format_kind == dnnl_blocked && like.ndims == md.ndims)
                md = md_like(like, md.ndims, md.dims, md.data_type);
            else
                ANYDNN_CHECK(md_init_with_tag(md, md.ndims, md.dims, md.data_type, tag));
        }
        ANYDNN_REQUIRE(md.format_kind == dnnl_blocked, dnnl_unimplemented,
                "%s: only blocked-kind layouts are supported", name);
        ANYDNN_REQUIRE(!has_runtime_dims_or_strides(md), dnnl_unimplemented,
                "%s has runtime dimensions or strides", name);
        return dnnl_success;
    }

    static dnnl_format_tag_t plain_tag(int ndims) {
        switch (ndims) {
            case 1: return dnnl_a;
            case 3: return dnnl_abc;
            case 4: return dnnl_abcd;
            case 5: return dnnl_abcde;
            default: return dnnl_abcdef;
        }
    }

    // Channels of src or dst: the small side of the conv view is deconvolution's src.
    dim_t zero_point_count(int arg) const {
        const bool small = (arg == DNNL_ARG_DST) != deconv;
        return q.g * (small ? q.ocv : q.icv);
    }

    status_t init_attr() {
        unsigned ignore = attr_skip::fpmath | attr_skip::scratchpad | attr_skip::deterministic
                | attr_skip::acc_mode | attr_skip::scales | attr_skip::zero_points;
        if (fwd()) ignore |= attr_skip::post_ops;
        ANYDNN_REQUIRE(attr.has_default_values(ignore), dnnl_unimplemented,
                fwd() ? "attributes other than scales, zero points and post-ops are not "
                        "supported"
                      : "backward takes no post-ops or other attributes but scales");
        for (const auto &s : attr.scales) {
            const int arg = s.first;
            const quant_entry_t &e = s.second;
            ANYDNN_REQUIRE(fwd(), dnnl_unimplemented, "scales are supported in forward only");
            ANYDNN_REQUIRE(arg == DNNL_ARG_SRC || arg == DNNL_ARG_WEIGHTS || arg == DNNL_ARG_DST,
                    dnnl_unimplemented, "scales for argument %d are not supported", arg);
            ANYDNN_REQUIRE(e.group_ndims == 0 && is_float(e.data_type), dnnl_unimplemented,
                    "scales for argument %d: groups or data type %s not supported", arg,
                    dnnl_dt2str(e.data_type));
            const int per_oc = grouped ? 3 : 1;
            ANYDNN_REQUIRE(e.mask == 0 || (arg == DNNL_ARG_WEIGHTS && e.mask == per_oc),
                    dnnl_unimplemented, "scales for argument %d: mask %d not supported", arg,
                    e.mask);
            if (arg == DNNL_ARG_WEIGHTS) wei_scale_mask = e.mask;
            if (e.is_host_scalar) continue;
            memory_desc_t md;
            const dnnl_dims_t n = {e.mask ? q.g * (deconv ? q.icv : q.ocv) : 1};
            ANYDNN_CHECK(md_init_with_tag(md, 1, n, e.data_type, dnnl_a));
            args[DNNL_ARG_ATTR_SCALES | arg] = md;
        }
        for (const auto &z : attr.zero_points) {
            const int arg = z.first;
            const quant_entry_t &e = z.second;
            ANYDNN_REQUIRE(int8 && (arg == DNNL_ARG_SRC || arg == DNNL_ARG_DST),
                    dnnl_unimplemented, "zero points only on src and dst of int8 forward");
            // Per channel is bit 1 of the src or dst dims (N, C, spatial...).
            ANYDNN_REQUIRE((e.mask == 0 || e.mask == 2) && e.group_ndims == 0,
                    dnnl_unimplemented,
                    "zero points for argument %d: mask %d not supported (0 or 2, per channel)",
                    arg, e.mask);
            ANYDNN_REQUIRE(e.data_type == dnnl_s32 || e.data_type == dnnl_s8
                            || e.data_type == dnnl_u8,
                    dnnl_unimplemented, "zero points of type %s are not supported",
                    dnnl_dt2str(e.data_type));
            if (e.is_host_scalar) continue;
            memory_desc_t md;
            const dnnl_dims_t n = {e.mask ? zero_point_count(arg) : 1};
            ANYDNN_CHECK(md_init_with_tag(md, 1, n, e.data_type, dnnl_a));
            args[DNNL_ARG_ATTR_ZERO_POINTS | arg] = md;
        }
        return dnnl_success;
    }

    static status_t init(conv_ref_pd_t &pd) {
        const bool deconv = std::holds_alternative<deconvolution_desc_t>(pd.desc);
        pd.deconv = deconv;
        const convolution_desc_t &d = pd.cd();
        pd.prop = d.prop_kind;
        const bool fwd = pd.fwd(), bwd_d = d.prop_kind == dnnl_backward_data;
        memory_desc_t src = bwd_d ? d.diff_src_md : d.src_md;
        memory_desc_t wei = fwd || bwd_d ? d.weights_md : d.diff_weights_md;
        memory_desc_t bia = fwd ? d.bias_md : d.diff_bias_md;
        memory_desc_t dst = fwd ? d.dst_md : d.diff_dst_md;
        const int nd = src.ndims;
        pd.grouped = wei.ndims == nd + 1;
        const bool with_bias = !is_zero_md(bia) && !bwd_d;

        // Layouts: activations follow whichever side is given, weights plain.
        if (src.format_kind == dnnl_format_kind_any && dst.format_kind != dnnl_format_kind_any)
            ANYDNN_CHECK(resolve(src, dst, plain_tag(nd), "src"));
        else
            ANYDNN_CHECK(resolve(src, src, plain_tag(nd), "src"));
        ANYDNN_CHECK(resolve(dst, src, plain_tag(nd), "dst"));
        ANYDNN_CHECK(resolve(wei, zero_md(), plain_tag(wei.ndims), "weights"));
        if (with_bias) {
            ANYDNN_CHECK(resolve(bia, zero_md(), dnnl_a, "bias"));
            ANYDNN_REQUIRE(is_plain(bia), dnnl_unimplemented, "bias must be plain");
        }

        // Data types.
        const dnnl_data_type_t sdt = src.data_type, wdt = wei.data_type, ddt = dst.data_type;
        pd.int8 = fwd && is_int8(sdt) && wdt == dnnl_s8;
        if (fwd) {
            ANYDNN_REQUIRE((is_float_data(sdt) && is_float_data(wdt)) || pd.int8,
                    dnnl_unimplemented,
                    "forward data types src %s, weights %s not supported", dnnl_dt2str(sdt),
                    dnnl_dt2str(wdt));
            ANYDNN_REQUIRE(is_out_type(ddt), dnnl_unimplemented, "dst type %s not supported",
                    dnnl_dt2str(ddt));
            ANYDNN_REQUIRE(!with_bias || is_out_type(bia.data_type), dnnl_unimplemented,
                    "bias type %s not supported", dnnl_dt2str(bia.data_type));
        } else {
            ANYDNN_REQUIRE(is_float_data(sdt) && is_float_data(wdt) && is_float_data(ddt)
                            && (!with_bias || is_float_data(bia.data_type)),
                    dnnl_unimplemented, "backward takes f32, bf16, f16 or f8 only");
        }

        // Conv-view geometry.
        geom_t &q = pd.q;
        const int w0 = pd.grouped ? 1 : 0, ns = nd - 2;
        q.mb = src.dims[0];
        q.g = pd.grouped ? wei.dims[0] : 1;
        q.ocv = wei.dims[w0 + (deconv ? 1 : 0)];
        q.icv = wei.dims[w0 + (deconv ? 0 : 1)];
        const memory_desc_t &big = deconv ? dst : src, &small = deconv ? src : dst;
        for (int i = 0; i < ns; ++i) {
            const int c = 3 - ns + i;
            q.i[c] = big.dims[2 + i];
            q.o[c] = small.dims[2 + i];
            q.k[c] = wei.dims[w0 + 2 + i];
            q.s[c] = d.strides.v[i];
            q.dl[c] = d.dilates.v[i] + 1;
            q.p[c] = d.padding_l.v[i];
        }

        ANYDNN_CHECK(pd.init_attr());
        if (fwd) {
            ANYDNN_CHECK(pd.post_ops.init(pd.attr, dst));
            pd.post_ops.add_args(pd.args);
        }
        pd.args[bwd_d ? DNNL_ARG_DIFF_SRC : DNNL_ARG_SRC] = src;
        pd.args[fwd || bwd_d ? DNNL_ARG_WEIGHTS : DNNL_ARG_DIFF_WEIGHTS] = wei;
        if (with_bias) pd.args[fwd ? DNNL_ARG_BIAS : DNNL_ARG_DIFF_BIAS] = bia;
        pd.args[fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST] = dst;
        pd.scratchpad_size = sizeof(float) * (q.big_size() + q.small_size() + q.wei_size()) + 256;
        return dnnl_success;
    }
};

float read_value(const exec_ctx_t &ctx, int arg, dim_t i) {
    const memory_t *m = ctx.arg(arg);
    if (!m) return 0.f;
    const memory_desc_t &md = m->md();
    if (md.format_kind == dnnl_format_kind_host_scalar)
        return load_as_f32(md.data_type, m->scalar_value, 0);
    return load_as_f32(md.data_type, m->host_ptr(), md.offset0 + i);
}

struct conv_ref_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t execute(const exec_ctx_t &ctx) const override {
        const auto &pd = static_cast<const conv_ref_pd_t &>(this->pd());
        const geom_t &q = pd.q;
        if (pd.int8) return run<int32_t>(ctx, pd, q);
        return run<float>(ctx, pd, q);
    }

    template <typename T>
    status_t run(const exec_ctx_t &ctx, const conv_ref_pd_t &pd, const geom_t &q) const {
        const bool fwd = pd.fwd(), bwd_d = pd.prop == dnnl_backward_data;
        const int src_arg = bwd_d ? DNNL_ARG_DIFF_SRC : DNNL_ARG_SRC;
        const int wei_arg = fwd || bwd_d ? DNNL_ARG_WEIGHTS : DNNL_ARG_DIFF_WEIGHTS;
        const int dst_arg = fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST;
        const memory_desc_t &src_md = pd.arg_md(src_arg), &wei_md = pd.arg_md(wei_arg),
                            &dst_md = pd.arg_md(dst_arg);
        const bool big_is_src = !pd.deconv;
        const memory_desc_t &big_md = big_is_src ? src_md : dst_md,
                            &small_md = big_is_src ? dst_md : src_md;
        const int big_arg = big_is_src ? src_arg : dst_arg,
                  small_arg = big_is_src ? dst_arg : src_arg;

        const dim_t out_elems = nelems(fwd ? dst_md : bwd_d ? src_md : wei_md);
        if (out_elems == 0) return dnnl_success;

        char *scratch = static_cast<char *>(ctx.scratchpad);
        auto align = [](size_t x) { return (x + 63) & ~size_t(63); };
        T *big = reinterpret_cast<T *>(scratch);
        T *small = reinterpret_cast<T *>(scratch + align(q.big_size() * sizeof(T)));
        T *wei = reinterpret_cast<T *>(scratch + align(q.big_size() * sizeof(T))
                + align(q.small_size() * sizeof(T)));

        quant_vals_t qv;
        if (fwd) read_quant(ctx, pd, qv);

        const dim_t big_ext[5] = {q.mb, q.g * q.icv, q.i[0], q.i[1], q.i[2]};
        const dim_t small_ext[5] = {q.mb, q.g * q.ocv, q.o[0], q.o[1], q.o[2]};
        const dim_t wei_ext[6] = {q.g, q.ocv, q.icv, q.k[0], q.k[1], q.k[2]};
        const canon_view_t big_v = act_view(big_md), small_v = act_view(small_md),
                           wei_v = wei_view(wei_md, pd.grouped, pd.deconv);

        // Inputs: (src, wei) forward, (diff_dst, wei) backward data, (src, diff_dst)
        // backward weights; in the conv view.
        const bool big_in = (fwd && !pd.deconv) || (bwd_d && pd.deconv) || !(fwd || bwd_d);
        const bool small_in = (fwd && pd.deconv) || (bwd_d && !pd.deconv) || !(fwd || bwd_d);
        if (big_in)
            to_canonical(big_v, ctx.host_ptr(big_arg), big_ext, big,
                    fwd && big_arg == DNNL_ARG_SRC ? &qv.src_zp : nullptr);
        if (small_in)
            to_canonical(small_v, ctx.host_ptr(small_arg), small_ext, small,
                    fwd && small_arg == DNNL_ARG_SRC ? &qv.src_zp : nullptr);
        if (fwd || bwd_d)
            to_canonical(wei_v, ctx.host_ptr(wei_arg), wei_ext, wei);

        float *col = reinterpret_cast<float *>(reinterpret_cast<char *>(wei)
                + align(q.wei_size() * sizeof(T)));
        constexpr bool is_f32 = std::is_same<T, float>::value;
        if (!(fwd || bwd_d)) {
            if (is_f32 && pd.use_gemm)
                conv::gemm_bwd_weights(q, reinterpret_cast<const float *>(big),
                        reinterpret_cast<const float *>(small), reinterpret_cast<float *>(wei),
                        col);
            else
                kernel_bwd_weights(q, big, small, wei);
            write_out(wei_v, ctx.host_ptr(wei_arg), wei_ext, wei);
            if (ctx.arg(DNNL_ARG_DIFF_BIAS))
                write_diff_bias(pd, ctx, pd.deconv ? big : small,
                        pd.deconv ? big_ext : small_ext);
            return dnnl_success;
        }
        const bool to_big = (fwd && pd.deconv) || (bwd_d && !pd.deconv);
        if (is_f32 && pd.use_gemm) {
            const float *w = reinterpret_cast<const float *>(wei);
            if (to_big)
                conv::gemm_bwd_data(q, reinterpret_cast<const float *>(small), w,
                        reinterpret_cast<float *>(big), col);
            else
                conv::gemm_fwd(q, reinterpret_cast<const float *>(big), w,
                        reinterpret_cast<float *>(small), col);
        } else if (to_big)
            kernel_bwd_data(q, small, wei, big);
        else
            kernel_fwd(q, big, wei, small);
        T *res = to_big ? big : small;
        const dim_t *ext = to_big ? big_ext : small_ext;
        const canon_view_t &out_v = to_big ? big_v : small_v;
        void *out = ctx.host_ptr(to_big ? big_arg : small_arg);
        if (!fwd) {
            write_out(out_v, out, ext, res);
            return dnnl_success;
        }
        epilogue(pd, ctx, qv, res, ext, out_v, out);
        if (!out_v.plain) zero_padding(*out_v.md, out);
        return dnnl_success;
    }

    static void read_quant(const exec_ctx_t &ctx, const conv_ref_pd_t &pd, quant_vals_t &qv) {
        const auto &a = pd.attr;
        if (a.scales.count(DNNL_ARG_SRC))
            qv.src_scale = read_value(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, 0);
        if (a.scales.count(DNNL_ARG_DST))
            qv.dst_scale = read_value(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, 0);
        for (const int arg : {DNNL_ARG_SRC, DNNL_ARG_DST}) {
            const auto it = a.zero_points.find(arg);
            if (it == a.zero_points.end()) continue;
            zero_points_t &z = arg == DNNL_ARG_SRC ? qv.src_zp : qv.dst_zp;
            z.v.resize(it->second.mask ? pd.zero_point_count(arg) : 1);
            for (size_t i = 0; i < z.v.size(); ++i)
                z.v[i] = read_value(ctx, DNNL_ARG_ATTR_ZERO_POINTS | arg, static_cast<dim_t>(i));
        }
        if (pd.wei_scale_mask >= 0) {
            const dim_t n = pd.wei_scale_mask ? pd.q.g * (pd.deconv ? pd.q.icv : pd.q.ocv) : 1;
            qv.wei_scales.resize(n);
            for (dim_t i = 0; i < n; ++i)
                qv.wei_scales[i] = read_value(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, i);
        }
    }

    template <typename T>
    static void write_out(const canon_view_t &v, void *base, const dim_t *ext, const T *in) {
        const int n = v.n;
        dim_t outer = 1;
        for (int d = 0; d < n - 1; ++d)
            outer *= ext[d];
        const dim_t inner = ext[n - 1];
        const dnnl_data_type_t dt = v.md->data_type;
        parallel_range(outer, [&](dim_t start, dim_t end) {
            dim_t idx[6];
            for (dim_t r = start; r < end; ++r) {
                v.row_index(ext, r, idx);
                const dim_t off = v.off(idx);
                for (dim_t x = 0; x < inner; ++x) {
                    idx[n - 1] = x;
                    store_from_f32(dt, base, v.plain ? off + x * v.st[n - 1] : v.off(idx),
                            static_cast<float>(in[r * inner + x]));
                }
            }
        }, 64);
        if (!v.plain) zero_padding(*v.md, base);
    }

    template <typename T>
    static void write_diff_bias(const conv_ref_pd_t &pd, const exec_ctx_t &ctx, const T *dd,
            const dim_t *ext) {
        const memory_desc_t &md = pd.arg_md(DNNL_ARG_DIFF_BIAS);
        void *base = ctx.host_ptr(DNNL_ARG_DIFF_BIAS);
        const dim_t spat = ext[2] * ext[3] * ext[4];
        parallel_range(ext[1], [&](dim_t start, dim_t end) {
            for (dim_t c = start; c < end; ++c) {
                double acc = 0;
                for (dim_t n = 0; n < ext[0]; ++n) {
                    const T *p = dd + (n * ext[1] + c) * spat;
                    for (dim_t x = 0; x < spat; ++x)
                        acc += p[x];
                }
                store_from_f32(md.data_type, base,
                        md.offset0 + c * md.blocking.strides[0],
                        static_cast<float>(acc));
            }
        }, 1);
    }

    // dst = post_ops(acc * src_scale * wei_scale[c] + bias[c]) / dst_scale + dst_zp.
    template <typename T>
    static void epilogue(const conv_ref_pd_t &pd, const exec_ctx_t &ctx, const quant_vals_t &qv,
            const T *res, const dim_t *ext, const canon_view_t &ov, void *out) {
        const memory_desc_t &md = *ov.md;
        const void *bias = ctx.host_ptr(DNNL_ARG_BIAS);
        const memory_desc_t &bmd = pd.arg_md(DNNL_ARG_BIAS);
        const auto &po = pd.post_ops;
        const auto po_args = po.bind(ctx);
        const int nd = md.ndims;
        const size_t dsz = data_type_size(md.data_type);
        const dim_t spat = ext[2] * ext[3] * ext[4], inner = ext[4];
        parallel_range(ext[0] * ext[1], [&](dim_t start, dim_t end) {
            for (dim_t r = start; r < end; ++r) {
                const dim_t n = r / ext[1], c = r % ext[1];
                float scale = qv.src_scale;
                if (!qv.wei_scales.empty())
                    scale *= qv.wei_scales[qv.wei_scales.size() == 1 ? 0 : c];
                const float dst_zp = qv.dst_zp.at(c);
                const float b = bias ? load_as_f32(bmd.data_type, bias,
                                               bmd.offset0 + c * bmd.blocking.strides[0])
                                     : 0.f;
                for (dim_t sp = 0; sp < spat; sp += inner) {
                    const dim_t dd = sp / (ext[3] * ext[4]), hh = sp / ext[4] % ext[3];
                    dim_t idx[5] = {n, c, dd, hh, 0};
                    dim_t pos[max_ndims] = {n, c};
                    if (nd == 5) pos[2] = dd;
                    if (nd >= 4) pos[nd - 2] = hh;
                    const T *src_row = res + r * spat + sp;
                    for (dim_t x = 0; x < inner; ++x) {
                        idx[4] = x;
                        const dim_t off = ov.off(idx);
                        float v = static_cast<float>(src_row[x]) * scale + b;
                        if (!po.empty()) {
                            pos[nd - 1] = x;
                            po.apply(po_args, &v, 1, pos, nd - 1,
                                    static_cast<char *>(out) + off * dsz, 1);
                        }
                        v = v / qv.dst_scale + dst_zp;
                        store_from_f32(md.data_type, out, off, v);
                    }
                }
            }
        }, 1);
    }
};

// The GEMM variant: everything the reference takes but int8.
struct conv_gemm_pd_t : public conv_ref_pd_t {
    using conv_ref_pd_t::conv_ref_pd_t;
    static status_t init(conv_gemm_pd_t &pd) {
        ANYDNN_CHECK(conv_ref_pd_t::init(pd));
        ANYDNN_REQUIRE(!pd.int8, dnnl_unimplemented, "int8 is not handled here");
        pd.use_gemm = true;
        pd.scratchpad_size += sizeof(float) * pd.q.col_size() + 64;
        return dnnl_success;
    }
};

} // namespace

impl_entry_t convolution_gemm_entry() {
    return make_impl_entry<conv_gemm_pd_t>("cpu:convolution:gemm");
}
impl_entry_t deconvolution_gemm_entry() {
    return make_impl_entry<conv_gemm_pd_t>("cpu:deconvolution:gemm");
}

impl_entry_t convolution_ref_entry() {
    return make_impl_entry<conv_ref_pd_t>("cpu:convolution:ref");
}
impl_entry_t deconvolution_ref_entry() {
    return make_impl_entry<conv_ref_pd_t>("cpu:deconvolution:ref");
}

} // namespace cpu
} // namespace anydnn
