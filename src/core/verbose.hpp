// Verbose output (ONEDNN_VERBOSE / dnnl_set_verbose): one line per primitive creation and
// execution, errors with their reason, and at level "dispatch" why implementations were
// skipped. Levels: 0 none, 1 exec, 2 create+exec; or a comma list of
// none,error,check,create,exec,dispatch,profile_create,profile_exec,profile,all.
#pragma once

#include <string>

#include "core/status.hpp"

namespace anydnn {

namespace verbose_flag {
enum : unsigned {
    error = 1u << 0,
    create = 1u << 1,
    exec = 1u << 2,
    dispatch = 1u << 3,
    check = 1u << 4,
};
}

unsigned verbose_flags(); // current flags, read from the environment once
status_t set_verbose_level(int level);
bool verbose_on(unsigned flag);
// Prints "onednn_verbose,<stamp>,<category>,<text>" to stdout.
void verbose_print(const char *category, const std::string &text);
double now_ms(); // monotonic clock for timing lines

// The reason the last fail() on this thread gave; implementation dispatch reads it.
const std::string &last_failure_reason();

} // namespace anydnn
