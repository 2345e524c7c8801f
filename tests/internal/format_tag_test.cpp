#include <cstring>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl_debug.h"
#include "oneapi/dnnl/dnnl_format_tags.h"

#include "core/format_tag.hpp"

using namespace anydnn::core;

namespace {
// The body of dnnl::memory::format_tag, checked here on its own.
enum class cpp_format_tag {
#include "oneapi/dnnl/dnnl_format_tags_cpp.inc"
};

struct layout_t {
    int ndims = -1, n_inner = -1;
    int outer[12] = {}, inner_idx[12] = {};
    long inner_blk[12] = {};
};

layout_t layout_of(dnnl_format_tag_t tag) {
    layout_t l;
    EXPECT_TRUE(format_tag_layout(tag, &l.ndims, l.outer, &l.n_inner, l.inner_idx, l.inner_blk))
            << format_tag_name(tag);
    return l;
}

void expect_layout(dnnl_format_tag_t tag, std::initializer_list<int> outer,
        std::initializer_list<std::pair<int, long>> inner) {
    layout_t l = layout_of(tag);
    ASSERT_EQ(l.ndims, int(outer.size()));
    int i = 0;
    for (int d : outer)
        EXPECT_EQ(l.outer[i++], d) << "outer " << i - 1;
    ASSERT_EQ(l.n_inner, int(inner.size()));
    i = 0;
    for (auto b : inner) {
        EXPECT_EQ(l.inner_idx[i], b.first) << "inner " << i;
        EXPECT_EQ(l.inner_blk[i], b.second) << "inner " << i;
        ++i;
    }
}
} // namespace

TEST(format_tag, counts_match_onednn) {
    EXPECT_EQ(dnnl_format_tag_undef, 0);
    EXPECT_EQ(dnnl_format_tag_any, 1);
    EXPECT_EQ(dnnl_a, 2);
    EXPECT_EQ(dnnl_format_tag_last, 875);
    // 876 distinct values; every one has a name, nothing past the sentinel.
    int named = 0;
    for (int v = 0; v <= dnnl_format_tag_last + 10; ++v)
        named += format_tag_name(dnnl_format_tag_t(v)) != nullptr;
    EXPECT_EQ(named, 876);
    int n_alias = 0, n_spell = 0;
    format_tag_aliases(&n_alias);
    format_tag_spellings(&n_spell);
    EXPECT_EQ(n_alias, 798);
    // Spellings: every name but the sentinel.
    EXPECT_EQ(n_spell + 1, 1674);
    EXPECT_EQ(named + n_alias, 1674);
}

TEST(format_tag, aliases_have_onednn_values) {
    EXPECT_EQ(dnnl_x, dnnl_a);
    EXPECT_EQ(dnnl_nchw, dnnl_abcd);
    EXPECT_EQ(dnnl_nhwc, dnnl_acdb);
    EXPECT_EQ(dnnl_chwn, dnnl_bcda);
    EXPECT_EQ(dnnl_nChw16c, dnnl_aBcd16b);
    EXPECT_EQ(dnnl_NChw16n16c, dnnl_ABcd16a16b);
    EXPECT_EQ(dnnl_OIhw16i16o, dnnl_ABcd16b16a);
    EXPECT_EQ(dnnl_goihw, dnnl_abcde);
    EXPECT_EQ(dnnl_hwigo, dnnl_decab);
    EXPECT_EQ(dnnl_gOIw4i16o4i, dnnl_aBCd4c16b4c);
    EXPECT_EQ(dnnl_OhwI24o, dnnl_Acdb24a);
    EXPECT_EQ(dnnl_tnc, dnnl_abc);
    EXPECT_EQ(dnnl_ntc, dnnl_bac);
    EXPECT_EQ(dnnl_ldigo, dnnl_abcde);
    EXPECT_EQ(dnnl_ldgoi, dnnl_abdec);
    EXPECT_EQ(dnnl_ldgOI32o4i, dnnl_abdEC32e4c);
    // oneDNN binds this one to the OI-ordered tag; the value is ABI.
    EXPECT_EQ(dnnl_gIOhw2i8o16i2o, dnnl_aBCde2c8b16c2b);
    EXPECT_EQ(dnnl_gIOdhw2i8o16i2o, dnnl_aBCdef2c8b16c2b);
    EXPECT_EQ(dnnl_gIOw2i8o16i2o, dnnl_aCBd2c8b16c2b);
}

TEST(format_tag, cpp_enumerators_mirror_c_values) {
    EXPECT_EQ(int(cpp_format_tag::undef), int(dnnl_format_tag_undef));
    EXPECT_EQ(int(cpp_format_tag::any), int(dnnl_format_tag_any));
    EXPECT_EQ(int(cpp_format_tag::format_tag_last), int(dnnl_format_tag_last));
    EXPECT_EQ(int(cpp_format_tag::nchw), int(cpp_format_tag::abcd));
    EXPECT_EQ(int(cpp_format_tag::OIhw16i16o), int(dnnl_ABcd16b16a));
    EXPECT_EQ(int(cpp_format_tag::ldgOI64o4i), int(dnnl_abdEC64e4c));
}

TEST(format_tag, layout_of_plain_and_blocked_tags) {
    expect_layout(dnnl_a, {0}, {});
    expect_layout(dnnl_acdb, {0, 2, 3, 1}, {});
    expect_layout(dnnl_aBcd16b, {0, 1, 2, 3}, {{1, 16}});
    expect_layout(dnnl_ABcd8b8a, {0, 1, 2, 3}, {{1, 8}, {0, 8}});
    // gOIhw4i16o4i: g o i h w with i split 4 / 4 around a 16-o block.
    expect_layout(dnnl_gOIhw4i16o4i, {0, 1, 2, 3, 4}, {{2, 4}, {1, 16}, {2, 4}});
    expect_layout(dnnl_abDC12d8c, {0, 1, 3, 2}, {{3, 12}, {2, 8}});
    expect_layout(dnnl_abcdefghijkl, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {});
}

TEST(format_tag, layout_rejects_non_layouts) {
    int nd = -7, ni = -7, outer[12], idx[12];
    long blk[12];
    // Negative values are not representable in the C++ enum, so not tried.
    for (int v : {int(dnnl_format_tag_undef), int(dnnl_format_tag_any),
                 int(dnnl_format_tag_last), int(dnnl_format_tag_last) + 1}) {
        EXPECT_FALSE(format_tag_layout(dnnl_format_tag_t(v), &nd, outer, &ni, idx, blk)) << v;
    }
    EXPECT_EQ(nd, -7);
    EXPECT_EQ(ni, -7);
}

TEST(format_tag, every_layout_is_consistent_with_its_name) {
    for (int v = dnnl_a; v < dnnl_format_tag_last; ++v) {
        auto tag = dnnl_format_tag_t(v);
        const std::string name = format_tag_name(tag);
        layout_t l = layout_of(tag);
        ASSERT_GE(l.ndims, 1) << name;
        ASSERT_LE(l.ndims, 12) << name;
        std::set<int> dims(l.outer, l.outer + l.ndims);
        EXPECT_EQ(int(dims.size()), l.ndims) << name;
        EXPECT_EQ(*dims.rbegin(), l.ndims - 1) << name;
        // Rebuild the name from the layout.
        std::set<int> blocked(l.inner_idx, l.inner_idx + l.n_inner);
        std::string rebuilt;
        for (int i = 0; i < l.ndims; ++i)
            rebuilt += char((blocked.count(l.outer[i]) ? 'A' : 'a') + l.outer[i]);
        for (int i = 0; i < l.n_inner; ++i)
            rebuilt += std::to_string(l.inner_blk[i]) + char('a' + l.inner_idx[i]);
        EXPECT_EQ(rebuilt, name);
    }
}

TEST(format_tag, names_round_trip) {
    for (int v = 0; v < dnnl_format_tag_last; ++v) {
        auto tag = dnnl_format_tag_t(v);
        const char *name = format_tag_name(tag);
        ASSERT_NE(name, nullptr) << v;
        EXPECT_STREQ(dnnl_fmt_tag2str(tag), name);
        EXPECT_EQ(format_tag_from_name(name), tag) << name;
    }
    int n = 0;
    const format_tag_entry_t *aliases = format_tag_aliases(&n);
    for (int i = 0; i < n; ++i) {
        EXPECT_EQ(format_tag_from_name(aliases[i].name), aliases[i].tag) << aliases[i].name;
        EXPECT_GT(aliases[i].tag, dnnl_format_tag_any) << aliases[i].name;
        EXPECT_LT(aliases[i].tag, dnnl_format_tag_last) << aliases[i].name;
    }
    const format_tag_entry_t *all = format_tag_spellings(&n);
    for (int i = 1; i < n; ++i)
        EXPECT_LT(std::strcmp(all[i - 1].name, all[i].name), 0) << all[i].name;
}

TEST(format_tag, names_of_special_and_unknown_values) {
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_format_tag_undef), "undef");
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_format_tag_any), "any");
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_nChw16c), "aBcd16b");
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_format_tag_last), "format_tag_last");
    EXPECT_STREQ(dnnl_fmt_tag2str(dnnl_format_tag_t(dnnl_format_tag_last + 1)),
            "unknown fmt_tag");
}

TEST(format_tag, from_name_accepts_aliases_and_rejects_others) {
    EXPECT_EQ(format_tag_from_name("nchw"), dnnl_abcd);
    EXPECT_EQ(format_tag_from_name("nChw16c"), dnnl_aBcd16b);
    EXPECT_EQ(format_tag_from_name("any"), dnnl_format_tag_any);
    EXPECT_EQ(format_tag_from_name("undef"), dnnl_format_tag_undef);
    EXPECT_EQ(format_tag_from_name("NCHW"), dnnl_format_tag_undef);
    EXPECT_EQ(format_tag_from_name("format_tag_last"), dnnl_format_tag_undef);
    EXPECT_EQ(format_tag_from_name(""), dnnl_format_tag_undef);
    EXPECT_EQ(format_tag_from_name(nullptr), dnnl_format_tag_undef);
}
