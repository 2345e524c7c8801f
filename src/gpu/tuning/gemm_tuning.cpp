#include "gpu/tuning/gemm_tuning.hpp"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "gpu/tuning/tuning_override.hpp"

namespace anydnn {
namespace gpu {

namespace {

// Where a row applies, searched in this order; the first row that matches the device and the
// problem and fits the device wins.
enum class level_t { device, arch, vendor, default_cpu, default_gpu };

// Which operand types a row is for.
// half: A and B both bf16 or both f16; floating: neither A nor B an integer type.
// f32: A, B and C all f32.
enum class operands_t { any, half, floating, f32 };

struct row_t {
    level_t level;
    const char *key; // device: part of its name; arch: equal; vendor: part of the vendor name
    operands_t operands;
    int64_t min_c_elems_per_cu; // products smaller than this per compute unit skip the row
    int64_t max_m; // products with more rows of C (or not known) skip the row; 0: any
    gemm_variant_t variant;
    int wg_m, wg_n, tm, tn, bm, bn, kt, vw, stages;
    int regs; // 0 where not given
    bool n_dense_b = false; // only products whose B is not known to have its K dense
};

using v = gemm_variant_t;

// clang-format off
const row_t table[] = {
    // f32 GEMV, one row of C (or one column, A and B of one type) with at least 16 elements
    // of C per compute unit (N >= 2112 on 132 units): no K split, so one launch and no
    // slice-sum pass; 64 K lanes x 4 column lanes (16 columns) per work-group, 8 loads in
    // flight. H200, f32 1 x 4096 x 4096: 0.905 of cuBLAS against 0.82-0.87 with the K-split
    // row below. Only one row: at 4 rows this shape ran 0.81 of cuBLAS where the K-split row
    // ran 1.10; and narrow C has too few work-groups without the K split, hence the bound.
    // B with its K dense (inner product weights, transposed matmul weights) takes the K-split
    // row instead: H100, f32 inner product mb1 4096 -> 4096 0.124 ms with this row against
    // 0.049 with that one.
    {level_t::arch, "sm_90", operands_t::f32, 16, 1, v::skinny, 64, 4, 4, 4, 16, 128, 100000, 4, 8, 0, true},
    // GPUs, up to 4 rows or columns of C (GEMV): 256 work-items (32 lanes of 4-element loads
    // x 8), K split until 4 work-groups per compute unit, slices at least 256 deep, 4 loads in
    // flight. H200: f32 1 x 4096 x 4096 0.0437 ms (cuBLAS 0.0355; the kernel before it, one
    // column per work-item and K shared only inside the group: 0.16 ms), 1 x 8192 x 8192 1.03x
    // cuBLAS; built for 16 rows it was register-bound (f32 16 x 4096 x 4096 0.196 ms against
    // 0.095, 4096 x 4096 x 16 1.15 ms against 0.065), hence 4. On Hopper ahead of mma_sync, so
    // that bf16 and f16 GEMVs stream too; the default row for other GPUs below.
    {level_t::arch, "sm_90", operands_t::floating, 0, 4, v::skinny, 8, 32, 4, 4, 16, 128, 256, 4, 4},
    // f32 with 5 to 8 rows or columns: the skinny kernel with 8 rows per work-item, 16 x 16
    // work-items, slices from 8 deep. H200, f32 8 x 4096 x 4096: 0.0795 ms against 0.238 on
    // sgemm_ptx (cuBLAS 0.061); 16 rows gained less (0.202 against 0.244), so 8 is the limit.
    {level_t::arch, "sm_90", operands_t::f32, 0, 8, v::skinny, 16, 16, 8, 8, 128, 128, 8, 4, 2},
    // Hopper through NVIDIA's OpenCL: 8 warps of 64 x 32 over 128 x 128 blocks, three 32-deep
    // stages (48 KiB, the most local memory an OpenCL kernel gets there). Measured on an H200,
    // bf16 8192^3: 170 TFLOP/s; two stages 145; a 128-register cap (two work-groups per SM)
    // changed nothing. 128 x 256 blocks with two stages (tn=8,stages=2) timed 227 but have not
    // been checked against a reference on the device yet, so they are not the default.
    {level_t::arch, "sm_90", operands_t::half, 0, 0, v::mma_sync, 2, 4, 4, 4, 128, 128, 32, 8, 3},
    {level_t::default_gpu, "", operands_t::floating, 0, 4, v::skinny, 8, 32, 4, 4, 16, 128, 256, 4, 4},
    // Any GPU whose compiler takes inline mma.sync (probed): the same shape.
    {level_t::default_gpu, "", operands_t::half, 0, 0, v::mma_sync, 2, 4, 4, 4, 128, 128, 32, 8, 3},
    // GPUs that load sm_80 PTX (NVIDIA, Ampere and later), strict f32: 128 x 256 blocks of
    // 8 x 16 per thread, or 128 x 128, 128 x 64, 64 x 64 of 8 x 8 (4 x 4), chosen per launch
    // (sgemm_size_order in gpu/gemm/sgemm_launch.cpp: the default tiles are set there);
    // the fma_8x8 kernel with KT 8 serves the launches it refuses.
    {level_t::default_gpu, "", operands_t::f32, 0, 0, v::sgemm_ptx, 16, 16, 8, 8, 128, 128, 8, 4, 2},
    // GPUs, float sums: 8 x 8 per work-item, 128 x 128 blocks, two 8-deep local slices (H200,
    // f32 4096^3: 25 TFLOP/s; 16-deep slices 23; the 4 x 4 tiled_wg 12).
    {level_t::default_gpu, "", operands_t::floating, 0, 0, v::fma_8x8, 16, 16, 8, 8, 128, 128, 8, 4, 2},
    // GPUs: 16 x 16 work-items of 4 x 4 elements over 16-deep local tiles (8 KiB); devices
    // with smaller work-groups 8 x 8.
    {level_t::default_gpu, "", operands_t::any, 0, 0, v::tiled_wg, 16, 16, 4, 4, 64, 64, 16, 4, 1},
    {level_t::default_gpu, "", operands_t::any, 0, 0, v::tiled_wg, 8, 8, 4, 4, 32, 32, 16, 4, 1},
    // CPU devices: one work-item per BM x BN block, 8 x 32 register tiles of 16-lane vectors
    // (one AVX-512 register per row and 16 columns). Products with at least four 128 x 512
    // blocks per compute unit take those (B packing read by twice as many rows; measured 1.3x
    // on 2048^3 with PoCL), smaller ones 64 x 256 blocks.
    {level_t::default_cpu, "", operands_t::any, 4 * 128 * 512, 0, v::tiled_cpu, 1, 1, 8, 32, 128, 512, 128, 16, 1},
    {level_t::default_cpu, "", operands_t::any, 0, 0, v::tiled_cpu, 1, 1, 8, 32, 64, 256, 256, 16, 1},
};
// clang-format on

const char *level_name(level_t l) {
    switch (l) {
        case level_t::device: return "device";
        case level_t::arch: return "architecture";
        case level_t::vendor: return "vendor";
        case level_t::default_cpu: return "CPU-device default";
        case level_t::default_gpu: return "GPU default";
    }
    return "?";
}

bool key_matches(const row_t &r, const device_caps_t &caps) {
    switch (r.level) {
        case level_t::device: return caps.name.find(r.key) != std::string::npos;
        case level_t::arch: return caps.arch == r.key;
        case level_t::vendor: return caps.vendor.find(r.key) != std::string::npos;
        case level_t::default_cpu: return caps.is_cpu;
        case level_t::default_gpu: return !caps.is_cpu;
    }
    return false;
}

bool is_half(dnnl_data_type_t t) { return t == dnnl_bf16 || t == dnnl_f16; }
bool is_int(dnnl_data_type_t t) { return t == dnnl_s8 || t == dnnl_u8; }

// Whether C has at most `most` rows, or columns with A and B of one type (known sizes).
bool small_side_fits(const gemm_problem_t &p, int64_t most) {
    return (p.m > 0 && p.m <= most) || (p.a == p.b && p.n > 0 && p.n <= most);
}

bool operands_match(operands_t o, const gemm_problem_t &p) {
    switch (o) {
        case operands_t::any: return true;
        case operands_t::half: return is_half(p.a) && p.a == p.b;
        case operands_t::floating: return !is_int(p.a) && !is_int(p.b);
        case operands_t::f32: return p.a == dnnl_f32 && p.b == dnnl_f32 && p.c == dnnl_f32;
    }
    return false;
}

gemm_tuning_t from_row(const row_t &r) {
    gemm_tuning_t t;
    t.variant = r.variant;
    t.wg_m = r.wg_m, t.wg_n = r.wg_n, t.tm = r.tm, t.tn = r.tn;
    t.bm = r.bm, t.bn = r.bn, t.kt = r.kt, t.vw = r.vw, t.stages = r.stages;
    t.regs = r.regs;
    return t;
}

// Why the device cannot run `t` for `p` (null: it can). Fills the derived block sizes.
const char *unfit(const device_caps_t &caps, const gemm_problem_t &p, gemm_tuning_t &t) {
    if (t.wg_m <= 0 || t.wg_n <= 0 || t.tm <= 0 || t.tn <= 0 || t.kt <= 0 || t.vw <= 0
            || t.stages <= 0 || t.bm <= 0 || t.bn <= 0)
        return "a size is not positive";
    if (t.regs < 0 || t.regs > 255) return "regs must be 0 (the compiler's choice) to 255";
    switch (t.variant) {
        case v::generic: return nullptr;
        case v::tiled_cpu: {
            if (t.tn % t.vw || t.bm % t.tm || t.bn % t.tn) return "TN % VW, BM % TM or BN % TN";
            const uint64_t bytes = 4ull * (uint64_t(t.bm) * t.kt + uint64_t(t.bn) * t.kt
                                           + uint64_t(t.bm) * t.bn);
            return bytes <= caps.local_mem_size ? nullptr : "too little local memory";
        }
        case v::tiled_wg: {
            t.bm = t.wg_m * t.tm, t.bn = t.wg_n * t.tn;
            if (t.tn % t.vw || (t.vw != 1 && t.vw != 2 && t.vw != 4 && t.vw != 8 && t.vw != 16))
                return "VW must be 1, 2, 4, 8 or 16 and divide TN";
            if (caps.max_work_group_size < size_t(t.wg_m * t.wg_n))
                return "work-group too large";
            return 4ull * t.kt * (t.bm + t.bn) <= caps.local_mem_size ? nullptr
                                                                     : "too little local memory";
        }
        case v::fma_8x8: {
            t.wg_m = t.wg_n = 16, t.tm = t.tn = 8, t.bm = t.bn = 128;
            if (is_int(p.a) || is_int(p.b)) return "integer operands";
            if (t.kt % 2 || t.kt > 32) return "KT must be even and at most 32";
            if (caps.max_work_group_size < 256) return "work-group too large";
            return 2ull * 2 * 4 * t.kt * 128 <= caps.local_mem_size ? nullptr
                                                                   : "too little local memory";
        }
        case v::skinny: {
            t.bm = t.tm, t.bn = 4 * t.wg_n;
            if (is_int(p.a) || is_int(p.b)) return "integer operands";
            if (!small_side_fits(p, t.tm))
                return "more rows of C than TM, and more columns or A and B of two types (or "
                       "not known)";
            if (t.tm > 16 || t.vw != 4 || t.stages > 8) return "TM above 16, VW not 4 or STAGES above 8";
            if (caps.max_work_group_size < size_t(t.wg_m * t.wg_n)) return "work-group too large";
            return 16ull * t.wg_m * t.wg_n <= caps.local_mem_size ? nullptr
                                                                  : "too little local memory";
        }
        case v::sgemm_ptx: {
            t.wg_m = t.wg_n = 16, t.tm = t.tn = 8, t.bm = t.bn = 128;
            if (caps.ptx_binary_sm < 80) return "the device does not load sm_80 PTX (probed)";
            if (!ptx_module("anydnn_sgemm_kn_128x128")) return "no f32 PTX GEMM in this build";
            if (p.a != dnnl_f32 || p.b != dnnl_f32 || p.c != dnnl_f32) return "not all f32";
            if (t.kt % 2 || t.kt > 32) return "KT (of the fma_8x8 fallback) must be even, <= 32";
            if (caps.max_work_group_size < 256) return "work-group too large";
            return nullptr;
        }
        case v::mma_sync: {
            if (!caps.inline_mma_sync) return "no inline PTX mma.sync (probed)";
            if (!is_half(p.a) || p.a != p.b) return "A and B are not both bf16 or both f16";
            t.bm = t.wg_m * t.tm * 16, t.bn = t.wg_n * t.tn * 8;
            const int threads = 32 * t.wg_m * t.wg_n;
            if (caps.max_work_group_size < size_t(threads)) return "work-group too large";
            if (t.kt != 32 || t.tn % 2 || t.stages < 2 || (t.bm * t.kt / 8) % threads
                    || (t.bn * t.kt / 8) % threads)
                return "KT must be 32, TN even, STAGES >= 2, tiles whole 16-byte chunks per thread";
            const uint64_t bytes = 2ull * t.stages * t.kt * (t.bm + t.bn);
            return bytes <= caps.local_mem_size ? nullptr : "too little local memory";
        }
    }
    return "unknown variant";
}

bool parse_variant(const char *s, size_t n, gemm_variant_t &out) {
    for (gemm_variant_t x :
            {v::generic, v::tiled_cpu, v::tiled_wg, v::fma_8x8, v::skinny, v::mma_sync,
                    v::sgemm_ptx})
        if (std::strlen(gemm_variant_name(x)) == n && !std::strncmp(s, gemm_variant_name(x), n)) {
            out = x;
            return true;
        }
    return false;
}

// Applies "variant=...,tm=8,..." (an optional "gemm:" first) to t; false on a bad entry.
bool apply_override(const char *spec, gemm_tuning_t &t) {
    const int unset = INT_MIN;
    if (!std::strncmp(spec, "gemm:", 5)) spec += 5;
    bool variant_set = false;
    gemm_tuning_t fields; // explicit fields, unset: not given
    int *slots[] = {&fields.wg_m, &fields.wg_n, &fields.tm, &fields.tn, &fields.bm, &fields.bn,
            &fields.kt, &fields.vw, &fields.stages, &fields.regs};
    const char *names[] = {"wg_m", "wg_n", "tm", "tn", "bm", "bn", "kt", "vw", "stages", "regs"};
    const int n_fields = 10;
    for (int *s : slots)
        *s = unset;
    while (*spec) {
        const char *end = std::strchr(spec, ',');
        const size_t len = end ? size_t(end - spec) : std::strlen(spec);
        const char *eq = static_cast<const char *>(std::memchr(spec, '=', len));
        if (!eq || (end && end[1] == '\0')) return false;
        const size_t key_len = size_t(eq - spec), val_len = len - key_len - 1;
        if (key_len == 7 && !std::strncmp(spec, "variant", 7)) {
            if (!parse_variant(eq + 1, val_len, fields.variant)) return false;
            variant_set = true;
        } else {
            bool known = false;
            for (int i = 0; i < n_fields; ++i)
                if (std::strlen(names[i]) == key_len && !std::strncmp(spec, names[i], key_len)) {
                    char *num_end = nullptr;
                    *slots[i] = int(std::strtol(eq + 1, &num_end, 10));
                    if (num_end != eq + 1 + val_len) return false;
                    known = true;
                }
            if (!known) return false;
        }
        spec += len + (end ? 1 : 0);
    }
    if (variant_set && fields.variant != t.variant) {
        // Another variant starts from its first row of the table.
        for (const row_t &r : table)
            if (r.variant == fields.variant) {
                t = from_row(r);
                break;
            }
        t.variant = fields.variant;
    }
    int *dst[] = {&t.wg_m, &t.wg_n, &t.tm, &t.tn, &t.bm, &t.bn, &t.kt, &t.vw, &t.stages, &t.regs};
    for (int i = 0; i < n_fields; ++i)
        if (*slots[i] != unset) *dst[i] = *slots[i];
    return true;
}

} // namespace

const char *gemm_variant_name(gemm_variant_t x) {
    switch (x) {
        case v::generic: return "generic";
        case v::tiled_cpu: return "tiled_cpu";
        case v::tiled_wg: return "tiled_wg";
        case v::fma_8x8: return "fma_8x8";
        case v::skinny: return "skinny";
        case v::mma_sync: return "mma_sync";
        case v::sgemm_ptx: return "sgemm_ptx";
    }
    return "?";
}

status_t gemm_tuning(const device_caps_t &caps, const gemm_problem_t &p, gemm_tuning_t &out) {
    std::string skipped;
    bool found = false;
    for (level_t level : {level_t::device, level_t::arch, level_t::vendor, level_t::default_cpu,
                 level_t::default_gpu}) {
        for (const row_t &r : table) {
            if (found || r.level != level || !key_matches(r, caps)) continue;
            if (!operands_match(r.operands, p)) continue;
            if (p.basic_only && r.variant != v::tiled_wg && r.variant != v::tiled_cpu) continue;
            if (p.c_elems < r.min_c_elems_per_cu * int64_t(caps.compute_units)) continue;
            if (r.max_m && !small_side_fits(p, r.max_m)) continue;
            if (r.n_dense_b && p.k_dense_b) continue;
            gemm_tuning_t t = from_row(r);
            const std::string where = std::string(level_name(level))
                    + (*r.key ? std::string(" '") + r.key + "'" : std::string()) + " row "
                    + gemm_variant_name(r.variant);
            if (const char *why = unfit(caps, p, t)) {
                skipped += "; skipped " + where + ": " + why;
                continue;
            }
            out = t;
            out.why = where + skipped;
            found = true;
        }
    }
    const std::string section = tuning_override("gemm");
    const char *spec = section.c_str();
    if (*spec) {
        if (!found) out = gemm_tuning_t();
        ANYDNN_REQUIRE(apply_override(spec, out), dnnl_unimplemented,
                "ANYDNN_GPU_TUNING='%s' is not a list of variant=NAME and field=NUMBER", spec);
        gemm_tuning_t t = out;
        const char *why = unfit(caps, p, t);
        ANYDNN_REQUIRE(!why, dnnl_unimplemented, "ANYDNN_GPU_TUNING='%s' does not fit: %s", spec,
                why);
        out = t;
        out.why = std::string("ANYDNN_GPU_TUNING='") + spec + "'";
        return dnnl_success;
    }
    ANYDNN_REQUIRE(found, dnnl_unimplemented, "no tiled GEMM row of the tuning table fits the "
                                              "device%s",
            skipped.c_str());
    return dnnl_success;
}

} // namespace gpu
} // namespace anydnn
