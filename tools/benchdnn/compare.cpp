#include "compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "data_types.hpp"
#include "harness.hpp"

namespace benchdnn {

namespace {

std::string position(const dims_t &dims, int64_t i) {
    int64_t pos[DNNL_MAX_NDIMS] = {0};
    logical_position(dims, i, pos);
    std::string s;
    for (size_t d = 0; d < dims.size(); ++d) s += (d ? "," : "") + std::to_string(pos[d]);
    return s;
}

} // namespace

bool compare(const std::vector<double> &got, const std::vector<double> &exp, const dims_t &dims,
        dnnl_data_type_t dt, const tolerance_t &tol, std::string &msg,
        const std::vector<double> *mag) {
    const bool is_int = dt_is_int(dt);
    const double eps = std::max(tol.eps, dt_epsilon(dt));
    const int max_print = settings().verbose > 0 ? 20 : 5;
    int64_t errors = 0;
    double worst = 0;
    for (size_t i = 0; i < exp.size(); ++i) {
        const double e = round_to_dt(exp[i], dt), g = got[i];
        bool ok;
        double diff = std::fabs(g - e);
        if (std::isnan(e) || std::isnan(g)) ok = std::isnan(e) && std::isnan(g);
        else if (std::isinf(e) || std::isinf(g)) ok = e == g;
        else if (is_int) {
            // Libraries compute in f32 before the conversion: beyond 2^24 an s32 result is
            // only as exact as f32's spacing there.
            const double f32_step = std::fabs(e) >= 16777216.0
                    ? std::ldexp(1.0, std::ilogb(std::fabs(e)) - 23) : 0.0;
            ok = diff <= std::max(tol.int_diff, f32_step);
        }
        else {
            double scale = std::max(1.0, std::fabs(e));
            if (mag) scale = std::max(scale, (*mag)[i]);
            ok = diff <= eps * scale;
            if (!ok) worst = std::max(worst, diff / scale);
        }
        if (ok) continue;
        if (errors++ < max_print)
            std::printf("[%6lld][%s] exp:%.9g (exact %.9g) got:%.9g diff:%.3g\n",
                    static_cast<long long>(i), position(dims, i).c_str(), e, exp[i], g, diff);
    }
    if (errors == 0) return true;
    char buf[160];
    if (is_int)
        std::snprintf(buf, sizeof(buf), "%lld of %zu values wrong", static_cast<long long>(errors),
                exp.size());
    else
        std::snprintf(buf, sizeof(buf), "%lld of %zu values wrong, worst scaled diff %.3g > %.3g",
                static_cast<long long>(errors), exp.size(), worst, eps);
    msg = buf;
    return false;
}

bool check_output(const test_mem_t &m, const std::vector<double> &exp, const tolerance_t &tol,
        std::string &msg, const std::vector<double> *mag) {
    if (!compare(m.read(), exp, m.dims(), m.dt(), tol, msg, mag)) return false;
    int64_t pad = m.nonzero_padding();
    if (pad) {
        msg = std::to_string(pad) + " padded elements not zero";
        return false;
    }
    return true;
}

} // namespace benchdnn
