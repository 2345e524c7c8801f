// Sanitized test builds (ANYDNN_SANITIZE) run about ten times slower, and what they look for
// is memory and undefined behaviour, not numerics: there, tests that sample a reference many
// times take fewer samples, and the largest shapes (there for thread splits) shrink. The
// Release run keeps the full sizes and samples.
#pragma once

#include <cstdint>

namespace test_budget {

#ifdef ANYDNN_TEST_SANITIZED
constexpr bool sanitized = true;
#else
constexpr bool sanitized = false;
#endif

// `full` in Release, `reduced` under sanitizers.
constexpr int64_t pick(int64_t full, int64_t reduced) {
    return sanitized ? reduced : full;
}

} // namespace test_budget
