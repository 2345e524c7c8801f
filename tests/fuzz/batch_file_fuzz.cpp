// benchdnn batch files from fuzzed text, read in list mode: every driver's knob and problem
// descriptor parser sees the words, nothing runs. A bad file is an error message and exit
// status 2, never a crash.
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <string>

#include "benchdnn_entry.hpp"

namespace {

// List mode only: words (outside comments) that switch modes or engines, or run graph cases,
// would run problems of any size.
bool list_only(const std::string &text) {
    if (text.find('\0') != std::string::npos) return false;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t eol = text.find('\n', pos);
        if (eol == std::string::npos) eol = text.size();
        const std::string line = text.substr(pos, std::min(eol, text.find('#', pos)) - pos);
        for (const char *w : {"-mode", "-engine", "-graph", "-v", "-help", "-h"})
            if (line.find(w) != std::string::npos) return false;
        pos = eol + 1;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    // Listed problems go to stdout: keep the fuzzer's output readable.
    if (!std::freopen("/dev/null", "w", stdout)) return 0;
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    if (!list_only(text)) return 0;
    fuzz::run_benchdnn({"--mode=L", "--engine=cpu", "--batch=" + fuzz::input_file(data, size, ".txt")});
    return 0;
}
