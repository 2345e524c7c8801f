#include "names.hpp"

#include "dnnl_api.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <stdexcept>

namespace benchdnn {

std::string lowercase(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
            [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

namespace {

struct dt_name_t {
    const char *name;
    dnnl_data_type_t dt;
};
const dt_name_t dt_names[] = {
        {"f32", dnnl_f32},
        {"bf16", dnnl_bf16},
        {"f16", dnnl_f16},
        {"f64", dnnl_f64},
        {"s32", dnnl_s32},
        {"s8", dnnl_s8},
        {"u8", dnnl_u8},
        {"f8_e5m2", dnnl_f8_e5m2},
        {"f8_e4m3", dnnl_f8_e4m3},
        {"s4", dnnl_s4},
        {"u4", dnnl_u4},
        {"e8m0", dnnl_e8m0},
        {"f4_e2m1", dnnl_f4_e2m1},
        {"f4_e3m0", dnnl_f4_e3m0},
        {"s64", dnnl_s64},
        {"boolean", dnnl_boolean},
        {"undef", dnnl_data_type_undef},
};

struct tag_name_t {
    const char *name;
    dnnl_format_tag_t tag;
};
const tag_name_t tag_names[] = {
#include "tag_table.inc"
};

struct alg_name_t {
    const char *name;
    dnnl_alg_kind_t alg;
};
const alg_name_t eltwise_names[] = {
        {"relu", dnnl_eltwise_relu},
        {"tanh", dnnl_eltwise_tanh},
        {"elu", dnnl_eltwise_elu},
        {"square", dnnl_eltwise_square},
        {"abs", dnnl_eltwise_abs},
        {"sqrt", dnnl_eltwise_sqrt},
        {"linear", dnnl_eltwise_linear},
        {"soft_relu", dnnl_eltwise_soft_relu},
        {"hardsigmoid", dnnl_eltwise_hardsigmoid},
        {"logistic", dnnl_eltwise_logistic},
        {"exp", dnnl_eltwise_exp},
        {"gelu_tanh", dnnl_eltwise_gelu_tanh},
        {"swish", dnnl_eltwise_swish},
        {"log", dnnl_eltwise_log},
        {"clip", dnnl_eltwise_clip},
        {"clip_v2", dnnl_eltwise_clip_v2},
        {"pow", dnnl_eltwise_pow},
        {"gelu_erf", dnnl_eltwise_gelu_erf},
        {"round", dnnl_eltwise_round},
        {"mish", dnnl_eltwise_mish},
        {"hardswish", dnnl_eltwise_hardswish},
        {"relu_dst", dnnl_eltwise_relu_use_dst_for_bwd},
        {"tanh_dst", dnnl_eltwise_tanh_use_dst_for_bwd},
        {"elu_dst", dnnl_eltwise_elu_use_dst_for_bwd},
        {"sqrt_dst", dnnl_eltwise_sqrt_use_dst_for_bwd},
        {"logistic_dst", dnnl_eltwise_logistic_use_dst_for_bwd},
        {"exp_dst", dnnl_eltwise_exp_use_dst_for_bwd},
        {"clip_v2_dst", dnnl_eltwise_clip_v2_use_dst_for_bwd},
        // Older spellings users still type.
        {"gelu", dnnl_eltwise_gelu_tanh},
        {"sigmoid", dnnl_eltwise_logistic},
};
const alg_name_t binary_names[] = {
        {"add", dnnl_binary_add},
        {"mul", dnnl_binary_mul},
        {"max", dnnl_binary_max},
        {"min", dnnl_binary_min},
        {"div", dnnl_binary_div},
        {"sub", dnnl_binary_sub},
        {"ge", dnnl_binary_ge},
        {"gt", dnnl_binary_gt},
        {"le", dnnl_binary_le},
        {"lt", dnnl_binary_lt},
        {"eq", dnnl_binary_eq},
        {"ne", dnnl_binary_ne},
        {"select", dnnl_binary_select},
};

bool find_alg(const alg_name_t *b, const alg_name_t *e, const std::string &s,
        dnnl_alg_kind_t &alg) {
    std::string l = lowercase(s);
    // Full enum spellings (eltwise_relu, binary_add) are accepted too.
    for (const char *prefix : {"eltwise_", "binary_"})
        if (l.rfind(prefix, 0) == 0) l = l.substr(std::strlen(prefix));
    for (auto *p = b; p != e; ++p)
        if (l == p->name) {
            alg = p->alg;
            return true;
        }
    return false;
}

const char *alg_name(const alg_name_t *b, const alg_name_t *e, dnnl_alg_kind_t alg) {
    for (auto *p = b; p != e; ++p)
        if (p->alg == alg) return p->name;
    return "unknown";
}

} // namespace

dnnl_data_type_t str2dt(const std::string &s) {
    std::string l = lowercase(s);
    for (const auto &d : dt_names)
        if (l == d.name) return d.dt;
    throw std::invalid_argument("unknown data type '" + s + "'");
}

const char *dt2str(dnnl_data_type_t dt) {
    for (const auto &d : dt_names)
        if (d.dt == dt) return d.name;
    return "unknown";
}

bool str2tag(const std::string &s, dnnl_format_tag_t &tag) {
    for (const auto &t : tag_names)
        if (s == t.name) {
            tag = t.tag;
            return true;
        }
    return false;
}

std::string tag_letters(dnnl_format_tag_t tag) {
    for (const auto &t : tag_names) // the letter name comes first in the table
        if (t.tag == tag) return t.name;
    return {};
}

dir_t str2dir(const std::string &s) {
    static const struct {
        const char *name;
        dir_t d;
    } dirs[] = {{"FWD_D", dir_t::fwd_d}, {"FWD_I", dir_t::fwd_i}, {"FWD_B", dir_t::fwd_b},
            {"BWD_D", dir_t::bwd_d}, {"BWD_W", dir_t::bwd_w}, {"BWD_WB", dir_t::bwd_wb},
            {"BWD_DW", dir_t::bwd_dw}};
    std::string u = s;
    std::transform(u.begin(), u.end(), u.begin(),
            [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    for (const auto &d : dirs)
        if (u == d.name) return d.d;
    throw std::invalid_argument("unknown direction '" + s + "'");
}

const char *dir2str(dir_t d) {
    switch (d) {
        case dir_t::fwd_d: return "FWD_D";
        case dir_t::fwd_i: return "FWD_I";
        case dir_t::fwd_b: return "FWD_B";
        case dir_t::bwd_d: return "BWD_D";
        case dir_t::bwd_w: return "BWD_W";
        case dir_t::bwd_wb: return "BWD_WB";
        case dir_t::bwd_dw: return "BWD_DW";
    }
    return "unknown";
}

bool is_fwd(dir_t d) {
    return d == dir_t::fwd_d || d == dir_t::fwd_i || d == dir_t::fwd_b;
}

bool str2eltwise_alg(const std::string &s, dnnl_alg_kind_t &alg) {
    return find_alg(std::begin(eltwise_names), std::end(eltwise_names), s, alg);
}
const char *eltwise_alg2str(dnnl_alg_kind_t alg) {
    return alg_name(std::begin(eltwise_names), std::end(eltwise_names), alg);
}
bool str2binary_alg(const std::string &s, dnnl_alg_kind_t &alg) {
    return find_alg(std::begin(binary_names), std::end(binary_names), s, alg);
}
const char *binary_alg2str(dnnl_alg_kind_t alg) {
    return alg_name(std::begin(binary_names), std::end(binary_names), alg);
}

} // namespace benchdnn

namespace benchdnn {

const char *status_name(dnnl_status_t s) {
    switch (s) {
        case dnnl_success: return "success";
        case dnnl_out_of_memory: return "out_of_memory";
        case dnnl_invalid_arguments: return "invalid_arguments";
        case dnnl_unimplemented: return "unimplemented";
        case dnnl_last_impl_reached: return "last_impl_reached";
        case dnnl_runtime_error: return "runtime_error";
        case dnnl_not_required: return "not_required";
        default: return "error";
    }
}

} // namespace benchdnn
