// The base every driver stands on: a driver declares each knob once (names, default list, how
// one item reads) and the base resets, parses, refuses unknown knobs, warns once about knobs
// that only concern oneDNN's internals, and runs every combination of the knob lists.
#pragma once

#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "driver.hpp"
#include "knobs.hpp"

namespace benchdnn {

// Prints "KNOB ignored: WHY" on stderr the first time a knob is seen in this run.
void warn_ignored_knob(const std::string &knob, const std::string &why);

class knob_driver_t : public driver_t {
public:
    void reset() final;
    bool parse(const std::string &key, const std::string &value) final;

protected:
    knob_driver_t();
    using names_t = std::initializer_list<const char *>;

    // A knob whose value is a comma list; parse_one reads one item. Problems run once per item.
    template <typename F, typename T = std::decay_t<std::invoke_result_t<F, const std::string &>>>
    const T &knob(names_t names, std::vector<T> def, F parse_one) {
        return add_list<T>(names, std::move(def),
                [parse_one](const std::string &v) { return parse_list<T>(v, parse_one); });
    }
    // A knob whose whole value parse_all reads into the list (values holding commas of their own).
    template <typename F,
            typename T = typename std::invoke_result_t<F, const std::string &>::value_type>
    const T &knob_list(names_t names, std::vector<T> def, F parse_all) {
        return add_list<T>(names, std::move(def), parse_all);
    }
    // The shared --attr-* lists and --mb, iterated at the place the driver declares them.
    const attr_desc_t &attr_knob();
    const int64_t &mb_knob();
    // A knob acted on when read (graph's --case); on_reset restores what it set.
    void action(names_t names, std::function<void(const std::string &)> on_parse,
            std::function<void()> on_reset = {});
    // Knobs taken and ignored here, with one warning per knob per run saying why.
    void ignore(names_t names, const char *why);
    // Knobs asking for what this tester does not build: while one holds a value, every problem
    // reports "skipped" with why instead of running.
    void unsupported(names_t names, const char *why);

    // Calls f once for every combination of the knob lists, the first declared outermost.
    void for_each_problem(const std::function<void()> &f);

private:
    struct entry_t {
        std::vector<std::string> names;
        virtual ~entry_t() = default;
        virtual void reset() {}
        virtual void parse(const std::string &) {}
        // Whether problems run over the knob's values, and how many there are.
        virtual bool iterated() const { return false; }
        virtual size_t size() const { return 0; }
        virtual void select(size_t) {}
    };
    template <typename T>
    struct list_knob_t : entry_t {
        std::vector<T> def, values;
        T cur {};
        std::function<std::vector<T>(const std::string &)> parse_all;
        list_knob_t(std::vector<T> d, std::function<std::vector<T>(const std::string &)> p)
            : def(std::move(d)), values(def), parse_all(std::move(p)) {}
        void reset() override { values = def; }
        void parse(const std::string &v) override { values = parse_all(v); }
        bool iterated() const override { return true; }
        size_t size() const override { return values.size(); }
        void select(size_t i) override { cur = values[i]; }
    };
    struct common_entry_t;
    struct action_entry_t;
    struct ignored_entry_t;

    struct unsupported_t {
        const std::string *value;
        std::string knob, why;
    };
    // Reports the current problem skipped when a knob or attribute asks for what is not built.
    bool skipped_as_unsupported() const;

    void add(names_t names, entry_t *e);
    template <typename T>
    const T &add_list(names_t names, std::vector<T> def,
            std::function<std::vector<T>(const std::string &)> parse_all) {
        auto *k = new list_knob_t<T>(std::move(def), std::move(parse_all));
        add(names, k);
        return k->cur;
    }
    void iterate(size_t from, const std::function<void()> &f);

    std::vector<std::unique_ptr<entry_t>> entries_;
    common_knobs_t common_;
    std::vector<unsupported_t> unsupported_;
    bool has_attr_knob_ = false;
    attr_desc_t attr_cur_;
    int64_t mb_cur_ = 0;
};

} // namespace benchdnn
