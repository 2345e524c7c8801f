// Graph inputs whose value a pattern fixes, as oneDNN's benchdnn fills them: the operands of an
// implicit causal mask (GenIndex, GreaterEqual, Select) are -inf and 0, and the key and query
// lengths of its bottom-right form are the sizes of the scores they shift. Random values there
// would state another problem than the one the library recognises.
#pragma once

#include <map>

#include "graph_case.hpp"

namespace benchdnn {

std::map<size_t, double> pattern_constants(const graph_case_t &c);

} // namespace benchdnn
