#include "gpu/tuning/wgmma_tuning.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "gpu/tuning/tuning_override.hpp"

namespace anydnn {
namespace gpu {

namespace {

struct wgmma_row_t {
    const char *arch; // device_caps_t::arch; "" any device that loads sm_90a PTX
    int elem_bytes; // of A and B: 2 bf16/f16, 4 f32 (TF32 products), 1 8-bit integers
    const char *wide; // where 128 x BN tiles give every compute unit one
    const char *half_height; // otherwise where 64-row tiles (nearly) fill them: K whole
    const char *narrow; // otherwise, its tiles split along K
    int min_k_steps; // K steps a slice keeps at least
    int max_splits;
    bool core; // the GEMM core's products run on these kernels (split and TMA only where its
               // caller gives the room: gemm_kernel_t::allow_wgmma_scratchpad)
    // Instead of `wide`, where the device loads sm_90a PTX and the caller launches them: the
    // bulk-tensor-copy kernels (null: none for this element size).
    const char *tma;
    // Otherwise, before `half_height` and `narrow` there: these TMA tiles, K whole, where they
    // give three eighths of the compute units or more a tile (null: none).
    const char *tma_narrow;
};

// Hopper, measured through NVIDIA's OpenCL (H200, tools/wgmma_check perf): 128 x 256 tiles
// with 4 stages of 64 (192 KB of shared memory), 4096^3 bf16 565 TFLOP/s (48 KB tiles 280);
// 128 x 4096 x 4096 as 128 x 128 tiles split in 16 along K, 165 TFLOP/s.
// tf32 and 8-bit integers: the same 128-byte lines and shared memory per stage (BK 32 and
// 128 elements), so the same tile shapes and stages, copied from bf16. Measured on the H200
// with these rows (tools/gpu_bench/gemm_variants.sh tc): tf32 4096^3 0.73 of cuBLAS TF32,
// 128 x 4096 x 4096 0.61 (its row-major B copied K-major first: 64 MB read and written);
// u8s8s32 4096^3 6.5x torch._int_mm. Other tf32 tiles (128x32s6p1, 64x32s8p1) are built for
// ANYDNN_GPU_TUNING to compare. The GEMM core takes these kinds where its primitive offers
// the kernels' epilogue (gemm_kernel_t::allow_wgmma_epilogue).
// 64 x 128 tiles, K whole, where 128 x 128 ones would be split along K: H100, bf16 inner
// product mb256 4096 -> 4096 forward 0.0543 ms against 0.0634 (split 2), backward data 0.0569
// against 0.0635; f16 0.0580 / 0.0561 against 0.0649 / 0.0582 (their slices then cost a
// second pass). Splitting the 64-row tiles too was slower (0.0670).
// TMA (bf16/f16 where the device loads sm_90a PTX and the caller launches them): 128 x 256
// tiles in 4 stages as the cp.async kernels, loaded by one producer thread, consumed by two
// warpgroups, a persistent grid, in the form that loads the next tile's first stages during
// the epilogue. H200 (tools/gpu_bench/run_ip.sh): bf16 inner product mb256 4096 -> 4096
// backward weights (4096 x 4096 x 256) 0.04367 ms, 0.912 of PyTorch (0.04465 without the
// overlap, 0.05355 on the cp.async kernels); bf16 4096^3 0.2048 against 0.2072 (s11).
// Where 128 x 256 tiles leave units idle but 128 x 128 ones give 3/8 of them a tile: those on
// TMA in 6 stages, K whole. H200, forward / backward data (256 x 4096 x 4096, 64 tiles):
// 0.04225 / 0.04268 ms, 0.79 / 0.77 of PyTorch, against 0.0468 / 0.0485 on 64 x 128 cp.async
// tiles (128 of them), and slower split along K: 2 slices 0.0548 / 0.0484 (the "o" form
// 0.0490 / 0.0493), 128 x 256 tiles in 4 slices 0.0585 / 0.0512.
const wgmma_row_t rows[] = {
        {"", 2, "256x64s4p1", "m64_128x64s4p1", "128x64s4p1", 4, 16, true, "tma_256x64s4o",
                "tma_128x64s6"},
        {"", 4, "256x32s4p1", nullptr, "128x32s4p1", 4, 16, true, nullptr, nullptr},
        {"", 1, "256x128s4p1", nullptr, "128x128s4p1", 4, 16, true, nullptr, nullptr},
};

// BM, BN and BK of "[m64_]<BN>x<BK>s<S>p<P>" (BM 64 with the prefix, else 128) or of
// "tma_[m64_]<BN>x<BK>s<S>[o]" (`tma` set; o: the next tile's loads overlap the epilogue);
// false when `config` is of neither form.
bool parse_config(const std::string &config, int &bm, int &bn, int &bk, bool &tma) {
    tma = config.compare(0, 4, "tma_") == 0;
    const size_t at = tma ? 4 : 0; // "tma_m64_...": TMA tiles of 64 rows
    const bool m64 = config.compare(at, 4, "m64_") == 0;
    const std::string rest = config.substr(at + (m64 ? 4 : 0));
    int s = 0, p = 0, used = 0;
    if (tma) {
        if (std::sscanf(rest.c_str(), "%dx%ds%d%n", &bn, &bk, &s, &used) != 3) return false;
        if (rest.compare(used, std::string::npos, "o") == 0) ++used;
    } else if (std::sscanf(rest.c_str(), "%dx%ds%dp%d%n", &bn, &bk, &s, &p, &used) != 4) {
        return false;
    }
    bm = m64 ? 64 : 128;
    return used == int(rest.size()) && bn > 0 && bk > 0;
}
bool parse_config(const std::string &config, int &bm, int &bn, int &bk) {
    bool tma = false;
    return parse_config(config, bm, bn, bk, tma);
}
bool is_tma_config(const std::string &config) {
    return config.compare(0, 4, "tma_") == 0;
}

// Applies "config=NAME,splits=N,core=0|1,tma=0|1" to t (tma into *tma_switch, when given);
// false on a bad entry.
bool apply_override(const std::string &spec, wgmma_tuning_t &t, int *tma_switch = nullptr) {
    size_t begin = 0;
    while (begin < spec.size()) {
        size_t end = spec.find(',', begin);
        if (end == std::string::npos) end = spec.size();
        const std::string item = spec.substr(begin, end - begin);
        const size_t eq = item.find('=');
        if (eq == std::string::npos) return false;
        const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
        if (key == "config") {
            t.config = value;
        } else if (key == "splits") {
            char *num_end = nullptr;
            const long s = std::strtol(value.c_str(), &num_end, 10);
            if (*num_end || s < 1 || s > 1024) return false;
            t.splits = int(s);
        } else if (key == "core" && (value == "0" || value == "1")) {
            t.core = value == "1";
        } else if (key == "tma" && (value == "0" || value == "1")) {
            if (tma_switch) *tma_switch = value == "1";
        } else {
            return false;
        }
        begin = end + 1;
    }
    return true;
}

// The device's architecture row for this element size, else the default one (null: none).
const wgmma_row_t *find_row(const device_caps_t &caps, int elem_bytes) {
    for (const wgmma_row_t &r : rows)
        if (r.elem_bytes == elem_bytes && *r.arch && caps.arch == r.arch) return &r;
    for (const wgmma_row_t &r : rows)
        if (r.elem_bytes == elem_bytes && !*r.arch) return &r;
    return nullptr;
}

} // namespace

status_t wgmma_table_configs(const device_caps_t &caps, int elem_bytes,
        std::vector<wgmma_tuning_t> &configs, bool tma_ok) {
    const wgmma_row_t *row = find_row(caps, elem_bytes);
    ANYDNN_REQUIRE(row, dnnl_unimplemented, "the wgmma tuning table has no row for %d-byte "
            "elements", elem_bytes);
    const std::string spec = tuning_override("wgmma");
    configs.clear();
    // The TMA configuration first where the caller launches it (the table's order of
    // preference), then the cp.async ones, which every launch may fall back to.
    int tma_switch = -1; // the override's tma=0|1
    wgmma_tuning_t parsed;
    ANYDNN_REQUIRE(spec.empty() || apply_override(spec, parsed, &tma_switch), dnnl_unimplemented,
            "ANYDNN_GPU_TUNING wgmma section '%s' does not parse", spec.c_str());
    const bool tma_here = tma_ok && caps.ptx_binary_sm >= 90;
    for (const char *name :
            {tma_here && tma_switch != 0 ? row->tma : nullptr,
                    tma_here && tma_switch != 0 ? row->tma_narrow : nullptr, row->wide,
                    row->half_height, row->narrow}) {
        if (!name) continue;
        wgmma_tuning_t t;
        t.config = name;
        t.core = row->core;
        ANYDNN_REQUIRE(spec.empty() || apply_override(spec, t), dnnl_unimplemented,
                "ANYDNN_GPU_TUNING wgmma section '%s' does not parse", spec.c_str());
        // A forced TMA configuration takes the TMA slot; the cp.async ones stay as fallbacks.
        if (is_tma_config(t.config) && !(tma_here && is_tma_config(name))) t.config = name;
        ANYDNN_REQUIRE(parse_config(t.config, t.tile_m, t.tile_n, t.tile_k, t.tma),
                dnnl_unimplemented,
                "wgmma configuration '%s' is not [m64_]<BN>x<BK>s<S>p<P> or "
                "tma_[m64_]<BN>x<BK>s<S>[o]",
                t.config.c_str());
        t.tma_overlap = t.tma && t.config.back() == 'o';
        bool seen = false;
        for (const wgmma_tuning_t &c : configs)
            seen = seen || c.config == t.config;
        if (!seen) configs.push_back(t);
    }
    return dnnl_success;
}

status_t wgmma_tuning(const device_caps_t &caps, int64_t batch, int64_t m, int64_t n, int64_t k,
        wgmma_tuning_t &out, int elem_bytes, bool tma_ok) {
    const wgmma_row_t *row = find_row(caps, elem_bytes);
    ANYDNN_REQUIRE(row, dnnl_unimplemented, "the wgmma tuning table has no row for %d-byte "
            "elements", elem_bytes);
    const std::string spec = tuning_override("wgmma");
    int tma_switch = -1;
    wgmma_tuning_t parsed;
    ANYDNN_REQUIRE(spec.empty() || apply_override(spec, parsed, &tma_switch), dnnl_unimplemented,
            "ANYDNN_GPU_TUNING wgmma section '%s' is not a list of config=NAME, "
            "splits=NUMBER, core=0|1 and tma=0|1",
            spec.c_str());
    // TMA kernels where the caller launches them and the device loads sm_90a PTX (the kernels
    // build their tensor maps themselves); K > 0: their producer and consumers meet through
    // the loads.
    const bool tma_here = tma_ok && k > 0 && caps.ptx_binary_sm >= 90;
    const std::string where = (*row->arch ? std::string("architecture '") + row->arch + "' row"
                                          : std::string("default row"))
            + " of " + std::to_string(elem_bytes) + "-byte elements";
    const int64_t units = std::max<int64_t>(caps.compute_units, 1);
    auto tiles = [&](int64_t bm, int64_t bn) {
        return batch * ((m + bm - 1) / bm) * ((n + bn - 1) / bn);
    };
    wgmma_tuning_t t;
    t.core = row->core;
    int bm = 0, bn = 0, bk = 0;
    if (parse_config(row->wide, bm, bn, bk) && tiles(bm, bn) >= units) {
        if (row->tma && tma_here && tma_switch != 0) {
            t.config = row->tma;
            t.why = where + ": " + row->tma
                    + ", bulk tensor copies (TMA, maps built on the device), its tiles fill "
                      "the compute units";
        } else {
            t.config = row->wide;
            t.why = where + ": " + row->wide + ", its tiles fill the compute units";
        }
    } else if (row->tma_narrow && tma_here && tma_switch != 0
            && parse_config(row->tma_narrow, bm, bn, bk) && 8 * tiles(bm, bn) >= 3 * units) {
        t.config = row->tma_narrow;
        t.why = where + ": " + row->tma_narrow
                + ", bulk tensor copies (TMA, maps built on the device), its tiles give three "
                  "eighths of the compute units or more one, K whole";
    } else if (row->half_height && parse_config(row->half_height, bm, bn, bk)
            && 8 * tiles(bm, bn) >= 7 * units) {
        t.config = row->half_height;
        t.why = where + ": " + row->half_height
                + ", 64-row tiles fill seven eighths of the compute units or more, K whole";
    } else {
        t.config = row->narrow;
        parse_config(row->narrow, bm, bn, bk);
        const int64_t by_units = units / std::max<int64_t>(tiles(bm, bn), 1);
        const int64_t by_depth = k / (int64_t(row->min_k_steps) * bk);
        t.splits = int(std::max<int64_t>(
                1, std::min<int64_t>({by_units, by_depth, int64_t(row->max_splits)})));
        t.why = where + ": " + row->narrow + " split " + std::to_string(t.splits)
                + " along K, fewer tiles than compute units";
    }
    if (!spec.empty()) {
        const std::string chosen = t.config;
        apply_override(spec, t);
        t.why = "ANYDNN_GPU_TUNING wgmma section '" + spec + "'";
        ANYDNN_REQUIRE(parse_config(t.config, t.tile_m, t.tile_n, t.tile_k, t.tma),
                dnnl_unimplemented,
                "wgmma configuration '%s' is not [m64_]<BN>x<BK>s<S>p<P> or "
                "tma_[m64_]<BN>x<BK>s<S>[o]",
                t.config.c_str());
        if (t.tma && !tma_here) {
            t.config = chosen; // no TMA kernels here: the table's own choice
            t.why += " (its TMA configuration needs sm_90a PTX, K > 0 and a caller that "
                     "launches it: " + chosen + " instead)";
        }
    }
    ANYDNN_REQUIRE(parse_config(t.config, t.tile_m, t.tile_n, t.tile_k, t.tma),
            dnnl_unimplemented, "wgmma configuration '%s' does not parse", t.config.c_str());
    t.tma_overlap = t.tma && t.config.back() == 'o';
    out = t;
    return dnnl_success;
}

} // namespace gpu
} // namespace anydnn
