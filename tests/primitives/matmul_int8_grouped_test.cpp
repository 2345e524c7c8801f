// int8 matmul with quantization along K on the CPU engine, every implementation that takes
// it (cpu:matmul:int8_k_groups and the reference), against matmul_dq_ref.hpp: src scales
// grouped along K or per row and group (oneDNN's dynamic quantization of activations),
// weights scales and zero points grouped along K, u8/s8 src with s8/u8/s4/u4 weights; groups
// whose runs interleave, odd K splitting 4-bit bytes, M of 1, K of 1, zero-size, batches,
// host-scalar scales, post-ops; what is refused.
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "c_tensor.hpp"
#include "matmul_dq_ref.hpp"

namespace {

using namespace c_tensor;
using matmul_dq_ref::wei_param_t;

struct param_spec_t {
    int mask = -1; // -1: none
    dims_t groups; // {} or two
    dnnl_data_type_t dt = dnnl_f32;
    bool host = false; // a host scalar (mask 0)
};

struct kq_case_t {
    dims_t src, wei, dst;
    dnnl_data_type_t sdt = dnnl_s8, wdt = dnnl_s8, ddt = dnnl_f32;
    dnnl_format_tag_t wtag = dnnl_format_tag_undef; // undef: row-major
    param_spec_t src_scale, wei_scale, wei_zp;
    int src_zp = 0; // common, 0: none
    float dst_scale = 0.f; // 0: none
    bool bias = false, relu = false;
};

int64_t lo_of(dnnl_data_type_t dt) {
    return dt == dnnl_s4 ? -8 : dt == dnnl_s8 ? -20 : 0;
}
int64_t hi_of(dnnl_data_type_t dt) {
    return dt == dnnl_s4 ? 7 : dt == dnnl_u4 ? 15 : dt == dnnl_s8 ? 20 : 40;
}

param_spec_t src_k_groups(int nd, int64_t gk, bool per_row, dnnl_data_type_t dt = dnnl_f32) {
    const int k = 1 << (nd - 1), m = 1 << (nd - 2);
    return {per_row ? k | m : k, {1, gk}, dt};
}
param_spec_t wei_k_groups(int nd, int64_t gk, dnnl_data_type_t dt) {
    return {(1 << (nd - 2)) | (1 << (nd - 1)), {gk, 1}, dt};
}

class matmul_int8_grouped : public engine_fixture {
protected:
    dnnl_status_t create(const kq_case_t &c, dnnl_primitive_desc_t *pd) {
        dnnl_memory_desc_t s = make_md(spec_t(c.src, c.sdt, dnnl_format_tag_undef));
        dnnl_memory_desc_t w = make_md(spec_t(c.wei, c.wdt, c.wtag));
        dnnl_memory_desc_t d = make_md(spec_t(c.dst, c.ddt, dnnl_format_tag_undef));
        dims_t bd(c.dst.size(), 1);
        bd.back() = c.dst.back();
        dnnl_memory_desc_t b
                = c.bias ? make_md(spec_t(bd, dnnl_f32, dnnl_format_tag_undef)) : nullptr;
        dnnl_primitive_attr_t attr;
        dnnl_primitive_attr_create(&attr);
        auto set = [&](const param_spec_t &p, int arg, bool zp) {
            if (p.mask < 0) return;
            dnnl_dims_t g = {};
            for (size_t i = 0; i < p.groups.size(); ++i)
                g[i] = p.groups[i];
            const int gn = static_cast<int>(p.groups.size());
            EXPECT_EQ(zp ? dnnl_primitive_attr_set_zero_points(attr, arg, p.mask, gn, g, p.dt)
                         : dnnl_primitive_attr_set_scales_v2(
                                 attr, arg, p.mask, gn, g, p.dt, p.host),
                    dnnl_success);
        };
        set(c.src_scale, DNNL_ARG_SRC, false);
        set(c.wei_scale, DNNL_ARG_WEIGHTS, false);
        set(c.wei_zp, DNNL_ARG_WEIGHTS, true);
        if (c.src_zp) dnnl_primitive_attr_set_zero_points_mask(attr, DNNL_ARG_SRC, 0);
        if (c.dst_scale != 0.f) dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_DST, 0);
        if (c.relu) {
            dnnl_post_ops_t po;
            dnnl_post_ops_create(&po);
            dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.f, 0.f);
            dnnl_primitive_attr_set_post_ops(attr, po);
            dnnl_post_ops_destroy(po);
        }
        const dnnl_status_t st = dnnl_matmul_primitive_desc_create(pd, engine, s, w, b, d, attr);
        dnnl_primitive_attr_destroy(attr);
        for (auto m : {s, w, d, b})
            if (m) dnnl_memory_desc_destroy(m);
        return st;
    }

    int run(const kq_case_t &c) {
        return on_every_impl([&](dnnl_primitive_desc_t *pd) { return create(c, pd); },
                [&](const_dnnl_primitive_desc_t pd) { check(c, pd); });
    }

    // A parameter's values (exact in every scale type) in a memory of its own; `tensor_dims`
    // of the tensor it belongs to, groups along its last two dims.
    void make_param(const param_spec_t &p, int arg, bool zp, const dims_t &tensor_dims,
            wei_param_t &ref, std::vector<std::unique_ptr<tensor_t>> &keep,
            std::vector<dnnl_memory_t> &hosts, std::vector<dnnl_exec_arg_t> &args) {
        if (p.mask < 0) return;
        const int nd = static_cast<int>(tensor_dims.size());
        ref.present = true;
        ref.mask = p.mask;
        if (!p.groups.empty()) ref.gk = p.groups[0], ref.gn = p.groups[1];
        const int64_t n = wei_param_t::count(p.mask, tensor_dims.data(), nd, ref.gk, ref.gn);
        const bool sgn = p.dt == dnnl_s8 || p.dt == dnnl_s4 || p.dt == dnnl_s32;
        for (int64_t i = 0; i < n; ++i)
            ref.values.push_back(zp ? float(i % 5 - (sgn ? 2 : 0)) : 0.125f * (1 + i % 4));
        const int a = (zp ? DNNL_ARG_ATTR_ZERO_POINTS : DNNL_ARG_ATTR_SCALES) | arg;
        if (p.host) {
            dnnl_memory_desc_t md;
            ASSERT_EQ(dnnl_memory_desc_create_host_scalar(&md, p.dt), dnnl_success);
            float v = ref.values[0];
            dnnl_memory_t m;
            ASSERT_EQ(dnnl_memory_create_host_scalar(&m, md, &v), dnnl_success);
            dnnl_memory_desc_destroy(md);
            hosts.push_back(m);
            args.push_back({a, m});
            return;
        }
        keep.emplace_back(new tensor_t(engine, spec_t({n}, p.dt, dnnl_a)));
        for (int64_t i = 0; i < n; ++i)
            keep.back()->set(&i, ref.values[i]);
        args.push_back({a, keep.back()->mem});
    }

    void fill_ints(tensor_t &t, dnnl_data_type_t dt, uint32_t seed) {
        std::mt19937 gen(seed);
        std::uniform_int_distribution<int> dist(int(lo_of(dt)), int(hi_of(dt)));
        int64_t pos[DNNL_MAX_NDIMS] = {};
        if (t.lay.nelems() > 0) do
                t.set(pos, float(dist(gen)));
            while (next_pos(pos, t.lay.dims, t.lay.ndims));
    }

    void check(const kq_case_t &c, const_dnnl_primitive_desc_t pd) {
        auto q = [&](int arg) {
            return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
        };
        tensor_t s(engine, q(DNNL_ARG_SRC)), w(engine, q(DNNL_ARG_WEIGHTS)),
                d(engine, q(DNNL_ARG_DST), 0xff);
        fill_ints(s, c.sdt, 21);
        fill_ints(w, c.wdt, 22);
        std::vector<dnnl_exec_arg_t> args
                = {{DNNL_ARG_SRC, s.mem}, {DNNL_ARG_WEIGHTS, w.mem}, {DNNL_ARG_DST, d.mem}};
        std::vector<std::unique_ptr<tensor_t>> keep;
        std::vector<dnnl_memory_t> hosts;
        if (c.bias) {
            keep.emplace_back(new tensor_t(engine, q(DNNL_ARG_BIAS)));
            keep.back()->fill_random(23);
            args.push_back({DNNL_ARG_BIAS, keep.back()->mem});
        }
        const tensor_t *bias = c.bias ? keep.back().get() : nullptr;
        matmul_dq_ref::quant_t ref;
        make_param(c.src_scale, DNNL_ARG_SRC, false, c.src, ref.src_scale, keep, hosts, args);
        make_param(c.wei_scale, DNNL_ARG_WEIGHTS, false, c.wei, ref.wei_scale, keep, hosts, args);
        make_param(c.wei_zp, DNNL_ARG_WEIGHTS, true, c.wei, ref.wei_zp, keep, hosts, args);
        auto common = [&](int arg, dnnl_data_type_t dt, float v) {
            keep.emplace_back(new tensor_t(engine, spec_t({1}, dt, dnnl_a)));
            const int64_t z = 0;
            keep.back()->set(&z, v);
            args.push_back({arg, keep.back()->mem});
        };
        if (c.src_zp) {
            common(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, dnnl_s32, float(c.src_zp));
            ref.src_zp = c.src_zp;
        }
        if (c.dst_scale != 0.f) common(DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, dnnl_f32, c.dst_scale);
        ASSERT_EQ(execute(pd, args), dnnl_success);
        for (dnnl_memory_t m : hosts)
            dnnl_memory_destroy(m);

        int64_t pos[DNNL_MAX_NDIMS] = {};
        int bad = 0;
        if (d.lay.nelems() == 0) return;
        do {
            double acc, mag;
            matmul_dq_ref::dot(s, w, ref, pos, acc, mag);
            if (bias) {
                int64_t bp[DNNL_MAX_NDIMS];
                bcast_pos(bias->lay, pos, bp);
                acc += bias->get(bp);
            }
            if (c.relu && acc < 0) acc = 0;
            if (c.dst_scale != 0.f) acc /= c.dst_scale;
            const float got = d.get(pos);
            if (!matmul_dq_ref::close(c.ddt, acc, got, mag, 2e-6) && bad++ < 5)
                ADD_FAILURE() << "dst element " << pos[0] << "," << pos[1] << ","
                              << pos[c.dst.size() - 1] << ": got " << got << " want " << acc;
        } while (next_pos(pos, d.lay.dims, d.lay.ndims));
        EXPECT_EQ(bad, 0);
    }
};

TEST_F(matmul_int8_grouped, every_src_and_weight_type_with_k_groups) {
    // oneDNN's decompression batch: src groups of 32 along K (per row, or shared by the rows),
    // weights scales and zero points in groups of 128.
    for (auto sdt : {dnnl_s8, dnnl_u8})
        for (auto wdt : {dnnl_s8, dnnl_u8, dnnl_s4, dnnl_u4})
            for (bool per_row : {false, true}) {
                SCOPED_TRACE(::testing::Message() << dnnl_dt2str(sdt) << " x "
                                                  << dnnl_dt2str(wdt) << " per_row " << per_row);
                kq_case_t c;
                c.src = {6, 256}, c.wei = {256, 100}, c.dst = {6, 100};
                c.sdt = sdt, c.wdt = wdt, c.ddt = dnnl_f16;
                c.src_scale = src_k_groups(2, 32, per_row, dnnl_f16);
                c.wei_scale = wei_k_groups(2, 128, dnnl_f16);
                c.wei_zp = wei_k_groups(2, 128, wdt);
                EXPECT_EQ(run(c), 2);
            }
}

TEST_F(matmul_int8_grouped, runs_of_interleaved_groups_and_weights_per_k) {
    // src groups of 32 and weights groups of 48 over K 96: runs of 32, 16, 16, 32.
    kq_case_t c;
    c.src = {5, 96}, c.wei = {96, 9}, c.dst = {5, 9};
    c.src_scale = src_k_groups(2, 32, true);
    c.wei_scale = wei_k_groups(2, 48, dnnl_bf16);
    EXPECT_EQ(run(c), 2);
    c.wei_scale = {1 << 0, {}, dnnl_f32}; // one per K: every product its own run
    c.wei_zp = {1 << 1, {}, dnnl_s32}; // per N
    EXPECT_EQ(run(c), 2);
}

TEST_F(matmul_int8_grouped, odd_k_splits_4bit_bytes_and_edge_shapes) {
    // K odd with 4-bit weights transposed: columns start mid-byte; M of 1; K and groups of 1.
    for (auto mnk : std::vector<dims_t> {{1, 7, 9}, {3, 5, 1}, {4, 33, 15}}) {
        for (auto wtag : {dnnl_ab, dnnl_ba}) {
            kq_case_t c;
            const int64_t M = mnk[0], N = mnk[1], K = mnk[2];
            c.src = {M, K}, c.wei = {K, N}, c.dst = {M, N};
            c.wdt = dnnl_u4, c.wtag = wtag;
            c.src_scale = src_k_groups(2, K % 3 == 0 ? 3 : 1, true);
            c.wei_zp = wei_k_groups(2, K % 5 == 0 ? 5 : 1, dnnl_u4);
            c.wei_scale = wei_k_groups(2, 1, dnnl_f32);
            EXPECT_EQ(run(c), 2);
        }
    }
}

TEST_F(matmul_int8_grouped, batches_zero_points_host_scale_and_output_stage) {
    kq_case_t c; // weights broadcast over the batch; src scales per row and group
    c.src = {3, 4, 64}, c.wei = {1, 64, 10}, c.dst = {3, 4, 10};
    c.sdt = dnnl_u8, c.wdt = dnnl_s4;
    c.src_scale = src_k_groups(3, 16, true);
    c.wei_scale = wei_k_groups(3, 32, dnnl_f32);
    c.wei_zp = wei_k_groups(3, 16, dnnl_s8);
    c.src_zp = 3;
    c.bias = c.relu = true;
    c.dst_scale = 2.f;
    EXPECT_EQ(run(c), 2);
    c.ddt = dnnl_s8; // dst quantized
    EXPECT_EQ(run(c), 2);
    kq_case_t h; // a common host-scalar src scale with grouped weights scales
    h.src = {2, 32}, h.wei = {32, 6}, h.dst = {2, 6};
    h.src_scale = {0, {}, dnnl_f32, true};
    h.wei_scale = wei_k_groups(2, 8, dnnl_f32);
    EXPECT_EQ(run(h), 2);
}

TEST_F(matmul_int8_grouped, zero_size_is_a_no_op) {
    kq_case_t c;
    c.src = {0, 64}, c.wei = {64, 8}, c.dst = {0, 8};
    c.src_scale = src_k_groups(2, 32, true);
    EXPECT_EQ(run(c), 2);
}

TEST_F(matmul_int8_grouped, refused_as_onednn_refuses) {
    dnnl_primitive_desc_t pd = nullptr;
    kq_case_t c;
    c.src = {4, 64}, c.wei = {64, 8}, c.dst = {4, 8};
    c.src_scale = {3, {2, 32}, dnnl_f32}; // groups along M
    EXPECT_EQ(create(c, &pd), dnnl_unimplemented);
    c.src_scale = src_k_groups(2, 24, false); // 24 does not divide K
    EXPECT_EQ(create(c, &pd), dnnl_unimplemented);
    c.src_scale = src_k_groups(2, 32, false, dnnl_s8); // scales are floating point
    EXPECT_EQ(create(c, &pd), dnnl_unimplemented);
    c.src_scale = src_k_groups(2, 32, false);
    c.wei_zp = {3, {32, 4}, dnnl_s8}; // zero points grouped along both K and N
    EXPECT_EQ(create(c, &pd), dnnl_unimplemented);
    EXPECT_EQ(pd, nullptr);
    kq_case_t b; // batched src scales along the batch only
    b.src = {2, 4, 64}, b.wei = {2, 64, 8}, b.dst = {2, 4, 8};
    b.src_scale = {1, {}, dnnl_f32};
    EXPECT_EQ(create(b, &pd), dnnl_unimplemented);
    EXPECT_EQ(pd, nullptr);
}

} // namespace
