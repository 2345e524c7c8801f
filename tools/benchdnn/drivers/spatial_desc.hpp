// Problem descriptors of the normalization-style drivers (lrn, gnorm): "mb2ic16ih5ls5",
// "g4mb2ic16id3ih5iw7eps1e-5", an optional "_name" or "nNAME" tail ignored. Entries are a
// lowercase key and a number; missing iw is ih, missing ih is iw; id makes it 3D.
#pragma once

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>

#include "test_mem.hpp"

namespace benchdnn {

struct spatial_desc_t {
    std::map<std::string, double> v;

    bool has(const std::string &k) const { return v.count(k) != 0; }
    double get(const std::string &k, double def) const {
        auto it = v.find(k);
        return it == v.end() ? def : it->second;
    }

    static spatial_desc_t parse(const std::string &s) {
        spatial_desc_t d;
        size_t i = 0;
        while (i < s.size()) {
            if (s[i] == '_') break; // a name
            size_t k = i;
            while (k < s.size() && std::isalpha(static_cast<unsigned char>(s[k])) && s[k] != 'e')
                ++k;
            // Keys that contain 'e' (beta, eps) or that are a name prefix.
            std::string key = s.substr(i, k - i);
            if (k < s.size() && s[k] == 'e' && (key == "b" || key.empty())) {
                const std::string rest = s.substr(i);
                const char *keys[] = {"beta", "eps"};
                key.clear();
                for (const char *cand : keys)
                    if (rest.compare(0, std::strlen(cand), cand) == 0) key = cand;
                if (key.empty()) throw std::invalid_argument("bad descriptor '" + s + "'");
                k = i + key.size();
            }
            if (key == "n") break; // a name follows
            if (key.empty()) throw std::invalid_argument("bad descriptor '" + s + "'");
            char *end = nullptr;
            const double val = std::strtod(s.c_str() + k, &end);
            if (end == s.c_str() + k)
                throw std::invalid_argument("no value for '" + key + "' in '" + s + "'");
            d.v[key] = val;
            i = static_cast<size_t>(end - s.c_str());
        }
        if (!d.has("ic")) throw std::invalid_argument("descriptor '" + s + "' has no ic");
        return d;
    }

    dims_t dims() const {
        const int64_t mb = static_cast<int64_t>(get("mb", 2)), ic = static_cast<int64_t>(get("ic", 1));
        dims_t r = {mb, ic};
        if (!has("id") && !has("ih") && !has("iw")) return {mb, ic, 1, 1};
        const int64_t ih = static_cast<int64_t>(get("ih", get("iw", 1)));
        const int64_t iw = static_cast<int64_t>(get("iw", ih));
        if (has("id")) r.push_back(static_cast<int64_t>(get("id", 1)));
        if (has("id") || has("ih")) r.push_back(ih);
        r.push_back(iw);
        return r;
    }
};

} // namespace benchdnn
