// K-major copies of GEMM operands (gemm/kmajor_copy.cl) for the Hopper tf32 and 8-bit wgmma
// kernels, which read K-major tiles only: row-major B (K x N) and column-major A are
// transposed into the scratchpad before the GEMM, in the same stream. And the column sums
// of 8-bit B that src's zero point needs: in the same pass as B's copy, or alone where B is
// already K-major (about one read of B either way).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/compute/compute.hpp"
#include "core/primitive.hpp"

namespace anydnn {
namespace gpu {

// One operand: `batches` matrices of rows x k, element (b, r, k) at
// off + b * sb + r * sr + k * sk (elements).
struct kmajor_source_t {
    int64_t batches = 1, rows = 0, k = 0;
    int64_t off = 0, sb = 0, sr = 0, sk = 0;
};

// The row pitch of the copy: k rounded up to 16 bytes (the kernels' cp.async pieces).
int64_t kmajor_ld(int64_t k, int elem_bytes);
// Bytes of the copy, rounded up to 256 so that what follows it stays aligned.
size_t kmajor_bytes(const kmajor_source_t &s, int elem_bytes);

// Whether the s32 row sums of 8-bit elements are wanted, and of which signedness.
enum class row_sums_kind_t { none, u8, s8 };

class kmajor_copy_t {
public:
    // elem_bytes: 4 (f32) or 1 (8-bit integers); sums (1-byte elements only): the copy also
    // gives the s32 sums over k of each row.
    status_t init(engine_t *engine, int elem_bytes, row_sums_kind_t sums = row_sums_kind_t::none);
    // The copy of `s` from `from` to `to` from element `to_off`, rows kmajor_ld apart and
    // matrices rows * kmajor_ld apart; with sums, `batches * rows` s32 sums from element
    // `sums_off` of `sums_to`.
    status_t launch(stream_t *stream, const memory_storage_t *from, const kmajor_source_t &s,
            const memory_storage_t *to, int64_t to_off, const memory_storage_t *sums_to = nullptr,
            int64_t sums_off = 0) const;

private:
    int elem_bytes_ = 0;
    bool sums_ = false;
    std::shared_ptr<kernel_t> kernel_, zero_;
};

// The s32 sums over k of each row of an 8-bit source (B's column sums for src's zero point),
// without a copy: `batches * rows` values from element `to_off` of `to`.
class row_sums_t {
public:
    status_t init(engine_t *engine, bool is_signed);
    status_t launch(stream_t *stream, const memory_storage_t *from, const kmajor_source_t &s,
            const memory_storage_t *to, int64_t to_off) const;

private:
    std::shared_ptr<kernel_t> kernel_, zero_;
};

} // namespace gpu
} // namespace anydnn
