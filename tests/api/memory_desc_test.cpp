// Memory descriptors through the public C and C++ APIs: creation, sizes (plain, blocked,
// padded tails, sub-byte, zero-size), strides, submemory, reshape, permutation, every
// query, equality, blobs, and bad input on every entry point.
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl.hpp"

namespace {

// Owns a C descriptor for the length of a test.
struct md_t {
    dnnl_memory_desc_t md = nullptr;
    md_t() = default;
    md_t(const md_t &) = delete;
    md_t &operator=(const md_t &) = delete;
    ~md_t() { dnnl_memory_desc_destroy(md); }
    dnnl_memory_desc_t *out() {
        dnnl_memory_desc_destroy(md);
        md = nullptr;
        return &md;
    }
    operator const_dnnl_memory_desc_t() const { return md; }
};

std::vector<dnnl_dim_t> as_vec(const dnnl_dim_t *v, int n) {
    return std::vector<dnnl_dim_t>(v, v + n);
}

using dims_v = std::vector<dnnl_dim_t>;

dims_v query_dims(const_dnnl_memory_desc_t md, dnnl_query_t what, int n) {
    const dnnl_dims_t *p = nullptr;
    EXPECT_EQ(dnnl_memory_desc_query(md, what, &p), dnnl_success);
    return p ? as_vec(*p, n) : dims_v {};
}

int query_int(const_dnnl_memory_desc_t md, dnnl_query_t what) {
    int v = -1;
    EXPECT_EQ(dnnl_memory_desc_query(md, what, &v), dnnl_success);
    return v;
}

dims_v strides_of(const_dnnl_memory_desc_t md) {
    return query_dims(md, dnnl_query_strides, query_int(md, dnnl_query_ndims_s32));
}

dnnl_dim_t offset0_of(const_dnnl_memory_desc_t md) {
    dnnl_dim_t v = -1;
    EXPECT_EQ(dnnl_memory_desc_query(md, dnnl_query_submemory_offset_s64, &v), dnnl_success);
    return v;
}

dnnl_status_t make_tag(md_t &m, dims_v dims, dnnl_data_type_t dt, dnnl_format_tag_t tag) {
    return dnnl_memory_desc_create_with_tag(
            m.out(), static_cast<int>(dims.size()), dims.data(), dt, tag);
}

dnnl_status_t make_strides(md_t &m, dims_v dims, dnnl_data_type_t dt, dims_v strides) {
    return dnnl_memory_desc_create_with_strides(m.out(), static_cast<int>(dims.size()),
            dims.data(), dt, strides.empty() ? nullptr : strides.data());
}

} // namespace

// ---- sizes ---------------------------------------------------------------------------

TEST(memory_desc, data_type_sizes) {
    EXPECT_EQ(dnnl_data_type_size(dnnl_f32), 4u);
    EXPECT_EQ(dnnl_data_type_size(dnnl_s32), 4u);
    EXPECT_EQ(dnnl_data_type_size(dnnl_f16), 2u);
    EXPECT_EQ(dnnl_data_type_size(dnnl_bf16), 2u);
    EXPECT_EQ(dnnl_data_type_size(dnnl_s8), 1u);
    EXPECT_EQ(dnnl_data_type_size(dnnl_u8), 1u);
    EXPECT_EQ(dnnl_data_type_size(dnnl_boolean), 1u);
    EXPECT_EQ(dnnl_data_type_size(dnnl_f8_e5m2), 1u);
    EXPECT_EQ(dnnl_data_type_size(dnnl_f8_e4m3), 1u);
    EXPECT_EQ(dnnl_data_type_size(dnnl_e8m0), 1u);
    EXPECT_EQ(dnnl_data_type_size(dnnl_f64), 8u);
    EXPECT_EQ(dnnl_data_type_size(dnnl_s64), 8u);
    EXPECT_EQ(dnnl_data_type_size(dnnl_s4), 1u);
    EXPECT_EQ(dnnl_data_type_size(dnnl_u4), 1u);
    EXPECT_EQ(dnnl_data_type_size(dnnl_f4_e2m1), 1u);
    EXPECT_EQ(dnnl_data_type_size(dnnl_data_type_undef), 0u);
}

TEST(memory_desc, plain_layouts_have_dense_strides_and_sizes) {
    md_t nchw, nhwc;
    ASSERT_EQ(make_tag(nchw, {2, 3, 4, 5}, dnnl_f32, dnnl_nchw), dnnl_success);
    ASSERT_EQ(make_tag(nhwc, {2, 3, 4, 5}, dnnl_f32, dnnl_nhwc), dnnl_success);
    EXPECT_EQ(strides_of(nchw), (dims_v {60, 20, 5, 1}));
    EXPECT_EQ(strides_of(nhwc), (dims_v {60, 1, 15, 3}));
    EXPECT_EQ(dnnl_memory_desc_get_size(nchw), 2u * 3 * 4 * 5 * 4);
    EXPECT_EQ(dnnl_memory_desc_get_size(nhwc), 2u * 3 * 4 * 5 * 4);
    EXPECT_EQ(query_int(nchw, dnnl_query_inner_nblks_s32), 0);
    EXPECT_EQ(dnnl_memory_desc_equal(nchw, nhwc), 0);
}

TEST(memory_desc, blocked_tail_is_padded_to_the_block) {
    md_t m;
    ASSERT_EQ(make_tag(m, {1, 17, 3, 3}, dnnl_f32, dnnl_nChw16c), dnnl_success);
    EXPECT_EQ(query_dims(m, dnnl_query_dims, 4), (dims_v {1, 17, 3, 3}));
    EXPECT_EQ(query_dims(m, dnnl_query_padded_dims, 4), (dims_v {1, 32, 3, 3}));
    EXPECT_EQ(query_dims(m, dnnl_query_padded_offsets, 4), (dims_v {0, 0, 0, 0}));
    EXPECT_EQ(strides_of(m), (dims_v {288, 144, 48, 16}));
    EXPECT_EQ(query_int(m, dnnl_query_inner_nblks_s32), 1);
    EXPECT_EQ(query_dims(m, dnnl_query_inner_blks, 1), (dims_v {16}));
    EXPECT_EQ(query_dims(m, dnnl_query_inner_idxs, 1), (dims_v {1}));
    EXPECT_EQ(dnnl_memory_desc_get_size(m), 32u * 3 * 3 * 4);
}

TEST(memory_desc, several_blocks_of_one_dimension) {
    // OIhw4i16o4i: i is blocked twice (4 * 4), o once; both pad 20 up to 32.
    md_t m;
    ASSERT_EQ(make_tag(m, {20, 20, 3, 3}, dnnl_f32, dnnl_OIhw4i16o4i), dnnl_success);
    EXPECT_EQ(query_dims(m, dnnl_query_padded_dims, 4), (dims_v {32, 32, 3, 3}));
    EXPECT_EQ(query_int(m, dnnl_query_inner_nblks_s32), 3);
    EXPECT_EQ(query_dims(m, dnnl_query_inner_blks, 3), (dims_v {4, 16, 4}));
    EXPECT_EQ(query_dims(m, dnnl_query_inner_idxs, 3), (dims_v {1, 0, 1}));
    // Outer: O (2 blocks), I (2 blocks), h, w; one inner block is 256 elements.
    EXPECT_EQ(strides_of(m), (dims_v {2 * 9 * 256, 9 * 256, 3 * 256, 256}));
    EXPECT_EQ(dnnl_memory_desc_get_size(m), 32u * 32 * 9 * 4);
}

TEST(memory_desc, sub_byte_types_round_the_size_up) {
    md_t a, b;
    ASSERT_EQ(make_tag(a, {5}, dnnl_s4, dnnl_a), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_get_size(a), 3u);
    ASSERT_EQ(make_tag(b, {2, 3}, dnnl_u4, dnnl_ab), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_get_size(b), 3u);
    ASSERT_EQ(make_tag(b, {2, 4}, dnnl_f4_e2m1, dnnl_ab), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_get_size(b), 4u);
}

TEST(memory_desc, zero_size_dimensions_make_an_empty_tensor) {
    md_t m;
    ASSERT_EQ(make_tag(m, {2, 0, 3}, dnnl_f32, dnnl_abc), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_get_size(m), 0u);
    EXPECT_EQ(query_dims(m, dnnl_query_dims, 3), (dims_v {2, 0, 3}));
    EXPECT_EQ(query_dims(m, dnnl_query_padded_dims, 3), (dims_v {2, 0, 3}));
    md_t b;
    ASSERT_EQ(make_tag(b, {0, 17, 2}, dnnl_f32, dnnl_aBc16b), dnnl_success);
    EXPECT_EQ(query_dims(b, dnnl_query_padded_dims, 3), (dims_v {0, 32, 2}));
    EXPECT_EQ(dnnl_memory_desc_get_size(b), 0u);
    md_t s;
    ASSERT_EQ(make_strides(s, {4, 0}, dnnl_f32, {}), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_get_size(s), 0u);
}

TEST(memory_desc, format_any_has_no_size_or_strides) {
    md_t m;
    ASSERT_EQ(make_tag(m, {2, 3}, dnnl_f32, dnnl_format_tag_any), dnnl_success);
    dnnl_format_kind_t fk = dnnl_blocked;
    ASSERT_EQ(dnnl_memory_desc_query(m, dnnl_query_format_kind, &fk), dnnl_success);
    EXPECT_EQ(fk, dnnl_format_kind_any);
    EXPECT_EQ(dnnl_memory_desc_get_size(m), 0u);
    const dnnl_dims_t *p = nullptr;
    EXPECT_EQ(dnnl_memory_desc_query(m, dnnl_query_strides, &p), dnnl_invalid_arguments);
}

TEST(memory_desc, runtime_dimensions) {
    md_t m;
    ASSERT_EQ(make_tag(m, {DNNL_RUNTIME_DIM_VAL, 4}, dnnl_f32, dnnl_ab), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_get_size(m), DNNL_RUNTIME_SIZE_VAL);
    EXPECT_EQ(strides_of(m), (dims_v {4, 1}));
    ASSERT_EQ(make_tag(m, {3, DNNL_RUNTIME_DIM_VAL}, dnnl_f32, dnnl_ab), dnnl_success);
    EXPECT_EQ(strides_of(m), (dims_v {DNNL_RUNTIME_DIM_VAL, 1}));
    ASSERT_EQ(make_strides(m, {3, 4}, dnnl_f32, {DNNL_RUNTIME_DIM_VAL, 1}), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_get_size(m), DNNL_RUNTIME_SIZE_VAL);
    // A runtime extent cannot be cut into blocks.
    EXPECT_EQ(make_tag(m, {1, DNNL_RUNTIME_DIM_VAL, 2, 2}, dnnl_f32, dnnl_nChw16c),
            dnnl_invalid_arguments);
}

// ---- strides ---------------------------------------------------------------------------

TEST(memory_desc, strides_describe_any_non_overlapping_layout) {
    md_t rowmajor, tag_ab, colmajor, tag_ba, gappy;
    ASSERT_EQ(make_strides(rowmajor, {2, 3}, dnnl_f32, {}), dnnl_success);
    ASSERT_EQ(make_tag(tag_ab, {2, 3}, dnnl_f32, dnnl_ab), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(rowmajor, tag_ab), 1);
    ASSERT_EQ(make_strides(colmajor, {2, 3}, dnnl_f32, {1, 2}), dnnl_success);
    ASSERT_EQ(make_tag(tag_ba, {2, 3}, dnnl_f32, dnnl_ba), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(colmajor, tag_ba), 1);
    EXPECT_EQ(dnnl_memory_desc_get_size(colmajor), 24u);
    // Rows 8 elements apart: the buffer reaches the end of the last padded row.
    ASSERT_EQ(make_strides(gappy, {2, 3}, dnnl_f32, {8, 1}), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_get_size(gappy), 2u * 8 * 4);
    EXPECT_EQ(dnnl_memory_desc_equal(gappy, tag_ab), 0);
    EXPECT_EQ(strides_of(gappy), (dims_v {8, 1}));
}

TEST(memory_desc, strides_of_extent_one_dimensions_do_not_matter) {
    md_t a, b, c;
    ASSERT_EQ(make_strides(a, {1, 3}, dnnl_f32, {3, 1}), dnnl_success);
    ASSERT_EQ(make_strides(b, {1, 3}, dnnl_f32, {1, 1}), dnnl_success);
    ASSERT_EQ(make_strides(c, {1, 3}, dnnl_f32, {100, 1}), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(a, b), 1);
    EXPECT_EQ(dnnl_memory_desc_equal(a, c), 1);
}

TEST(memory_desc, overlapping_or_negative_strides_are_refused) {
    md_t m;
    EXPECT_EQ(make_strides(m, {2, 3}, dnnl_f32, {2, 1}), dnnl_invalid_arguments);
    EXPECT_EQ(make_strides(m, {2, 3}, dnnl_f32, {0, 1}), dnnl_invalid_arguments);
    EXPECT_EQ(make_strides(m, {2, 3}, dnnl_f32, {3, 3}), dnnl_invalid_arguments);
    EXPECT_EQ(make_strides(m, {2, 3}, dnnl_f32, {-3, 1}), dnnl_invalid_arguments);
    EXPECT_EQ(m.md, nullptr);
}

// ---- equality ---------------------------------------------------------------------------

TEST(memory_desc, equality) {
    md_t a, b, c, d;
    ASSERT_EQ(make_tag(a, {2, 32, 4, 4}, dnnl_f32, dnnl_nChw16c), dnnl_success);
    ASSERT_EQ(make_tag(b, {2, 32, 4, 4}, dnnl_f32, dnnl_aBcd16b), dnnl_success);
    ASSERT_EQ(make_tag(c, {2, 32, 4, 4}, dnnl_f32, dnnl_nChw8c), dnnl_success);
    ASSERT_EQ(make_tag(d, {2, 32, 4, 4}, dnnl_bf16, dnnl_nChw16c), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(a, b), 1);
    EXPECT_EQ(dnnl_memory_desc_equal(a, c), 0);
    EXPECT_EQ(dnnl_memory_desc_equal(a, d), 0);
    EXPECT_EQ(dnnl_memory_desc_equal(a, a), 1);
    EXPECT_EQ(dnnl_memory_desc_equal(a, nullptr), 0);
    EXPECT_EQ(dnnl_memory_desc_equal(nullptr, a), 0);
    EXPECT_EQ(dnnl_memory_desc_equal(nullptr, nullptr), 1);
    md_t z1, z2;
    ASSERT_EQ(make_tag(z1, {}, dnnl_data_type_undef, dnnl_format_tag_undef), dnnl_success);
    ASSERT_EQ(make_tag(z2, {}, dnnl_f32, dnnl_format_tag_any), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(z1, z2), 1);
    EXPECT_EQ(dnnl_memory_desc_equal(z1, a), 0);
}

TEST(memory_desc, clone_is_equal_and_independent) {
    md_t a, b;
    ASSERT_EQ(make_tag(a, {2, 17, 3, 3}, dnnl_f32, dnnl_nChw16c), dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_clone(b.out(), a), dnnl_success);
    EXPECT_NE(b.md, a.md);
    EXPECT_EQ(dnnl_memory_desc_equal(a, b), 1);
    dnnl_memory_desc_destroy(a.md);
    a.md = nullptr;
    EXPECT_EQ(dnnl_memory_desc_get_size(b), 2u * 32 * 9 * 4);
}

// ---- submemory ---------------------------------------------------------------------------

TEST(memory_desc, submemory_of_plain_layout) {
    md_t parent, sub, subsub;
    ASSERT_EQ(make_tag(parent, {4, 6}, dnnl_f32, dnnl_ab), dnnl_success);
    dnnl_dims_t dims = {2, 3}, offs = {1, 2};
    ASSERT_EQ(dnnl_memory_desc_create_submemory(sub.out(), parent, dims, offs), dnnl_success);
    EXPECT_EQ(query_dims(sub, dnnl_query_dims, 2), (dims_v {2, 3}));
    EXPECT_EQ(query_dims(sub, dnnl_query_padded_dims, 2), (dims_v {2, 3}));
    EXPECT_EQ(strides_of(sub), (dims_v {6, 1}));
    EXPECT_EQ(offset0_of(sub), 1 * 6 + 2);
    dnnl_dims_t dims2 = {1, 2}, offs2 = {1, 1};
    ASSERT_EQ(dnnl_memory_desc_create_submemory(subsub.out(), sub, dims2, offs2), dnnl_success);
    EXPECT_EQ(offset0_of(subsub), 8 + 6 + 1);
    EXPECT_EQ(strides_of(subsub), (dims_v {6, 1}));
    EXPECT_EQ(dnnl_memory_desc_equal(sub, parent), 0);
}

TEST(memory_desc, submemory_must_fit_in_the_parent) {
    md_t parent, sub;
    ASSERT_EQ(make_tag(parent, {4, 6}, dnnl_f32, dnnl_ab), dnnl_success);
    dnnl_dims_t d1 = {2, 3}, o1 = {3, 0};
    EXPECT_EQ(dnnl_memory_desc_create_submemory(sub.out(), parent, d1, o1),
            dnnl_invalid_arguments);
    dnnl_dims_t d2 = {5, 1}, o2 = {0, 0};
    EXPECT_EQ(dnnl_memory_desc_create_submemory(sub.out(), parent, d2, o2),
            dnnl_invalid_arguments);
    dnnl_dims_t d3 = {1, 1}, o3 = {-1, 0};
    EXPECT_EQ(dnnl_memory_desc_create_submemory(sub.out(), parent, d3, o3),
            dnnl_invalid_arguments);
    dnnl_dims_t d4 = {4, 6}, o4 = {0, 0};
    EXPECT_EQ(dnnl_memory_desc_create_submemory(sub.out(), parent, d4, o4), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(sub, parent), 1);
    EXPECT_EQ(dnnl_memory_desc_create_submemory(sub.out(), parent, nullptr, o4),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_submemory(sub.out(), parent, d4, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_submemory(sub.out(), nullptr, d4, o4),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_submemory(nullptr, parent, d4, o4),
            dnnl_invalid_arguments);
}

TEST(memory_desc, submemory_of_blocked_layout_cuts_on_blocks) {
    md_t parent, sub;
    ASSERT_EQ(make_tag(parent, {2, 32, 4, 4}, dnnl_f32, dnnl_nChw16c), dnnl_success);
    dnnl_dims_t d = {2, 16, 4, 4}, o = {0, 16, 0, 0};
    ASSERT_EQ(dnnl_memory_desc_create_submemory(sub.out(), parent, d, o), dnnl_success);
    EXPECT_EQ(offset0_of(sub), 4 * 4 * 16);
    EXPECT_EQ(query_dims(sub, dnnl_query_padded_dims, 4), (dims_v {2, 16, 4, 4}));
    EXPECT_EQ(strides_of(sub), strides_of(parent));
    dnnl_dims_t d_mis = {2, 8, 4, 4}, o_mis = {0, 8, 0, 0};
    EXPECT_EQ(dnnl_memory_desc_create_submemory(sub.out(), parent, d_mis, o_mis),
            dnnl_unimplemented);
    dnnl_dims_t d_short = {2, 8, 4, 4}, o_zero = {0, 0, 0, 0};
    EXPECT_EQ(dnnl_memory_desc_create_submemory(sub.out(), parent, d_short, o_zero),
            dnnl_unimplemented);
    // Spatial dims are not blocked: any window works.
    dnnl_dims_t d_sp = {1, 32, 2, 3}, o_sp = {1, 0, 1, 1};
    ASSERT_EQ(dnnl_memory_desc_create_submemory(sub.out(), parent, d_sp, o_sp), dnnl_success);
    EXPECT_EQ(offset0_of(sub), 2 * 16 * 16 + 4 * 16 + 16);
}

TEST(memory_desc, submemory_keeps_the_padded_tail_at_the_end) {
    md_t parent, sub;
    ASSERT_EQ(make_tag(parent, {1, 17, 3, 3}, dnnl_f32, dnnl_nChw16c), dnnl_success);
    dnnl_dims_t d = {1, 1, 3, 3}, o = {0, 16, 0, 0};
    ASSERT_EQ(dnnl_memory_desc_create_submemory(sub.out(), parent, d, o), dnnl_success);
    EXPECT_EQ(query_dims(sub, dnnl_query_padded_dims, 4), (dims_v {1, 16, 3, 3}));
    EXPECT_EQ(offset0_of(sub), 144);
}

// ---- reshape ---------------------------------------------------------------------------

TEST(memory_desc, reshape_plain_layouts) {
    md_t in, out, expect;
    ASSERT_EQ(make_tag(in, {2, 3, 4}, dnnl_f32, dnnl_abc), dnnl_success);
    struct case_t {
        dims_v dims;
        dnnl_format_tag_t tag;
    } cases[] = {
            {{6, 4}, dnnl_ab},
            {{2, 12}, dnnl_ab},
            {{24}, dnnl_a},
            {{1, 2, 3, 4, 1}, dnnl_abcde},
            {{2, 3, 2, 2}, dnnl_abcd},
            {{4, 6}, dnnl_ab},
    };
    for (const auto &c : cases) {
        ASSERT_EQ(dnnl_memory_desc_reshape(out.out(), in, static_cast<int>(c.dims.size()),
                          c.dims.data()),
                dnnl_success);
        ASSERT_EQ(make_tag(expect, c.dims, dnnl_f32, c.tag), dnnl_success);
        EXPECT_EQ(dnnl_memory_desc_equal(out, expect), 1) << c.dims.size() << "-d case";
    }
    md_t ones;
    ASSERT_EQ(make_tag(ones, {1, 2, 3, 1}, dnnl_f32, dnnl_abcd), dnnl_success);
    dims_v two = {2, 3};
    ASSERT_EQ(dnnl_memory_desc_reshape(out.out(), ones, 2, two.data()), dnnl_success);
    ASSERT_EQ(make_tag(expect, two, dnnl_f32, dnnl_ab), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(out, expect), 1);
}

TEST(memory_desc, reshape_keeps_offset_and_permuted_order_where_possible) {
    md_t in, out, expect;
    // acb: c and b swap places in memory; splitting a alone is fine.
    ASSERT_EQ(make_tag(in, {6, 3, 4}, dnnl_f32, dnnl_acb), dnnl_success);
    dims_v split = {2, 3, 3, 4};
    ASSERT_EQ(dnnl_memory_desc_reshape(out.out(), in, 4, split.data()), dnnl_success);
    ASSERT_EQ(make_tag(expect, split, dnnl_f32, dnnl_abdc), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(out, expect), 1);
    // Joining b and c would need them dense in logical order: refused.
    dims_v join = {6, 12};
    EXPECT_EQ(dnnl_memory_desc_reshape(out.out(), in, 2, join.data()), dnnl_invalid_arguments);
}

TEST(memory_desc, reshape_blocked_layouts) {
    md_t in, out, expect;
    ASSERT_EQ(make_tag(in, {2, 32, 4, 4}, dnnl_f32, dnnl_nChw16c), dnnl_success);
    dims_v hw = {2, 32, 16};
    ASSERT_EQ(dnnl_memory_desc_reshape(out.out(), in, 3, hw.data()), dnnl_success);
    ASSERT_EQ(make_tag(expect, hw, dnnl_f32, dnnl_aBc16b), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(out, expect), 1);
    dims_v extra = {1, 2, 32, 4, 4};
    ASSERT_EQ(dnnl_memory_desc_reshape(out.out(), in, 5, extra.data()), dnnl_success);
    EXPECT_EQ(query_dims(out, dnnl_query_dims, 5), extra);
    EXPECT_EQ(query_dims(out, dnnl_query_padded_dims, 5), extra);
    EXPECT_EQ(query_dims(out, dnnl_query_inner_idxs, 1), (dims_v {2}));
    EXPECT_EQ(strides_of(out), (dims_v {1024, 512, 256, 64, 16}));
    EXPECT_EQ(dnnl_memory_desc_get_size(out), dnnl_memory_desc_get_size(in));
    // The blocked channel dimension cannot be merged or split.
    dims_v nc = {64, 4, 4};
    EXPECT_EQ(dnnl_memory_desc_reshape(out.out(), in, 3, nc.data()), dnnl_invalid_arguments);
    dims_v csplit = {2, 2, 16, 4, 4};
    EXPECT_EQ(dnnl_memory_desc_reshape(out.out(), in, 5, csplit.data()),
            dnnl_invalid_arguments);
}

TEST(memory_desc, reshape_refusals) {
    md_t in, padded, any, out;
    ASSERT_EQ(make_tag(in, {2, 3, 4}, dnnl_f32, dnnl_abc), dnnl_success);
    dims_v wrong = {5, 5};
    EXPECT_EQ(dnnl_memory_desc_reshape(out.out(), in, 2, wrong.data()), dnnl_invalid_arguments);
    dims_v ok = {24};
    EXPECT_EQ(dnnl_memory_desc_reshape(out.out(), in, 0, ok.data()), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_reshape(out.out(), in, 13, ok.data()), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_reshape(out.out(), in, 1, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_reshape(out.out(), nullptr, 1, ok.data()),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_reshape(nullptr, in, 1, ok.data()), dnnl_invalid_arguments);
    // An extent-one channel padded to 16 cannot disappear.
    ASSERT_EQ(make_tag(padded, {2, 1, 4, 4}, dnnl_f32, dnnl_nChw16c), dnnl_success);
    dims_v drop = {2, 4, 4};
    EXPECT_EQ(dnnl_memory_desc_reshape(out.out(), padded, 3, drop.data()),
            dnnl_invalid_arguments);
    // A 17-channel blocked tensor has padding: its channels cannot be split.
    ASSERT_EQ(make_tag(padded, {1, 18, 2, 2}, dnnl_f32, dnnl_nChw16c), dnnl_success);
    dims_v split = {1, 2, 9, 2, 2};
    EXPECT_EQ(dnnl_memory_desc_reshape(out.out(), padded, 5, split.data()),
            dnnl_invalid_arguments);
    // Format any reshapes to format any.
    ASSERT_EQ(make_tag(any, {2, 3, 4}, dnnl_f32, dnnl_format_tag_any), dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_reshape(out.out(), any, 1, ok.data()), dnnl_success);
    dnnl_format_kind_t fk = dnnl_blocked;
    ASSERT_EQ(dnnl_memory_desc_query(out, dnnl_query_format_kind, &fk), dnnl_success);
    EXPECT_EQ(fk, dnnl_format_kind_any);
}

// ---- permute_axes -----------------------------------------------------------------------

TEST(memory_desc, permute_axes_plain_and_blocked) {
    md_t in, out, expect;
    ASSERT_EQ(make_tag(in, {2, 3}, dnnl_f32, dnnl_ab), dnnl_success);
    const int swap[] = {1, 0};
    ASSERT_EQ(dnnl_memory_desc_permute_axes(out.out(), in, swap), dnnl_success);
    ASSERT_EQ(make_tag(expect, {3, 2}, dnnl_f32, dnnl_ba), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(out, expect), 1);

    ASSERT_EQ(make_tag(in, {2, 32, 4, 5}, dnnl_f32, dnnl_nChw16c), dnnl_success);
    const int hw[] = {0, 1, 3, 2};
    ASSERT_EQ(dnnl_memory_desc_permute_axes(out.out(), in, hw), dnnl_success);
    ASSERT_EQ(make_tag(expect, {2, 32, 5, 4}, dnnl_f32, dnnl_aBdc16b), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(out, expect), 1);

    const int nc[] = {1, 0, 2, 3};
    ASSERT_EQ(dnnl_memory_desc_permute_axes(out.out(), in, nc), dnnl_success);
    // The memory stays put: the blocked axis is now a, stepping 320 between blocks.
    EXPECT_EQ(query_dims(out, dnnl_query_inner_idxs, 1), (dims_v {0}));
    EXPECT_EQ(query_dims(out, dnnl_query_dims, 4), (dims_v {32, 2, 4, 5}));
    EXPECT_EQ(strides_of(out), (dims_v {320, 640, 80, 16}));
}

TEST(memory_desc, permute_axes_checks_the_permutation) {
    md_t in, out;
    ASSERT_EQ(make_tag(in, {2, 3, 4}, dnnl_f32, dnnl_abc), dnnl_success);
    const int repeated[] = {0, 0, 1};
    const int out_of_range[] = {0, 1, 3};
    const int negative[] = {-1, 0, 1};
    EXPECT_EQ(dnnl_memory_desc_permute_axes(out.out(), in, repeated), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_permute_axes(out.out(), in, out_of_range),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_permute_axes(out.out(), in, negative), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_permute_axes(out.out(), in, nullptr), dnnl_invalid_arguments);
    const int id[] = {0, 1, 2};
    EXPECT_EQ(dnnl_memory_desc_permute_axes(out.out(), nullptr, id), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_permute_axes(nullptr, in, id), dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_memory_desc_permute_axes(out.out(), in, id), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(out, in), 1);
}

// ---- queries ---------------------------------------------------------------------------

TEST(memory_desc, every_dense_query) {
    md_t parent, m;
    ASSERT_EQ(make_tag(parent, {2, 32, 4, 4}, dnnl_bf16, dnnl_nChw16c), dnnl_success);
    dnnl_dims_t d = {1, 16, 4, 4}, o = {1, 16, 0, 0};
    ASSERT_EQ(dnnl_memory_desc_create_submemory(m.out(), parent, d, o), dnnl_success);

    EXPECT_EQ(query_int(m, dnnl_query_ndims_s32), 4);
    EXPECT_EQ(query_dims(m, dnnl_query_dims, 4), (dims_v {1, 16, 4, 4}));
    dnnl_data_type_t dt = dnnl_data_type_undef;
    ASSERT_EQ(dnnl_memory_desc_query(m, dnnl_query_data_type, &dt), dnnl_success);
    EXPECT_EQ(dt, dnnl_bf16);
    EXPECT_EQ(offset0_of(m), 512 + 256);
    EXPECT_EQ(query_dims(m, dnnl_query_padded_dims, 4), (dims_v {1, 16, 4, 4}));
    EXPECT_EQ(query_dims(m, dnnl_query_padded_offsets, 4), (dims_v {0, 0, 0, 0}));
    dnnl_format_kind_t fk = dnnl_format_kind_undef;
    ASSERT_EQ(dnnl_memory_desc_query(m, dnnl_query_format_kind, &fk), dnnl_success);
    EXPECT_EQ(fk, dnnl_blocked);
    EXPECT_EQ(strides_of(m), (dims_v {512, 256, 64, 16}));
    EXPECT_EQ(query_int(m, dnnl_query_inner_nblks_s32), 1);
    EXPECT_EQ(query_dims(m, dnnl_query_inner_blks, 1), (dims_v {16}));
    EXPECT_EQ(query_dims(m, dnnl_query_inner_idxs, 1), (dims_v {1}));

    int nh = 0;
    ASSERT_EQ(dnnl_memory_desc_query_v2(m, dnnl_query_num_handles_s32, 0, &nh), dnnl_success);
    EXPECT_EQ(nh, 1);
    ASSERT_EQ(dnnl_memory_desc_query_v2(m, dnnl_query_data_type, 0, &dt), dnnl_success);
    EXPECT_EQ(dt, dnnl_bf16);
    EXPECT_EQ(dnnl_memory_desc_query_v2(m, dnnl_query_data_type, 1, &dt),
            dnnl_invalid_arguments);
    dnnl_dim_t nnz = 0;
    EXPECT_EQ(dnnl_memory_desc_query_v2(m, dnnl_query_nnz_s64, 0, &nnz),
            dnnl_invalid_arguments);
    dnnl_sparse_encoding_t enc = dnnl_csr;
    EXPECT_EQ(dnnl_memory_desc_query_v2(m, dnnl_query_sparse_encoding, 0, &enc),
            dnnl_invalid_arguments);
    const dnnl_dims_t *p = nullptr;
    EXPECT_EQ(dnnl_memory_desc_query_v2(m, dnnl_query_dims, 1, &p), dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_memory_desc_query_v2(m, dnnl_query_dims, 0, &p), dnnl_success);
    EXPECT_EQ(as_vec(*p, 4), (dims_v {1, 16, 4, 4}));

    EXPECT_EQ(dnnl_memory_desc_query(m, dnnl_query_engine, &p), dnnl_unimplemented);
    EXPECT_EQ(dnnl_memory_desc_query(m, dnnl_query_dims, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_query(nullptr, dnnl_query_dims, &p), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_query_v2(nullptr, dnnl_query_dims, 0, &p),
            dnnl_invalid_arguments);
}

TEST(memory_desc, zero_descriptor_queries) {
    md_t z;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(
                      z.out(), 0, nullptr, dnnl_data_type_undef, dnnl_format_tag_undef),
            dnnl_success);
    EXPECT_EQ(query_int(z, dnnl_query_ndims_s32), 0);
    dnnl_format_kind_t fk = dnnl_blocked;
    ASSERT_EQ(dnnl_memory_desc_query(z, dnnl_query_format_kind, &fk), dnnl_success);
    EXPECT_EQ(fk, dnnl_format_kind_undef);
    EXPECT_EQ(dnnl_memory_desc_get_size(z), 0u);
}

TEST(memory_desc, csr_descriptor) {
    md_t m;
    dnnl_dims_t dims = {4, 5};
    ASSERT_EQ(dnnl_memory_desc_create_with_csr_encoding(m.out(), 2, dims, dnnl_f32, 7,
                      dnnl_s32, dnnl_s64),
            dnnl_success);
    dnnl_format_kind_t fk = dnnl_blocked;
    ASSERT_EQ(dnnl_memory_desc_query(m, dnnl_query_format_kind, &fk), dnnl_success);
    EXPECT_EQ(fk, dnnl_format_kind_sparse);
    dnnl_sparse_encoding_t enc = dnnl_sparse_encoding_undef;
    ASSERT_EQ(dnnl_memory_desc_query_v2(m, dnnl_query_sparse_encoding, 0, &enc), dnnl_success);
    EXPECT_EQ(enc, dnnl_csr);
    dnnl_dim_t nnz = 0;
    ASSERT_EQ(dnnl_memory_desc_query_v2(m, dnnl_query_nnz_s64, 0, &nnz), dnnl_success);
    EXPECT_EQ(nnz, 7);
    int nh = 0;
    ASSERT_EQ(dnnl_memory_desc_query_v2(m, dnnl_query_num_handles_s32, 0, &nh), dnnl_success);
    EXPECT_EQ(nh, 3);
    dnnl_data_type_t dt[3] = {};
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(dnnl_memory_desc_query_v2(m, dnnl_query_data_type, i, &dt[i]), dnnl_success);
    EXPECT_EQ(dt[0], dnnl_f32);
    EXPECT_EQ(dt[1], dnnl_s32);
    EXPECT_EQ(dt[2], dnnl_s64);
    EXPECT_EQ(dnnl_memory_desc_query_v2(m, dnnl_query_data_type, 3, &dt[0]),
            dnnl_invalid_arguments);
    const dnnl_dims_t *p = nullptr;
    EXPECT_EQ(dnnl_memory_desc_query(m, dnnl_query_strides, &p), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_get_size_v2(m, 0), 7u * 4);
    EXPECT_EQ(dnnl_memory_desc_get_size_v2(m, 1), 7u * 4);
    EXPECT_EQ(dnnl_memory_desc_get_size_v2(m, 2), 5u * 8);
    EXPECT_EQ(dnnl_memory_desc_get_size_v2(m, 3), 0u);
    EXPECT_EQ(dnnl_memory_desc_get_size(m), 7u * 4);

    dnnl_dims_t dims3 = {2, 3, 4};
    EXPECT_EQ(dnnl_memory_desc_create_with_csr_encoding(m.out(), 3, dims3, dnnl_f32, 7,
                      dnnl_s32, dnnl_s32),
            dnnl_unimplemented);
    EXPECT_EQ(dnnl_memory_desc_create_with_csr_encoding(m.out(), 2, dims, dnnl_f32, -1,
                      dnnl_s32, dnnl_s32),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_csr_encoding(m.out(), 2, dims, dnnl_f32, 7,
                      dnnl_data_type_undef, dnnl_s32),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_csr_encoding(
                      nullptr, 2, dims, dnnl_f32, 7, dnnl_s32, dnnl_s32),
            dnnl_invalid_arguments);
}

TEST(memory_desc, coo_descriptor) {
    md_t m;
    dnnl_dims_t dims = {4, 5, 6};
    ASSERT_EQ(dnnl_memory_desc_create_with_coo_encoding(m.out(), 3, dims, dnnl_f16, 10, dnnl_s32),
            dnnl_success);
    int nh = 0;
    ASSERT_EQ(dnnl_memory_desc_query_v2(m, dnnl_query_num_handles_s32, 0, &nh), dnnl_success);
    EXPECT_EQ(nh, 4);
    EXPECT_EQ(dnnl_memory_desc_get_size_v2(m, 0), 10u * 2);
    for (int i = 1; i <= 3; ++i) {
        EXPECT_EQ(dnnl_memory_desc_get_size_v2(m, i), 10u * 4);
        dnnl_data_type_t dt = dnnl_data_type_undef;
        ASSERT_EQ(dnnl_memory_desc_query_v2(m, dnnl_query_data_type, i, &dt), dnnl_success);
        EXPECT_EQ(dt, dnnl_s32);
    }
    dnnl_data_type_t dt = dnnl_data_type_undef;
    EXPECT_EQ(dnnl_memory_desc_query_v2(m, dnnl_query_data_type, 4, &dt),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_query_v2(m, dnnl_query_data_type, -1, &dt),
            dnnl_invalid_arguments);
    dnnl_sparse_encoding_t enc = dnnl_sparse_encoding_undef;
    ASSERT_EQ(dnnl_memory_desc_query(m, dnnl_query_sparse_encoding, &enc), dnnl_success);
    EXPECT_EQ(enc, dnnl_coo);
    dnnl_dims_t neg = {4, -5, 6};
    EXPECT_EQ(dnnl_memory_desc_create_with_coo_encoding(m.out(), 3, neg, dnnl_f16, 10, dnnl_s32),
            dnnl_invalid_arguments);
}

TEST(memory_desc, packed_descriptor_is_a_request) {
    md_t m;
    dnnl_dims_t dims = {16, 16};
    ASSERT_EQ(dnnl_memory_desc_create_with_packed_encoding(m.out(), 2, dims, dnnl_s8, 20),
            dnnl_success);
    int nh = 0;
    ASSERT_EQ(dnnl_memory_desc_query_v2(m, dnnl_query_num_handles_s32, 0, &nh), dnnl_success);
    EXPECT_EQ(nh, 3);
    dnnl_sparse_encoding_t enc = dnnl_sparse_encoding_undef;
    ASSERT_EQ(dnnl_memory_desc_query_v2(m, dnnl_query_sparse_encoding, 0, &enc), dnnl_success);
    EXPECT_EQ(enc, dnnl_packed);
    EXPECT_EQ(dnnl_memory_desc_get_size(m), 0u);
    EXPECT_EQ(dnnl_memory_desc_create_with_packed_encoding(m.out(), 13, dims, dnnl_s8, 20),
            dnnl_invalid_arguments);
}

TEST(memory_desc, host_scalar_descriptor) {
    md_t m;
    ASSERT_EQ(dnnl_memory_desc_create_host_scalar(m.out(), dnnl_f32), dnnl_success);
    EXPECT_EQ(query_int(m, dnnl_query_ndims_s32), 1);
    dnnl_format_kind_t fk = dnnl_blocked;
    ASSERT_EQ(dnnl_memory_desc_query(m, dnnl_query_format_kind, &fk), dnnl_success);
    EXPECT_EQ(fk, dnnl_format_kind_host_scalar);
    EXPECT_EQ(dnnl_memory_desc_get_size(m), 4u);
    ASSERT_EQ(dnnl_memory_desc_create_host_scalar(m.out(), dnnl_s64), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_get_size(m), 8u);
    EXPECT_EQ(dnnl_memory_desc_create_host_scalar(m.out(), dnnl_data_type_undef),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_host_scalar(nullptr, dnnl_f32), dnnl_invalid_arguments);
}

// ---- blobs ---------------------------------------------------------------------------

TEST(memory_desc, blob_round_trip) {
    md_t plain, blocked, parent, sub, csr, zero, any;
    ASSERT_EQ(make_tag(plain, {2, 3, 4}, dnnl_f32, dnnl_acb), dnnl_success);
    ASSERT_EQ(make_tag(blocked, {3, 17, 5, 5}, dnnl_bf16, dnnl_OIhw4i16o4i), dnnl_success);
    ASSERT_EQ(make_tag(parent, {4, 6}, dnnl_s8, dnnl_ab), dnnl_success);
    dnnl_dims_t d = {2, 3}, o = {1, 2};
    ASSERT_EQ(dnnl_memory_desc_create_submemory(sub.out(), parent, d, o), dnnl_success);
    dnnl_dims_t cd = {4, 5};
    ASSERT_EQ(dnnl_memory_desc_create_with_csr_encoding(
                      csr.out(), 2, cd, dnnl_f32, 7, dnnl_s32, dnnl_s32),
            dnnl_success);
    ASSERT_EQ(make_tag(zero, {}, dnnl_data_type_undef, dnnl_format_tag_undef), dnnl_success);
    ASSERT_EQ(make_tag(any, {2, 3}, dnnl_f16, dnnl_format_tag_any), dnnl_success);
    for (const md_t *m : {&plain, &blocked, &sub, &csr, &zero, &any}) {
        size_t n = 0;
        ASSERT_EQ(dnnl_memory_desc_get_blob(nullptr, &n, *m), dnnl_success);
        ASSERT_GT(n, 0u);
        std::vector<uint8_t> blob(n);
        ASSERT_EQ(dnnl_memory_desc_get_blob(blob.data(), &n, *m), dnnl_success);
        md_t back;
        ASSERT_EQ(dnnl_memory_desc_create_with_blob(back.out(), blob.data()), dnnl_success);
        EXPECT_EQ(dnnl_memory_desc_equal(back, *m), 1);
        EXPECT_EQ(dnnl_memory_desc_get_size(back), dnnl_memory_desc_get_size(*m));
        EXPECT_EQ(offset0_of(back), offset0_of(*m));
    }
}

TEST(memory_desc, bad_blobs_are_refused) {
    md_t m, back;
    ASSERT_EQ(make_tag(m, {2, 3}, dnnl_f32, dnnl_ab), dnnl_success);
    size_t n = 0;
    ASSERT_EQ(dnnl_memory_desc_get_blob(nullptr, &n, m), dnnl_success);
    std::vector<uint8_t> blob(n);
    ASSERT_EQ(dnnl_memory_desc_get_blob(blob.data(), &n, m), dnnl_success);

    std::vector<uint8_t> zeros(n, 0);
    EXPECT_EQ(dnnl_memory_desc_create_with_blob(back.out(), zeros.data()),
            dnnl_invalid_arguments);
    for (size_t at : {size_t(0), size_t(9), n / 2, n - 1}) {
        std::vector<uint8_t> bad = blob;
        bad[at] ^= 0x5a;
        EXPECT_EQ(dnnl_memory_desc_create_with_blob(back.out(), bad.data()),
                dnnl_invalid_arguments)
                << "byte " << at;
        EXPECT_EQ(back.md, nullptr);
    }
    EXPECT_EQ(dnnl_memory_desc_create_with_blob(back.out(), nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_blob(nullptr, blob.data()), dnnl_invalid_arguments);

    size_t small = n - 1;
    EXPECT_EQ(dnnl_memory_desc_get_blob(blob.data(), &small, m), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_get_blob(blob.data(), nullptr, m), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_get_blob(nullptr, nullptr, m), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_get_blob(nullptr, &n, nullptr), dnnl_invalid_arguments);
}

// ---- bad input ---------------------------------------------------------------------------

TEST(memory_desc, create_with_tag_rejects_bad_input) {
    md_t m;
    dnnl_dims_t dims = {2, 3, 4, 5};
    dnnl_dims_t big = {1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2};
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(nullptr, 4, dims, dnnl_f32, dnnl_nchw),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(m.out(), 13, big, dnnl_f32, dnnl_nchw),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(m.out(), -1, dims, dnnl_f32, dnnl_nchw),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(m.out(), 4, nullptr, dnnl_f32, dnnl_nchw),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(
                      m.out(), 4, dims, dnnl_data_type_undef, dnnl_nchw),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_tag(
                      m.out(), 4, dims, static_cast<dnnl_data_type_t>(999), dnnl_nchw),
            dnnl_invalid_arguments);
    EXPECT_EQ(make_tag(m, {2, -3, 4, 5}, dnnl_f32, dnnl_nchw), dnnl_invalid_arguments);
    EXPECT_EQ(make_tag(m, {2, 3, 4, 5}, dnnl_f32, dnnl_ab), dnnl_invalid_arguments);
    EXPECT_EQ(make_tag(m, {2, 3, 4, 5}, dnnl_f32, static_cast<dnnl_format_tag_t>(dnnl_format_tag_last + 1)),
            dnnl_invalid_arguments);
    EXPECT_EQ(make_tag(m, {2, 3, 4, 5}, dnnl_f32, dnnl_format_tag_last),
            dnnl_invalid_arguments);
    const dnnl_dim_t huge = std::numeric_limits<dnnl_dim_t>::max() / 2;
    EXPECT_EQ(make_tag(m, {huge, 4}, dnnl_f32, dnnl_ab), dnnl_invalid_arguments);
    EXPECT_EQ(make_tag(m, {huge, 1}, dnnl_s8, dnnl_ab), dnnl_success);
    EXPECT_EQ(make_tag(m, {huge, 1}, dnnl_f32, dnnl_ab), dnnl_invalid_arguments);
    // Rounding up to the block must not overflow either.
    EXPECT_EQ(make_tag(m, {1, std::numeric_limits<dnnl_dim_t>::max() - 1, 1}, dnnl_u8,
                      dnnl_aBc16b),
            dnnl_invalid_arguments);
    EXPECT_EQ(m.md, nullptr);
    // oneDNN's zero descriptor: ndims 0, or the undef tag, whatever the rest says.
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(
                      m.out(), 0, nullptr, dnnl_data_type_undef, dnnl_format_tag_undef),
            dnnl_success);
    EXPECT_EQ(query_int(m, dnnl_query_ndims_s32), 0);
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(m.out(), 4, dims, dnnl_f32, dnnl_format_tag_undef),
            dnnl_success);
    EXPECT_EQ(query_int(m, dnnl_query_ndims_s32), 0);
}

TEST(memory_desc, create_with_strides_rejects_bad_input) {
    md_t m;
    dnnl_dims_t dims = {2, 3};
    dnnl_dims_t strides = {3, 1};
    EXPECT_EQ(dnnl_memory_desc_create_with_strides(nullptr, 2, dims, dnnl_f32, strides),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_strides(m.out(), 13, dims, dnnl_f32, strides),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_strides(m.out(), 2, nullptr, dnnl_f32, strides),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_strides(
                      m.out(), 2, dims, dnnl_data_type_undef, strides),
            dnnl_invalid_arguments);
    EXPECT_EQ(make_strides(m, {2, -1}, dnnl_f32, {}), dnnl_invalid_arguments);
    const dnnl_dim_t huge = std::numeric_limits<dnnl_dim_t>::max() / 4;
    EXPECT_EQ(make_strides(m, {2, 2}, dnnl_f32, {huge, 1}), dnnl_invalid_arguments);
    EXPECT_EQ(make_strides(m, {huge, huge}, dnnl_u8, {}), dnnl_invalid_arguments);
    EXPECT_EQ(m.md, nullptr);
    EXPECT_EQ(dnnl_memory_desc_create_with_strides(m.out(), 0, nullptr, dnnl_f32, nullptr),
            dnnl_success);
    EXPECT_EQ(query_int(m, dnnl_query_ndims_s32), 0);
}

TEST(memory_desc, destroy_and_clone_take_null_and_dead_handles) {
    EXPECT_EQ(dnnl_memory_desc_destroy(nullptr), dnnl_success);
    md_t m, c;
    ASSERT_EQ(make_tag(m, {2}, dnnl_f32, dnnl_a), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_clone(nullptr, m), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_clone(c.out(), nullptr), dnnl_invalid_arguments);
    dnnl_memory_desc_t raw = m.md;
    m.md = nullptr;
    EXPECT_EQ(dnnl_memory_desc_destroy(raw), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_destroy(raw), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_get_size(nullptr), 0u);
    EXPECT_EQ(dnnl_memory_desc_get_size_v2(nullptr, 0), 0u);
}

// ---- C++ API ---------------------------------------------------------------------------

TEST(memory_desc_cpp, desc_round_trip_and_derived_descs) {
    using tag = dnnl::memory::format_tag;
    using dt = dnnl::memory::data_type;
    dnnl::memory::desc zero;
    EXPECT_TRUE(zero.is_zero());
    EXPECT_EQ(zero.get_size(), 0u);

    dnnl::memory::desc md({2, 17, 3, 3}, dt::f32, tag::nChw16c);
    EXPECT_EQ(md.get_ndims(), 4);
    EXPECT_EQ(md.get_dims(), (dnnl::memory::dims {2, 17, 3, 3}));
    EXPECT_EQ(md.get_padded_dims(), (dnnl::memory::dims {2, 32, 3, 3}));
    EXPECT_EQ(md.get_inner_nblks(), 1);
    EXPECT_EQ(md.get_inner_blks(), (dnnl::memory::dims {16}));
    EXPECT_EQ(md.get_inner_idxs(), (dnnl::memory::dims {1}));
    EXPECT_EQ(md.get_size(), 2u * 32 * 9 * 4);
    EXPECT_EQ(md.get_data_type(), dt::f32);
    EXPECT_EQ(md.get_format_kind(), dnnl::memory::format_kind::blocked);
    EXPECT_EQ(md.get_num_handles(), 1);

    auto blob = md.get_blob();
    dnnl::memory::desc back(blob);
    EXPECT_TRUE(back == md);

    dnnl::memory::desc plain({4, 6}, dt::f32, tag::ab);
    auto sub = plain.submemory_desc({2, 3}, {1, 2});
    EXPECT_EQ(sub.get_submemory_offset(), 8);
    EXPECT_EQ(sub.get_strides(), (dnnl::memory::dims {6, 1}));

    auto flat = plain.reshape({24});
    EXPECT_TRUE(flat == dnnl::memory::desc({24}, dt::f32, tag::a));
    EXPECT_THROW(plain.reshape({5, 5}), dnnl::error);
    auto empty = plain.reshape({5, 5}, /*allow_empty=*/true);
    EXPECT_EQ(empty.get(true), nullptr);

    auto t = plain.permute_axes({1, 0});
    EXPECT_TRUE(t == dnnl::memory::desc({6, 4}, dt::f32, tag::ba));

    dnnl::memory::desc strided({2, 3}, dt::f32, dnnl::memory::dims {8, 1});
    EXPECT_EQ(strided.get_size(), 64u);
    EXPECT_TRUE(strided != plain);
    EXPECT_THROW(dnnl::memory::desc({2, -3}, dt::f32, tag::ab), dnnl::error);

    auto csr = dnnl::memory::desc::csr({4, 5}, dt::f32, 7, dt::s32, dt::s32);
    EXPECT_EQ(csr.get_num_handles(), 3);
    EXPECT_EQ(csr.get_nnz(), 7);
    EXPECT_EQ(csr.get_sparse_encoding(), dnnl::memory::sparse_encoding::csr);
    EXPECT_EQ(csr.get_data_type(2), dt::s32);
    EXPECT_EQ(csr.get_size(2), 5u * 4);

    auto scalar = dnnl::memory::desc::host_scalar(dt::f16);
    EXPECT_EQ(scalar.get_size(), 2u);
    EXPECT_EQ(scalar.get_format_kind(), dnnl::memory::format_kind::host_scalar);
}
