#include "gpu/tuning/tuning_override.hpp"

#include <cstdlib>
#include <cstring>

namespace anydnn {
namespace gpu {

std::string tuning_override(const char *op) {
    const char *env = std::getenv("ANYDNN_GPU_TUNING");
    if (!env) return std::string();
    const std::string all(env);
    size_t begin = 0;
    while (begin <= all.size()) {
        size_t end = all.find(';', begin);
        if (end == std::string::npos) end = all.size();
        const std::string section = all.substr(begin, end - begin);
        // "OP:" names the operation where the text before ':' is a plain word.
        const size_t colon = section.find(':');
        const bool named = colon != std::string::npos
                && section.find_first_of("=,") > colon;
        const std::string name = named ? section.substr(0, colon) : std::string("gemm");
        if (name == op && !section.empty()) return named ? section.substr(colon + 1) : section;
        begin = end + 1;
    }
    return std::string();
}

} // namespace gpu
} // namespace anydnn
