// Reorders to and from the 4-bit floats f4_e2m1 and f4_e3m0 (and s4/u4) on the CPU engine
// (plain, permuted and channel-blocked layouts, odd sizes, scales) against
// reorder_f4_ref.hpp's encoding written for the test.
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_debug.h"
#include "primitives/reorder_f4_ref.hpp"

namespace {

using namespace reorder_f4_ref;
using c_tensor::tensor_t;

struct reorder_f4 : public c_tensor::engine_fixture {
    void run(const case_t &c) {
        SCOPED_TRACE(c.name());
        dnnl_memory_desc_t smd = c_tensor::make_md({c.dims, c.sdt, c.stag});
        dnnl_memory_desc_t dmd = c_tensor::make_md({c.dims, c.ddt, c.dtag});
        tensor_t src(engine, smd), dst(engine, dmd);
        fill(c, src, dst);
        dnnl_primitive_attr_t attr = make_attr(c);
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(dnnl_reorder_primitive_desc_create(&pd, smd, engine, dmd, engine, attr),
                dnnl_success);
        dnnl_primitive_attr_destroy(attr);
        std::vector<dnnl_exec_arg_t> args = {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_DST, dst.mem}};
        std::vector<std::unique_ptr<tensor_t>> scales;
        for (auto arg : {DNNL_ARG_SRC, DNNL_ARG_DST}) {
            const int mask = arg == DNNL_ARG_SRC ? c.src_scale_mask : c.dst_scale_mask;
            if (mask < 0) continue;
            const std::vector<float> s = scales_of(mask, c.dims);
            scales.emplace_back(new tensor_t(engine,
                    c_tensor::spec_t({int64_t(s.size())}, dnnl_f32, dnnl_a)));
            std::memcpy(scales.back()->data(), s.data(), s.size() * sizeof(float));
            args.push_back({DNNL_ARG_ATTR_SCALES | arg, scales.back()->mem});
        }
        ASSERT_EQ(execute(pd, args), dnnl_success);
        dnnl_primitive_desc_destroy(pd);
        check(c, dst);
        dnnl_memory_desc_destroy(smd);
        dnnl_memory_desc_destroy(dmd);
    }
};

TEST_F(reorder_f4, converts_with_rounding_saturation_and_scales) {
    for (const case_t &c : cases())
        run(c);
}

// The 4-bit integers take the same path on the CPU engine: rounded (ties to even) and
// saturated to [-8, 7] and [0, 15], padding zero.
TEST_F(reorder_f4, int4_converts_with_rounding_and_saturation) {
    for (auto i4 : {dnnl_s4, dnnl_u4}) {
        run({{2, 3, 5, 7}, dnnl_f32, i4, dnnl_abcd, dnnl_acdb});
        run({{2, 20, 3, 3}, dnnl_f32, i4, dnnl_acdb, dnnl_aBcd16b, 0, -1});
        run({{3, 5, 2, 3}, i4, dnnl_f32, dnnl_acdb, dnnl_abcd});
        run({{3, 5, 2, 3}, i4, dnnl_f16, dnnl_abcd, dnnl_abcd, 2, -1});
    }
}

// The encodings themselves: every code of each type through f32 and back, and the f32
// values between codes rounding to the nearest (ties to the even code), saturating.
TEST_F(reorder_f4, every_code_and_every_tie) {
    for (auto f4 : {dnnl_f4_e2m1, dnnl_f4_e3m0}) {
        std::vector<double> values;
        for (unsigned c = 0; c < 16; ++c) {
            values.push_back(decode(f4, c));
            if ((c & 7u) < 7) values.push_back((decode(f4, c) + decode(f4, c + 1)) / 2);
        }
        values.push_back(1000.0);
        values.push_back(-1000.0);
        values.push_back(INFINITY);
        const int64_t n = int64_t(values.size());
        dnnl_memory_desc_t fmd = c_tensor::make_md({{n}, dnnl_f32, dnnl_a});
        dnnl_memory_desc_t qmd = c_tensor::make_md({{n}, f4, dnnl_a});
        tensor_t f(engine, fmd), q(engine, qmd);
        for (int64_t i = 0; i < n; ++i)
            static_cast<float *>(f.data())[i] = float(values[size_t(i)]);
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(dnnl_reorder_primitive_desc_create(&pd, fmd, engine, qmd, engine, nullptr),
                dnnl_success);
        ASSERT_EQ(execute(pd, {{DNNL_ARG_SRC, f.mem}, {DNNL_ARG_DST, q.mem}}), dnnl_success);
        dnnl_primitive_desc_destroy(pd);
        for (int64_t i = 0; i < n; ++i) {
            const int64_t pos[1] = {i};
            EXPECT_EQ(get_nibble(q, pos), encode(f4, values[size_t(i)]))
                    << dnnl_dt2str(f4) << " value " << values[size_t(i)];
        }
        dnnl_memory_desc_destroy(fmd);
        dnnl_memory_desc_destroy(qmd);
    }
}

} // namespace
