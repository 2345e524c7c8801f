// A small JSON reader for benchdnn inputs (graph cases): a value tree, and errors that say
// where the text went wrong ("line 3, column 7: expected ':'").
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace benchdnn {

struct json_value_t {
    enum class kind_t { null, boolean, number, string, array, object };
    kind_t kind = kind_t::null;
    bool b = false;
    double num = 0;
    bool is_integer = false; // a number written without fraction or exponent
    int64_t integer = 0;     // its exact value when is_integer
    std::string str;
    std::vector<json_value_t> items;                           // array
    std::vector<std::pair<std::string, json_value_t>> members; // object, in written order

    // The member named key, or null when absent (or when this is not an object).
    const json_value_t *find(const std::string &key) const;
};

const char *json_kind_name(json_value_t::kind_t k);

// Parses one JSON document; throws std::invalid_argument naming the line and column of the
// first error. Nesting deeper than 64 levels is refused (no stack exhaustion on bad input).
json_value_t parse_json(const std::string &text);

} // namespace benchdnn
