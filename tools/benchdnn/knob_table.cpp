#include "knob_table.hpp"

#include <cstdio>
#include <set>

#include "harness.hpp"

namespace benchdnn {

struct knob_driver_t::common_entry_t : entry_t {
    std::function<size_t()> count;
    std::function<void(size_t)> pick;
    bool iterated() const override { return true; }
    size_t size() const override { return count(); }
    void select(size_t i) override { pick(i); }
};

struct knob_driver_t::action_entry_t : entry_t {
    std::function<void(const std::string &)> on_parse;
    std::function<void()> on_reset;
    void reset() override {
        if (on_reset) on_reset();
    }
    void parse(const std::string &v) override { on_parse(v); }
};

struct knob_driver_t::ignored_entry_t : entry_t {
    std::string why;
    void parse(const std::string &v) override {
        if (!v.empty()) warn_ignored_knob(names.front(), why);
    }
};

knob_driver_t::knob_driver_t() {
    // Knobs of oneDNN's benchdnn that steer its implementation choice, memory placement or
    // own bookkeeping; every driver takes them. A driver's own knob of the name wins.
    ignore({"--allow-enum-tags-only"}, "every tag is taken as written");
    ignore({"--attr-scratchpad"}, "the scratchpad mode does not change results");
    ignore({"--cpu-isa-hints"}, "no ISA hints here");
    ignore({"--impl"}, "implementation names are this library's own; use --skip-impl");
    ignore({"--check-ref-impl"}, "the references are the tester's own");
    ignore({"--attr-deterministic"}, "results here do not depend on it");
    ignore({"--attr-acc-mode"}, "accumulation is always full precision here");
    ignore({"--attr-rounding-mode"}, "stochastic rounding is not modelled here");
    ignore({"--runtime-dim-mask", "--runtime_dims_masks", "--runtime-dims-masks"},
            "dimensions are always given when the primitive is created here");
    ignore({"--strides"}, "memory is dense here");
    ignore({"--trivial-strides"}, "memory is dense here");
    ignore({"--oflag"}, "compensation flags are not set here");
    ignore({"--inplace"}, "this driver runs out of place");
    ignore({"--skip-nonlinear"}, "every cell runs its nonlinear parts");
    ignore({"--scaling"}, "int8 scales are not set here");
    ignore({"--bia-dt", "--bia_dt"}, "the bias is f32 here");
    ignore({"--bia_mask", "--bia-mask"}, "the bias runs along the last dimension here");
    unsupported({"--attr-dropout"}, "dropout is not handled by the tester");
    unsupported({"--attr-precomputed-reductions"}, "precomputed reductions are not handled by the tester");
    unsupported({"--grouped"}, "grouped problems are not handled by the tester");
}

void knob_driver_t::add(names_t names, entry_t *e) {
    for (const char *n : names) e->names.push_back(n);
    entries_.emplace_back(e);
}

const attr_desc_t &knob_driver_t::attr_knob() {
    has_attr_knob_ = true;
    auto *e = new common_entry_t;
    e->count = [this] { return common_.attrs.size(); };
    e->pick = [this](size_t i) { attr_cur_ = common_.attrs[i]; };
    add({}, e);
    return attr_cur_;
}

const int64_t &knob_driver_t::mb_knob() {
    auto *e = new common_entry_t;
    e->count = [this] { return common_.mb.size(); };
    e->pick = [this](size_t i) { mb_cur_ = common_.mb[i]; };
    add({}, e);
    return mb_cur_;
}

void knob_driver_t::action(names_t names, std::function<void(const std::string &)> on_parse,
        std::function<void()> on_reset) {
    auto *e = new action_entry_t;
    e->on_parse = std::move(on_parse);
    e->on_reset = std::move(on_reset);
    add(names, e);
}

void knob_driver_t::ignore(names_t names, const char *why) {
    auto *e = new ignored_entry_t;
    e->why = why;
    add(names, e);
}

void knob_driver_t::unsupported(names_t names, const char *why) {
    const std::string &cur = knob_list(
            names, {std::string()}, [](const std::string &v) { return std::vector<std::string> {v}; });
    unsupported_.push_back({&cur, *names.begin(), why});
}

bool knob_driver_t::skipped_as_unsupported() const {
    std::string why, knobs;
    for (const auto &u : unsupported_)
        if (!u.value->empty()) {
            if (why.empty()) why = u.knob + ": " + u.why;
            knobs += " " + u.knob + "=" + *u.value;
        }
    if (why.empty() && has_attr_knob_) {
        why = attr_cur_.unsupported();
        if (!why.empty()) knobs = attr_cur_.repro();
    }
    if (why.empty()) return false;
    const auto &s = settings();
    report_problem(begin_problem(), s.list ? outcome_t::listed : outcome_t::skipped, why,
            "--" + s.driver_name + knobs + " " + s.problem_text);
    return true;
}

void knob_driver_t::reset() {
    for (auto &e : entries_)
        e->reset();
    common_.reset();
}

bool knob_driver_t::parse(const std::string &key, const std::string &value) {
    // The last declaration of a name wins: a driver may take over a knob the base ignores.
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it)
        for (const auto &n : (*it)->names)
            if (key == n) {
                (*it)->parse(value);
                return true;
            }
    const bool taken = common_.parse(key, value);
    if (taken && !has_attr_knob_ && key.rfind("--attr-", 0) == 0 && !value.empty())
        warn_ignored_knob(key, "this driver runs its problems without attributes");
    return taken;
}

void knob_driver_t::for_each_problem(const std::function<void()> &f) {
    iterate(0, f);
}

void knob_driver_t::iterate(size_t from, const std::function<void()> &f) {
    while (from < entries_.size() && !entries_[from]->iterated())
        ++from;
    if (from == entries_.size()) {
        if (!skipped_as_unsupported()) f();
        return;
    }
    entry_t &e = *entries_[from];
    for (size_t i = 0; i < e.size(); ++i) {
        e.select(i);
        iterate(from + 1, f);
    }
}

void warn_ignored_knob(const std::string &knob, const std::string &why) {
    static std::set<std::string> warned;
    if (!warned.insert(knob).second) return;
    std::fflush(stdout);
    std::fprintf(stderr, "benchdnn: warning: %s ignored: %s\n", knob.c_str(), why.c_str());
}

} // namespace benchdnn
