// Reorder through the C API, checked against a reference written here: the test places every
// logical element by its own blocking arithmetic, computes the expected value with its own
// conversions and reorder_ref.hpp's quantization, and runs every implementation the engine
// offers for each problem (dnnl_primitive_desc_next_impl), so fast paths and the reference see
// the same cases.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "primitives/reorder_ref.hpp"
#include "sanitizer_budget.hpp"

namespace {

using dims_t = std::vector<int64_t>;

// ---- Data types, as this test understands them --------------------------------------------

float bf16_to_float(uint16_t b) {
    uint32_t u = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

uint16_t float_to_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x40);
    uint32_t upper = u >> 16, rest = u & 0xffff;
    if (rest > 0x8000 || (rest == 0x8000 && (upper & 1))) ++upper;
    return static_cast<uint16_t>(upper);
}

template <typename T> T to_int(float f, double lo, double hi) {
    if (std::isnan(f)) return 0;
    double r = std::nearbyint(static_cast<double>(f));
    if (r < lo) r = lo;
    if (r > hi) r = hi;
    return static_cast<T>(r);
}

size_t dt_size(dnnl_data_type_t dt) {
    switch (dt) {
    case dnnl_f64: return 8;
    case dnnl_f32:
    case dnnl_s32: return 4;
    case dnnl_bf16:
    case dnnl_f16: return 2;
    default: return 1;
    }
}

void put(dnnl_data_type_t dt, void *buf, int64_t i, float v) {
    switch (dt) {
    case dnnl_f32: static_cast<float *>(buf)[i] = v; break;
    case dnnl_f64: static_cast<double *>(buf)[i] = v; break;
    case dnnl_bf16: static_cast<uint16_t *>(buf)[i] = float_to_bf16(v); break;
    case dnnl_f16: {
        _Float16 h = static_cast<_Float16>(v);
        std::memcpy(static_cast<uint16_t *>(buf) + i, &h, 2);
        break;
    }
    case dnnl_s32:
        static_cast<int32_t *>(buf)[i] = to_int<int32_t>(v, -2147483648.0, 2147483647.0);
        break;
    case dnnl_s8: static_cast<int8_t *>(buf)[i] = to_int<int8_t>(v, -128, 127); break;
    case dnnl_u8: static_cast<uint8_t *>(buf)[i] = to_int<uint8_t>(v, 0, 255); break;
    default: FAIL() << "unexpected type";
    }
}

double get(dnnl_data_type_t dt, const void *buf, int64_t i) {
    switch (dt) {
    case dnnl_f32: return static_cast<const float *>(buf)[i];
    case dnnl_f64: return static_cast<const double *>(buf)[i];
    case dnnl_bf16: return bf16_to_float(static_cast<const uint16_t *>(buf)[i]);
    case dnnl_f16: {
        _Float16 h;
        std::memcpy(&h, static_cast<const uint16_t *>(buf) + i, 2);
        return static_cast<float>(h);
    }
    case dnnl_s32: return static_cast<const int32_t *>(buf)[i];
    case dnnl_s8: return static_cast<const int8_t *>(buf)[i];
    case dnnl_u8: return static_cast<const uint8_t *>(buf)[i];
    default: return 0;
    }
}

// What dst holds after storing f: the value rounded and saturated as the type demands.
double stored(dnnl_data_type_t dt, float f) {
    alignas(8) unsigned char tmp[8];
    put(dt, tmp, 0, f);
    return get(dt, tmp, 0);
}

// Source values: integers, halves (ties for integer rounding), quarters, values past the
// range of 8-bit types and, now and then, past the range of s32.
float source_value(int64_t i, dnnl_data_type_t dt) {
    float v = static_cast<float>((i * 7919) % 613 - 306);
    const float fracs[4] = {0.f, 0.5f, 0.25f, -0.5f};
    v += fracs[i % 4];
    if (i % 97 == 5) v = (i % 2 ? -1.f : 1.f) * (dt == dnnl_f16 ? 60000.f : 3e9f);
    return v;
}

// ---- Layouts, placed by this test's own arithmetic ------------------------------------------

struct layout_spec_t {
    enum kind_t { tag, strided, sub } kind = tag;
    dnnl_format_tag_t format = dnnl_format_tag_undef;
    std::string outer; // logical dims outermost first, as letters ("acdb" for nhwc)
    std::vector<std::pair<int, int>> blocks; // inner blocks outermost first: (dim, size)
    dims_t strides;                          // strided
    std::shared_ptr<layout_spec_t> parent;   // sub: a view of this layout
    dims_t parent_dims, offsets;
    bool runtime = false; // descriptor leaves dims and strides to execution
};

layout_spec_t tag(
        dnnl_format_tag_t t, const char *outer, std::vector<std::pair<int, int>> blocks = {}) {
    layout_spec_t s;
    s.format = t;
    s.outer = outer;
    s.blocks = std::move(blocks);
    return s;
}

layout_spec_t strided(dims_t strides) {
    layout_spec_t s;
    s.kind = layout_spec_t::strided;
    s.strides = std::move(strides);
    return s;
}

layout_spec_t sub(layout_spec_t parent, dims_t parent_dims, dims_t offsets) {
    layout_spec_t s;
    s.kind = layout_spec_t::sub;
    s.parent = std::make_shared<layout_spec_t>(std::move(parent));
    s.parent_dims = std::move(parent_dims);
    s.offsets = std::move(offsets);
    return s;
}

struct layout_t {
    dnnl_memory_desc_t md = nullptr;
    std::function<int64_t(const int64_t *)> off; // physical element offset of a position
    dims_t padded; // logical region the layout holds (dims plus block padding)
    size_t bytes = 0;
    ~layout_t() {
        dnnl_memory_desc_destroy(md);
    }
};

std::unique_ptr<layout_t> make_layout(
        const layout_spec_t &spec, const dims_t &dims, dnnl_data_type_t dt) {
    auto l = std::make_unique<layout_t>();
    const int nd = static_cast<int>(dims.size());
    dnnl_dims_t d = {};
    for (int i = 0; i < nd; ++i)
        d[i] = dims[i];
    if (spec.kind == layout_spec_t::tag) {
        EXPECT_EQ(dnnl_memory_desc_create_with_tag(&l->md, nd, d, dt, spec.format), dnnl_success);
        dims_t blk(nd, 1);
        for (auto b : spec.blocks)
            blk[b.first] *= b.second;
        l->padded.resize(nd);
        for (int i = 0; i < nd; ++i)
            l->padded[i] = (dims[i] + blk[i] - 1) / blk[i] * blk[i];
        int64_t inner = 1;
        for (auto b : spec.blocks)
            inner *= b.second;
        dims_t stride(nd);
        int64_t s = inner;
        for (int k = nd - 1; k >= 0; --k) {
            int i = spec.outer[k] - 'a';
            stride[i] = s;
            s *= l->padded[i] / blk[i];
        }
        l->bytes = static_cast<size_t>(s) * dt_size(dt);
        auto blocks = spec.blocks;
        l->off = [=](const int64_t *pos) {
            // Peel blocks from the innermost: each takes the low digit of its dimension.
            int64_t rem[DNNL_MAX_NDIMS];
            std::copy(pos, pos + nd, rem);
            int64_t o = 0, inner_stride = 1;
            for (int k = static_cast<int>(blocks.size()) - 1; k >= 0; --k) {
                int i = blocks[k].first, b = blocks[k].second;
                o += rem[i] % b * inner_stride;
                rem[i] /= b;
                inner_stride *= b;
            }
            for (int i = 0; i < nd; ++i)
                o += rem[i] * stride[i];
            return o;
        };
    } else if (spec.kind == layout_spec_t::strided) {
        dnnl_dims_t st = {};
        int64_t last = 0;
        for (int i = 0; i < nd; ++i) {
            st[i] = spec.strides[i];
            last += (dims[i] - 1) * spec.strides[i];
        }
        EXPECT_EQ(dnnl_memory_desc_create_with_strides(&l->md, nd, d, dt, st), dnnl_success);
        l->padded = dims;
        l->bytes = static_cast<size_t>(last + 1) * dt_size(dt);
        dims_t strides = spec.strides;
        l->off = [=](const int64_t *pos) {
            int64_t o = 0;
            for (int i = 0; i < nd; ++i)
                o += pos[i] * strides[i];
            return o;
        };
    } else {
        std::shared_ptr<layout_t> parent = make_layout(*spec.parent, spec.parent_dims, dt);
        dnnl_dims_t offs = {};
        for (int i = 0; i < nd; ++i)
            offs[i] = spec.offsets[i];
        EXPECT_EQ(dnnl_memory_desc_create_submemory(&l->md, parent->md, d, offs), dnnl_success);
        l->padded = dims;
        l->bytes = parent->bytes;
        dims_t offsets = spec.offsets;
        l->off = [=](const int64_t *pos) {
            int64_t p[DNNL_MAX_NDIMS];
            for (int i = 0; i < nd; ++i)
                p[i] = pos[i] + offsets[i];
            return parent->off(p);
        };
    }
    return l;
}

// Calls f(pos) for every position of `region`, row-major.
void for_each(const dims_t &region, const std::function<void(const int64_t *)> &f) {
    for (int64_t v : region)
        if (v == 0) return;
    dims_t pos(region.size(), 0);
    while (true) {
        f(pos.data());
        int i = static_cast<int>(region.size()) - 1;
        for (; i >= 0; --i) {
            if (++pos[i] < region[i]) break;
            pos[i] = 0;
        }
        if (i < 0) return;
    }
}

// ---- Problems -------------------------------------------------------------------------------

struct quant_spec_t {
    int src_scale = -1, dst_scale = -1, src_zp = -1, dst_zp = -1; // masks; -1: none
    bool sum = false;
    float sum_scale = 0.5f;
    int sum_zp = 0;
    bool any() const {
        return src_scale >= 0 || dst_scale >= 0 || src_zp >= 0 || dst_zp >= 0 || sum;
    }
};

struct problem_t {
    problem_t(dims_t dims, layout_spec_t src, layout_spec_t dst, dnnl_data_type_t sdt = dnnl_f32,
            dnnl_data_type_t ddt = dnnl_f32, quant_spec_t q = quant_spec_t())
        : dims(std::move(dims)), src(std::move(src)), dst(std::move(dst)), sdt(sdt), ddt(ddt),
          q(q) {}
    dims_t dims;
    layout_spec_t src, dst;
    dnnl_data_type_t sdt, ddt;
    quant_spec_t q;
};

// Quantization values: powers of two and small integers, so the expected value is exact.
float scale_value(int64_t i, bool dst) {
    const float s[4] = {0.5f, 2.f, 1.f, 0.25f};
    return dst ? s[(i + 1) % 4] : s[i % 4];
}
int32_t zp_value(int64_t i, bool dst) {
    return dst ? static_cast<int32_t>(i % 5) : static_cast<int32_t>(i % 7) - 3;
}

int64_t quant_count(int mask, const dims_t &dims) {
    int64_t n = 1;
    for (size_t i = 0; i < dims.size(); ++i)
        if (mask >> i & 1) n *= dims[i];
    return n;
}

using reorder_ref::quant_index;

struct engine_t {
    engine_t() {
        EXPECT_EQ(dnnl_engine_create(&engine, dnnl_cpu, 0), dnnl_success);
        EXPECT_EQ(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags), dnnl_success);
    }
    ~engine_t() {
        dnnl_stream_destroy(stream);
        dnnl_engine_destroy(engine);
    }
    dnnl_engine_t engine = nullptr;
    dnnl_stream_t stream = nullptr;
};

dnnl_primitive_attr_t make_attr(const quant_spec_t &q) {
    dnnl_primitive_attr_t attr = nullptr;
    EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    if (q.src_scale >= 0) {
        EXPECT_EQ(
                dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, q.src_scale), dnnl_success);
    }
    if (q.dst_scale >= 0) {
        EXPECT_EQ(
                dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_DST, q.dst_scale), dnnl_success);
    }
    if (q.src_zp >= 0) {
        EXPECT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_SRC, q.src_zp),
                dnnl_success);
    }
    if (q.dst_zp >= 0) {
        EXPECT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_DST, q.dst_zp),
                dnnl_success);
    }
    if (q.sum) {
        dnnl_post_ops_t po = nullptr;
        EXPECT_EQ(dnnl_post_ops_create(&po), dnnl_success);
        EXPECT_EQ(dnnl_post_ops_append_sum(po, q.sum_scale, q.sum_zp, dnnl_data_type_undef),
                dnnl_success);
        EXPECT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
        dnnl_post_ops_destroy(po);
    }
    return attr;
}

// A user buffer wrapped in a memory object.
struct buffer_t {
    buffer_t(const dnnl_memory_desc_t md, size_t bytes, dnnl_engine_t engine)
        : data(bytes / 8 + 1) {
        EXPECT_EQ(dnnl_memory_create(&mem, md, engine, data.data()), dnnl_success);
    }
    ~buffer_t() {
        dnnl_memory_destroy(mem);
    }
    void *ptr() {
        return data.data();
    }
    std::vector<uint64_t> data; // 8-byte aligned storage
    dnnl_memory_t mem = nullptr;
};

std::unique_ptr<buffer_t> quant_buffer(
        int mask, const dims_t &dims, bool scale, bool dst, dnnl_engine_t engine) {
    const int64_t n = quant_count(mask, dims);
    dnnl_memory_desc_t md;
    dnnl_dims_t d = {n};
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(&md, 1, d, scale ? dnnl_f32 : dnnl_s32, dnnl_a),
            dnnl_success);
    auto b = std::make_unique<buffer_t>(md, static_cast<size_t>(n) * 4, engine);
    for (int64_t i = 0; i < n; ++i) {
        if (scale)
            static_cast<float *>(b->ptr())[i] = scale_value(i, dst);
        else
            static_cast<int32_t *>(b->ptr())[i] = zp_value(i, dst);
    }
    dnnl_memory_desc_destroy(md);
    return b;
}

// Runs every implementation that accepts `p` and checks each against the reference.
// Returns the implementation names, in list order.
std::vector<std::string> run(const problem_t &p, bool all_impls = true) {
    std::vector<std::string> names;
    engine_t eng;
    auto src = make_layout(p.src, p.dims, p.sdt);
    auto dst = make_layout(p.dst, p.dims, p.ddt);
    if (!src->md || !dst->md) return names;
    // Dense layouts need exactly what this test computes; strided ones may round up; a view's
    // buffer is its parent's.
    for (const auto *l : {&p.src, &p.dst}) {
        const layout_t &made = l == &p.src ? *src : *dst;
        if (l->kind == layout_spec_t::tag) {
            EXPECT_EQ(dnnl_memory_desc_get_size(made.md), made.bytes);
        } else if (l->kind == layout_spec_t::strided) {
            EXPECT_GE(dnnl_memory_desc_get_size(made.md), made.bytes);
        }
    }

    // Source: values at logical positions, zeros elsewhere (padding included).
    std::vector<unsigned char> src_init(src->bytes + 8, 0);
    int64_t linear = 0;
    for_each(p.dims, [&](const int64_t *pos) {
        put(p.sdt, src_init.data(), src->off(pos), source_value(linear++, p.sdt));
    });
    // Destination: garbage to be overwritten, or the values the sum post-op adds.
    std::vector<unsigned char> dst_init(dst->bytes + 8, p.q.sum ? 0 : 0x5a);
    if (p.q.sum) {
        linear = 0;
        for_each(p.dims, [&](const int64_t *pos) {
            put(p.ddt, dst_init.data(), dst->off(pos), static_cast<float>(linear++ % 11) - 5.f);
        });
    }

    dnnl_primitive_attr_t attr = make_attr(p.q);
    dnnl_primitive_desc_t pd = nullptr;
    dnnl_status_t st =
            dnnl_reorder_primitive_desc_create(&pd, src->md, eng.engine, dst->md, eng.engine, attr);
    dnnl_primitive_attr_destroy(attr);
    EXPECT_EQ(st, dnnl_success);
    if (st != dnnl_success) return names;

    buffer_t sbuf(src->md, src->bytes + 8, eng.engine);
    buffer_t dbuf(dst->md, dst->bytes + 8, eng.engine);
    std::unique_ptr<buffer_t> qbuf[4];
    const int masks[4] = {p.q.src_scale, p.q.dst_scale, p.q.src_zp, p.q.dst_zp};
    const int qargs[4] = {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST,
            DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST};
    std::vector<dnnl_exec_arg_t> args = {{DNNL_ARG_SRC, sbuf.mem}, {DNNL_ARG_DST, dbuf.mem}};
    for (int k = 0; k < 4; ++k) {
        if (masks[k] < 0) continue;
        qbuf[k] = quant_buffer(masks[k], p.dims, k < 2, k % 2 == 1, eng.engine);
        args.push_back({qargs[k], qbuf[k]->mem});
    }

    do {
        const char *impl = nullptr;
        EXPECT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl), dnnl_success);
        names.push_back(impl ? impl : "?");
        SCOPED_TRACE(names.back());
        std::memcpy(sbuf.ptr(), src_init.data(), src->bytes);
        std::memcpy(dbuf.ptr(), dst_init.data(), dst->bytes);
        dnnl_primitive_t prim = nullptr;
        EXPECT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
        if (!prim) break;
        EXPECT_EQ(dnnl_primitive_execute(
                          prim, eng.stream, static_cast<int>(args.size()), args.data()),
                dnnl_success);
        EXPECT_EQ(dnnl_stream_wait(eng.stream), dnnl_success);
        dnnl_primitive_destroy(prim);

        int errors = 0;
        const unsigned char *out = static_cast<const unsigned char *>(dbuf.ptr());
        for_each(dst->padded, [&](const int64_t *pos) {
            if (errors > 5) return;
            bool inside = true;
            for (size_t i = 0; i < p.dims.size(); ++i)
                inside = inside && pos[i] < p.dims[i];
            const int64_t doff = dst->off(pos);
            const double got = get(p.ddt, out, doff);
            double want = 0;
            if (inside) {
                const double x = get(p.sdt, src_init.data(), src->off(pos));
                const auto &q = p.q;
                reorder_ref::quant_t r;
                if (q.src_zp >= 0) r.src_zp = zp_value(quant_index(q.src_zp, p.dims, pos), false);
                if (q.src_scale >= 0)
                    r.src_scale = scale_value(quant_index(q.src_scale, p.dims, pos), false);
                r.sum = q.sum;
                r.sum_scale = q.sum_scale;
                r.sum_zp = q.sum_zp;
                if (q.dst_scale >= 0)
                    r.dst_scale = scale_value(quant_index(q.dst_scale, p.dims, pos), true);
                if (q.dst_zp >= 0) r.dst_zp = zp_value(quant_index(q.dst_zp, p.dims, pos), true);
                const float f = reorder_ref::value(static_cast<float>(x), r,
                        q.sum ? static_cast<float>(get(p.ddt, dst_init.data(), doff)) : 0.f);
                // f64 to f64 with nothing applied moves the value exactly.
                want = p.sdt == dnnl_f64 && p.ddt == dnnl_f64 && !q.any() ? x : stored(p.ddt, f);
            }
            if (!(got == want || (std::isnan(got) && std::isnan(want)))) {
                std::string where;
                for (size_t i = 0; i < p.dims.size(); ++i)
                    where += (i ? "," : "") + std::to_string(pos[i]);
                ADD_FAILURE() << "at (" << where << ")" << (inside ? "" : " [padding]") << ": got "
                              << got << ", expected " << want;
                ++errors;
            }
        });
    } while (all_impls && dnnl_primitive_desc_next_impl(pd) == dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    return names;
}

bool has_avx512() {
    return dnnl_get_effective_cpu_isa() >= dnnl_cpu_isa_avx512_core;
}

// Layouts used below; dims are (n, c, h, w) or (o, i, h, w) unless said otherwise.
layout_spec_t nchw() {
    return tag(dnnl_nchw, "abcd");
}
layout_spec_t nhwc() {
    return tag(dnnl_nhwc, "acdb");
}
layout_spec_t chwn() {
    return tag(dnnl_chwn, "bcda");
}
layout_spec_t nChw16c() {
    return tag(dnnl_nChw16c, "abcd", {{1, 16}});
}
layout_spec_t nChw8c() {
    return tag(dnnl_nChw8c, "abcd", {{1, 8}});
}
layout_spec_t oihw() {
    return tag(dnnl_oihw, "abcd");
}
layout_spec_t OIhw16i16o() {
    return tag(dnnl_OIhw16i16o, "abcd", {{1, 16}, {0, 16}});
}
layout_spec_t OIhw4i16o4i() {
    return tag(dnnl_OIhw4i16o4i, "abcd", {{1, 4}, {0, 16}, {1, 4}});
}
layout_spec_t OIhw8i8o() {
    return tag(dnnl_OIhw8i8o, "abcd", {{1, 8}, {0, 8}});
}
layout_spec_t Ohwi16o() {
    return tag(dnnl_Ohwi16o, "acdb", {{0, 16}});
}

const dnnl_data_type_t vector_types[] = {dnnl_f32, dnnl_bf16, dnnl_f16, dnnl_s32, dnnl_s8, dnnl_u8};

std::string type_name(dnnl_data_type_t dt) {
    switch (dt) {
    case dnnl_f32: return "f32";
    case dnnl_bf16: return "bf16";
    case dnnl_f16: return "f16";
    case dnnl_s32: return "s32";
    case dnnl_s8: return "s8";
    case dnnl_u8: return "u8";
    case dnnl_f64: return "f64";
    default: return "other";
    }
}

} // namespace

// ---- Layout pairs -------------------------------------------------------------------------

TEST(reorder, plain_permutations_match_reference) {
    for (dims_t dims : {dims_t{2, 5, 3, 4}, dims_t{1, 1, 1, 1}, dims_t{3, 17, 1, 7}}) {
        for (auto pair : {std::make_pair(nchw(), nhwc()), std::make_pair(nhwc(), nchw()),
                     std::make_pair(nchw(), chwn()), std::make_pair(chwn(), nhwc()),
                     std::make_pair(nchw(), nchw())}) {
            SCOPED_TRACE(pair.first.outer + " -> " + pair.second.outer);
            run({dims, pair.first, pair.second});
        }
    }
}

TEST(reorder, one_and_two_dimensional_tensors) {
    run({{1}, tag(dnnl_a, "a"), tag(dnnl_a, "a")});
    run({{37}, tag(dnnl_a, "a"), tag(dnnl_a, "a"), dnnl_f32, dnnl_s8});
    run({{5, 7}, tag(dnnl_ab, "ab"), tag(dnnl_ba, "ba")});
    run({{19, 33}, tag(dnnl_ab, "ab"), tag(dnnl_AB16b16a, "ab", {{1, 16}, {0, 16}})});
    run({{33, 19}, tag(dnnl_AB16b16a, "ab", {{1, 16}, {0, 16}}), tag(dnnl_ba, "ba")});
}

TEST(reorder, channel_blocked_with_tails_match_reference) {
    for (int64_t c : {16, 17, 3, 32, 1, 40}) {
        SCOPED_TRACE("C=" + std::to_string(c));
        const dims_t dims = {2, c, 5, 7};
        run({dims, nchw(), nChw16c()});
        run({dims, nChw16c(), nchw()});
        run({dims, nhwc(), nChw16c()});
        run({dims, nChw16c(), nhwc()});
        run({dims, nchw(), nChw8c()});
        run({dims, nChw8c(), nchw()});
        run({dims, nhwc(), nChw8c()});
        run({dims, nChw8c(), nhwc()});
        run({dims, nChw8c(), nChw16c()});
        run({dims, nChw16c(), nChw8c()});
    }
}

TEST(reorder, long_runs_exercise_vector_tails) {
    // 63 and 1000 points per channel: full 16-wide tiles plus tails; 5-D too.
    run({{2, 35, 7, 9}, nchw(), nChw16c()});
    run({{2, 35, 7, 9}, nChw16c(), nchw()});
    run({{1, 24, 10, 100}, nchw(), nChw8c()});
    run({{1, 24, 10, 100}, nChw8c(), nchw()});
    run({{2, 40, 20, 30}, nhwc(), nChw16c()});
    run({{2, 40, 20, 30}, nChw16c(), nhwc(), dnnl_f32, dnnl_s8});
    const dims_t d5 = {2, 19, 3, 4, 5};
    run({d5, tag(dnnl_ncdhw, "abcde"), tag(dnnl_nCdhw16c, "abcde", {{1, 16}})});
    run({d5, tag(dnnl_nCdhw16c, "abcde", {{1, 16}}), tag(dnnl_ndhwc, "acdeb")});
}

TEST(reorder, weights_layouts_match_reference) {
    for (dims_t dims : {dims_t{32, 16, 3, 3}, dims_t{17, 19, 2, 3}, dims_t{5, 3, 1, 1}}) {
        run({dims, oihw(), OIhw16i16o()});
        run({dims, OIhw16i16o(), oihw()});
        run({dims, oihw(), OIhw4i16o4i()});
        run({dims, OIhw4i16o4i(), OIhw16i16o()});
        run({dims, oihw(), Ohwi16o()});
        run({dims, Ohwi16o(), oihw()});
    }
    // Sizes that are multiples of the blocks (the double-blocked fast path) and ones that are not.
    for (dims_t g : {dims_t{2, 17, 18, 3, 3}, dims_t{2, 32, 16, 3, 3}, dims_t{1, 16, 48, 1, 5}}) {
        const layout_spec_t goihw = tag(dnnl_goihw, "abcde");
        const layout_spec_t blocked = tag(dnnl_gOIhw16i16o, "abcde", {{2, 16}, {1, 16}});
        run({g, goihw, blocked});
        run({g, blocked, goihw});
        run({g, goihw, blocked, dnnl_f32, dnnl_s8});
    }
    run({{48, 32, 3, 3}, oihw(), OIhw8i8o()});
    run({{48, 32, 3, 3}, OIhw8i8o(), tag(dnnl_ohwi, "acdb")});
}

TEST(reorder, strided_and_submemory_views_match_reference) {
    const dims_t dims = {2, 17, 4, 5};
    // Rows padded to 8 elements, planes and images with gaps.
    const layout_spec_t gappy = strided({17 * 40 + 9, 40, 8, 1});
    run({dims, gappy, nChw16c()});
    run({dims, nChw16c(), gappy});
    run({dims, gappy, nhwc()});
    run({dims, nhwc(), gappy, dnnl_f32, dnnl_bf16});
    // Views into bigger tensors (offset0 and parent strides).
    const layout_spec_t view_nchw = sub(nchw(), {3, 40, 6, 7}, {1, 16, 2, 1});
    const layout_spec_t view_nhwc = sub(nhwc(), {2, 20, 5, 5}, {0, 3, 1, 0});
    run({dims, view_nchw, nhwc()});
    run({dims, nhwc(), view_nchw});
    run({dims, view_nchw, view_nhwc});
    run({dims, view_nchw, nChw16c()});
    run({dims, view_nhwc, nChw8c()});
    run({{2, 16, 4, 5}, sub(nChw16c(), {2, 48, 4, 5}, {0, 16, 0, 0}), nchw()});
    run({{2, 16, 4, 5}, nchw(), sub(nChw16c(), {2, 48, 4, 5}, {0, 32, 0, 0})});
}

TEST(reorder, tensors_larger_than_the_cache_match_reference) {
    // 34 MB of f32 each way: past a typical last-level cache, where stores stream. The
    // reference implementation sees the same code paths on the small cases. Sanitized builds
    // look for memory errors, not the cache: 16 times less.
    const dims_t dims = {1, 32, test_budget::pick(512, 128), test_budget::pick(520, 130)};
    run({dims, nchw(), nChw16c()}, false);
    run({dims, nChw16c(), nchw()}, false);
    run({dims, nchw(), nchw(), dnnl_bf16, dnnl_f32}, false);
    run({dims, nchw(), nchw()}, false);
}

// ---- Data types ---------------------------------------------------------------------------

namespace {

// A source and destination data type; every pair of vector_types runs.
struct type_pair_t {
    dnnl_data_type_t src, dst;
};

std::vector<type_pair_t> all_type_pairs() {
    std::vector<type_pair_t> v;
    for (dnnl_data_type_t s : vector_types)
        for (dnnl_data_type_t d : vector_types)
            v.push_back({s, d});
    return v;
}

std::string pair_name(const ::testing::TestParamInfo<type_pair_t> &info) {
    return type_name(info.param.src) + "_to_" + type_name(info.param.dst);
}

// The pair in a failure message or a test listing.
void PrintTo(const type_pair_t &t, std::ostream *os) {
    *os << type_name(t.src) << " to " << type_name(t.dst);
}

} // namespace

struct reorder_types : public ::testing::TestWithParam<type_pair_t> {};

TEST_P(reorder_types, converts_with_rounding_and_saturation) {
    const auto sdt = GetParam().src;
    const auto ddt = GetParam().dst;
    run({{2, 20, 3, 7}, nchw(), nchw(), sdt, ddt});
    run({{2, 20, 3, 7}, nchw(), nChw16c(), sdt, ddt});
    run({{2, 20, 3, 7}, nChw16c(), nhwc(), sdt, ddt});
    run({{2, 20, 3, 7}, nhwc(), nChw8c(), sdt, ddt});
    run({{17, 19, 1, 3}, oihw(), OIhw16i16o(), sdt, ddt});
}

INSTANTIATE_TEST_SUITE_P(all_pairs, reorder_types, ::testing::ValuesIn(all_type_pairs()), pair_name);

TEST(reorder, f64_converts_through_the_reference) {
    run({{2, 5, 3, 4}, nchw(), nhwc(), dnnl_f64, dnnl_f64});
    run({{2, 5, 3, 4}, nchw(), nchw(), dnnl_f64, dnnl_f64});
    run({{2, 5, 3, 4}, nchw(), nChw16c(), dnnl_f32, dnnl_f64});
    run({{2, 5, 3, 4}, nChw16c(), nchw(), dnnl_f64, dnnl_s8});
}

// ---- Attributes ---------------------------------------------------------------------------

TEST(reorder, scales_and_zero_points_common_and_per_channel) {
    struct combo {
        dnnl_data_type_t sdt, ddt;
        quant_spec_t q;
    };
    quant_spec_t ss0, ds0, ss_c, ds_c, zp0, zp_c, all_c, mixed;
    ss0.src_scale = 0;
    ds0.dst_scale = 0;
    ss_c.src_scale = 2;
    ds_c.dst_scale = 2;
    zp0.src_zp = 0;
    zp0.dst_zp = 0;
    zp_c.src_zp = 2;
    zp_c.dst_zp = 2;
    all_c.src_scale = all_c.dst_scale = all_c.src_zp = all_c.dst_zp = 2;
    mixed.src_scale = 2;
    mixed.dst_scale = 0;
    mixed.dst_zp = 0;
    const combo combos[] = {{dnnl_f32, dnnl_s8, ss0}, {dnnl_f32, dnnl_s8, ds0},
            {dnnl_f32, dnnl_s8, ss_c}, {dnnl_f32, dnnl_u8, ds_c}, {dnnl_s8, dnnl_f32, zp0},
            {dnnl_u8, dnnl_f32, zp_c}, {dnnl_f32, dnnl_s8, all_c}, {dnnl_f32, dnnl_bf16, mixed},
            {dnnl_s8, dnnl_s8, all_c}, {dnnl_f32, dnnl_f32, ss0}, {dnnl_s32, dnnl_f16, ss_c}};
    for (const auto &c : combos) {
        SCOPED_TRACE(type_name(c.sdt) + " -> " + type_name(c.ddt));
        const dims_t dims = {2, 19, 3, 5};
        run({dims, nchw(), nchw(), c.sdt, c.ddt, c.q});
        run({dims, nchw(), nChw16c(), c.sdt, c.ddt, c.q});
        run({dims, nChw16c(), nchw(), c.sdt, c.ddt, c.q});
        run({dims, nhwc(), nChw8c(), c.sdt, c.ddt, c.q});
        run({dims, nChw8c(), nhwc(), c.sdt, c.ddt, c.q});
        run({dims, nchw(), nhwc(), c.sdt, c.ddt, c.q});
    }
}

TEST(reorder, scales_along_other_and_several_dimensions) {
    quant_spec_t q;
    q.src_scale = 1 << 3;              // along w
    q.dst_scale = (1 << 0) | (1 << 1); // along n and c
    q.dst_zp = 1 << 2;
    run({{2, 17, 3, 5}, nchw(), nChw16c(), dnnl_f32, dnnl_s8, q});
    run({{2, 17, 3, 5}, nChw16c(), nhwc(), dnnl_s8, dnnl_f32, q});
    quant_spec_t w;
    w.src_scale = 1 << 0; // per output channel of weights
    run({{17, 19, 3, 3}, oihw(), OIhw16i16o(), dnnl_f32, dnnl_s8, w});
}

TEST(reorder, sum_post_op_adds_scaled_destination) {
    quant_spec_t sum;
    sum.sum = true;
    quant_spec_t sum_zp = sum;
    sum_zp.sum_zp = 2;
    sum_zp.sum_scale = 2.f;
    quant_spec_t sum_scaled = sum;
    sum_scaled.src_scale = 2;
    sum_scaled.dst_scale = 0;
    for (const auto &q : {sum, sum_zp, sum_scaled}) {
        const dims_t dims = {2, 19, 3, 5};
        run({dims, nchw(), nchw(), dnnl_f32, dnnl_f32, q});
        run({dims, nchw(), nchw(), dnnl_f32, dnnl_s8, q});
        run({dims, nchw(), nChw16c(), dnnl_f32, dnnl_f32, q});
        run({dims, nChw16c(), nchw(), dnnl_s8, dnnl_f32, q});
        run({dims, nhwc(), nChw16c(), dnnl_bf16, dnnl_bf16, q});
        run({dims, nChw16c(), nChw16c(), dnnl_f32, dnnl_f32, q});
        run({dims, nChw8c(), nChw8c(), dnnl_s8, dnnl_f32, q});
        run({dims, oihw(), OIhw16i16o(), dnnl_f32, dnnl_f32, q});
    }
}

TEST(reorder, host_scalar_scale_applies_to_every_element) {
    engine_t eng;
    const dims_t dims = {2, 20, 3, 5};
    auto src = make_layout(nchw(), dims, dnnl_f32);
    auto dst = make_layout(nChw16c(), dims, dnnl_s8);
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_v2(attr, DNNL_ARG_SRC, 0, 0, nullptr, dnnl_f32, 1),
            dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(
            dnnl_reorder_primitive_desc_create(&pd, src->md, eng.engine, dst->md, eng.engine, attr),
            dnnl_success);
    dnnl_primitive_attr_destroy(attr);
    dnnl_memory_desc_t smd;
    ASSERT_EQ(dnnl_memory_desc_create_host_scalar(&smd, dnnl_f32), dnnl_success);
    float scale = 0.5f;
    dnnl_memory_t scale_mem = nullptr;
    ASSERT_EQ(dnnl_memory_create_host_scalar(&scale_mem, smd, &scale), dnnl_success);
    buffer_t sbuf(src->md, src->bytes, eng.engine), dbuf(dst->md, dst->bytes, eng.engine);
    int64_t linear = 0;
    for_each(dims, [&](const int64_t *pos) {
        put(dnnl_f32, sbuf.ptr(), src->off(pos), source_value(linear++, dnnl_f32));
    });
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, sbuf.mem}, {DNNL_ARG_DST, dbuf.mem},
            {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, scale_mem}};
    do {
        dnnl_primitive_t prim = nullptr;
        ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
        std::memset(dbuf.ptr(), 0x5a, dst->bytes);
        ASSERT_EQ(dnnl_primitive_execute(prim, eng.stream, 3, args), dnnl_success);
        dnnl_primitive_destroy(prim);
        for_each(dims, [&](const int64_t *pos) {
            const float x = static_cast<float>(get(dnnl_f32, sbuf.ptr(), src->off(pos)));
            ASSERT_EQ(get(dnnl_s8, dbuf.ptr(), dst->off(pos)), stored(dnnl_s8, x * scale));
        });
    } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
    dnnl_memory_destroy(scale_mem);
    dnnl_memory_desc_destroy(smd);
    dnnl_primitive_desc_destroy(pd);
}

// ---- Which implementation runs --------------------------------------------------------------

TEST(reorder, fast_paths_are_chosen_first) {
    auto first = [](problem_t p) {
        auto names = run(p);
        return names.empty() ? std::string() : names.front();
    };
    EXPECT_EQ(first({{2, 16, 4, 4}, nchw(), nchw()}), "cpu:reorder:memcpy");
    EXPECT_EQ(first({{2, 16, 4, 4}, nChw16c(), nChw16c(), dnnl_s8, dnnl_s8}), "cpu:reorder:memcpy");
    auto names = run({{2, 16, 4, 4}, nchw(), nChw16c()});
    EXPECT_EQ(names.back(), "cpu:reorder:ref");
    if (!has_avx512()) return;
    EXPECT_EQ(first({{2, 16, 4, 4}, nchw(), nchw(), dnnl_f32, dnnl_bf16}),
            "cpu:reorder:convert:avx512");
    EXPECT_EQ(first({{2, 16, 4, 4}, nchw(), nChw16c()}), "cpu:reorder:blocked16:avx512");
    EXPECT_EQ(first({{2, 17, 4, 4}, nChw8c(), nhwc(), dnnl_s8, dnnl_f32}),
            "cpu:reorder:blocked16:avx512");
    EXPECT_EQ(first({{2, 17, 4, 4}, sub(nchw(), {2, 40, 4, 4}, {0, 5, 0, 0}), nChw16c()}),
            "cpu:reorder:blocked16:avx512");
    EXPECT_EQ(first({{32, 48, 3, 3}, oihw(), OIhw16i16o()}), "cpu:reorder:blocked16:avx512");
    EXPECT_EQ(first({{32, 48, 3, 3}, OIhw16i16o(), oihw()}), "cpu:reorder:blocked16:avx512");
}

// ---- Run-time dimensions, empty tensors -----------------------------------------------------

TEST(reorder, runtime_dims_take_sizes_from_memory) {
    engine_t eng;
    const dnnl_dims_t rt = {
            DNNL_RUNTIME_DIM_VAL, DNNL_RUNTIME_DIM_VAL, DNNL_RUNTIME_DIM_VAL, DNNL_RUNTIME_DIM_VAL};
    dnnl_memory_desc_t rsrc, rdst;
    ASSERT_EQ(dnnl_memory_desc_create_with_strides(&rsrc, 4, rt, dnnl_f32, rt), dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_strides(&rdst, 4, rt, dnnl_s8, rt), dnnl_success);
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 1 << 1), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_reorder_primitive_desc_create(&pd, rsrc, eng.engine, rdst, eng.engine, attr),
            dnnl_success);
    dnnl_primitive_attr_destroy(attr);
    dnnl_primitive_t prim = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);

    for (dims_t dims : {dims_t{2, 3, 4, 5}, dims_t{1, 7, 2, 1}}) {
        auto src = make_layout(nchw(), dims, dnnl_f32);
        auto dst = make_layout(nhwc(), dims, dnnl_s8);
        buffer_t sbuf(src->md, src->bytes, eng.engine), dbuf(dst->md, dst->bytes, eng.engine);
        auto scales = quant_buffer(1 << 1, dims, true, false, eng.engine);
        int64_t linear = 0;
        for_each(dims, [&](const int64_t *pos) {
            put(dnnl_f32, sbuf.ptr(), src->off(pos), source_value(linear++, dnnl_f32));
        });
        dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, sbuf.mem}, {DNNL_ARG_DST, dbuf.mem},
                {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, scales->mem}};
        ASSERT_EQ(dnnl_primitive_execute(prim, eng.stream, 3, args), dnnl_success);
        for_each(dims, [&](const int64_t *pos) {
            float x = static_cast<float>(get(dnnl_f32, sbuf.ptr(), src->off(pos)));
            x *= scale_value(pos[1], false);
            ASSERT_EQ(get(dnnl_s8, dbuf.ptr(), dst->off(pos)), stored(dnnl_s8, x));
        });
    }
    // Memories describing different tensors are refused.
    auto src = make_layout(nchw(), {2, 3, 4, 5}, dnnl_f32);
    auto dst = make_layout(nhwc(), {2, 3, 4, 6}, dnnl_s8);
    buffer_t sbuf(src->md, src->bytes, eng.engine), dbuf(dst->md, dst->bytes, eng.engine);
    auto scales = quant_buffer(1 << 1, {2, 3, 4, 5}, true, false, eng.engine);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, sbuf.mem}, {DNNL_ARG_DST, dbuf.mem},
            {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, scales->mem}};
    EXPECT_EQ(dnnl_primitive_execute(prim, eng.stream, 3, args), dnnl_invalid_arguments);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
    dnnl_memory_desc_destroy(rsrc);
    dnnl_memory_desc_destroy(rdst);
}

TEST(reorder, zero_size_tensor_is_a_no_op) {
    engine_t eng;
    for (auto pair : {std::make_pair(nchw(), nChw16c()), std::make_pair(nchw(), nchw())}) {
        const dims_t dims = {0, 17, 3, 3};
        auto src = make_layout(pair.first, dims, dnnl_f32);
        auto dst = make_layout(pair.second, dims, dnnl_f32);
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(dnnl_reorder_primitive_desc_create(
                          &pd, src->md, eng.engine, dst->md, eng.engine, nullptr),
                dnnl_success);
        do {
            dnnl_primitive_t prim = nullptr;
            ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
            dnnl_memory_t sm = nullptr, dm = nullptr;
            ASSERT_EQ(dnnl_memory_create(&sm, src->md, eng.engine, DNNL_MEMORY_ALLOCATE),
                    dnnl_success);
            ASSERT_EQ(dnnl_memory_create(&dm, dst->md, eng.engine, DNNL_MEMORY_ALLOCATE),
                    dnnl_success);
            dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, sm}, {DNNL_ARG_DST, dm}};
            EXPECT_EQ(dnnl_primitive_execute(prim, eng.stream, 2, args), dnnl_success);
            dnnl_memory_destroy(sm);
            dnnl_memory_destroy(dm);
            dnnl_primitive_destroy(prim);
        } while (dnnl_primitive_desc_next_impl(pd) == dnnl_success);
        dnnl_primitive_desc_destroy(pd);
    }
}

// ---- Bad input ------------------------------------------------------------------------------

struct reorder_errors : public ::testing::Test {
    void SetUp() override {
        dnnl_dims_t dims = {2, 3, 4, 5};
        ASSERT_EQ(
                dnnl_memory_desc_create_with_tag(&src, 4, dims, dnnl_f32, dnnl_nchw), dnnl_success);
        ASSERT_EQ(
                dnnl_memory_desc_create_with_tag(&dst, 4, dims, dnnl_f32, dnnl_nhwc), dnnl_success);
    }
    void TearDown() override {
        dnnl_memory_desc_destroy(src);
        dnnl_memory_desc_destroy(dst);
    }
    engine_t eng;
    dnnl_memory_desc_t src = nullptr, dst = nullptr;
    dnnl_primitive_desc_t pd = nullptr;
};

TEST_F(reorder_errors, mismatched_dims_are_invalid) {
    dnnl_dims_t other = {2, 3, 4, 6};
    dnnl_memory_desc_t md;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md, 4, other, dnnl_f32, dnnl_nhwc), dnnl_success);
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(&pd, src, eng.engine, md, eng.engine, nullptr),
            dnnl_invalid_arguments);
    dnnl_memory_desc_destroy(md);
    dnnl_dims_t three = {2, 3, 4};
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md, 3, three, dnnl_f32, dnnl_abc), dnnl_success);
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(&pd, src, eng.engine, md, eng.engine, nullptr),
            dnnl_invalid_arguments);
    dnnl_memory_desc_destroy(md);
}

TEST_F(reorder_errors, format_any_is_invalid) {
    dnnl_dims_t dims = {2, 3, 4, 5};
    dnnl_memory_desc_t md;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md, 4, dims, dnnl_f32, dnnl_format_tag_any),
            dnnl_success);
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(&pd, src, eng.engine, md, eng.engine, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(&pd, md, eng.engine, dst, eng.engine, nullptr),
            dnnl_invalid_arguments);
    dnnl_memory_desc_destroy(md);
}

TEST_F(reorder_errors, null_and_destroyed_handles_are_invalid) {
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(&pd, src, nullptr, dst, eng.engine, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(&pd, src, eng.engine, dst, nullptr, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(
            dnnl_reorder_primitive_desc_create(&pd, nullptr, eng.engine, dst, eng.engine, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(
            dnnl_reorder_primitive_desc_create(nullptr, src, eng.engine, dst, eng.engine, nullptr),
            dnnl_invalid_arguments);
    dnnl_engine_t dead = nullptr;
    ASSERT_EQ(dnnl_engine_create(&dead, dnnl_cpu, 0), dnnl_success);
    ASSERT_EQ(dnnl_engine_destroy(dead), dnnl_success);
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(&pd, src, dead, dst, eng.engine, nullptr),
            dnnl_invalid_arguments);
}

TEST_F(reorder_errors, unsupported_attributes_are_unimplemented) {
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    dnnl_post_ops_t po = nullptr;
    ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(&pd, src, eng.engine, dst, eng.engine, attr),
            dnnl_unimplemented);
    dnnl_post_ops_destroy(po);
    dnnl_primitive_attr_destroy(attr);
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_WEIGHTS, 0), dnnl_success);
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(&pd, src, eng.engine, dst, eng.engine, attr),
            dnnl_unimplemented);
    dnnl_primitive_attr_destroy(attr);
}

TEST_F(reorder_errors, wrong_memory_at_execution_is_invalid) {
    ASSERT_EQ(dnnl_reorder_primitive_desc_create(&pd, src, eng.engine, dst, eng.engine, nullptr),
            dnnl_success);
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_reorder_src_engine, 0, &e), dnnl_success);
    EXPECT_EQ(e, eng.engine);
    ASSERT_EQ(dnnl_primitive_desc_query(pd, dnnl_query_reorder_dst_engine, 0, &e), dnnl_success);
    EXPECT_EQ(e, eng.engine);
    dnnl_primitive_t prim = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
    dnnl_memory_t sm = nullptr, dm = nullptr, wrong = nullptr;
    ASSERT_EQ(dnnl_memory_create(&sm, src, eng.engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
    ASSERT_EQ(dnnl_memory_create(&dm, dst, eng.engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
    // A memory smaller than the primitive's descriptor is refused (one of the same size in
    // another layout is read through the primitive's descriptor, as oneDNN does).
    dnnl_memory_desc_t small = nullptr;
    dnnl_dims_t small_dims = {2, 3, 4, 4};
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&small, 4, small_dims, dnnl_f32, dnnl_nchw),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_create(&wrong, small, eng.engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
    dnnl_memory_desc_destroy(small);
    dnnl_exec_arg_t swapped[] = {{DNNL_ARG_SRC, wrong}, {DNNL_ARG_DST, dm}};
    EXPECT_EQ(dnnl_primitive_execute(prim, eng.stream, 2, swapped), dnnl_invalid_arguments);
    dnnl_exec_arg_t other_layout[] = {{DNNL_ARG_SRC, dm}, {DNNL_ARG_DST, sm}};
    EXPECT_EQ(dnnl_primitive_execute(prim, eng.stream, 2, other_layout), dnnl_success);
    dnnl_exec_arg_t missing[] = {{DNNL_ARG_SRC, sm}};
    EXPECT_EQ(dnnl_primitive_execute(prim, eng.stream, 1, missing), dnnl_invalid_arguments);
    dnnl_exec_arg_t good[] = {{DNNL_ARG_SRC, sm}, {DNNL_ARG_DST, dm}};
    EXPECT_EQ(dnnl_primitive_execute(prim, eng.stream, 2, good), dnnl_success);
    dnnl_memory_destroy(sm);
    dnnl_memory_destroy(dm);
    dnnl_memory_destroy(wrong);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
}

TEST_F(reorder_errors, missing_scales_at_execution_are_invalid) {
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_DST, 0), dnnl_success);
    ASSERT_EQ(dnnl_reorder_primitive_desc_create(&pd, src, eng.engine, dst, eng.engine, attr),
            dnnl_success);
    dnnl_primitive_attr_destroy(attr);
    dnnl_primitive_t prim = nullptr;
    ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
    dnnl_memory_t sm = nullptr, dm = nullptr;
    ASSERT_EQ(dnnl_memory_create(&sm, src, eng.engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
    ASSERT_EQ(dnnl_memory_create(&dm, dst, eng.engine, DNNL_MEMORY_ALLOCATE), dnnl_success);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, sm}, {DNNL_ARG_DST, dm}};
    EXPECT_EQ(dnnl_primitive_execute(prim, eng.stream, 2, args), dnnl_invalid_arguments);
    dnnl_memory_destroy(sm);
    dnnl_memory_destroy(dm);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
}
