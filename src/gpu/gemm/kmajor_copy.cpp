#include "gpu/gemm/kmajor_copy.hpp"

#include <string>

#include "gpu/launch.hpp"

namespace anydnn {
namespace gpu {

int64_t kmajor_ld(int64_t k, int elem_bytes) {
    const int64_t per = 16 / elem_bytes;
    return (k + per - 1) / per * per;
}

size_t kmajor_bytes(const kmajor_source_t &s, int elem_bytes) {
    const int64_t bytes = s.batches * s.rows * kmajor_ld(s.k, elem_bytes) * elem_bytes;
    return static_cast<size_t>((bytes + 255) / 256 * 256);
}

namespace {

// Tiles of 32 rows by 32 * tile_k_steps columns (KS of kmajor_copy.cl): bytes take 4, so that
// an item has as many bytes in flight as with 4-byte elements.
int tile_k_steps(int elem_bytes) {
    return elem_bytes == 1 ? 4 : 1;
}

// The tiles of `s`: one per work-group of 32 x 8 items, one matrix per z.
nd_range_t tile_range(const kmajor_source_t &s, int elem_bytes) {
    const int64_t tile_k = 32 * tile_k_steps(elem_bytes);
    nd_range_t range;
    range.ndims = 3;
    range.global[0] = static_cast<size_t>((s.k + tile_k - 1) / tile_k * 32);
    range.global[1] = static_cast<size_t>((s.rows + 31) / 32 * 8);
    range.global[2] = static_cast<size_t>(s.batches);
    range.local[0] = 32;
    range.local[1] = 8;
    range.local[2] = 1;
    return range;
}

// The build options: the stored element and, for sums, the 8-bit type they add.
std::string options(int elem_bytes, row_sums_kind_t sums) {
    std::string opt = elem_bytes == 4 ? "-DT=uint" : "-DT=uchar";
    opt += " -DKS=" + std::to_string(tile_k_steps(elem_bytes));
    if (sums == row_sums_kind_t::s8) opt += " -DST=char";
    if (sums == row_sums_kind_t::u8) opt += " -DST=uchar";
    return opt;
}

// Zeroes the `n` s32 sums the tiles then add to.
status_t zero_sums(const kernel_t &zero, stream_t *stream, const memory_storage_t *to,
        int64_t to_off, int64_t n) {
    kernel_args_t args;
    args.add(to);
    args.add_value<int64_t>(to_off);
    args.add_value<int64_t>(n);
    return zero.launch(stream, args, range_1d(static_cast<size_t>(n)));
}

} // namespace

status_t kmajor_copy_t::init(engine_t *engine, int elem_bytes, row_sums_kind_t sums) {
    ANYDNN_REQUIRE(elem_bytes == 4 || elem_bytes == 1, dnnl_unimplemented,
            "K-major copies take 4- or 1-byte elements, not %d", elem_bytes);
    ANYDNN_REQUIRE(sums == row_sums_kind_t::none || elem_bytes == 1, dnnl_unimplemented,
            "K-major copies sum 8-bit elements only");
    elem_bytes_ = elem_bytes;
    sums_ = sums != row_sums_kind_t::none;
    const std::string opt = options(elem_bytes, sums);
    ANYDNN_CHECK(create_kernel(engine, "gemm/kmajor_copy.cl", opt, "kmajor_copy", kernel_));
    if (!sums_) return dnnl_success;
    return create_kernel(engine, "gemm/kmajor_copy.cl", opt, "zero_ints", zero_);
}

status_t kmajor_copy_t::launch(stream_t *stream, const memory_storage_t *from,
        const kmajor_source_t &s, const memory_storage_t *to, int64_t to_off,
        const memory_storage_t *sums_to, int64_t sums_off) const {
    if (s.batches == 0 || s.rows == 0) return dnnl_success;
    ANYDNN_REQUIRE(!sums_ || sums_to, dnnl_runtime_error, "K-major copy: no buffer for sums");
    if (sums_) ANYDNN_CHECK(zero_sums(*zero_, stream, sums_to, sums_off, s.batches * s.rows));
    if (s.k == 0) return dnnl_success;
    kernel_args_t args;
    args.add(from);
    args.add(to);
    for (int64_t v : {s.off, s.sb, s.sr, s.sk, to_off, s.rows, s.k, kmajor_ld(s.k, elem_bytes_)})
        args.add_value<int64_t>(v);
    if (sums_) {
        args.add(sums_to);
        args.add_value<int64_t>(sums_off);
    }
    return kernel_->launch(stream, args, tile_range(s, elem_bytes_));
}

status_t row_sums_t::init(engine_t *engine, bool is_signed) {
    const std::string opt
            = options(1, is_signed ? row_sums_kind_t::s8 : row_sums_kind_t::u8);
    ANYDNN_CHECK(create_kernel(engine, "gemm/kmajor_copy.cl", opt, "row_sums", kernel_));
    return create_kernel(engine, "gemm/kmajor_copy.cl", opt, "zero_ints", zero_);
}

status_t row_sums_t::launch(stream_t *stream, const memory_storage_t *from,
        const kmajor_source_t &s, const memory_storage_t *to, int64_t to_off) const {
    if (s.batches == 0 || s.rows == 0) return dnnl_success;
    ANYDNN_CHECK(zero_sums(*zero_, stream, to, to_off, s.batches * s.rows));
    if (s.k == 0) return dnnl_success;
    kernel_args_t args;
    args.add(from);
    for (int64_t v : {s.off, s.sb, s.sr, s.sk, s.rows, s.k})
        args.add_value<int64_t>(v);
    args.add(to);
    args.add_value<int64_t>(to_off);
    return kernel_->launch(stream, args, tile_range(s, 1));
}

} // namespace gpu
} // namespace anydnn
