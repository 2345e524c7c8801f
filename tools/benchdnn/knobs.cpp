#include "knobs.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "names.hpp"

namespace benchdnn {

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        size_t p = s.find(sep, start);
        out.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
        if (p == std::string::npos) break;
        start = p + 1;
    }
    return out;
}

double parse_number(const std::string &s, const char *what) {
    try {
        size_t used = 0;
        double v = std::stod(s, &used);
        if (used == s.size()) return v;
    } catch (const std::exception &) {
    }
    throw std::invalid_argument(std::string("bad ") + what + " '" + s + "'");
}

int64_t parse_integer(const std::string &s, const char *what, int64_t lo, int64_t hi) {
    double v = parse_number(s, what);
    // Checked as a double first: converting an out-of-range double to an integer is undefined.
    if (!(v >= static_cast<double>(lo) && v <= static_cast<double>(hi)) || v != std::floor(v))
        throw std::invalid_argument(std::string(what) + " '" + s + "' is not an integer in ["
                + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return static_cast<int64_t>(v);
}

bool parse_bool(const std::string &s) {
    std::string l = lowercase(s);
    if (l == "true" || l == "1" || l.empty()) return true;
    if (l == "false" || l == "0") return false;
    throw std::invalid_argument("expected true or false, got '" + s + "'");
}

std::array<dnnl_data_type_t, 3> parse_dt_triple(const std::string &s) {
    const auto parts = split(s, ':');
    if (parts.size() == 1) {
        const auto t = str2dt(parts[0]);
        return {t, t, t};
    }
    if (parts.size() != 3) throw std::invalid_argument("--dt takes DT or SRC:WEI:DST");
    return {str2dt(parts[0]), str2dt(parts[1]), str2dt(parts[2])};
}

std::pair<dnnl_data_type_t, dnnl_data_type_t> parse_dt_pair(const std::string &s) {
    const auto parts = split(s, ':');
    if (parts.size() > 2) throw std::invalid_argument("--dt takes DT or SRC:DST");
    return {str2dt(parts[0]), str2dt(parts.back())};
}

dims_t parse_dims(const std::string &s) {
    dims_t d;
    for (const auto &item : split(s, 'x')) {
        if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos)
            throw std::invalid_argument("bad dimensions '" + s + "'");
        d.push_back(std::stoll(item));
    }
    if (d.size() > DNNL_MAX_NDIMS)
        throw std::invalid_argument("more than " + std::to_string(DNNL_MAX_NDIMS)
                + " dimensions in '" + s + "'");
    return d;
}

std::vector<dims_t> parse_dims_list(const std::string &s) {
    std::vector<dims_t> out;
    for (const auto &item : split(s, ':')) out.push_back(parse_dims(item));
    return out;
}

std::string dims2str(const dims_t &d) {
    std::string s;
    for (size_t i = 0; i < d.size(); ++i) s += (i ? "x" : "") + std::to_string(d[i]);
    return s;
}

bool tag_known(const std::string &tag) {
    // Any name of letters and digits with at most one 'x' (the remaining dimensions): oneDNN's
    // enum names and aliases, plain orders like "acdb" and x forms like "xba" or "aBx4b".
    if (tag.empty() || !std::isalpha(static_cast<unsigned char>(tag[0]))) return false;
    for (char c : tag)
        if (!std::isalnum(static_cast<unsigned char>(c))) return false;
    return std::count(tag.begin(), tag.end(), 'x') <= 1 || tag == "any";
}

std::string expand_tag(const std::string &tag, int nd) {
    const size_t x = tag.find('x');
    if (x == std::string::npos || tag == "x") return tag;
    bool used[26] = {};
    for (char c : tag)
        if (std::isalpha(static_cast<unsigned char>(c)) && c != 'x')
            used[std::tolower(static_cast<unsigned char>(c)) - 'a'] = true;
    std::string rest;
    for (int d = 0; d < nd && d < 26; ++d)
        if (!used[d]) rest += static_cast<char>('a' + d);
    std::string out = tag.substr(0, x) + rest + tag.substr(x + 1);
    // A plain x form names the dimensions there are: axb of one dimension is a.
    if (std::all_of(out.begin(), out.end(), [](char c) { return std::islower(c); }))
        out.erase(std::remove_if(out.begin(), out.end(), [nd](char c) { return c - 'a' >= nd; }),
                out.end());
    return out;
}

namespace {

// Strides of a plain order written outermost first ("acdb": b innermost); false when the tag
// is not one lowercase letter per dimension.
bool order_strides(const std::string &order, const dims_t &dims, dims_t &strides) {
    const size_t nd = dims.size();
    if (order.size() != nd) return false;
    std::vector<bool> seen(nd, false);
    for (char c : order) {
        const int d = c - 'a';
        if (d < 0 || d >= static_cast<int>(nd) || seen[d]) return false;
        seen[d] = true;
    }
    strides.assign(nd, 1);
    int64_t s = 1;
    for (size_t i = nd; i-- > 0;) {
        const int d = order[i] - 'a';
        strides[d] = s;
        s *= std::max<int64_t>(dims[d], 1);
    }
    return true;
}

} // namespace

// A plain order with c, d, ... in a row written as x, so it fits any rank as oneDNN's
// benchdnn takes it: "acdb" (nhwc) is axb, "cdba" (hwio) xba, "abcd" abx.
std::string plain_to_x(const std::string &order) {
    const size_t k = order.size();
    if (k < 3) return order;
    std::string run;
    for (size_t d = 2; d < k; ++d) run += static_cast<char>('a' + d);
    const size_t at = order.find(run);
    return at == std::string::npos ? order : order.substr(0, at) + "x" + order.substr(at + run.size());
}

dnnl_status_t make_md(md_h &md, const dims_t &dims, dnnl_data_type_t dt, const std::string &tag) {
    const int nd = static_cast<int>(dims.size());
    if (tag == "any")
        return dnnl_memory_desc_create_with_tag(md.out(), nd, dims.data(), dt, dnnl_format_tag_any);
    std::string name = tag;
    dnnl_format_tag_t alias;
    if (tag.find('x') == std::string::npos && str2tag(tag, alias)) {
        // A plain tag of another rank (nhwc for a 2D tensor) follows the tensor's rank.
        const std::string letters = tag_letters(alias);
        dims_t unused;
        if (static_cast<int>(letters.size()) != nd && order_strides(letters, dims_t(letters.size(), 1), unused))
            name = plain_to_x(letters);
    }
    name = expand_tag(name, nd);
    dims_t strides;
    if (order_strides(name, dims, strides))
        return dnnl_memory_desc_create_with_strides(md.out(), nd, dims.data(), dt, strides.data());
    dnnl_format_tag_t t = dnnl_format_tag_any;
    // A name this library's enum does not hold cannot be tested here.
    if (!str2tag(name, t) && !str2tag(tag, t)) return dnnl_unimplemented;
    return dnnl_memory_desc_create_with_tag(md.out(), nd, dims.data(), dt, t);
}

void common_knobs_t::reset() {
    post_ops_ = {""};
    scales_ = {""};
    zero_points_ = {""};
    fpmath_ = {""};
    mb = {0};
    rebuild_attrs();
}

void common_knobs_t::rebuild_attrs() {
    attrs.clear();
    for (const auto &po : post_ops_)
        for (const auto &sc : scales_)
            for (const auto &zp : zero_points_)
                for (const auto &fm : fpmath_) {
                    attr_desc_t a;
                    a.post_ops = parse_post_ops(po);
                    a.post_ops_str = po;
                    a.scales = parse_quant(sc, false);
                    a.scales_str = sc;
                    a.zero_points = parse_quant(zp, true);
                    a.zero_points_str = zp;
                    parse_fpmath(fm, a);
                    attrs.push_back(a);
                }
}

bool common_knobs_t::parse(const std::string &key, const std::string &value) {
    auto list = [&](std::vector<std::string> &dst) {
        auto items = split(value, ',');
        auto saved = dst;
        dst = items;
        try {
            rebuild_attrs();
        } catch (...) {
            dst = saved;
            rebuild_attrs();
            throw;
        }
    };
    if (key == "--attr-post-ops") list(post_ops_);
    else if (key == "--attr-scales") list(scales_);
    else if (key == "--attr-zero-points") list(zero_points_);
    else if (key == "--attr-fpmath") list(fpmath_);
    else if (key == "--mb")
        mb = parse_list<int64_t>(value, [](const std::string &s) {
            return parse_integer(s, "mini-batch", 0, INT64_MAX / 2);
        });
    else
        return false;
    return true;
}

problem_text_t split_problem_text(const std::string &desc) {
    problem_text_t t;
    size_t cut = desc.find("n\"");
    if (cut != std::string::npos && desc.size() >= cut + 3 && desc.back() == '"') {
        t.name = desc.substr(cut + 2, desc.size() - cut - 3);
    } else {
        cut = desc.find("_n");
        if (cut != std::string::npos) t.name = desc.substr(cut + 2);
    }
    for (char c : desc.substr(0, cut))
        if (c != '_') t.body += c;
    return t;
}

dims_t apply_mb(dims_t d, int64_t mb) {
    if (mb > 0 && !d.empty()) d[0] = mb;
    return d;
}

std::string checked_tag(const std::string &tag) {
    if (!tag_known(tag)) throw std::invalid_argument("unknown tag '" + tag + "'");
    return tag;
}

std::vector<std::string> parse_tag_list(const std::string &value) {
    return parse_list<std::string>(value, checked_tag);
}

std::vector<std::vector<std::string>> parse_tag_lists(const std::string &value) {
    return parse_list<std::vector<std::string>>(value, [](const std::string &s) {
        auto t = split(s, ':');
        for (const auto &x : t)
            checked_tag(x);
        return t;
    });
}

std::vector<std::vector<dnnl_data_type_t>> parse_dt_lists(const std::string &value) {
    return parse_list<std::vector<dnnl_data_type_t>>(value, [](const std::string &s) {
        std::vector<dnnl_data_type_t> d;
        for (const auto &x : split(s, ':'))
            d.push_back(str2dt(x));
        return d;
    });
}

} // namespace benchdnn
