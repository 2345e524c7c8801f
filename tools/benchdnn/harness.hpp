// Runs one problem in the chosen modes (create, check, time), prints its line, counts results.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "dnnl_api.hpp"
#include "test_mem.hpp"

namespace benchdnn {

// Knobs that hold across drivers and survive --reset.
struct settings_t {
    bool correctness = true; // C: check against the reference
    bool performance = false; // P: time repeated runs
    bool fast = false; // F: create the primitive only
    bool list = false; // L: print the problems, run nothing
    dnnl_engine_kind_t engine_kind = dnnl_cpu;
    size_t engine_index = 0;
    double max_ms_per_prb = 3000;
    int fix_times_per_prb = 0;
    std::string perf_template; // empty: the default line
    std::vector<std::string> skip_impl; // substrings of implementation names to skip
    int verbose = 0;
    int start = 0; // --start: problems of a lower index are skipped, not run
    std::string batch_dir; // directory of the batch file whose knob is being read ("." on argv)
    std::string driver_name; // the driver running the current problem
    std::string problem_name; // the name given to the current problem (n"NAME"), or empty
    std::string problem_text; // the current problem as written
};
settings_t &settings();

// The engine and stream of the current --engine (created on first use; null if absent).
dnnl_engine_t test_engine();
// A CPU engine beside the tested one (cross-engine reorders); created on first use.
dnnl_engine_t host_engine();
dnnl_stream_t test_stream();
// Destroys the tested engine and its stream (at the end of main).
void close_engines();
std::string engine_name();

// The memories of one execution, by argument.
class args_t {
public:
    test_mem_t &add(int arg, const_dnnl_memory_desc_t md);
    // Memory of another engine (cross-engine reorders).
    test_mem_t &add_on(int arg, const_dnnl_memory_desc_t md, dnnl_engine_t engine);
    // arg uses the memory of another argument (in-place execution).
    void alias(int arg, int target) { aliases_[arg] = target; }
    bool has(int arg) const { return mems_.count(resolve(arg)) != 0; }
    test_mem_t &at(int arg) { return mems_.at(resolve(arg)); }
    const test_mem_t &at(int arg) const { return mems_.at(resolve(arg)); }
    std::vector<dnnl_exec_arg_t> exec_args() const;
    size_t total_bytes() const;

private:
    int resolve(int arg) const {
        auto it = aliases_.find(arg);
        return it == aliases_.end() ? arg : it->second;
    }
    std::map<int, test_mem_t> mems_;
    std::map<int, int> aliases_;
};

// One problem of one driver with every knob fixed.
class problem_t {
public:
    virtual ~problem_t() = default;
    // The command line that reruns this problem alone: "--eltwise --alg=relu 16384x1024".
    virtual std::string repro() const = 0;
    // Why the tester cannot run this problem (empty: it can).
    virtual std::string skip_reason() const { return {}; }
    virtual dnnl_status_t create_pd(dnnl_engine_t engine, pd_h &pd) = 0;
    // Allocates every argument of pd and fills the inputs (and outputs read by post-ops).
    virtual void prepare(const_dnnl_primitive_desc_t pd, args_t &args) = 0;
    // Compares the outputs of one execution with the reference; msg tells what differs.
    virtual bool check(const args_t &args, std::string &msg) = 0;
    // Floating-point operations of one execution; 0 for data movement (GB/s is reported).
    virtual double flops() const { return 0; }

    // Set by create_pd when the library lacks the operation's entry point.
    std::string missing_entry;
};

// Calls an operation's entry point if the library has it; otherwise dnnl_unimplemented with
// prb.missing_entry set.
#define BENCHDNN_CALL_OP(prb, fn, ...) \
    (BENCHDNN_API(fn) ? BENCHDNN_API(fn)(__VA_ARGS__) \
                      : ((prb).missing_entry = "library has no " #fn, dnnl_unimplemented))

void run_problem(problem_t &prb);

// For drivers whose problem is more than one primitive (--graph): the same result line and
// counters as run_problem, and its timing loop.
enum class outcome_t { passed, failed, unimplemented, skipped, executed, listed };
int begin_problem(); // counts one problem; returns its index
// Whether problem idx comes before --start (then it is reported skipped, not run).
bool before_start(int idx);
void report_problem(int idx, outcome_t s, const std::string &reason, const std::string &repro);
// Times `once` (one execution, finished when it returns) as P mode does, after a warm-up,
// and prints the perf line; r carries bytes, flops and names.
struct perf_result_t;
void time_and_print(const std::function<dnnl_status_t()> &once, perf_result_t &r);

struct counters_t {
    int tests = 0, passed = 0, skipped = 0, unimplemented = 0, failed = 0, executed = 0,
        listed = 0;
};
const counters_t &counters();
void print_summary();

} // namespace benchdnn
