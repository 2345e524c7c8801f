#include "gpu/tuning/op_tuning.hpp"

#include <cstdlib>
#include <string>

#include "gpu/tuning/tuning_override.hpp"

namespace anydnn {
namespace gpu {

namespace {

op_tuning_t cpu_devices() {
    op_tuning_t t;
    t.reduce_in_groups = false;
    t.sdpa_unroll = false;
    t.reorder_vector = 1;
    t.reorder_blocked_in_registers = true;
    // int8 LSTM t10 mb16 128 channels on PoCL 15.6 -> 3.2 ms, f32 5.0 -> 2.1 ms.
    t.rnn_copy_rows = true;
    t.rnn_split_elems = 0;
    t.rnn_persistent = 0;
    t.vector_elems = 1;
    t.bandwidth_group = 1;
    t.bnorm_stat_groups = 16;
    t.reduce_groups = 16;
    return t;
}

// The fields of the "ops:" override ("name=value,..."); unknown names are ignored.
op_tuning_t with_override(op_tuning_t t) {
    const std::string spec = tuning_override("ops");
    size_t begin = 0;
    while (begin < spec.size()) {
        size_t end = spec.find(',', begin);
        if (end == std::string::npos) end = spec.size();
        const std::string field = spec.substr(begin, end - begin);
        const size_t eq = field.find('=');
        if (eq != std::string::npos) {
            const std::string name = field.substr(0, eq);
            const int v = std::atoi(field.c_str() + eq + 1);
            if (name == "vec" && (v == 1 || v == 4)) t.vector_elems = v;
            if (name == "group" && v > 0 && (v & (v - 1)) == 0) t.bandwidth_group = v;
            if (name == "bn_groups" && v > 0) t.bnorm_stat_groups = v;
            if (name == "reduce_groups" && v > 0) t.reduce_groups = v;
            if (name == "row_elems" && v > 0) t.row_elems = v;
            if (name == "row_elems_max" && v > 0) t.row_elems_max = v;
            if (name == "row_group_max" && v > 0) t.row_group_max = v;
            if (name == "reorder_vec" && v > 0) t.reorder_vector = v;
            if (name == "row_bwd_segments" && v > 0) t.row_bwd_segments = v;
            if (name == "item_bytes" && v > 0) t.item_bytes = v;
            if (name == "rnn_split_elems" && v >= 0) t.rnn_split_elems = v;
            if (name == "rnn_split_depth" && v > 0) t.rnn_split_depth = v;
            if (name == "rnn_persistent" && (v == 0 || v == 1)) t.rnn_persistent = v;
            if (name == "access_bytes" && (v == 8 || v == 16)) t.access_bytes = v;
        }
        begin = end + 1;
    }
    return t;
}

} // namespace

int vector_width(const op_tuning_t &t, size_t elem_size) {
    return elem_size > 0 && t.access_bytes / int(elem_size) >= 8 ? 8 : 4;
}

int vector_groups(const op_tuning_t &t, size_t elem_size, int width) {
    const int groups = t.item_bytes / int(width * elem_size);
    return groups > 1 ? groups : 1;
}

long vector_items(long n, int groups, int width) {
    const long items = (n / width + groups - 1) / groups;
    return items > 0 ? items : 1;
}

const op_tuning_t &op_tuning(const device_caps_t &caps) {
    static const op_tuning_t cpu = with_override(cpu_devices()),
                             gpu = with_override(op_tuning_t());
    return caps.is_cpu ? cpu : gpu;
}

} // namespace gpu
} // namespace anydnn
