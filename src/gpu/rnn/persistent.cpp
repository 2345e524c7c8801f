#include "gpu/rnn/persistent.hpp"

#include <algorithm>

#include "gpu/rnn/rnn.hpp"
#include "gpu/tuning/op_tuning.hpp"

namespace anydnn {
namespace gpu {
namespace rnn {

persistent_shape_t persistent_shape(int64_t compute_units, int64_t N, int64_t H) {
    persistent_shape_t s;
    if (compute_units < 1 || N < 1 || H < 1) return s;
    const int64_t units = (H + compute_units - 1) / compute_units;
    const int64_t u4 = (units + 3) / 4 * 4;
    if (H * u4 * 4 > persistent_w_cap) return s;
    s.units = units;
    s.grid = (H + units - 1) / units;
    // Items of 4 rows x 4 units; the threads left over take K slices (none under 4 deep).
    const int64_t items = (N + 3) / 4 * (u4 / 4);
    s.kgroups = std::max<int64_t>(1, std::min(persistent_threads / items, (H + 3) / 4));
    return s;
}

const char *persistent_refusal(const device_caps_t &caps, const cpu::rnn::conf_t &c,
        bool all_f32, persistent_shape_t &shape) {
    shape = persistent_shape_t();
    const int mode = op_tuning(caps).rnn_persistent;
    if (mode == 0) return "off (ops:rnn_persistent=0 or the device's tuning row)";
    if (caps.ptx_binary_sm < 90) return "the device does not load sm_90a PTX";
    if (!ptx_module("anydnn_lstm_fwd_persistent"))
        return "no persistent LSTM PTX in this build (built without nvcc?)";
    if (!c.lstm) return "not an LSTM";
    if (c.training || c.backward) return "not inference";
    if (c.peephole || c.projection) return "peepholes or projection";
    if (c.int8 || !all_f32) return "not all f32";
    if (c.SIC != c.DHC || c.DIC != c.DHC) return "SIC, DIC and DHC differ";
    const int64_t limit = int64_t(1) << 31;
    if (c.T * c.N * c.gate_cols() >= limit || c.N < 1 || c.T < 1)
        return "sizes beyond 32-bit indices, or empty";
    shape = persistent_shape(int64_t(caps.compute_units), c.N, c.DHC);
    if (shape.grid == 0) return "the recurrent weights slice per CTA passes its shared memory";
    return nullptr;
}

status_t run_persistent(const exec_t &e, int64_t l, int64_t d) {
    const conf_t &c = *e.c;
    const kernels_t &k = *e.k;
    const persistent_shape_t &sh = k.persistent_shape;
    // The arrival counter and the error word start at zero.
    view_t sync;
    sync.s = e.scratch;
    sync.off = int64_t(e.x->base + e.x->sync);
    sync.st[4] = 1;
    const int64_t dims[5] = {1, 1, 1, 1, 2};
    ANYDNN_CHECK(k.copy(e.stream, dims, sync, view_t()));
    const step_params_t p = step_base(e, l, d);
    const mat_t wi = weights_mat(e, rnn_weights_iter, l, d);
    kernel_args_t args;
    args.add(e.ws);
    args.add(e.scratch);
    args.add(wi.s);
    for (int64_t v : {int64_t(c.gates(l, d, 0)), int64_t(c.h(l, d, 0)),
                 int64_t(c.hprev(l, d, 0)), int64_t(c.hprev_ld(0)), int64_t(c.c(l, d, 0)),
                 p.bias, wi.off, wi.sr, wi.sc, sync.off})
        args.add_value<int64_t>(v);
    for (int64_t v : {c.T, c.N, c.DHC, sh.units, sh.kgroups})
        args.add_value<int32_t>(int32_t(v));
    nd_range_t r;
    r.global[0] = size_t(sh.grid * persistent_threads);
    r.local[0] = size_t(persistent_threads);
    return k.persistent->launch(e.stream, args, r);
}

} // namespace rnn
} // namespace gpu
} // namespace anydnn
