#include "harness.hpp"

#include <chrono>
#include <cstdio>

#include "capture.hpp"
#include "perf.hpp"

namespace benchdnn {

settings_t &settings() {
    static settings_t s;
    return s;
}

namespace {

counters_t counts;

struct engine_state_t {
    bool tried = false;
    dnnl_engine_kind_t kind = dnnl_cpu;
    size_t index = 0;
    engine_h engine;
    stream_h stream;
};
engine_state_t &engine_state() {
    static engine_state_t e;
    return e;
}

void open_engine() {
    auto &e = engine_state();
    const auto &s = settings();
    if (e.tried && e.kind == s.engine_kind && e.index == s.engine_index) return;
    e.stream.reset();
    e.engine.reset();
    e.tried = true;
    e.kind = s.engine_kind;
    e.index = s.engine_index;
    if (e.index >= dnnl_engine_get_count(e.kind)) return;
    if (dnnl_engine_create(e.engine.out(), e.kind, e.index) != dnnl_success) return;
    if (dnnl_stream_create(e.stream.out(), e.engine.get(), dnnl_stream_default_flags)
            != dnnl_success)
        e.engine.reset();
}

double now_ms() {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

enum class state_t { passed, failed, unimplemented, skipped, executed, listed };

const char *state_name(state_t s) {
    switch (s) {
        case state_t::passed: return "PASSED";
        case state_t::failed: return "FAILED";
        case state_t::unimplemented: return "UNIMPLEMENTED";
        case state_t::skipped: return "SKIPPED";
        case state_t::executed: return "EXECUTED";
        case state_t::listed: return "LISTED";
    }
    return "?";
}

void report(int idx, state_t s, const std::string &reason, const std::string &repro) {
    switch (s) {
        case state_t::passed: ++counts.passed; break;
        case state_t::failed: ++counts.failed; break;
        case state_t::unimplemented: ++counts.unimplemented; break;
        case state_t::skipped: ++counts.skipped; break;
        case state_t::executed: ++counts.executed; break;
        case state_t::listed: ++counts.listed; break;
    }
    // The repro line runs the same problem on the same engine: the default (cpu) goes unsaid.
    const std::string engine = engine_name() == "cpu" ? "" : "--engine=" + engine_name() + " ";
    std::printf("%d:%s%s%s%s __REPRO: %s%s\n", idx, state_name(s), reason.empty() ? "" : " (",
            reason.c_str(), reason.empty() ? "" : ")", engine.c_str(), repro.c_str());
    std::fflush(stdout);
}

std::string strip_driver(const std::string &repro) {
    auto sp = repro.find(' ');
    return sp == std::string::npos ? repro : repro.substr(sp + 1);
}

std::string driver_of(const std::string &repro) {
    auto sp = repro.find(' ');
    std::string d = repro.substr(0, sp);
    return d.rfind("--", 0) == 0 ? d.substr(2) : d;
}

dnnl_status_t execute(dnnl_primitive_t p, const std::vector<dnnl_exec_arg_t> &a) {
    dnnl_status_t st
            = dnnl_primitive_execute(p, test_stream(), static_cast<int>(a.size()), a.data());
    if (st != dnnl_success) return st;
    return dnnl_stream_wait(test_stream());
}

void time_problem(problem_t &prb, dnnl_primitive_t p, const args_t &args,
        const std::string &impl, const std::string &repro) {
    auto a = args.exec_args();
    perf_result_t r;
    r.bytes = static_cast<double>(args.total_bytes());
    r.flops = prb.flops();
    r.impl = impl;
    r.engine = engine_name();
    r.driver = driver_of(repro);
    r.prb = strip_driver(repro);
    time_and_print([&] { return execute(p, a); }, r);
}

} // namespace

dnnl_engine_t test_engine() {
    open_engine();
    return engine_state().engine.get();
}

dnnl_stream_t test_stream() {
    open_engine();
    return engine_state().stream.get();
}

void close_engines() {
    auto &e = engine_state();
    e.stream.reset();
    e.engine.reset();
}

std::string engine_name() {
    const auto &s = settings();
    std::string n = s.engine_kind == dnnl_gpu ? "gpu" : "cpu";
    if (s.engine_index) n += ":" + std::to_string(s.engine_index);
    return n;
}

dnnl_engine_t host_engine() {
    static engine_h cpu;
    if (!cpu.get()) dnnl_engine_create(cpu.out(), dnnl_cpu, 0);
    return cpu.get();
}

test_mem_t &args_t::add(int arg, const_dnnl_memory_desc_t md) {
    return add_on(arg, md, test_engine());
}

test_mem_t &args_t::add_on(int arg, const_dnnl_memory_desc_t md, dnnl_engine_t engine) {
    mems_.erase(arg);
    return mems_.emplace(arg, test_mem_t(md, engine)).first->second;
}

std::vector<dnnl_exec_arg_t> args_t::exec_args() const {
    std::vector<dnnl_exec_arg_t> a;
    for (const auto &m : mems_) a.push_back({m.first, m.second.get()});
    for (const auto &al : aliases_) a.push_back({al.first, mems_.at(al.second).get()});
    return a;
}

size_t args_t::total_bytes() const {
    // Traffic of one execution: an in-place argument is read and written, so it counts twice.
    size_t b = 0;
    for (const auto &m : mems_)
        if (m.first != DNNL_ARG_SCRATCHPAD) b += m.second.size();
    for (const auto &al : aliases_) b += mems_.at(al.second).size();
    return b;
}

void run_problem(problem_t &prb) {
    const auto &s = settings();
    const int idx = counts.tests++;
    const std::string repro
            = prb.repro() + (s.problem_name.empty() ? "" : "n\"" + s.problem_name + "\"");
    if (s.list) return report(idx, state_t::listed, "", repro);
    if (before_start(idx)) return report(idx, state_t::skipped, "before --start", repro);

    if (!test_engine()) return report(idx, state_t::skipped, engine_name() + " engine not found", repro);
    std::string skip = prb.skip_reason();
    if (!skip.empty()) return report(idx, state_t::skipped, skip, repro);

    try {
        pd_h pd;
        dnnl_status_t st;
        std::string why;
        {
            stdout_capture_t capture;
            st = prb.create_pd(test_engine(), pd);
            why = capture.finish();
        }
        if (st == dnnl_unimplemented)
            return report(idx, state_t::unimplemented,
                    !prb.missing_entry.empty() ? prb.missing_entry
                            : why.empty()      ? "no implementation"
                                               : why,
                    repro);
        if (st != dnnl_success)
            return report(idx, state_t::failed,
                    std::string("primitive descriptor creation: ") + status_name(st)
                            + (why.empty() ? "" : ": " + why),
                    repro);
        const char *impl_c = nullptr;
        dnnl_primitive_desc_query(pd.get(), dnnl_query_impl_info_str, 0, &impl_c);
        std::string impl = impl_c ? impl_c : "unknown";
        for (const auto &sk : s.skip_impl)
            if (!sk.empty() && impl.find(sk) != std::string::npos)
                return report(idx, state_t::skipped, "skip-impl: " + impl, repro);

        prim_h prim;
        {
            stdout_capture_t capture;
            st = dnnl_primitive_create(prim.out(), pd.get());
            why = capture.finish();
        }
        if (st != dnnl_success)
            return report(idx, state_t::failed,
                    std::string("primitive creation: ") + status_name(st)
                            + (why.empty() ? "" : ": " + why),
                    repro);
        if (s.fast) return report(idx, state_t::passed, "", repro);

        args_t args;
        prb.prepare(pd.get(), args);
        st = execute(prim.get(), args.exec_args());
        if (st != dnnl_success)
            return report(idx, state_t::failed,
                    std::string("execution: ") + status_name(st), repro);
        std::string msg;
        bool ok = true;
        if (s.correctness) ok = prb.check(args, msg);
        if (ok && s.performance) time_problem(prb, prim.get(), args, impl, repro);
        if (!ok) return report(idx, state_t::failed, msg, repro);
        report(idx, s.correctness ? state_t::passed : state_t::executed,
                s.verbose > 0 ? impl : "", repro);
    } catch (const missing_entry_error &e) {
        report(idx, state_t::unimplemented, e.what(), repro);
    } catch (const dnnl_error &e) {
        report(idx, state_t::failed, e.what(), repro);
    } catch (const std::exception &e) {
        report(idx, state_t::failed, std::string("tester: ") + e.what(), repro);
    }
}

int begin_problem() {
    return counts.tests++;
}

bool before_start(int idx) {
    return idx < settings().start;
}

void report_problem(int idx, outcome_t s, const std::string &reason, const std::string &repro) {
    static const state_t states[] = {state_t::passed, state_t::failed, state_t::unimplemented,
            state_t::skipped, state_t::executed, state_t::listed};
    report(idx, states[static_cast<int>(s)], reason, repro);
}

void time_and_print(const std::function<dnnl_status_t()> &once, perf_result_t &r) {
    const auto &s = settings();
    BENCHDNN_CHECK(once()); // warm-up
    const int min_times = 5, max_times = 1000000;
    double start = now_ms();
    for (;;) {
        double t0 = now_ms();
        BENCHDNN_CHECK(once());
        r.ms.push_back(now_ms() - t0);
        int n = static_cast<int>(r.ms.size());
        if (s.fix_times_per_prb > 0) {
            if (n >= s.fix_times_per_prb) break;
        } else if ((n >= min_times && now_ms() - start >= s.max_ms_per_prb) || n >= max_times)
            break;
    }
    std::printf("%s\n", format_perf(s.perf_template, r).c_str());
}

const counters_t &counters() {
    return counts;
}

void print_summary() {
    std::printf("tests:%d passed:%d skipped:%d unimplemented:%d failed:%d", counts.tests,
            counts.passed, counts.skipped, counts.unimplemented, counts.failed);
    if (counts.executed) std::printf(" executed:%d", counts.executed);
    if (counts.listed) std::printf(" listed:%d", counts.listed);
    std::printf("\n");
    std::fflush(stdout);
}

} // namespace benchdnn
