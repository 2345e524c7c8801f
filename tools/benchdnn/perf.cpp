#include "perf.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace benchdnn {

double perf_result_t::min_ms() const {
    return ms.empty() ? 0 : *std::min_element(ms.begin(), ms.end());
}
double perf_result_t::max_ms() const {
    return ms.empty() ? 0 : *std::max_element(ms.begin(), ms.end());
}
double perf_result_t::avg_ms() const {
    return ms.empty() ? 0 : std::accumulate(ms.begin(), ms.end(), 0.0) / ms.size();
}
double perf_result_t::median_ms() const {
    if (ms.empty()) return 0;
    std::vector<double> s = ms;
    std::sort(s.begin(), s.end());
    size_t n = s.size();
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

namespace {

const char *def_template_compute
        = "perf,%engine%,%impl%,%prb%,min(ms):%-time%,median(ms):%@time%,"
          "GFLOP/s:%@Gflops%";
const char *def_template_memory
        = "perf,%engine%,%impl%,%prb%,min(ms):%-time%,median(ms):%@time%,GB/s:%@Gbw%";
const char *csv_template = "perf,%engine%,%impl%,%driver%,%prb%,%Gops%,%Gbytes%,%-time%,"
                           "%@time%,%-Gflops%,%@Gflops%,%-Gbw%,%@Gbw%";

std::string num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%g", v);
    return buf;
}

std::string fixed(double v) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.6g", v);
    return buf;
}

double rate(double amount, double ms) {
    return ms > 0 ? amount / ms * 1e-6 : 0; // per ms -> giga per second
}

bool field(const std::string &name, const perf_result_t &r, std::string &out) {
    if (name == "engine") out = r.engine;
    else if (name == "impl") out = r.impl;
    else if (name == "driver") out = r.driver;
    else if (name == "prb") out = r.prb;
    else if (name == "times") out = std::to_string(r.ms.size());
    else if (name == "Gops") out = num(r.flops * 1e-9);
    else if (name == "Gbytes") out = num(r.bytes * 1e-9);
    else if (name.size() > 1) {
        char stat = name[0];
        std::string what = name.substr(1);
        double t = stat == '-' ? r.min_ms()
                : stat == '0'  ? r.avg_ms()
                : stat == '+'  ? r.max_ms()
                : stat == '@'  ? r.median_ms()
                               : -1;
        if (t < 0) return false;
        if (what == "time") out = fixed(t);
        else if (what == "Gflops") out = fixed(rate(r.flops, t));
        else if (what == "Gbw") out = fixed(rate(r.bytes, t));
        else return false;
    } else
        return false;
    return true;
}

} // namespace

std::string format_perf(const std::string &tmpl_in, const perf_result_t &r) {
    std::string tmpl = tmpl_in;
    if (tmpl.empty() || tmpl == "def") tmpl = r.flops > 0 ? def_template_compute : def_template_memory;
    else if (tmpl == "csv") tmpl = csv_template;
    std::string out;
    for (size_t i = 0; i < tmpl.size(); ++i) {
        if (tmpl[i] == '%') {
            size_t end = tmpl.find('%', i + 1);
            std::string value;
            if (end != std::string::npos && field(tmpl.substr(i + 1, end - i - 1), r, value)) {
                out += value;
                i = end;
                continue;
            }
        }
        out += tmpl[i];
    }
    return out;
}

} // namespace benchdnn
