// off_logical / off_linear against a reference computed from the layout's definition: a
// tag names a physical shape (outer dimensions in tag order, then each inner block), the
// memory is that shape stored row-major, and a logical index lands at the physical
// coordinates its digits select. Also the verbose text and hash of descriptors.
#include <cctype>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/status.hpp"

#include "core/format_tag.hpp"
#include "core/memory_desc.hpp"
#include "core/memory_desc_ops.hpp"

using namespace anydnn;

namespace {

using dims_v = std::vector<dim_t>;

// What a canonical tag name says: outer letters, then (size, letter) inner blocks.
struct tag_shape_t {
    std::vector<int> outer;
    std::vector<std::pair<int, dim_t>> inner; // (dimension, block), outermost first
};

tag_shape_t parse_tag(const std::string &name) {
    tag_shape_t t;
    size_t i = 0;
    for (; i < name.size() && std::isalpha(static_cast<unsigned char>(name[i])); ++i)
        t.outer.push_back(std::tolower(static_cast<unsigned char>(name[i])) - 'a');
    while (i < name.size()) {
        dim_t blk = 0;
        for (; std::isdigit(static_cast<unsigned char>(name[i])); ++i)
            blk = blk * 10 + (name[i] - '0');
        t.inner.emplace_back(name[i] - 'a', blk);
        ++i;
    }
    return t;
}

dim_t total_block(const tag_shape_t &t, int d) {
    dim_t b = 1;
    for (const auto &p : t.inner)
        if (p.first == d) b *= p.second;
    return b;
}

// Offset of `pos` in a dense tensor of this tag, derived from the physical shape alone.
dim_t reference_offset(const tag_shape_t &t, const dims_v &dims, const dims_v &pos) {
    std::vector<dim_t> shape, coord;
    for (int d : t.outer) {
        const dim_t blk = total_block(t, d);
        shape.push_back((dims[d] + blk - 1) / blk);
        coord.push_back(pos[d] / blk);
    }
    for (size_t i = 0; i < t.inner.size(); ++i) {
        const int d = t.inner[i].first;
        dim_t below = 1; // blocks of d nested inside this one
        for (size_t j = i + 1; j < t.inner.size(); ++j)
            if (t.inner[j].first == d) below *= t.inner[j].second;
        shape.push_back(t.inner[i].second);
        coord.push_back(pos[d] / below % t.inner[i].second);
    }
    dim_t off = 0;
    for (size_t k = 0; k < shape.size(); ++k)
        off = off * shape[k] + coord[k];
    return off;
}

memory_desc_t make(const dims_v &dims, dnnl_data_type_t dt, dnnl_format_tag_t tag) {
    memory_desc_t md = zero_md();
    EXPECT_EQ(md_init_with_tag(md, static_cast<int>(dims.size()), dims.data(), dt, tag),
            dnnl_success)
            << core::format_tag_name(tag);
    return md;
}

// Calls f(pos, linear) for every logical position, row-major.
template <typename F>
void for_each_position(const dims_v &dims, F f) {
    dim_t n = 1;
    for (dim_t v : dims)
        n *= v;
    dims_v pos(dims.size(), 0);
    for (dim_t linear = 0; linear < n; ++linear) {
        dim_t rest = linear;
        for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
            pos[d] = rest % dims[d];
            rest /= dims[d];
        }
        f(pos, linear);
    }
}

struct layout_case_t {
    dims_v dims;
    dnnl_format_tag_t tag;
};

const layout_case_t layout_cases[] = {
        {{2, 3, 4, 5}, dnnl_nchw},
        {{2, 3, 4, 5}, dnnl_nhwc},
        {{2, 3, 4, 5}, dnnl_chwn},
        {{1, 17, 3, 3}, dnnl_nChw16c},
        {{2, 19, 2, 3}, dnnl_nChw8c},
        {{20, 20, 3, 3}, dnnl_OIhw4i16o4i},
        {{17, 33, 2, 2}, dnnl_ABcd16a16b},
        {{3, 5, 7, 2}, dnnl_aBCd2b4c2b},
        {{2, 9, 10, 1, 3}, dnnl_gOIhw8i8o},
        {{5, 7, 3}, dnnl_acb},
        {{9}, dnnl_a},
        {{3, 13}, dnnl_BA16a16b},
};

} // namespace

TEST(memory_desc_offsets, tag_layouts_match_the_physical_shape) {
    for (const auto &c : layout_cases) {
        const memory_desc_t md = make(c.dims, dnnl_f32, c.tag);
        const tag_shape_t t = parse_tag(core::format_tag_name(c.tag));
        ASSERT_EQ(t.outer.size(), c.dims.size());
        dims_v padded = c.dims;
        for (size_t d = 0; d < padded.size(); ++d) {
            const dim_t blk = total_block(t, static_cast<int>(d));
            padded[d] = (padded[d] + blk - 1) / blk * blk;
            EXPECT_EQ(md.padded_dims[d], padded[d]) << core::format_tag_name(c.tag) << " dim " << d;
        }
        dim_t padded_elems = 1;
        for (dim_t v : padded)
            padded_elems *= v;
        EXPECT_EQ(size_in_bytes(md), static_cast<size_t>(padded_elems) * 4)
                << core::format_tag_name(c.tag);
        EXPECT_TRUE(is_dense(md, true)) << core::format_tag_name(c.tag);

        std::set<dim_t> seen;
        for_each_position(c.dims, [&](const dims_v &pos, dim_t linear) {
            const dim_t off = off_logical(md, pos.data());
            ASSERT_EQ(off, reference_offset(t, padded, pos)) << core::format_tag_name(c.tag);
            ASSERT_EQ(off_linear(md, linear), off);
            ASSERT_GE(off, 0);
            ASSERT_LT(off, padded_elems);
            seen.insert(off);
        });
        EXPECT_EQ(static_cast<dim_t>(seen.size()), nelems(md)) << core::format_tag_name(c.tag);
    }
}

TEST(memory_desc_offsets, submemory_adds_its_origin) {
    const dims_v dims = {2, 32, 5, 4};
    const memory_desc_t parent = make(dims, dnnl_f32, dnnl_nChw16c);
    const dnnl_dims_t sub_dims = {1, 16, 3, 2}, offs = {1, 16, 2, 1};
    memory_desc_t sub = zero_md();
    ASSERT_EQ(md_init_submemory(sub, parent, sub_dims, offs), dnnl_success);
    const tag_shape_t t = parse_tag("aBcd16b");
    for_each_position({1, 16, 3, 2}, [&](const dims_v &pos, dim_t) {
        dims_v in_parent = pos;
        for (int d = 0; d < 4; ++d)
            in_parent[d] += offs[d];
        ASSERT_EQ(off_logical(sub, pos.data()), reference_offset(t, dims, in_parent));
    });
}

TEST(memory_desc_offsets, strided_layouts_use_their_strides) {
    const dnnl_dims_t dims = {3, 4, 5};
    const dnnl_dims_t strides = {1, 100, 7};
    memory_desc_t md = zero_md();
    ASSERT_EQ(md_init_with_strides(md, 3, dims, dnnl_f32, strides), dnnl_success);
    EXPECT_FALSE(is_dense(md));
    for_each_position({3, 4, 5}, [&](const dims_v &pos, dim_t linear) {
        const dim_t expect = pos[0] * 1 + pos[1] * 100 + pos[2] * 7;
        ASSERT_EQ(off_logical(md, pos.data()), expect);
        ASSERT_EQ(off_linear(md, linear), expect);
    });
    EXPECT_EQ(size_in_bytes(md), 4u * 100 * 4);
}

TEST(memory_desc_offsets, padded_offsets_shift_the_data) {
    // A descriptor whose data starts two channels into the padding area.
    memory_desc_t md = make({1, 12, 2, 2}, dnnl_f32, dnnl_nChw16c);
    md.padded_offsets[1] = 2;
    const tag_shape_t t = parse_tag("aBcd16b");
    for_each_position({1, 12, 2, 2}, [&](const dims_v &pos, dim_t) {
        dims_v shifted = pos;
        shifted[1] += 2;
        ASSERT_EQ(off_logical(md, pos.data()), reference_offset(t, {1, 16, 2, 2}, shifted));
    });
}

TEST(memory_desc_offsets, reshape_and_permute_keep_every_element_in_place) {
    const memory_desc_t in = make({2, 32, 4, 4}, dnnl_f32, dnnl_nChw16c);
    memory_desc_t flat = zero_md();
    const dnnl_dims_t flat_dims = {2, 32, 16};
    ASSERT_EQ(md_reshape(flat, in, 3, flat_dims), dnnl_success);
    for_each_position({2, 32, 4, 4}, [&](const dims_v &p, dim_t) {
        const dims_v q = {p[0], p[1], p[2] * 4 + p[3]};
        ASSERT_EQ(off_logical(flat, q.data()), off_logical(in, p.data()));
    });
    memory_desc_t perm = zero_md();
    const int order[] = {2, 0, 3, 1};
    ASSERT_EQ(md_permute_axes(perm, in, order), dnnl_success);
    for_each_position({2, 32, 4, 4}, [&](const dims_v &p, dim_t) {
        dims_v q(4);
        for (int d = 0; d < 4; ++d)
            q[order[d]] = p[d];
        ASSERT_EQ(off_logical(perm, q.data()), off_logical(in, p.data()));
    });
}

TEST(memory_desc_text, verbose_strings) {
    char buf[128];
    memory_desc_t md = make({2, 3, 4, 5}, dnnl_f32, dnnl_nhwc);
    md_to_string(md, buf, sizeof(buf));
    EXPECT_STREQ(buf, "f32::blocked:acdb::f0");
    dims_to_string(md, buf, sizeof(buf));
    EXPECT_STREQ(buf, "2x3x4x5");

    md = make({1, 17, 3, 3}, dnnl_bf16, dnnl_nChw16c);
    md_to_string(md, buf, sizeof(buf));
    EXPECT_STREQ(buf, "bf16:p:blocked:aBcd16b::f0");

    md = make({20, 20, 3, 3}, dnnl_s8, dnnl_OIhw4i16o4i);
    md_to_string(md, buf, sizeof(buf));
    EXPECT_STREQ(buf, "s8:p:blocked:ABcd4b16a4b::f0");

    const memory_desc_t parent = make({4, 6}, dnnl_f32, dnnl_ab);
    const dnnl_dims_t d = {2, 3}, o = {1, 2};
    ASSERT_EQ(md_init_submemory(md, parent, d, o), dnnl_success);
    md_to_string(md, buf, sizeof(buf));
    EXPECT_STREQ(buf, "f32:0:blocked:ab:s6x1:f0");

    md = make({2, 3}, dnnl_f32, dnnl_format_tag_any);
    md_to_string(md, buf, sizeof(buf));
    EXPECT_STREQ(buf, "f32::any:any::f0");

    const dnnl_dims_t rt = {DNNL_RUNTIME_DIM_VAL, 3};
    ASSERT_EQ(md_init_with_tag(md, 2, rt, dnnl_f32, dnnl_ab), dnnl_success);
    dims_to_string(md, buf, sizeof(buf));
    EXPECT_STREQ(buf, "*x3");

    md = zero_md();
    md_to_string(md, buf, sizeof(buf));
    EXPECT_STREQ(buf, "undef::undef:::f0");

    // Truncation keeps the buffer terminated.
    md = make({2, 3, 4, 5}, dnnl_f32, dnnl_nhwc);
    EXPECT_EQ(md_to_string(md, buf, 4), 3);
    EXPECT_STREQ(buf, "f32");
}

TEST(memory_desc_text, hash_agrees_with_equality) {
    const dnnl_dims_t dims = {1, 3};
    const dnnl_dims_t s1 = {3, 1}, s2 = {77, 1};
    memory_desc_t a = zero_md(), b = zero_md();
    ASSERT_EQ(md_init_with_strides(a, 2, dims, dnnl_f32, s1), dnnl_success);
    ASSERT_EQ(md_init_with_strides(b, 2, dims, dnnl_f32, s2), dnnl_success);
    EXPECT_TRUE(md_equal(a, b));
    EXPECT_EQ(md_hash(a), md_hash(b));
    const memory_desc_t c = make({1, 3}, dnnl_f16, dnnl_ab);
    EXPECT_FALSE(md_equal(a, c));
    EXPECT_NE(md_hash(a), md_hash(c));
}

TEST(memory_desc_text, blob_is_fixed_size_and_consistent) {
    const memory_desc_t md = make({3, 17, 5, 5}, dnnl_f32, dnnl_nChw16c);
    std::vector<uint8_t> blob(md_blob_size());
    md_to_blob(md, blob.data());
    memory_desc_t back = zero_md();
    ASSERT_EQ(md_from_blob(back, blob.data()), dnnl_success);
    EXPECT_TRUE(md_equal(md, back));
    EXPECT_EQ(std::memcmp(&md.blocking, &back.blocking, sizeof(md.blocking)), 0);
}
