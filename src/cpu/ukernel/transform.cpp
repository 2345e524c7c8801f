// B packing for the brgemm ukernel: element by element from ab or ba into the layout of
// transform.hpp. Runs once per weight block, outside the brgemm loops.
#include "core/ukernel.hpp"

#include <cstdint>

#include "cpu/ukernel/brgemm_kernels.hpp"

namespace anydnn {
namespace cpu {
namespace ukernel {

namespace {

template <typename T>
void run_t(const transform_conf_t &c, const T *in, T *out) {
    const dim_t g = c.group, ld = c.out_ld;
    // (k, n) of the input.
    const dim_t rs = c.in_pack == dnnl_pack_type_no_trans ? c.in_ld : 1;
    const dim_t cs = c.in_pack == dnnl_pack_type_no_trans ? 1 : c.in_ld;
    if (c.out_pack == dnnl_pack_type_no_trans) {
        for (dim_t k = 0; k < c.K; ++k)
            for (dim_t n = 0; n < c.N; ++n)
                out[k * ld + n] = in[k * rs + n * cs];
        return;
    }
    const dim_t kp = (c.K + g - 1) / g * g;
    for (dim_t k = 0; k < kp; ++k) {
        T *dst = out + (k / g) * ld * g + k % g;
        for (dim_t n = 0; n < ld; ++n)
            dst[n * g] = k < c.K && n < c.N ? in[k * rs + n * cs] : T(0);
    }
}

} // namespace

status_t transform_init(transform_conf_t &c, dim_t K, dim_t N, int in_pack, dim_t in_ld,
        dim_t out_ld, dnnl_data_type_t in_dt, dnnl_data_type_t out_dt) {
    ANYDNN_REQUIRE(K > 0 && N > 0, dnnl_invalid_arguments,
            "transform takes K, N > 0 (got %lld, %lld)", (long long)K, (long long)N);
    ANYDNN_REQUIRE(in_pack == dnnl_pack_type_no_trans || in_pack == dnnl_pack_type_trans,
            dnnl_invalid_arguments, "transform input is no_trans or trans (got pack type %d)",
            in_pack);
    const dim_t in_min = in_pack == dnnl_pack_type_no_trans ? N : K;
    ANYDNN_REQUIRE(in_ld >= in_min, dnnl_invalid_arguments, "in_ld %lld is below %lld",
            (long long)in_ld, (long long)in_min);
    ANYDNN_REQUIRE(out_ld >= N, dnnl_invalid_arguments, "out_ld %lld is below N %lld",
            (long long)out_ld, (long long)N);
    ANYDNN_REQUIRE(in_dt == out_dt, dnnl_unimplemented,
            "transform copies, it does not convert (%s -> %s)", dnnl_dt2str(in_dt),
            dnnl_dt2str(out_dt));
    const dnnl_pack_type_t out_pack = brgemm_b_pack_type(out_dt);
    ANYDNN_REQUIRE(out_pack != dnnl_pack_type_undef, dnnl_unimplemented,
            "no brgemm takes B of type %s", dnnl_dt2str(out_dt));
    c.K = K;
    c.N = N;
    c.in_ld = in_ld;
    c.out_ld = out_ld;
    c.in_pack = static_cast<dnnl_pack_type_t>(in_pack);
    c.out_pack = out_pack;
    c.dt = out_dt;
    c.group = out_pack == dnnl_pack_type_pack32 ? pack32_group(out_dt) : 1;
    return dnnl_success;
}

void transform_run(const transform_conf_t &c, const void *in, void *out) {
    switch (data_type_size(c.dt)) {
        case 1: run_t(c, static_cast<const uint8_t *>(in), static_cast<uint8_t *>(out)); break;
        case 2: run_t(c, static_cast<const uint16_t *>(in), static_cast<uint16_t *>(out)); break;
        default: run_t(c, static_cast<const uint32_t *>(in), static_cast<uint32_t *>(out)); break;
    }
}

} // namespace ukernel
} // namespace cpu
} // namespace anydnn
