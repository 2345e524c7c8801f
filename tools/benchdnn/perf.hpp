// Timings of one problem and the line that reports them (--perf-template).
#pragma once

#include <string>
#include <vector>

namespace benchdnn {

struct perf_result_t {
    std::vector<double> ms; // one entry per timed execution
    double bytes = 0; // memory touched by one execution
    double flops = 0; // 0 for data movement
    std::string impl, engine, driver, prb; // prb: the repro without the driver knob

    double min_ms() const;
    double max_ms() const;
    double avg_ms() const;
    double median_ms() const;
};

// The default line, or the user's template with %field% replaced:
//   %engine% %impl% %driver% %prb% %times% %Gops% %Gbytes%
//   %-time% %0time% %+time% %@time%      min / average / max / median ms
//   %-Gflops% %0Gflops% %@Gflops%         GFLOP/s from those times
//   %-Gbw% %0Gbw% %@Gbw%                  GB/s from those times
// "def" and "csv" name the built-in templates.
std::string format_perf(const std::string &tmpl, const perf_result_t &r);

} // namespace benchdnn
