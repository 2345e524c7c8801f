// Service entry points: version, verbose, default fpmath mode, primitive cache capacity,
// CPU ISA controls, JIT dump/profiling switches, threading.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <strings.h>

#include "api/api.hpp"
#include "core/parallel.hpp"
#include "core/primitive_cache.hpp"
#include "core/verbose.hpp"
#include "runtime/cpu/isa.hpp"

using namespace anydnn;

namespace {

bool valid_fpmath(int mode) {
    switch (mode) {
        case dnnl_fpmath_mode_strict:
        case dnnl_fpmath_mode_bf16:
        case dnnl_fpmath_mode_f16:
        case dnnl_fpmath_mode_any:
        case dnnl_fpmath_mode_tf32: return true;
        default: return false;
    }
}

dnnl_fpmath_mode_t fpmath_from_env() {
    const char *env = std::getenv("ONEDNN_DEFAULT_FPMATH_MODE");
    if (!env) return dnnl_fpmath_mode_strict;
    struct {
        const char *name;
        dnnl_fpmath_mode_t mode;
    } names[] = {{"STRICT", dnnl_fpmath_mode_strict}, {"BF16", dnnl_fpmath_mode_bf16},
            {"F16", dnnl_fpmath_mode_f16}, {"ANY", dnnl_fpmath_mode_any},
            {"TF32", dnnl_fpmath_mode_tf32}};
    for (const auto &n : names)
        if (strcasecmp(env, n.name) == 0) return n.mode;
    return dnnl_fpmath_mode_strict;
}

std::atomic<int> &default_fpmath() {
    static std::atomic<int> mode {fpmath_from_env()};
    return mode;
}

} // namespace

namespace anydnn {
int max_threads() {
    if (threadpool_t *pool = active_threadpool()) return pool->get_num_threads();
    if (thread_max_concurrency() > 0) return thread_max_concurrency();
    return omp_get_max_threads();
}
} // namespace anydnn

extern "C" {

DNNL_API const dnnl_version_t *dnnl_version(void) {
    static const dnnl_version_t version = {DNNL_VERSION_MAJOR, DNNL_VERSION_MINOR,
            DNNL_VERSION_PATCH, DNNL_VERSION_HASH, DNNL_CPU_RUNTIME, DNNL_GPU_RUNTIME};
    return &version;
}

DNNL_API dnnl_status_t dnnl_set_verbose(int level) {
    ANYDNN_REQUIRE(level >= 0 && level <= 2, dnnl_invalid_arguments,
            "verbose level %d is not 0, 1 or 2", level);
    return set_verbose_level(level);
}

DNNL_API dnnl_status_t dnnl_get_default_fpmath_mode(dnnl_fpmath_mode_t *mode) {
    ANYDNN_REQUIRE_NOT_NULL(mode);
    *mode = static_cast<dnnl_fpmath_mode_t>(default_fpmath().load());
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_set_default_fpmath_mode(dnnl_fpmath_mode_t mode) {
    ANYDNN_REQUIRE(valid_fpmath(raw_value(mode)), dnnl_invalid_arguments,
            "unknown fpmath mode %d", raw_value(mode));
    default_fpmath() = mode;
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_get_primitive_cache_capacity(int *capacity) {
    ANYDNN_REQUIRE_NOT_NULL(capacity);
    *capacity = primitive_cache().capacity();
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_set_primitive_cache_capacity(int capacity) {
    return primitive_cache().set_capacity(capacity);
}

// There is no JIT code to dump or profile yet: the switches are accepted and recorded.
DNNL_API dnnl_status_t dnnl_set_jit_dump(int enable) {
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_set_jit_profiling_flags(unsigned flags) {
    ANYDNN_REQUIRE((flags & ~0xfu) == 0, dnnl_invalid_arguments,
            "unknown jit profiling flags 0x%x", flags);
    return dnnl_success;
}

DNNL_API dnnl_status_t dnnl_set_jit_profiling_jitdumpdir(const char *dir) {
    return dnnl_unimplemented;
}

DNNL_API dnnl_status_t dnnl_set_max_cpu_isa(dnnl_cpu_isa_t isa) {
    // ISA values are bit masks: compare as unsigned, never load an unlisted enum value.
    return cpu::set_max_isa(static_cast<unsigned>(raw_value(isa)));
}

DNNL_API dnnl_cpu_isa_t dnnl_get_effective_cpu_isa(void) {
    return cpu::effective_isa();
}

DNNL_API dnnl_status_t dnnl_set_cpu_isa_hints(dnnl_cpu_isa_hints_t isa_hints) {
    return cpu::set_isa_hints(static_cast<unsigned>(raw_value(isa_hints)));
}

DNNL_API dnnl_cpu_isa_hints_t dnnl_get_cpu_isa_hints(void) {
    return cpu::isa_hints();
}

} // extern "C"

extern "C" DNNL_API dnnl_status_t dnnl_verbose_profiling_enabled(int *enabled) {
    ANYDNN_REQUIRE_NOT_NULL(enabled);
    *enabled = verbose_on(verbose_flag::exec) ? 1 : 0;
    return dnnl_success;
}
