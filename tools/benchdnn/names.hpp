// Names on the command line <-> values of the public enums.
#pragma once

#include <string>

#include "oneapi/dnnl/dnnl.h"

namespace benchdnn {

// Data types: "f32", "bf16", "s8", ...; throws on an unknown name.
dnnl_data_type_t str2dt(const std::string &s);
const char *dt2str(dnnl_data_type_t dt);

// Format tags: every enumerator of the library's dnnl_format_tag_t by its name, canonical
// (aBcd16b) or alias (nChw16c). Returns false for an unknown name.
bool str2tag(const std::string &s, dnnl_format_tag_t &tag);
// The letter name of a tag ("acdb" for nhwc); empty for none.
std::string tag_letters(dnnl_format_tag_t tag);

// Propagation: FWD_D, FWD_I, FWD_B, BWD_D, BWD_W, BWD_WB, BWD_DW.
enum class dir_t { fwd_d, fwd_i, fwd_b, bwd_d, bwd_w, bwd_wb, bwd_dw };
dir_t str2dir(const std::string &s);
const char *dir2str(dir_t d);
bool is_fwd(dir_t d);

// Eltwise algorithms by their short name (relu, gelu_erf, relu_dst, ...).
bool str2eltwise_alg(const std::string &s, dnnl_alg_kind_t &alg);
const char *eltwise_alg2str(dnnl_alg_kind_t alg);

// Binary algorithms: add, mul, max, min, div, sub, ge, gt, le, lt, eq, ne, select.
bool str2binary_alg(const std::string &s, dnnl_alg_kind_t &alg);
const char *binary_alg2str(dnnl_alg_kind_t alg);

std::string lowercase(std::string s);

} // namespace benchdnn
