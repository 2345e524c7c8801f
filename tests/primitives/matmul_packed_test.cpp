// f32 matmul with weights `any` (resolved by cpu:matmul:gemm to the GEMM's 32-column panels,
// BA16a32b / aCB16b32c, read in place) or given in that layout, on every implementation,
// against a double-precision reference written here: small M (a panel-streaming path), odd
// M/N/K tails past the depth, row and column blocks, batch broadcast, bias and post-ops.
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "c_tensor.hpp"
#include "oneapi/dnnl/dnnl.h"

namespace {

using namespace c_tensor;

struct packed_case_t {
    dims_t src, wei, dst;
    dnnl_format_tag_t wtag = dnnl_format_tag_any;
    bool bias = false, relu = false;
};

class matmul_packed_test : public engine_fixture {
protected:
    // Runs every implementation; returns how many ran and the first one's weights layout.
    int run(const packed_case_t &c, dnnl_memory_desc_t *first_wei = nullptr) {
        const int nd = static_cast<int>(c.dst.size());
        dims_t bias_dims(nd, 1);
        bias_dims[nd - 1] = c.dst[nd - 1];
        dnnl_memory_desc_t smd = make_md(spec_t(c.src, dnnl_f32, dnnl_format_tag_undef));
        dnnl_memory_desc_t wmd = make_md(spec_t(c.wei, dnnl_f32, c.wtag));
        dnnl_memory_desc_t dmd = make_md(spec_t(c.dst, dnnl_f32, dnnl_format_tag_undef));
        dnnl_memory_desc_t bmd =
                c.bias ? make_md(spec_t(bias_dims, dnnl_f32, dnnl_format_tag_undef)) : nullptr;
        dnnl_primitive_attr_t attr;
        dnnl_primitive_attr_create(&attr);
        if (c.relu) {
            dnnl_post_ops_t po;
            dnnl_post_ops_create(&po);
            dnnl_post_ops_append_eltwise(po, dnnl_eltwise_relu, 0.25f, 0.f);
            dnnl_primitive_attr_set_post_ops(attr, po);
            dnnl_post_ops_destroy(po);
        }
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, engine, smd, wmd, bmd, dmd, attr),
                dnnl_success);
        int ran = 0;
        while (pd) {
            SCOPED_TRACE(impl_name(pd));
            if (ran == 0 && first_wei)
                dnnl_memory_desc_clone(
                        first_wei, dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0));
            check_one(c, pd);
            ++ran;
            if (dnnl_primitive_desc_next_impl(pd) != dnnl_success) break;
        }
        if (pd) dnnl_primitive_desc_destroy(pd);
        dnnl_primitive_attr_destroy(attr);
        for (auto m : {smd, wmd, dmd, bmd})
            if (m) dnnl_memory_desc_destroy(m);
        return ran;
    }

    void check_one(const packed_case_t &c, const_dnnl_primitive_desc_t pd) {
        auto q = [&](int arg) {
            return dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
        };
        tensor_t s(engine, q(DNNL_ARG_SRC)), w(engine, q(DNNL_ARG_WEIGHTS)),
                d(engine, q(DNNL_ARG_DST));
        s.fill_random(1);
        w.fill_random(2);
        d.fill_random(3);
        std::vector<dnnl_exec_arg_t> args{
                {DNNL_ARG_SRC, s.mem}, {DNNL_ARG_WEIGHTS, w.mem}, {DNNL_ARG_DST, d.mem}};
        std::unique_ptr<tensor_t> b;
        if (c.bias) {
            b.reset(new tensor_t(engine, q(DNNL_ARG_BIAS)));
            b->fill_random(4);
            args.push_back({DNNL_ARG_BIAS, b->mem});
        }
        ASSERT_EQ(execute(pd, args), dnnl_success);
        const int nd = static_cast<int>(c.dst.size());
        const int64_t K = c.src[nd - 1];
        int64_t pos[DNNL_MAX_NDIMS] = {};
        int bad = 0;
        do {
            int64_t sp[DNNL_MAX_NDIMS], wp[DNNL_MAX_NDIMS], bp[DNNL_MAX_NDIMS] = {};
            for (int i = 0; i < nd - 2; ++i) { // batch broadcast
                sp[i] = c.src[i] == 1 ? 0 : pos[i];
                wp[i] = c.wei[i] == 1 ? 0 : pos[i];
            }
            sp[nd - 2] = pos[nd - 2];
            wp[nd - 1] = pos[nd - 1];
            bp[nd - 1] = pos[nd - 1];
            double acc = 0;
            for (int64_t k = 0; k < K; ++k) {
                sp[nd - 1] = k;
                wp[nd - 2] = k;
                acc += double(s.get(sp)) * w.get(wp);
            }
            if (b) acc += b->get(bp);
            if (c.relu && acc < 0) acc *= 0.25;
            const double got = d.get(pos);
            if (std::fabs(got - acc) > 1e-5 * std::max(1.0, std::fabs(acc)) && bad++ < 5)
                ADD_FAILURE() << "dst element " << pos[nd - 2] << "," << pos[nd - 1] << ": got "
                              << got << " want " << acc;
        } while (next_pos(pos, c.dst.data(), nd));
    }
};

bool is_gemm_panels(const_dnnl_memory_desc_t got, const dims_t &dims) {
    dnnl_memory_desc_t want =
            make_md(spec_t(dims, dnnl_f32, dims.size() == 2 ? dnnl_BA16a32b : dnnl_aCB16b32c));
    const bool same = dnnl_memory_desc_equal(got, want) != 0;
    dnnl_memory_desc_destroy(want);
    return same;
}

TEST_F(matmul_packed_test, any_weights_become_panels_on_every_shape) {
    const std::vector<std::vector<int64_t>> shapes{
            {1, 70, 45}, {3, 600, 100}, {4, 33, 16}, {5, 17, 1}, {37, 300, 33}, {130, 1030, 70}};
    for (const auto &mkn : shapes) {
        const int64_t M = mkn[0], K = mkn[1], N = mkn[2];
        SCOPED_TRACE(std::to_string(M) + "x" + std::to_string(K) + "x" + std::to_string(N));
        dnnl_memory_desc_t wei = nullptr;
        EXPECT_GE(run({{M, K}, {K, N}, {M, N}}, &wei), 2);
        ASSERT_NE(wei, nullptr);
        EXPECT_TRUE(is_gemm_panels(wei, {K, N}));
        dnnl_memory_desc_destroy(wei);
    }
}

TEST_F(matmul_packed_test, panels_given_by_the_user_with_bias_and_post_ops) {
    packed_case_t c{{2, 70}, {70, 50}, {2, 50}, dnnl_BA16a32b, true, true};
    EXPECT_GE(run(c), 2);
    c.src = {40, 70};
    c.dst = {40, 50};
    EXPECT_GE(run(c), 2);
}

TEST_F(matmul_packed_test, batched_weights_and_broadcast_src) {
    packed_case_t c{{1, 9, 40}, {3, 40, 35}, {3, 9, 35}};
    c.bias = true;
    dnnl_memory_desc_t wei = nullptr;
    EXPECT_GE(run(c, &wei), 2);
    EXPECT_TRUE(is_gemm_panels(wei, {3, 40, 35}));
    dnnl_memory_desc_destroy(wei);
    c.src = {3, 1, 40};
    c.dst = {3, 1, 35};
    EXPECT_GE(run(c), 2);
}

} // namespace
