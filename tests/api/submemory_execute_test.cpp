// A primitive made from a submemory descriptor, executed with the parent memory object, works
// on the window the descriptor (and its offset) picks out of the parent's buffer, as oneDNN's
// RNN stacks and in-place concatenations expect: at execute only the arguments' presence is
// checked, and the primitive's descriptor is applied to the handle passed. A buffer too small
// for the primitive's view and a missing argument are still refused. On the CPU engine and on
// the first GPU engine when one is present.
#include <cmath>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

#include "api/engine_list.hpp"

namespace {

using namespace dnnl;
using namespace engine_list;
using dt = memory::data_type;
using tag = memory::format_tag;

std::vector<float> iota_values(size_t n, float scale) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = scale * (static_cast<float>(i % 13) - 6.f);
    return v;
}

std::vector<float> read(const memory &m, size_t n) {
    std::vector<float> v(n);
    const float *p = m.map_data<float>();
    for (size_t i = 0; i < n; ++i)
        v[i] = p[i];
    m.unmap_data(const_cast<float *>(p));
    return v;
}

TEST(submemory_execute, eltwise_on_a_window_of_the_parent_leaves_the_rest) {
    const memory::dim rows = 5, cols = 11;
    for (const engine &eng : engines()) {
        SCOPED_TRACE(where(eng));
        stream strm(eng);
        memory::desc parent({rows, cols}, dt::f32, tag::ab);
        // Windows: a middle block, one element at the last corner, a full row.
        struct window_t {
            memory::dims dims, offsets;
        };
        for (const window_t &w :
                {window_t{{3, 6}, {1, 2}}, window_t{{1, 1}, {4, 10}}, window_t{{1, 11}, {2, 0}}}) {
            memory::desc sub = parent.submemory_desc(w.dims, w.offsets);
            std::vector<float> in = iota_values(rows * cols, 0.5f);
            memory src = filled(parent, eng, in);
            memory dst = filled(parent, eng, std::vector<float>(rows * cols, 7.f));
            eltwise_forward::primitive_desc pd(eng, prop_kind::forward_inference,
                    algorithm::eltwise_linear, sub, sub, 2.f, 1.f);
            eltwise_forward(pd).execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
            strm.wait();
            std::vector<float> got = read(dst, rows * cols);
            for (memory::dim r = 0; r < rows; ++r)
                for (memory::dim c = 0; c < cols; ++c) {
                    bool inside = r >= w.offsets[0] && r < w.offsets[0] + w.dims[0]
                                  && c >= w.offsets[1] && c < w.offsets[1] + w.dims[1];
                    float want = inside ? 2.f * in[r * cols + c] + 1.f : 7.f;
                    ASSERT_FLOAT_EQ(got[r * cols + c], want) << r << "," << c;
                }
        }
    }
}

// In-place concatenation as oneDNN's documentation builds it: each input is reordered into
// its window of the destination, the reorder made from the destination's submemory.
TEST(submemory_execute, reorders_into_windows_concatenate_in_place) {
    const memory::dim n = 2, c0 = 3, c1 = 5, hw = 7;
    for (const engine &eng : engines()) {
        SCOPED_TRACE(where(eng));
        stream strm(eng);
        memory::desc whole({n, c0 + c1, hw}, dt::f32, tag::abc);
        memory dst = filled(whole, eng, std::vector<float>(n * (c0 + c1) * hw, -1.f));
        std::vector<float> a = iota_values(n * c0 * hw, 1.f), b = iota_values(n * c1 * hw, 3.f);
        // The inputs come in another layout, so the reorders really move elements.
        memory src_a = filled(memory::desc({n, c0, hw}, dt::f32, tag::acb), eng, a);
        memory src_b = filled(memory::desc({n, c1, hw}, dt::f32, tag::acb), eng, b);
        reorder::primitive_desc ra(
                eng, src_a.get_desc(), eng, whole.submemory_desc({n, c0, hw}, {0, 0, 0}));
        reorder::primitive_desc rb(
                eng, src_b.get_desc(), eng, whole.submemory_desc({n, c1, hw}, {0, c0, 0}));
        reorder(ra).execute(strm, src_a, dst);
        reorder(rb).execute(strm, src_b, dst);
        strm.wait();
        std::vector<float> got = read(dst, n * (c0 + c1) * hw);
        for (memory::dim i = 0; i < n; ++i)
            for (memory::dim c = 0; c < c0 + c1; ++c)
                for (memory::dim s = 0; s < hw; ++s) {
                    // acb: element (i, c, s) of a tensor with C channels sits at (i*hw+s)*C+c.
                    float want =
                            c < c0 ? a[(i * hw + s) * c0 + c] : b[(i * hw + s) * c1 + (c - c0)];
                    ASSERT_FLOAT_EQ(got[(i * (c0 + c1) + c) * hw + s], want)
                            << i << "," << c << "," << s;
                }
    }
}

// A matmul reading a column window of a wider source (the K slice of a packed buffer) and
// writing a row window of a taller destination.
TEST(submemory_execute, matmul_reads_and_writes_windows) {
    const memory::dim m = 3, k = 4, n = 5, src_cols = 9, k_off = 3, dst_rows = 7, m_off = 2;
    for (const engine &eng : engines()) {
        SCOPED_TRACE(where(eng));
        stream strm(eng);
        memory::desc src_parent({m, src_cols}, dt::f32, tag::ab);
        memory::desc dst_parent({dst_rows, n}, dt::f32, tag::ab);
        memory::desc wei_md({k, n}, dt::f32, tag::ab);
        std::vector<float> sv = iota_values(m * src_cols, 0.25f), wv = iota_values(k * n, 0.5f);
        memory src = filled(src_parent, eng, sv), wei = filled(wei_md, eng, wv);
        memory dst = filled(dst_parent, eng, std::vector<float>(dst_rows * n, 9.f));
        matmul::primitive_desc pd(eng, src_parent.submemory_desc({m, k}, {0, k_off}), wei_md,
                dst_parent.submemory_desc({m, n}, {m_off, 0}));
        matmul(pd).execute(
                strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst}});
        strm.wait();
        std::vector<float> got = read(dst, dst_rows * n);
        for (memory::dim r = 0; r < dst_rows; ++r)
            for (memory::dim j = 0; j < n; ++j) {
                float want = 9.f;
                if (r >= m_off && r < m_off + m) {
                    double acc = 0;
                    for (memory::dim q = 0; q < k; ++q)
                        acc += double(sv[(r - m_off) * src_cols + k_off + q]) * wv[q * n + j];
                    want = static_cast<float>(acc);
                }
                ASSERT_NEAR(got[r * n + j], want, 1e-5f * (1.f + std::fabs(want))) << r << "," << j;
            }
    }
}

// A memory whose buffer ends before the primitive's window does is refused; so is a missing
// argument. Execution through the C API gives the status.
TEST(submemory_execute, a_buffer_too_small_or_a_missing_argument_is_refused) {
    for (const engine &eng : engines()) {
        SCOPED_TRACE(where(eng));
        stream strm(eng);
        memory::desc parent({4, 8}, dt::f32, tag::ab);
        memory::desc sub = parent.submemory_desc({2, 8}, {2, 0});
        eltwise_forward::primitive_desc pd(
                eng, prop_kind::forward_inference, algorithm::eltwise_relu, sub, sub);
        eltwise_forward prim(pd);
        // Three rows hold 24 floats; the window ends at 32.
        memory small(memory::desc({3, 8}, dt::f32, tag::ab), eng);
        memory whole(parent, eng);
        dnnl_exec_arg_t too_small[] = {{DNNL_ARG_SRC, small.get()}, {DNNL_ARG_DST, whole.get()}};
        EXPECT_EQ(dnnl_primitive_execute(prim.get(), strm.get(), 2, too_small),
                dnnl_invalid_arguments);
        dnnl_exec_arg_t missing[] = {{DNNL_ARG_SRC, whole.get()}};
        EXPECT_EQ(
                dnnl_primitive_execute(prim.get(), strm.get(), 1, missing), dnnl_invalid_arguments);
        dnnl_exec_arg_t fine[] = {{DNNL_ARG_SRC, whole.get()}, {DNNL_ARG_DST, whole.get()}};
        EXPECT_EQ(dnnl_primitive_execute(prim.get(), strm.get(), 2, fine), dnnl_success);
        strm.wait();
    }
}

} // namespace
