// GPU group normalization against the CPU engine: forward training (dst and statistics),
// inference with global statistics, backward (diff_src, diff scale/shift), post-ops; edge
// shapes (size 1, odd channels and spatial sizes, groups of one channel, blocked tails with
// their padding zeroed, an empty batch), f32 and bf16; unsupported attributes.
#include "gpu/gpu_vs_cpu.hpp"

namespace {

using namespace gpu_test;

constexpr unsigned scale_shift = dnnl_use_scale | dnnl_use_shift;

struct shape_t {
    std::vector<int64_t> dims;
    int64_t groups;
    dnnl_format_tag_t tag;
    dnnl_data_type_t dt;
};

const shape_t shapes[] = {
        {{1, 1, 1}, 1, dnnl_abc, dnnl_f32}, // one element
        {{2, 6, 5}, 3, dnnl_abc, dnnl_f32}, // odd spatial size
        {{2, 5, 3, 3}, 5, dnnl_abcd, dnnl_f32}, // groups of one channel, odd channels
        {{3, 7, 2, 3}, 1, dnnl_acdb, dnnl_f32}, // one group, channels last
        {{2, 20, 3, 3}, 5, dnnl_aBcd16b, dnnl_f32}, // blocked tail: padding zeroed
        {{2, 3, 2, 2, 3}, 3, dnnl_abcde, dnnl_f32}, // 3D spatial
        {{2, 8, 4}, 2, dnnl_abc, dnnl_bf16},
        {{0, 4, 3}, 2, dnnl_abc, dnnl_f32}, // empty batch
};

float tol_of(dnnl_data_type_t dt) { return dt == dnnl_bf16 ? 2e-2f : 1e-4f; }

// Forward pd of `s` with flags on engine e (prop training or inference).
dnnl_status_t make_fwd(dnnl_primitive_desc_t *pd, dnnl_engine_t e, const shape_t &s,
        dnnl_prop_kind_t prop, unsigned flags, const_dnnl_primitive_attr_t attr = nullptr) {
    dnnl_memory_desc_t m = md(s.dims, s.dt, s.tag);
    const dnnl_status_t st = dnnl_group_normalization_forward_primitive_desc_create(
            pd, e, prop, m, m, s.groups, 1e-3f, flags, attr);
    dnnl_memory_desc_destroy(m);
    return st;
}

TEST(GpuGroupNorm, ForwardTrainingDstAndStatistics) {
    SKIP_WITHOUT_GPU();
    for (const auto &s : shapes)
        for (unsigned flags : {0u, scale_shift}) {
            SCOPED_TRACE("c " + std::to_string(s.dims[1]) + " g " + std::to_string(s.groups)
                    + " flags " + std::to_string(flags));
            const std::vector<int> args = {DNNL_ARG_SRC, DNNL_ARG_DST, DNNL_ARG_MEAN,
                    DNNL_ARG_VARIANCE, DNNL_ARG_SCALE, DNNL_ARG_SHIFT};
            auto make = [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                return make_fwd(pd, e, s, dnnl_forward_training, flags);
            };
            std::vector<int> used;
            for (int a : args)
                if (a != DNNL_ARG_SCALE || (flags & dnnl_use_scale))
                    if (a != DNNL_ARG_SHIFT || (flags & dnnl_use_shift)) used.push_back(a);
            for (int out : {DNNL_ARG_DST, DNNL_ARG_MEAN, DNNL_ARG_VARIANCE})
                EXPECT_EQ(expect_gpu_matches_cpu(make, used, out, tol_of(s.dt)), 1);
        }
}

TEST(GpuGroupNorm, InferenceWithGlobalStatistics) {
    SKIP_WITHOUT_GPU();
    int i = 0;
    for (const auto &s : shapes) {
        SCOPED_TRACE("c " + std::to_string(s.dims[1]) + " g " + std::to_string(s.groups));
        // Scale alone and shift alone on some shapes, both on the others.
        const unsigned ss = i % 3 == 0 ? dnnl_use_scale : i % 3 == 1 ? dnnl_use_shift : scale_shift;
        ++i;
        std::vector<int> args = {DNNL_ARG_SRC, DNNL_ARG_DST, DNNL_ARG_MEAN, DNNL_ARG_VARIANCE};
        if (ss & dnnl_use_scale) args.push_back(DNNL_ARG_SCALE);
        if (ss & dnnl_use_shift) args.push_back(DNNL_ARG_SHIFT);
        EXPECT_EQ(expect_gpu_matches_cpu(
                          [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                              return make_fwd(pd, e, s, dnnl_forward_inference,
                                      ss | dnnl_use_global_stats);
                          },
                          args, DNNL_ARG_DST, tol_of(s.dt)),
                1);
    }
}

TEST(GpuGroupNorm, BackwardDataAndScaleShift) {
    SKIP_WITHOUT_GPU();
    for (const auto &s : shapes)
        for (unsigned flags : {0u, scale_shift, scale_shift | dnnl_use_global_stats}) {
            SCOPED_TRACE("c " + std::to_string(s.dims[1]) + " g " + std::to_string(s.groups)
                    + " flags " + std::to_string(flags));
            auto make = [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                dnnl_primitive_desc_t hint = nullptr;
                EXPECT_EQ(make_fwd(&hint, e, s, dnnl_forward_training, flags), dnnl_success);
                dnnl_memory_desc_t m = md(s.dims, s.dt, s.tag);
                const dnnl_status_t st = dnnl_group_normalization_backward_primitive_desc_create(
                        pd, e, dnnl_backward, m, m, m, s.groups, 1e-3f, flags, hint, nullptr);
                dnnl_memory_desc_destroy(m);
                dnnl_primitive_desc_destroy(hint);
                return st;
            };
            std::vector<int> args = {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC,
                    DNNL_ARG_MEAN, DNNL_ARG_VARIANCE};
            std::vector<int> outs = {DNNL_ARG_DIFF_SRC};
            if (flags & dnnl_use_scale)
                args.insert(args.end(), {DNNL_ARG_SCALE, DNNL_ARG_DIFF_SCALE, DNNL_ARG_DIFF_SHIFT});
            // Scale and shift gradients once per shape (global statistics do not change them).
            if (flags == scale_shift) outs.insert(outs.end(), {DNNL_ARG_DIFF_SCALE, DNNL_ARG_DIFF_SHIFT});
            for (int out : outs)
                EXPECT_EQ(expect_gpu_matches_cpu(make, args, out, tol_of(s.dt)), 1);
        }
}

TEST(GpuGroupNorm, ForwardPostOps) {
    SKIP_WITHOUT_GPU();
    dnnl_post_ops_t po = nullptr;
    ASSERT_EQ(dnnl_post_ops_create(&po), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_sum(po, 0.5f, 0, dnnl_data_type_undef), dnnl_success);
    ASSERT_EQ(dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.1f, 0.f), dnnl_success);
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_post_ops(attr, po), dnnl_success);
    for (const shape_t &s : {shapes[2], shapes[4]})
        EXPECT_EQ(expect_gpu_matches_cpu(
                          [&](dnnl_primitive_desc_t *pd, dnnl_engine_t e) {
                              return make_fwd(pd, e, s, dnnl_forward_inference, scale_shift, attr);
                          },
                          {DNNL_ARG_SRC, DNNL_ARG_DST, DNNL_ARG_SCALE, DNNL_ARG_SHIFT},
                          DNNL_ARG_DST),
                1);
    dnnl_primitive_attr_destroy(attr);
    dnnl_post_ops_destroy(po);
}

TEST(GpuGroupNorm, ScalesAreUnimplemented) {
    SKIP_WITHOUT_GPU();
    dnnl_engine_t gpu = nullptr;
    ASSERT_EQ(dnnl_engine_create(&gpu, dnnl_gpu, 0), dnnl_success);
    dnnl_primitive_attr_t attr = nullptr;
    ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
    ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_SRC, 0), dnnl_success);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(make_fwd(&pd, gpu, shapes[1], dnnl_forward_inference, 0, attr), dnnl_unimplemented);
    dnnl_primitive_attr_destroy(attr);
    dnnl_engine_destroy(gpu);
}

} // namespace
