// Knob values and problem descriptors as text: lists, shapes, layouts.
#pragma once

#include <array>
#include <climits>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "attr.hpp"
#include "dnnl_api.hpp"
#include "test_mem.hpp"

namespace benchdnn {

// "a,b,c" -> {a, b, c}; an empty string is one empty element.
std::vector<std::string> split(const std::string &s, char sep);

template <typename T, typename F>
std::vector<T> parse_list(const std::string &value, F parse_one) {
    std::vector<T> out;
    for (const auto &item : split(value, ',')) out.push_back(parse_one(item));
    return out;
}

double parse_number(const std::string &s, const char *what);
// A whole number in [lo, hi]; anything else throws std::invalid_argument.
int64_t parse_integer(const std::string &s, const char *what, int64_t lo = INT_MIN,
        int64_t hi = INT_MAX);
bool parse_bool(const std::string &s);
// Item readers for knob lists: a number, a whole number in [lo, hi], an int.
inline auto number_item(const char *what) {
    return [what](const std::string &s) { return parse_number(s, what); };
}
inline auto integer_item(const char *what, int64_t lo = INT_MIN, int64_t hi = INT_MAX) {
    return [=](const std::string &s) { return parse_integer(s, what, lo, hi); };
}
inline auto int_item(const char *what) {
    return [what](const std::string &s) { return static_cast<int>(parse_integer(s, what)); };
}
// "DT" (all three the same) or "SRC:WEI:DST", as conv, ip and matmul take --dt.
std::array<dnnl_data_type_t, 3> parse_dt_triple(const std::string &s);
// "DT" (both the same) or "SRC:DST", as the normalizations take --dt.
std::pair<dnnl_data_type_t, dnnl_data_type_t> parse_dt_pair(const std::string &s);

// "2x16x3x3" -> {2, 16, 3, 3}; "2x3:2x5" -> two shapes.
dims_t parse_dims(const std::string &s);
std::vector<dims_t> parse_dims_list(const std::string &s);
std::string dims2str(const dims_t &d);

// Layouts: abx (plain, row-major), axb (channels last), any, a dnnl_format_tag_t name or
// alias, a plain order ("acdb"), or an x form ("xba", "aBx16b"): 'x' is the dimensions the
// rest of the name leaves out, in order.
bool tag_known(const std::string &tag);
// The tag with its 'x' written out for ndims: "xba" with 4 dims is "cdba".
std::string expand_tag(const std::string &tag, int ndims);
// The tag itself; std::invalid_argument ("unknown tag 'x'") when tag_known says no.
std::string checked_tag(const std::string &tag);
// "abx,axb" -> checked tags; "abx:any,axb:axb" -> one checked list per comma item.
std::vector<std::string> parse_tag_list(const std::string &value);
std::vector<std::vector<std::string>> parse_tag_lists(const std::string &value);
// "f32:bf16,s8:s8" -> one list of data types per comma item.
std::vector<std::vector<dnnl_data_type_t>> parse_dt_lists(const std::string &value);
dnnl_status_t make_md(md_h &md, const dims_t &dims, dnnl_data_type_t dt, const std::string &tag);

// The knobs every driver shares: attributes and --mb. Lists multiply like other knobs.
struct common_knobs_t {
    std::vector<attr_desc_t> attrs;
    std::vector<int64_t> mb;
    common_knobs_t() { reset(); }
    void reset();
    bool parse(const std::string &key, const std::string &value);

private:
    std::vector<std::string> post_ops_, scales_, zero_points_, fpmath_;
    void rebuild_attrs();
};

// A problem as written, split into what the drivers parse and its name: 'n"NAME"' or '_n"NAME"'
// at the end, or an unquoted '_nNAME'. The '_' separating parts ("mb16_ic64", "l1t1mb1_sic16")
// is dropped from the body.
struct problem_text_t {
    std::string body, name;
};
problem_text_t split_problem_text(const std::string &desc);

// dims with the first dimension replaced by mb when mb > 0.
dims_t apply_mb(dims_t d, int64_t mb);

} // namespace benchdnn
