// Inner-product weight scales with oneDNN's masks: weights are {OC, IC, spatial...}, so mask 1
// (dimension 0) is one scale per output channel; a mask over input channels (2) cannot be
// folded into the output and is unimplemented. Checked against a plain loop written here, with
// OC != IC (so a mix-up of the two cannot pass), 2D and 4D sources, on the CPU engine and on the
// first GPU engine when one is present.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl.hpp"

#include "api/engine_list.hpp"

namespace {

using namespace dnnl;
using namespace engine_list;
using dt = memory::data_type;
using tag = memory::format_tag;

TEST(inner_product_scales, weights_mask_1_is_per_output_channel) {
    struct shape_t {
        memory::dims src, wei;
        tag stag, wtag;
    };
    const std::vector<shape_t> shapes = {
            {{3, 7}, {5, 7}, tag::ab, tag::ab},
            {{1, 1}, {1, 1}, tag::ab, tag::ab},
            {{2, 3, 2, 3}, {17, 3, 2, 3}, tag::nchw, tag::oihw},
    };
    for (const engine &eng : engines()) {
        SCOPED_TRACE(where(eng));
        stream strm(eng);
        for (const auto &s : shapes) {
            const memory::dim mb = s.src[0], oc = s.wei[0];
            memory::dim k = 1;
            for (size_t i = 1; i < s.src.size(); ++i)
                k *= s.src[i];
            std::vector<float> src(mb * k), wei(oc * k), bias(oc), wsc(oc);
            for (size_t i = 0; i < src.size(); ++i)
                src[i] = static_cast<float>(int(i * 7 % 13) - 6) * 0.25f;
            for (size_t i = 0; i < wei.size(); ++i)
                wei[i] = static_cast<float>(int(i * 5 % 11) - 5) * 0.5f;
            for (memory::dim o = 0; o < oc; ++o) {
                bias[o] = 0.125f * static_cast<float>(o % 5);
                wsc[o] = std::ldexp(1.f, static_cast<int>(o % 4) - 1); // 0.5 .. 4, exact
            }
            const float src_scale = 2.f;
            memory::desc smd(s.src, dt::f32, s.stag), wmd(s.wei, dt::f32, s.wtag);
            memory::desc bmd({oc}, dt::f32, tag::x), dmd({mb, oc}, dt::f32, tag::ab);
            primitive_attr attr;
            attr.set_scales_mask(DNNL_ARG_SRC, 0);
            attr.set_scales_mask(DNNL_ARG_WEIGHTS, 1 << 0);
            inner_product_forward::primitive_desc pd(
                    eng, prop_kind::forward_inference, smd, wmd, bmd, dmd, attr);
            memory mdst(dmd, eng);
            inner_product_forward(pd).execute(strm,
                    {{DNNL_ARG_SRC, filled(smd, eng, src)},
                            {DNNL_ARG_WEIGHTS, filled(wmd, eng, wei)},
                            {DNNL_ARG_BIAS, filled(bmd, eng, bias)}, {DNNL_ARG_DST, mdst},
                            {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC,
                                    filled(memory::desc({1}, dt::f32, tag::x), eng,
                                            {src_scale})},
                            {DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS,
                                    filled(memory::desc({oc}, dt::f32, tag::x), eng, wsc)}});
            strm.wait();
            const float *dst = mdst.map_data<float>();
            for (memory::dim n = 0; n < mb; ++n)
                for (memory::dim o = 0; o < oc; ++o) {
                    double acc = 0, mag = 0;
                    for (memory::dim i = 0; i < k; ++i) {
                        acc += double(src[n * k + i]) * wei[o * k + i];
                        mag += std::fabs(double(src[n * k + i]) * wei[o * k + i]);
                    }
                    const double want = acc * src_scale * wsc[o] + bias[o];
                    EXPECT_NEAR(dst[n * oc + o], want, 1e-5 * (mag * src_scale * wsc[o] + 1))
                            << n << "," << o;
                }
            mdst.unmap_data(const_cast<float *>(dst));
        }
    }
}

TEST(inner_product_scales, weights_mask_over_input_channels_is_unimplemented) {
    for (const engine &eng : engines()) {
        memory::desc smd({3, 7}, dt::f32, tag::ab), wmd({5, 7}, dt::f32, tag::ab),
                dmd({3, 5}, dt::f32, tag::ab);
        for (int mask : {1 << 1, (1 << 0) | (1 << 1)}) {
            dnnl_primitive_attr_t attr = nullptr;
            ASSERT_EQ(dnnl_primitive_attr_create(&attr), dnnl_success);
            ASSERT_EQ(dnnl_primitive_attr_set_scales_mask(attr, DNNL_ARG_WEIGHTS, mask),
                    dnnl_success);
            dnnl_primitive_desc_t pd = nullptr;
            EXPECT_EQ(dnnl_inner_product_forward_primitive_desc_create(&pd, eng.get(),
                              dnnl_forward_inference, smd.get(), wmd.get(), nullptr,
                              dmd.get(), attr),
                    dnnl_unimplemented)
                    << mask;
            dnnl_primitive_desc_destroy(pd);
            dnnl_primitive_attr_destroy(attr);
        }
    }
}

} // namespace
