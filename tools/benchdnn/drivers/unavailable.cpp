// Drivers of oneDNN's benchdnn that test interfaces this tester does not cover: their batch
// files read without error, and every problem reports "skipped" with the reason.
#include "driver.hpp"
#include "harness.hpp"

namespace benchdnn {
namespace {

class unavailable_driver_t : public driver_t {
public:
    unavailable_driver_t(const char *name, const char *why) : name_(name), why_(why) {}
    void reset() override {}
    bool parse(const std::string &, const std::string &) override { return true; }
    void run(const std::string &) override {
        const auto &s = settings();
        report_problem(begin_problem(), s.list ? outcome_t::listed : outcome_t::skipped, why_,
                "--" + name_ + " " + s.problem_text);
    }

private:
    std::string name_, why_;
};

#define BENCHDNN_UNAVAILABLE(name, why) \
    struct name##_driver_t : unavailable_driver_t { \
        name##_driver_t() : unavailable_driver_t(#name, why) {} \
    }; \
    BENCHDNN_REGISTER_DRIVER(#name, name##_driver_t)

BENCHDNN_UNAVAILABLE(gated_mlp, "gated MLP is tested through --graph here");

} // namespace
} // namespace benchdnn
