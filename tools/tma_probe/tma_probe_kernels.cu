// Device side of tools/tma_probe: bulk tensor copies (TMA) from OpenCL buffers. Compiled to
// sm_90a PTX by nvcc when the tool is built; the host loads it through
// clCreateProgramWithBinary. Every 64 x 64 tile of 16-bit elements is copied by
// cp.async.bulk.tensor into 128-byte-swizzled shared memory and written back out unswizzled,
// so `out` equals the source inside it and zero outside (the copy's out-of-bounds fill).
#include <cstdint>

namespace {

constexpr int tile = 64; // rows and 16-bit columns of a tile: 128-byte lines

// A tensor map: 128 opaque bytes, 64-byte aligned.
struct alignas(64) tmap_t {
    unsigned long long v[16];
};

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// Makes the generic-proxy writes of the map at `m` (global) visible to the tensor-map proxy
// of this thread's later copies.
__device__ __forceinline__ void tmap_publish(const void *m) {
    asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(m) : "memory");
}

// Tile (blockIdx.x, blockIdx.y) through the map at `m` (a generic address: global or param)
// into shared memory, then out (row-major, ld_out elements) by the whole CTA.
__device__ __forceinline__ void copy_tile(const void *m, uint16_t *out, int ld_out) {
    __shared__ __align__(1024) unsigned char buf[tile * 128];
    __shared__ __align__(8) unsigned long long bar;
    const uint32_t sb = smem_addr(buf), sbar = smem_addr(&bar);
    const int col0 = blockIdx.y * tile, row0 = blockIdx.x * tile;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sbar) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("{\n .reg .b64 st;\n"
                     " mbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n}" ::"r"(sbar),
                     "r"(tile * 128)
                     : "memory");
        asm volatile(
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                " [%0], [%1, {%2, %3}], [%4];" ::"r"(sb),
                "l"(m), "r"(col0), "r"(row0), "r"(sbar)
                : "memory");
    }
    __syncthreads(); // the barrier is initialized before anyone waits on it
    asm volatile("{\n .reg .pred done;\n wait:\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
                 " @!done bra wait;\n}" ::"r"(sbar)
                 : "memory");
    // Element (r, c) sits at byte r * 128 + 2 c, its 16-byte piece XORed with r % 8.
    for (int i = threadIdx.x; i < tile * tile; i += blockDim.x) {
        const int r = i / tile, c = i % tile;
        const uint32_t off = r * 128 + c * 2;
        const uint32_t sw = off ^ ((r % 8) << 4);
        out[(int64_t)(row0 + r) * ld_out + col0 + c] =
                *reinterpret_cast<const uint16_t *>(buf + sw);
    }
}

} // namespace

// The device address of a buffer, as the kernels see it.
extern "C" __global__ void tma_probe_address(const void *buf, unsigned long long *out) {
    out[0] = reinterpret_cast<unsigned long long>(buf);
}

// Each CTA copies the template maps[0] into maps[1 + cta], points it at src, and loads its
// tile through it.
extern "C" __global__ void tma_probe_template(
        const uint16_t *src, uint16_t *out, tmap_t *maps, int ld_out) {
    const int cta = blockIdx.y * gridDim.x + blockIdx.x;
    tmap_t *m = maps + 1 + cta;
    if (threadIdx.x < 16) m->v[threadIdx.x] = maps[0].v[threadIdx.x];
    __syncwarp();
    if (threadIdx.x == 0) {
        asm volatile("tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;" ::"l"(m),
                     "l"(src)
                     : "memory");
        tmap_publish(m);
    }
    copy_tile(m, out, ld_out);
}

// Each CTA builds maps[1 + cta] from 128 zero bytes by replacing every field, then loads its
// tile through it (load != 0) or stops there (the host compares the bytes with libcuda's).
extern "C" __global__ void tma_probe_zero(const uint16_t *src, uint16_t *out, tmap_t *maps,
        int ld_out, int load, int rank_val, int elemtype, int swizzle, int interleave, int fill,
        int dim0, int dim1, int box0, int box1, long long stride1) {
    const int cta = blockIdx.y * gridDim.x + blockIdx.x;
    tmap_t *m = maps + 1 + cta;
    if (threadIdx.x < 16) m->v[threadIdx.x] = 0;
    __syncwarp();
    if (threadIdx.x == 0) {
        asm volatile("tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;" ::"l"(m),
                     "l"(src)
                     : "memory");
        asm volatile(
                "tensormap.replace.tile.rank.global.b1024.b32 [%0], %1;" ::"l"(m), "r"(rank_val)
                : "memory");
        asm volatile("tensormap.replace.tile.global_dim.global.b1024.b32 [%0], 0, %1;" ::"l"(m),
                     "r"(dim0)
                     : "memory");
        asm volatile("tensormap.replace.tile.global_dim.global.b1024.b32 [%0], 1, %1;" ::"l"(m),
                     "r"(dim1)
                     : "memory");
        asm volatile("tensormap.replace.tile.global_stride.global.b1024.b64 [%0], 0, %1;" ::"l"(m),
                     "l"(stride1)
                     : "memory");
        asm volatile(
                "tensormap.replace.tile.box_dim.global.b1024.b32 [%0], 0, %1;" ::"l"(m), "r"(box0)
                : "memory");
        asm volatile(
                "tensormap.replace.tile.box_dim.global.b1024.b32 [%0], 1, %1;" ::"l"(m), "r"(box1)
                : "memory");
        asm volatile("tensormap.replace.tile.element_stride.global.b1024.b32 [%0], 0, 1;" ::"l"(m)
                     : "memory");
        asm volatile("tensormap.replace.tile.element_stride.global.b1024.b32 [%0], 1, 1;" ::"l"(m)
                     : "memory");
        // elemtype and the modes are immediates in PTX: one branch per value tried.
#define ANYDNN_SET(FIELD, V)                                                                       \
    asm volatile("tensormap.replace.tile." FIELD ".global.b1024.b32 [%0], " #V ";" ::"l"(m)        \
                 : "memory")
        switch (elemtype) {
        case 1: ANYDNN_SET("elemtype", 1); break;
        case 6: ANYDNN_SET("elemtype", 6); break;
        case 9: ANYDNN_SET("elemtype", 9); break;
        case 10: ANYDNN_SET("elemtype", 10); break;
        default: break;
        }
        if (swizzle == 3)
            ANYDNN_SET("swizzle_mode", 3);
        else if (swizzle == 0)
            ANYDNN_SET("swizzle_mode", 0);
        if (interleave == 0) ANYDNN_SET("interleave_layout", 0);
        if (fill == 0)
            ANYDNN_SET("fill_mode", 0);
        else if (fill == 1)
            ANYDNN_SET("fill_mode", 1);
#undef ANYDNN_SET
        tmap_publish(m);
    }
    if (load) copy_tile(m, out, ld_out);
}

// The map by value, as a 128-byte kernel parameter (clSetKernelArg with 128 bytes), already
// pointing at the source.
extern "C" __global__ void tma_probe_param(
        const __grid_constant__ tmap_t map, uint16_t *out, int ld_out) {
    copy_tile(&map, out, ld_out);
}

// The two-kernel form: a one-warp kernel points maps[1] (a copy of the template maps[0]) at
// src; the next kernel on the queue loads every tile through that one map.
extern "C" __global__ void tma_probe_patch(const uint16_t *src, tmap_t *maps) {
    if (threadIdx.x < 16) maps[1].v[threadIdx.x] = maps[0].v[threadIdx.x];
    __syncwarp();
    if (threadIdx.x == 0) {
        asm volatile(
                "tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;" ::"l"(maps + 1),
                "l"(src)
                : "memory");
        asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
    }
}
extern "C" __global__ void tma_probe_shared(uint16_t *out, const tmap_t *maps, int ld_out) {
    if (threadIdx.x == 0)
        asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(maps + 1)
                     : "memory");
    copy_tile(maps + 1, out, ld_out);
}
