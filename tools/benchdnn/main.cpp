// benchdnn: checks and times primitives of a oneDNN-compatible library through its public API.
//   benchdnn [--mode=C|P|CP|F|L] [--engine=cpu|gpu[:N]] --DRIVER [knobs] DESC... [--batch=FILE]
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "batch.hpp"
#include "capture.hpp"
#include "driver.hpp"
#include "harness.hpp"
#include "knob_table.hpp"
#include "knobs.hpp"
#include "names.hpp"

using namespace benchdnn;

namespace {

struct parse_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void print_help() {
    std::printf("usage: benchdnn [global knobs] --DRIVER [knobs] PROBLEM... [--batch=FILE]\n"
                "drivers:");
    for (const auto &d : driver_registry()) std::printf(" --%s", d.first.c_str());
    std::printf("\nglobal knobs: --mode=C|P|CP|F|L|R --engine=cpu|gpu[:N] "
                "--max-ms-per-prb=MS --fix-times-per-prb=N --perf-template=def|csv|TEXT "
                "--skip-impl=NAMES --verbose=N --version\n"
                "driver knobs: --reset --batch=FILE --mb=N --attr-post-ops=... "
                "--attr-scales=... --attr-zero-points=... --attr-fpmath=... and each "
                "driver's own\n");
}

void print_version() {
    const dnnl_version_t *v = dnnl_version();
    std::printf("library: v%d.%d.%d (%s)\n", v->major, v->minor, v->patch,
            v->hash ? v->hash : "");
}

void set_mode(const std::string &m) {
    auto &s = settings();
    s.correctness = s.performance = s.fast = s.list = false;
    if (m.empty()) throw std::invalid_argument("empty mode");
    for (char c : m) {
        switch (c) {
            case 'C': case 'c': s.correctness = true; break;
            case 'P': case 'p': s.performance = true; break;
            case 'F': case 'f': s.fast = true; break;
            case 'L': case 'l': s.list = true; break;
            case 'R': case 'r': break; // execute once, check nothing
            default: throw std::invalid_argument(std::string("unknown mode '") + c + "'");
        }
    }
}

void set_engine(const std::string &e) {
    auto &s = settings();
    auto colon = e.find(':');
    std::string kind = lowercase(e.substr(0, colon));
    if (kind == "cpu") s.engine_kind = dnnl_cpu;
    else if (kind == "gpu") s.engine_kind = dnnl_gpu;
    else throw std::invalid_argument("unknown engine '" + e + "'");
    s.engine_index = 0;
    if (colon != std::string::npos) {
        s.engine_index = static_cast<size_t>(parse_integer(e.substr(colon + 1), "engine index", 0));
    }
}

// Global knobs of oneDNN's benchdnn that concern its own runtime or bookkeeping: taken, and
// ignored with one warning.
bool ignored_global_knob(const std::string &key) {
    static const struct {
        const char *key, *why;
    } knobs[] = {{"--ctx-init", "threading contexts are the library's own"},
            {"--ctx-exe", "threading contexts are the library's own"},
            {"--cold-cache", "caches are not flushed between runs here"},
            {"--memory-kind", "memory is always a buffer of the engine here"},
            {"--repeats-per-prb", "each problem runs once"},
            {"--summary", "the summary line is always printed"},
            {"--canonical", "repro lines are written in one form here"},
            {"--mode-modifier", "memory is always filled the same way here"},
            {"--fast-ref", "the references are the tester's own"},
            {"--mem-check", "memory limits are not checked here"},
            {"--num-streams", "one stream runs every problem"},
            {"--execution-mode", "execution is always direct"},
            {"--cpu-isa-hints", "no ISA hints here"},
            {"--allow-enum-tags-only", "every tag is taken as written"}};
    for (const auto &k : knobs)
        if (key == k.key) {
            warn_ignored_knob(key, k.why);
            return true;
        }
    return false;
}

// Global knobs; false if key is not one.
bool parse_global(const std::string &key, const std::string &value) {
    auto &s = settings();
    if (key == "--mode") set_mode(value);
    else if (key == "--engine") set_engine(value);
    else if (key == "--max-ms-per-prb") s.max_ms_per_prb = parse_number(value, "time");
    else if (key == "--fix-times-per-prb")
        s.fix_times_per_prb = static_cast<int>(parse_integer(value, "count", 0));
    else if (key == "--perf-template") s.perf_template = value;
    else if (key == "--skip-impl") s.skip_impl = split(value, ',');
    else if (key == "--start") s.start = static_cast<int>(parse_integer(value, "index", 0));
    else if (key == "--verbose") s.verbose = static_cast<int>(parse_integer(value, "level"));
    else if (key.rfind("-v", 0) == 0 && key.size() > 2 && key[1] == 'v')
        s.verbose = static_cast<int>(parse_integer(key.substr(2), "level"));
    else if (key == "--version") print_version();
    else if (ignored_global_knob(key)) return true;
    else if (key == "--help" || key == "-h") print_help();
    else return false;
    return true;
}

class runner_t {
public:
    void process(const std::vector<token_t> &tokens, int depth) {
        if (depth > 16) throw parse_error("batch files nest deeper than 16 (a cycle?)");
        for (const auto &t : tokens) process_one(t, depth);
    }

private:
    std::unique_ptr<driver_t> driver_;
    std::string driver_name_;
    std::unique_ptr<std::regex> match_;

    void process_one(const token_t &t, int depth) {
        const std::string &w = t.text;
        if (w.rfind("-", 0) != 0) return run_desc(t);
        auto eq = w.find('=');
        std::string key = w.substr(0, eq), value = eq == std::string::npos ? "" : w.substr(eq + 1);
        try {
            if (key == "--batch") {
                if (value.empty()) throw std::invalid_argument("needs a file name");
                std::vector<token_t> sub;
                try {
                    sub = read_batch(resolve_batch_path(value, t.base_dir));
                } catch (const std::runtime_error &e) {
                    throw std::invalid_argument(e.what());
                }
                return process(sub, depth + 1);
            }
            if (parse_global(key, value)) return;
            auto it = eq == std::string::npos ? driver_registry().find(key.substr(2))
                                              : driver_registry().end();
            if (key.rfind("--", 0) == 0 && it != driver_registry().end()) {
                driver_ = it->second();
                driver_name_ = it->first;
                match_.reset();
                settings().driver_name = driver_name_;
                driver_->on_select();
                return;
            }
            if (!driver_)
                throw std::invalid_argument("unknown knob (no driver chosen yet; drivers:"
                        + driver_list() + ")");
            if (key == "--reset") {
                match_.reset();
                return driver_->reset();
            }
            // --match=REGEX: only problems whose text matches run (cleared by --reset).
            if (key == "--match") {
                // Bounded: std::regex recurses per character of pattern and text, and a
                // repetition count multiplies its automaton.
                if (value.size() > 256) throw std::invalid_argument("pattern longer than 256");
                if (value.find('{') != std::string::npos)
                    throw std::invalid_argument("repetition counts {n} are not taken");
                try {
                    match_.reset(value.empty() ? nullptr : new std::regex(value));
                } catch (const std::regex_error &e) {
                    throw std::invalid_argument(std::string("bad pattern: ") + e.what());
                }
                return;
            }
            settings().batch_dir = t.base_dir; // file knobs (--case) resolve against it
            if (!driver_->parse(key, value))
                throw std::invalid_argument("unknown knob for driver " + driver_name_);
        } catch (const std::invalid_argument &e) {
            throw parse_error(t.origin + ": " + w + ": " + e.what());
        }
    }

    void run_desc(const token_t &t) {
        if (!driver_)
            throw parse_error(t.origin + ": " + t.text + ": problem before any driver knob");
        if (match_ && (t.text.size() > 1024 || !std::regex_match(t.text, *match_))) return;
        const problem_text_t p = split_problem_text(t.text);
        settings().problem_name = p.name;
        settings().driver_name = driver_name_;
        settings().problem_text = t.text;
        try {
            driver_->run(p.body);
        } catch (const std::invalid_argument &e) {
            throw parse_error(t.origin + ": " + t.text + ": " + e.what());
        }
    }

    static std::string driver_list() {
        std::string s;
        for (const auto &d : driver_registry()) s += " --" + d.first;
        return s;
    }
};

} // namespace

int main(int argc, char **argv) {
    enable_reason_capture();
    std::vector<token_t> tokens;
    for (int i = 1; i < argc; ++i) tokens.push_back({argv[i], "command line", "."});
    if (tokens.empty()) {
        print_help();
        return 0;
    }
    runner_t runner;
    try {
        runner.process(tokens, 0);
    } catch (const parse_error &e) {
        std::fflush(stdout);
        std::fprintf(stderr, "benchdnn: error: %s\n", e.what());
        return 2;
    } catch (const std::exception &e) {
        std::fflush(stdout);
        std::fprintf(stderr, "benchdnn: error: %s\n", e.what());
        return 2;
    }
    print_summary();
    // Streams and engines go before static destructors run: a SYCL runtime may shut down first.
    close_engines();
    return counters().failed ? 1 : 0;
}
