// Reorders to and from s4/u4 (two elements a byte, the even one in the low half) on the GPU
// engine (ocl:reorder:nibbles writes a 4-bit dst a byte per work-item; the element kernels
// read a 4-bit src) and, for the same cases, on the CPU engine: f32, bf16, f16 and s8 on the
// other side, plain, permuted and channel-blocked layouts, odd sizes (a half-used last byte),
// scales and s32 zero points common and per channel on either side. Checked against the
// formula written below: f = ((x - src_zp) * src_scale) / dst_scale + dst_zp in f32, rounded
// to the nearest (ties to even) and saturated. Skipped without an OpenCL device.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpu/device_copy.hpp"
#include "gpu/reorder_nibbles_gpu.hpp"
#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_debug.h"
#include "primitives/reorder_nibbles_ref.hpp"

namespace {

using c_tensor::tensor_t;
using reorder_nibbles_gpu::engines_t;

struct case_t {
    std::vector<int64_t> dims;
    dnnl_data_type_t sdt, ddt;
    dnnl_format_tag_t stag, dtag;
    // Masks of the attributes (-1: absent): scales and zero points of src and dst.
    int src_scale = -1, dst_scale = -1, src_zp = -1, dst_zp = -1;
    std::string name() const {
        return std::string(dnnl_dt2str(sdt)) + "->" + dnnl_dt2str(ddt) + " "
                + dnnl_fmt_tag2str(stag) + "->" + dnnl_fmt_tag2str(dtag) + " masks "
                + std::to_string(src_scale) + "/" + std::to_string(dst_scale) + "/"
                + std::to_string(src_zp) + "/" + std::to_string(dst_zp);
    }
};

bool is_int4(dnnl_data_type_t dt) {
    return dt == dnnl_s4 || dt == dnnl_u4;
}

// Attribute values at channel c (dimension 1) for mask 2, or the common one for mask 0.
// Dst scales are powers of two, so dividing by them is exact on every device.
float src_scale_of(int mask, int64_t c) { return mask == 0 ? 1.5f : 0.5f + float(c % 3) * 0.25f; }
float dst_scale_of(int mask, int64_t c) { return mask == 0 ? 0.5f : float(1 << (c % 3)) / 2.f; }
int32_t src_zp_of(int mask, int64_t c) { return mask == 0 ? 3 : int32_t(c % 3) - 1; }
int32_t dst_zp_of(int mask, int64_t c) { return mask == 0 ? -2 : int32_t(c % 4) - 1; }

// src's value at element i of the logical order: every 4-bit value in turn, integers for s8,
// quarter steps over [-20, 20] otherwise (ties and saturation included).
float src_value(dnnl_data_type_t dt, int64_t i) {
    if (dt == dnnl_s4) return float(i * 7 % 16 - 8);
    if (dt == dnnl_u4) return float(i * 7 % 16);
    if (dt == dnnl_s8) return float(i * 13 % 41 - 20);
    return float((i * 37) % 161 - 80) / 4.f;
}

float expected(const case_t &c, float x, int64_t ch) {
    float f = x;
    if (c.src_zp >= 0) f -= float(src_zp_of(c.src_zp, ch));
    if (c.src_scale >= 0) f *= src_scale_of(c.src_scale, ch);
    if (c.dst_scale >= 0) f /= dst_scale_of(c.dst_scale, ch);
    if (c.dst_zp >= 0) f += float(dst_zp_of(c.dst_zp, ch));
    switch (c.ddt) {
        case dnnl_s4: return std::min(7.f, std::max(-8.f, std::nearbyint(f)));
        case dnnl_u4: return std::min(15.f, std::max(0.f, std::nearbyint(f)));
        case dnnl_s8: return std::min(127.f, std::max(-128.f, std::nearbyint(f)));
        case dnnl_bf16: return c_tensor::from_bf16(c_tensor::to_bf16(f));
        case dnnl_f16: return c_tensor::from_f16(c_tensor::to_f16(f));
        default: return f;
    }
}

// One argument's attribute array: f32 scales or s32 zero points, one per channel or one.
struct quant_array_t {
    int arg;
    std::vector<float> scales;
    std::vector<int32_t> zps;
};

std::vector<quant_array_t> arrays(const case_t &c) {
    std::vector<quant_array_t> v;
    const int64_t C = c.dims[1];
    auto count = [&](int mask) { return mask == 2 ? C : int64_t(1); };
    if (c.src_scale >= 0) {
        v.push_back({DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, {}, {}});
        for (int64_t i = 0; i < count(c.src_scale); ++i)
            v.back().scales.push_back(src_scale_of(c.src_scale, i));
    }
    if (c.dst_scale >= 0) {
        v.push_back({DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, {}, {}});
        for (int64_t i = 0; i < count(c.dst_scale); ++i)
            v.back().scales.push_back(dst_scale_of(c.dst_scale, i));
    }
    if (c.src_zp >= 0) {
        v.push_back({DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, {}, {}});
        for (int64_t i = 0; i < count(c.src_zp); ++i)
            v.back().zps.push_back(src_zp_of(c.src_zp, i));
    }
    if (c.dst_zp >= 0) {
        v.push_back({DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST, {}, {}});
        for (int64_t i = 0; i < count(c.dst_zp); ++i)
            v.back().zps.push_back(dst_zp_of(c.dst_zp, i));
    }
    return v;
}

dnnl_primitive_attr_t make_attr(const case_t &c) {
    dnnl_primitive_attr_t attr = nullptr;
    EXPECT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    if (c.src_scale >= 0) {
        EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, c.src_scale),
                dnnl_success);
    }
    if (c.dst_scale >= 0) {
        EXPECT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_DST, c.dst_scale),
                dnnl_success);
    }
    if (c.src_zp >= 0) {
        EXPECT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_SRC, c.src_zp),
                dnnl_success);
    }
    if (c.dst_zp >= 0) {
        EXPECT_EQ(dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_DST, c.dst_zp),
                dnnl_success);
    }
    return attr;
}

void fill_src(const case_t &c, tensor_t &src) {
    int64_t pos[DNNL_MAX_NDIMS] = {};
    int64_t i = 0;
    do {
        src.set(pos, src_value(c.sdt, i++));
    } while (c_tensor::next_pos(pos, src.lay.dims, src.lay.ndims));
}

void check(const case_t &c, const tensor_t &dst, const char *engine) {
    const std::string what = std::string(engine) + " " + c.name();
    reorder_nibbles_ref::check_elements(
            dst, is_int4(c.ddt), what, [&](int64_t i, const int64_t *pos) {
                const float x = src_value(c.sdt, i);
                ASSERT_EQ(dst.get(pos), expected(c, x, pos[1]))
                        << what << " element " << i << " of value " << x;
            });
}

// Runs c on `eng` (the CPU engine, or the GPU one with device copies) and checks dst.
void run(const engines_t &e, dnnl_engine_t eng, const case_t &c) {
    SCOPED_TRACE(c.name());
    const bool gpu = eng == e.gpu;
    dnnl_memory_desc_t smd = gpu_test::md(c.dims, c.sdt, c.stag);
    dnnl_memory_desc_t dmd = gpu_test::md(c.dims, c.ddt, c.dtag);
    tensor_t src(e.cpu, smd), dst(e.cpu, dmd, 0xff);
    fill_src(c, src);
    dnnl_primitive_attr_t attr = make_attr(c);
    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_reorder_primitive_desc_create(&pd, smd, eng, dmd, eng, attr), dnnl_success);
    dnnl_primitive_attr_destroy(attr);
    if (gpu && is_int4(c.ddt)) {
        const char *name = nullptr;
        dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
        EXPECT_STREQ(name, "ocl:reorder:nibbles");
    }
    std::vector<std::unique_ptr<tensor_t>> hosts;
    std::vector<std::unique_ptr<gpu_test::device_memory_t>> devs;
    std::unique_ptr<gpu_test::device_memory_t> dsrc, ddst;
    std::vector<dnnl_exec_arg_t> args;
    if (gpu) {
        dsrc.reset(new gpu_test::device_memory_t(e.gpu, smd));
        ddst.reset(new gpu_test::device_memory_t(e.gpu, dmd));
        dsrc->upload(src);
        ddst->upload(dst);
        args = {{DNNL_ARG_SRC, dsrc->mem}, {DNNL_ARG_DST, ddst->mem}};
    } else {
        args = {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_DST, dst.mem}};
    }
    for (const quant_array_t &a : arrays(c)) {
        const bool zp = !a.zps.empty();
        const int64_t n = int64_t(zp ? a.zps.size() : a.scales.size());
        dnnl_memory_desc_t qmd = gpu_test::md({n}, zp ? dnnl_s32 : dnnl_f32, dnnl_a);
        hosts.emplace_back(new tensor_t(e.cpu, qmd));
        std::memcpy(hosts.back()->data(), zp ? (const void *)a.zps.data() : a.scales.data(),
                size_t(n) * 4);
        dnnl_memory_t m = hosts.back()->mem;
        if (gpu) {
            devs.emplace_back(new gpu_test::device_memory_t(e.gpu, qmd));
            devs.back()->upload(*hosts.back());
            m = devs.back()->mem;
        }
        dnnl_memory_desc_destroy(qmd);
        args.push_back({a.arg, m});
    }
    gpu_test::execute(eng, pd, args);
    dnnl_primitive_desc_destroy(pd);
    if (gpu) ddst->download(dst);
    check(c, dst, gpu ? "gpu" : "cpu");
    dnnl_memory_desc_destroy(smd);
    dnnl_memory_desc_destroy(dmd);
}

std::vector<case_t> cases() {
    std::vector<case_t> v;
    for (auto i4 : {dnnl_s4, dnnl_u4}) {
        for (auto other : {dnnl_f32, dnnl_bf16, dnnl_f16, dnnl_s8}) {
            v.push_back({{2, 3, 5, 7}, other, i4, dnnl_abcd, dnnl_abcd});
            v.push_back({{2, 3, 5, 7}, i4, other, dnnl_abcd, dnnl_abcd});
        }
        v.push_back({{3, 5, 2, 3}, dnnl_f32, i4, dnnl_acdb, dnnl_abcd});
        v.push_back({{3, 5, 2, 3}, i4, dnnl_f32, dnnl_abcd, dnnl_acdb});
        v.push_back({{2, 20, 3, 3}, dnnl_f32, i4, dnnl_abcd, dnnl_aBcd16b}); // padded channels
        v.push_back({{2, 20, 3, 3}, i4, dnnl_f16, dnnl_aBcd16b, dnnl_acdb});
        v.push_back({{1, 1, 1, 1}, dnnl_f32, i4, dnnl_abcd, dnnl_abcd});
        // Quantization: the weight-only-quantization path (f32 -> 4-bit with a scale and a
        // zero point) and back, common and per channel.
        v.push_back({{2, 4, 3, 5}, dnnl_f32, i4, dnnl_abcd, dnnl_abcd, -1, 0, -1, 0});
        v.push_back({{2, 4, 3, 5}, dnnl_f32, i4, dnnl_abcd, dnnl_acdb, -1, 2, -1, 2});
        v.push_back({{2, 4, 3, 5}, dnnl_bf16, i4, dnnl_acdb, dnnl_abcd, 2, 0, -1, 2});
        v.push_back({{2, 4, 3, 5}, i4, dnnl_f32, dnnl_abcd, dnnl_abcd, 0, -1, 0, -1});
        v.push_back({{2, 4, 3, 5}, i4, dnnl_f32, dnnl_acdb, dnnl_abcd, 2, -1, 2, -1});
        v.push_back({{2, 4, 3, 5}, i4, dnnl_s8, dnnl_abcd, dnnl_abcd, 2, 0, 0, 0});
    }
    v.push_back({{2, 5, 3, 3}, dnnl_s4, dnnl_u4, dnnl_abcd, dnnl_acdb, -1, -1, -1, 0});
    v.push_back({{2, 5, 3, 3}, dnnl_u4, dnnl_s4, dnnl_acdb, dnnl_aBcd16b, -1, -1, 0, -1});
    return v;
}

// Fewer cases for the GPU (each builds its program): every kernel, layout kind, type pair
// direction and attribute kind at least once.
std::vector<case_t> gpu_cases() {
    std::vector<case_t> v;
    v.push_back({{2, 3, 5, 7}, dnnl_f32, dnnl_s4, dnnl_abcd, dnnl_abcd});
    v.push_back({{3, 5, 2, 3}, dnnl_u4, dnnl_f16, dnnl_abcd, dnnl_acdb});
    v.push_back({{2, 20, 3, 3}, dnnl_bf16, dnnl_u4, dnnl_abcd, dnnl_aBcd16b});
    v.push_back({{2, 20, 3, 3}, dnnl_s4, dnnl_f32, dnnl_aBcd16b, dnnl_acdb});
    v.push_back({{2, 3, 5, 7}, dnnl_s8, dnnl_u4, dnnl_abcd, dnnl_abcd});
    v.push_back({{2, 3, 5, 7}, dnnl_s4, dnnl_bf16, dnnl_abcd, dnnl_abcd});
    v.push_back({{1, 1, 1, 1}, dnnl_f32, dnnl_u4, dnnl_abcd, dnnl_abcd});
    v.push_back({{2, 4, 3, 5}, dnnl_f32, dnnl_s4, dnnl_abcd, dnnl_acdb, -1, 2, -1, 2});
    v.push_back({{2, 4, 3, 5}, dnnl_bf16, dnnl_u4, dnnl_acdb, dnnl_abcd, 2, 0, -1, 0});
    v.push_back({{2, 4, 3, 5}, dnnl_u4, dnnl_f32, dnnl_acdb, dnnl_abcd, 2, -1, 2, -1});
    v.push_back({{2, 4, 3, 5}, dnnl_s4, dnnl_s8, dnnl_abcd, dnnl_abcd, 0, 0, 0, 0});
    v.push_back({{2, 5, 3, 3}, dnnl_u4, dnnl_s4, dnnl_acdb, dnnl_aBcd16b, -1, -1, 0, -1});
    return v;
}

TEST(reorder_int4, cpu_engine) {
    engines_t e;
    for (const case_t &c : cases())
        run(e, e.cpu, c);
}

TEST(reorder_int4, gpu_engine) {
    SKIP_WITHOUT_GPU();
    engines_t e;
    for (const case_t &c : gpu_cases())
        run(e, e.gpu, c);
}

// A 4-bit dst with gaps, or one on another engine, stays refused.
TEST(reorder_int4, gpu_refuses_dst_with_gaps_and_cross_engine) {
    SKIP_WITHOUT_GPU();
    engines_t e;
    reorder_nibbles_gpu::expect_gapped_and_cross_engine_refused(e, dnnl_s4, dnnl_u4);
}

} // namespace
