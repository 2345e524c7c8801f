#include "core/ops/reorder/common.hpp"

#include "core/data_types_narrow.hpp"

#include <unistd.h>

#include <cstdio>

#include <utility>

namespace anydnn {
namespace cpu {
namespace reorder {

bool is_vector_type(dnnl_data_type_t dt) {
    switch (dt) {
    case dnnl_f32:
    case dnnl_bf16:
    case dnnl_f16:
    case dnnl_s32:
    case dnnl_s8:
    case dnnl_u8: return true;
    default: return false;
    }
}

bool is_ref_type(dnnl_data_type_t dt) {
    return is_vector_type(dt) || dt == dnnl_f64 || dt == dnnl_boolean || dt == dnnl_f8_e4m3
            || dt == dnnl_f8_e5m2 || is_4bit(dt);
}

dim_t padded_nelems(const memory_desc_t &md) {
    dim_t n = 1;
    for (int d = 0; d < md.ndims; ++d)
        n *= md.padded_dims[d];
    return md.ndims > 0 ? n : 0;
}

bool same_dense_layout(const memory_desc_t &a, const memory_desc_t &b) {
    if (a.format_kind != dnnl_blocked || b.format_kind != dnnl_blocked) return false;
    if (a.ndims != b.ndims || a.ndims == 0) return false;
    if (has_runtime_dims_or_strides(a) || has_runtime_dims_or_strides(b)) return false;
    const auto &ba = a.blocking, &bb = b.blocking;
    if (ba.inner_nblks != bb.inner_nblks) return false;
    dim_t inner = 1;
    for (int k = 0; k < ba.inner_nblks; ++k) {
        if (ba.inner_blks[k] != bb.inner_blks[k] || ba.inner_idxs[k] != bb.inner_idxs[k])
            return false;
        inner *= ba.inner_blks[k];
    }
    // Outer dimensions with more than one block, sorted by stride, must tile the buffer.
    struct outer_t {
        dim_t stride, count;
    } outer[max_ndims];
    int n = 0;
    for (int d = 0; d < a.ndims; ++d) {
        if (a.dims[d] != b.dims[d] || a.padded_dims[d] != b.padded_dims[d]) return false;
        dim_t blk = 1;
        for (int k = 0; k < ba.inner_nblks; ++k)
            if (ba.inner_idxs[k] == d) blk *= ba.inner_blks[k];
        dim_t count = a.padded_dims[d] / blk;
        if (count == 0) return true; // empty: nothing to walk
        if (count == 1) continue;
        if (ba.strides[d] != bb.strides[d]) return false;
        outer[n++] = {ba.strides[d], count};
    }
    // Insertion sort by stride (a handful of entries).
    for (int i = 1; i < n; ++i)
        for (int j = i; j > 0 && outer[j].stride < outer[j - 1].stride; --j)
            std::swap(outer[j], outer[j - 1]);
    dim_t expected = inner;
    for (int i = 0; i < n; ++i) {
        if (outer[i].stride != expected) return false;
        expected *= outer[i].count;
    }
    return true;
}

namespace {

// Bytes of one last-level cache instance: sysfs describes what this machine (or virtual
// machine) shares, where the CPUID-based sysconf value can count a whole host's caches.
size_t llc_bytes() {
    if (FILE *f = std::fopen("/sys/devices/system/cpu/cpu0/cache/index3/size", "r")) {
        unsigned long long v = 0;
        char unit = 0;
        const int got = std::fscanf(f, "%llu%c", &v, &unit);
        std::fclose(f);
        if (got >= 1 && v > 0) {
            if (unit == 'K') v <<= 10;
            if (unit == 'M') v <<= 20;
            return static_cast<size_t>(v);
        }
    }
    const long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
    return llc > 0 ? static_cast<size_t>(llc) : size_t(32) << 20;
}

} // namespace

size_t streaming_threshold() {
    // Once src and dst together overflow the cache, dst's lines would not survive anyway.
    static const size_t bytes = llc_bytes() / 2;
    return bytes;
}

status_t init_args(primitive_desc_t &pd, quant_t &q) {
    const auto &d = reorder_desc(pd);
    ANYDNN_CHECK(quant_init(q, pd.attr, d.src_md, d.dst_md));
    pd.args[DNNL_ARG_SRC] = d.src_md;
    pd.args[DNNL_ARG_DST] = d.dst_md;
    return quant_add_args(q, pd, d.src_md);
}

status_t check_exec_mds(const memory_desc_t &src, const memory_desc_t &dst) {
    ANYDNN_REQUIRE(src.ndims == dst.ndims, dnnl_invalid_arguments,
            "reorder: src has %d dimensions and dst %d", src.ndims, dst.ndims);
    ANYDNN_REQUIRE(!has_runtime_dims_or_strides(src) && !has_runtime_dims_or_strides(dst),
            dnnl_invalid_arguments, "reorder: memory passed with run-time dimensions");
    for (int d = 0; d < src.ndims; ++d)
        ANYDNN_REQUIRE(src.dims[d] == dst.dims[d], dnnl_invalid_arguments,
                "reorder: dimension %d is %lld in src and %lld in dst", d,
                static_cast<long long>(src.dims[d]), static_cast<long long>(dst.dims[d]));
    ANYDNN_REQUIRE(src.format_kind == dnnl_blocked && dst.format_kind == dnnl_blocked,
            dnnl_invalid_arguments, "reorder: memory is not in a blocked layout");
    return dnnl_success;
}

} // namespace reorder
} // namespace cpu
} // namespace anydnn
