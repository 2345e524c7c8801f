#include "runtime/cpu/isa.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <strings.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace anydnn {
namespace cpu {

namespace {

#if defined(__x86_64__) || defined(__i386__)
// AVX-VNNI (CPUID.(EAX=7,ECX=1):EAX[4]), asked directly: clang before 16 has no name for it
// in __builtin_cpu_supports.
bool has_avx_vnni() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __get_cpuid_count(7, 1, &a, &b, &c, &d) && (a >> 4) & 1;
}
#endif

dnnl_cpu_isa_t probe() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
            && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")) {
        if (__builtin_cpu_supports("avx512vnni")) {
            if (__builtin_cpu_supports("avx512bf16")) return dnnl_cpu_isa_avx512_core_bf16;
            return dnnl_cpu_isa_avx512_core_vnni;
        }
        return dnnl_cpu_isa_avx512_core;
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        if (has_avx_vnni()) return dnnl_cpu_isa_avx2_vnni;
        return dnnl_cpu_isa_avx2;
    }
    if (__builtin_cpu_supports("avx")) return dnnl_cpu_isa_avx;
    if (__builtin_cpu_supports("sse4.1")) return dnnl_cpu_isa_sse41;
#endif
    return dnnl_cpu_isa_default;
}

struct named_isa_t {
    const char *name;
    dnnl_cpu_isa_t isa;
};

// Names ONEDNN_MAX_CPU_ISA accepts.
const named_isa_t env_names[] = {
        {"DEFAULT", dnnl_cpu_isa_default},
        {"SSE41", dnnl_cpu_isa_sse41},
        {"AVX", dnnl_cpu_isa_avx},
        {"AVX2", dnnl_cpu_isa_avx2},
        {"AVX2_VNNI", dnnl_cpu_isa_avx2_vnni},
        {"AVX2_VNNI_2", dnnl_cpu_isa_avx2_vnni_2},
        {"AVX512_CORE", dnnl_cpu_isa_avx512_core},
        {"AVX512_CORE_VNNI", dnnl_cpu_isa_avx512_core_vnni},
        {"AVX512_CORE_BF16", dnnl_cpu_isa_avx512_core_bf16},
        {"AVX512_CORE_FP16", dnnl_cpu_isa_avx512_core_fp16},
        {"AVX10_1_512", dnnl_cpu_isa_avx10_1_512},
        {"AVX512_CORE_AMX", dnnl_cpu_isa_avx512_core_amx},
        {"AVX10_1_512_AMX", dnnl_cpu_isa_avx10_1_512_amx},
        {"AVX512_CORE_AMX_FP16", dnnl_cpu_isa_avx512_core_amx_fp16},
        {"AVX10_2_512", dnnl_cpu_isa_avx10_2_512},
        {"AVX10_2_512_AMX_2", dnnl_cpu_isa_avx10_2_512_amx_2},
};

// "ALL" and unset mean no cap. ISA bits are nested, so all-ones caps nothing.
constexpr unsigned no_cap = ~0u;

struct isa_state_t {
    std::mutex mutex;
    bool locked = false;
    unsigned cap = no_cap;
    isa_state_t() {
        const char *env = std::getenv("ONEDNN_MAX_CPU_ISA");
        if (!env) env = std::getenv("DNNL_MAX_CPU_ISA");
        if (!env || strcasecmp(env, "ALL") == 0) return;
        for (const auto &n : env_names)
            if (strcasecmp(env, n.name) == 0 && n.isa != dnnl_cpu_isa_default) cap = n.isa;
    }
};

isa_state_t &state() {
    static isa_state_t s;
    return s;
}

std::atomic<int> hints {dnnl_cpu_isa_no_hints};
std::atomic<bool> hints_locked {false};

} // namespace

dnnl_cpu_isa_t detected_isa() {
    static const dnnl_cpu_isa_t isa = probe();
    return isa;
}

dnnl_cpu_isa_t effective_isa() {
    auto &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.locked = true;
    return static_cast<dnnl_cpu_isa_t>(static_cast<unsigned>(detected_isa()) & s.cap);
}

status_t set_max_isa(unsigned isa) {
    bool known = false;
    for (const auto &n : env_names)
        known = known || static_cast<unsigned>(n.isa) == isa;
    ANYDNN_REQUIRE(known, dnnl_invalid_arguments, "unknown cpu isa 0x%x", isa);
    auto &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    ANYDNN_REQUIRE(!s.locked, dnnl_invalid_arguments,
            "the cpu isa is already in use: set the cap before creating primitives");
    s.cap = isa == static_cast<unsigned>(dnnl_cpu_isa_default) ? no_cap : isa;
    return dnnl_success;
}

bool isa_enabled(dnnl_cpu_isa_t isa) {
    unsigned want = static_cast<unsigned>(isa);
    return (static_cast<unsigned>(effective_isa()) & want) == want;
}

dnnl_cpu_isa_hints_t isa_hints() {
    hints_locked = true;
    return static_cast<dnnl_cpu_isa_hints_t>(hints.load());
}

status_t set_isa_hints(unsigned h) {
    ANYDNN_REQUIRE(h == dnnl_cpu_isa_no_hints || h == dnnl_cpu_isa_prefer_ymm,
            dnnl_invalid_arguments, "unknown cpu isa hints %u", h);
    ANYDNN_REQUIRE(!hints_locked, dnnl_runtime_error,
            "cpu isa hints are already in use");
    hints = static_cast<int>(h);
    return dnnl_success;
}

} // namespace cpu
} // namespace anydnn
