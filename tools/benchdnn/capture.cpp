#include "capture.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace benchdnn {

namespace {
bool capture_enabled = false;

// "onednn_verbose,<time or v1>,primitive,create:dispatch,<impl>,<why>" -> "<impl>,<why>".
std::string reason_of(const std::string &line) {
    const char *markers[] = {"create:dispatch,", "create:check,", "common,error,", "error,"};
    for (const char *m : markers) {
        auto p = line.find(m);
        if (p != std::string::npos) return line.substr(p + std::string(m).size());
    }
    return {};
}
} // namespace

void enable_reason_capture() {
    if (std::getenv("ONEDNN_VERBOSE") || std::getenv("DNNL_VERBOSE")) return;
    setenv("ONEDNN_VERBOSE", "dispatch,check", 1);
    capture_enabled = true;
}

stdout_capture_t::stdout_capture_t() {
    if (!capture_enabled) return;
    std::FILE *f = std::tmpfile();
    if (!f) return;
    std::fflush(stdout);
    saved_fd_ = dup(STDOUT_FILENO);
    if (saved_fd_ < 0 || dup2(fileno(f), STDOUT_FILENO) < 0) {
        if (saved_fd_ >= 0) close(saved_fd_);
        saved_fd_ = -1;
        std::fclose(f);
        return;
    }
    file_ = f;
}

stdout_capture_t::~stdout_capture_t() {
    finish();
}

std::string stdout_capture_t::finish() {
    if (!file_) return {};
    std::fflush(stdout);
    dup2(saved_fd_, STDOUT_FILENO);
    close(saved_fd_);
    saved_fd_ = -1;
    auto *f = static_cast<std::FILE *>(file_);
    file_ = nullptr;
    std::rewind(f);
    std::string text;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) text.append(buf, n);
    std::fclose(f);

    std::vector<std::string> reasons;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::string r = reason_of(line);
        if (!r.empty() && (reasons.empty() || reasons.back() != r)) reasons.push_back(r);
    }
    std::string out;
    for (const auto &r : reasons) out += (out.empty() ? "" : "; ") + r;
    // Too long: the start, and the last reason whole (the creation's own summary, which
    // names the last implementation's refusal).
    if (out.size() > 400) {
        std::string last = reasons.back();
        if (last.size() > 300) last = last.substr(0, 297) + "...";
        out = out.substr(0, 96) + " ... " + last;
    }
    return out;
}

} // namespace benchdnn
