// The math of element-wise and binary algorithms in double precision, from their definitions.
#pragma once

#include "oneapi/dnnl/dnnl.h"

namespace benchdnn {

double eltwise_fwd(dnnl_alg_kind_t alg, double x, double alpha, double beta);
// Gradient wrt the source; s is the source, or the destination for *_use_dst_for_bwd algs.
double eltwise_bwd(dnnl_alg_kind_t alg, double dd, double s, double alpha, double beta);
bool eltwise_uses_dst(dnnl_alg_kind_t alg);
// Algorithms evaluated through exp/log/erf/tanh: results carry approximation error.
bool eltwise_is_transcendental(dnnl_alg_kind_t alg);

// a (op) b; select takes c as the condition: c ? a : b.
double binary_op(dnnl_alg_kind_t alg, double a, double b, double c = 0);
bool binary_is_compare(dnnl_alg_kind_t alg);

} // namespace benchdnn
