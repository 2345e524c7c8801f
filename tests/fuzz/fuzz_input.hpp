// Reading fuzzer bytes as API arguments: small dims, mostly-valid enum values, and now and
// then a hostile one (negative, huge, DNNL_RUNTIME_DIM_VAL), so both the checks and the
// code behind them are reached.
#pragma once

#include <cstdint>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include "oneapi/dnnl/dnnl.h"

namespace fuzz {

class input_t : public FuzzedDataProvider {
public:
    using FuzzedDataProvider::FuzzedDataProvider;

    // A dimension: 0..max mostly, sometimes a value the checks must refuse.
    dnnl_dim_t dim(dnnl_dim_t max = 7) {
        switch (ConsumeIntegralInRange<int>(0, 15)) {
            case 0: return -ConsumeIntegralInRange<dnnl_dim_t>(1, 3);
            case 1: return DNNL_RUNTIME_DIM_VAL;
            case 2: return ConsumeIntegral<dnnl_dim_t>();
            default: return ConsumeIntegralInRange<dnnl_dim_t>(0, max);
        }
    }
    void dims(dnnl_dims_t d, int ndims, dnnl_dim_t max = 7) {
        for (int i = 0; i < DNNL_MAX_NDIMS; ++i) d[i] = i < ndims ? dim(max) : 0;
    }
    int ndims() { return ConsumeIntegralInRange<int>(0, 15) == 0 ? ConsumeIntegral<int>()
                                                                  : ConsumeIntegralInRange<int>(0, 6); }
    // Any data type value, the valid ones far more often.
    dnnl_data_type_t data_type() {
        if (ConsumeIntegralInRange<int>(0, 31) == 0) // dnnl_data_type_max is 0x7fff
            return static_cast<dnnl_data_type_t>(ConsumeIntegralInRange<int>(0, 0x7fff));
        static const dnnl_data_type_t common[]
                = {dnnl_f32, dnnl_f32, dnnl_bf16, dnnl_f16, dnnl_s8, dnnl_u8, dnnl_s32};
        if (ConsumeBool()) return PickValueInArray(common);
        return static_cast<dnnl_data_type_t>(ConsumeIntegralInRange<int>(0, 17));
    }
    // A value of [lo, hi] mostly, now and then any value the enum can hold: [0, 2^k - 1]
    // for the smallest k covering hi (C++ makes a value beyond that undefined; hi must not be
    // below the enum's largest enumerator).
    template <typename E>
    E enum_in(int lo, int hi) {
        if (ConsumeIntegralInRange<int>(0, 31) == 0) {
            int mask = 1;
            while (mask < hi) mask = mask * 2 + 1;
            return static_cast<E>(ConsumeIntegralInRange<int>(0, mask));
        }
        return static_cast<E>(ConsumeIntegralInRange<int>(lo, hi));
    }
};

// Owns a memory descriptor for the scope.
struct md_t {
    dnnl_memory_desc_t md = nullptr;
    md_t() = default;
    md_t(const md_t &) = delete;
    md_t &operator=(const md_t &) = delete;
    ~md_t() { dnnl_memory_desc_destroy(md); }
    dnnl_memory_desc_t *out() {
        dnnl_memory_desc_destroy(md);
        md = nullptr;
        return &md;
    }
};

} // namespace fuzz
