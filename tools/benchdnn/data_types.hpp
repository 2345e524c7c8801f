// Element values of every data type the tester handles, as doubles: encode, decode, rounding.
#pragma once

#include <cstddef>

#include "oneapi/dnnl/dnnl.h"

namespace benchdnn {

// Whether the tester can read and write this data type.
bool dt_supported(dnnl_data_type_t dt);
bool dt_is_int(dnnl_data_type_t dt);
// s4, u4, f4_e2m1, f4_e3m0: two elements a byte (written one thread at a time).
bool dt_is_4bit(dnnl_data_type_t dt);
size_t dt_size(dnnl_data_type_t dt);
double dt_lowest(dnnl_data_type_t dt);
double dt_max(dnnl_data_type_t dt);
// Relative spacing of representable values near 1 (0 for integers).
double dt_epsilon(dnnl_data_type_t dt);

// What v becomes once stored as dt: rounded to nearest even, integers saturated.
double round_to_dt(double v, dnnl_data_type_t dt);

// Element `index` of an array of dt at base.
double load_elem(const void *base, size_t index, dnnl_data_type_t dt);
void store_elem(void *base, size_t index, dnnl_data_type_t dt, double v);

} // namespace benchdnn
