// Output against reference, within the tolerance of its data type and algorithm.
#pragma once

#include <string>
#include <vector>

#include "test_mem.hpp"

namespace benchdnn {

struct tolerance_t {
    // Floating-point outputs pass when |got - exp| <= eps * max(1, |exp|, mag[i]);
    // eps is raised to the data type's own spacing.
    double eps = 0;
    // Integer outputs pass when |got - round(exp)| <= int_diff.
    double int_diff = 0;
};

// Reports the first mismatches on their own lines and returns false on any mismatch; msg is
// the one-line summary. mag (optional) is the size of the terms that formed each value.
bool compare(const std::vector<double> &got, const std::vector<double> &exp, const dims_t &dims,
        dnnl_data_type_t dt, const tolerance_t &tol, std::string &msg,
        const std::vector<double> *mag = nullptr);

// Checks an output tensor: values, then that its padding stayed zero.
bool check_output(const test_mem_t &m, const std::vector<double> &exp, const tolerance_t &tol,
        std::string &msg, const std::vector<double> *mag = nullptr);

} // namespace benchdnn
