// The reference of benchdnn --graph: each op of a case in double precision, from its
// definition, over logical (row-major) values; every output is rounded to its data type.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "graph_case.hpp"

namespace benchdnn {

struct ref_value_t {
    dims_t dims;
    dnnl_data_type_t dt = dnnl_f32;
    std::vector<double> v; // row-major over dims
    // Sum of |terms| behind each value where an op accumulated it (MatMul, convolutions),
    // carried through element-wise ops; empty otherwise. Tolerances scale with it.
    std::vector<double> mag;
};
using ref_values_t = std::map<size_t, ref_value_t>;

// Throws std::invalid_argument "reference: op ID (KIND): what".
[[noreturn]] void ref_fail(const graph_op_t &op, const std::string &what);

// Empty when the reference computes this op; otherwise why not ("no reference for Pow").
std::string ref_unsupported(const graph_op_t &op);

// Runs the ops of c in dependency order over values (which holds the graph inputs) and adds
// every value they produce. Throws std::invalid_argument when an op has no reference or the
// case is inconsistent (a missing input, mismatched shapes).
void ref_run(const graph_case_t &c, ref_values_t &values);

// Multiply-adds of MatMul and Convolution ops, times two.
double graph_flops(const graph_case_t &c);

// Whether an output of the case passes through transcendental math (exp, erf, tanh...).
bool graph_has_transcendental(const graph_case_t &c);

} // namespace benchdnn
