#include "gpu/gemm/kmajor_copy.hpp"

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

status_t kmajor_copy_t::init(engine_t *engine, int elem_bytes) {
    ANYDNN_REQUIRE(elem_bytes == 4 || elem_bytes == 1, dnnl_unimplemented,
            "K-major copies take 4- or 1-byte elements, not %d", elem_bytes);
    elem_bytes_ = elem_bytes;
    const std::string opt = elem_bytes == 4 ? "-DT=uint" : "-DT=uchar";
    return create_kernel(engine, "gemm/kmajor_copy.cl", opt, "kmajor_copy", kernel_);
}

status_t kmajor_copy_t::launch(stream_t *stream, const memory_storage_t *from,
        const kmajor_source_t &s, const memory_storage_t *to, int64_t to_off) const {
    if (s.batches == 0 || s.rows == 0 || s.k == 0) return dnnl_success;
    kernel_args_t args;
    args.add(from);
    args.add(to);
    for (int64_t v : {s.off, s.sb, s.sr, s.sk, to_off, s.rows, s.k, kmajor_ld(s.k, elem_bytes_)})
        args.add_value<int64_t>(v);
    nd_range_t range;
    range.ndims = 3;
    range.global[0] = static_cast<size_t>((s.k + 31) / 32 * 32);
    range.global[1] = static_cast<size_t>((s.rows + 31) / 32 * 8);
    range.global[2] = static_cast<size_t>(s.batches);
    range.local[0] = 32;
    range.local[1] = 8;
    range.local[2] = 1;
    return kernel_->launch(stream, args, range);
}

status_t row_sums_t::init(engine_t *engine, bool is_signed) {
    return create_kernel(engine, "gemm/kmajor_copy.cl", is_signed ? "-DST=char" : "-DST=uchar",
            "row_sums", kernel_);
}

status_t row_sums_t::launch(stream_t *stream, const memory_storage_t *from,
        const kmajor_source_t &s, const memory_storage_t *to, int64_t to_off) const {
    const int64_t total = s.batches * s.rows;
    if (total == 0) return dnnl_success;
    kernel_args_t args;
    args.add(from);
    args.add(to);
    for (int64_t v : {s.off, s.sb, s.sr, s.sk, to_off, s.rows, s.k, total})
        args.add_value<int64_t>(v);
    return kernel_->launch(stream, args, range_1d(static_cast<size_t>(total)));
}

} // namespace gpu
} // namespace anydnn
