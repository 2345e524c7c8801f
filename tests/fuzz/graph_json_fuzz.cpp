// Graph JSON (what ONEDNN_GRAPH_DUMP=graph writes, what benchdnn --graph reads) from fuzzed
// text: parsed, and a case that parses and stays small is built, compiled and run once on
// the CPU engine through the library's graph API (benchdnn --mode=R --graph).
#include <cstdio>
#include <stdexcept>
#include <string>

#include "benchdnn_entry.hpp"
#include "drivers/graph_case.hpp"

namespace {

// Small enough to run in a fuzzing iteration: known, modest extents.
bool small(const benchdnn::graph_case_t &c) {
    for (const auto &op : c.ops)
        for (const auto *lts : {&op.inputs, &op.outputs})
            for (const auto &lt : *lts) {
                double n = 1;
                for (auto d : lt.shape) {
                    if (d < 0 || d > 256) return false;
                    n *= double(d);
                }
                if (n > 65536) return false;
            }
    return c.engine_kind == dnnl_cpu && c.ops.size() <= 16;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    if (!std::freopen("/dev/null", "w", stdout)) return 0;
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    benchdnn::graph_case_t c;
    try {
        c = benchdnn::read_graph_case(text);
    } catch (const std::invalid_argument &) {
        return 0;
    }
    c.graph_inputs();
    c.graph_outputs();
    if (!small(c)) return 0;
    fuzz::run_benchdnn({"--mode=R", "--engine=cpu", "--graph",
            "--case=" + fuzz::input_file(data, size, ".json")});
    return 0;
}
