#include "core/verbose.hpp"

#include <atomic>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace anydnn {

namespace {

unsigned flags_for_level(int level) {
    if (level <= 0) return 0;
    if (level == 1) return verbose_flag::error | verbose_flag::exec;
    return verbose_flag::error | verbose_flag::exec | verbose_flag::create;
}

unsigned parse_env(const char *env) {
    if (!env || !*env) return 0;
    char *end = nullptr;
    long level = std::strtol(env, &end, 10);
    if (end != env && *end == '\0') return flags_for_level(static_cast<int>(level));
    unsigned flags = 0;
    std::string s(env);
    size_t start = 0;
    while (start <= s.size()) {
        size_t comma = s.find(',', start);
        std::string word = s.substr(start, comma == std::string::npos ? std::string::npos
                                                                     : comma - start);
        if (word == "error") flags |= verbose_flag::error;
        else if (word == "create" || word == "profile_create")
            flags |= verbose_flag::create;
        else if (word == "exec" || word == "profile_exec") flags |= verbose_flag::exec;
        else if (word == "profile")
            flags |= verbose_flag::create | verbose_flag::exec;
        else if (word == "dispatch") flags |= verbose_flag::dispatch;
        else if (word == "check") flags |= verbose_flag::check;
        else if (word == "all") flags |= ~0u;
        else if (word == "none") flags = 0;
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return flags;
}

std::atomic<unsigned> &flags_storage() {
    static std::atomic<unsigned> flags {parse_env(std::getenv("ONEDNN_VERBOSE")
                    ? std::getenv("ONEDNN_VERBOSE")
                    : std::getenv("DNNL_VERBOSE"))};
    return flags;
}

thread_local std::string last_reason;

} // namespace

unsigned verbose_flags() {
    return flags_storage().load(std::memory_order_relaxed);
}

bool verbose_on(unsigned flag) {
    return (verbose_flags() & flag) != 0;
}

status_t set_verbose_level(int level) {
    if (level < 0 || level > 2) return dnnl_invalid_arguments;
    flags_storage().store(flags_for_level(level));
    return dnnl_success;
}

double now_ms() {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

void verbose_print(const char *category, const std::string &text) {
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    std::printf("onednn_verbose,%.3f,%s,%s\n", now_ms(), category, text.c_str());
    std::fflush(stdout);
}

const std::string &last_failure_reason() {
    return last_reason;
}

status_t fail(status_t status, const char *where, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    last_reason = buf;
    if (verbose_on(verbose_flag::check) || verbose_on(verbose_flag::error)) {
        // Unimplemented cases during dispatch are normal; dispatch level prints those.
        if (status != dnnl_unimplemented || verbose_on(verbose_flag::check))
            verbose_print("common,error", std::string(where) + "," + buf);
    }
    return status;
}

} // namespace anydnn
