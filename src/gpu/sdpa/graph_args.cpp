// The sdpa partition of a graph on GPU engines as one fused kernel: the tensor-core flash
// kernel (flash.hpp) where the device and the problem take it, else the generic one (sdpa.cl).
// The plan's shapes and strides become the kernels' arguments; what the kernel does not take (blocked
// layouts, more than 4 batch dimensions, head sizes over its limit, a device without the
// local memory) is left to the generic lowering (a sequence of primitives).
#include <cstdlib>
#include <string>

#include "core/memory.hpp"
#include "core/ops/sdpa/fused.hpp"
#include "gpu/sdpa/flash.hpp"
#include "gpu/sdpa/sdpa.hpp"

namespace anydnn {

namespace {

bool plain_strided(const memory_desc_t &md) {
    return md.format_kind == dnnl_blocked && md.blocking.inner_nblks == 0;
}

// Strides of the last two dims, 0 where a (mask) dim broadcasts.
void row_col(const memory_desc_t &md, int64_t &row, int64_t &col) {
    const int nd = md.ndims;
    row = md.dims[nd - 2] == 1 ? 0 : md.blocking.strides[nd - 2];
    col = md.dims[nd - 1] == 1 ? 0 : md.blocking.strides[nd - 1];
}

// The plan's batch strides, right-aligned into the kernel's slots.
void fill_batch(int64_t out[gpu::sdpa_max_batch_dims], const std::vector<dim_t> &s) {
    const int n = static_cast<int>(s.size()), pad = gpu::sdpa_max_batch_dims - n;
    for (int i = 0; i < gpu::sdpa_max_batch_dims; ++i)
        out[i] = i < pad ? 0 : s[i - pad];
}

gpu::sdpa_args_t kernel_args(const sdpa_plan_t &p, int64_t &nbatch) {
    gpu::sdpa_args_t a {};
    const int nb = static_cast<int>(p.batch.size()), pad = gpu::sdpa_max_batch_dims - nb;
    nbatch = 1;
    for (int i = 0; i < gpu::sdpa_max_batch_dims; ++i) {
        a.batch[i] = i < pad ? 1 : p.batch[i - pad];
        nbatch *= a.batch[i];
    }
    fill_batch(a.q_b, p.qs);
    fill_batch(a.k_b, p.ks);
    fill_batch(a.v_b, p.vs);
    fill_batch(a.dst_b, p.ds);
    if (p.has_mask) fill_batch(a.mask_b, p.ms);
    const int nd = p.dst.ndims;
    a.q_off = p.q.offset0;
    a.k_off = p.k.offset0;
    a.v_off = p.v.offset0;
    a.dst_off = p.dst.offset0;
    a.q_row = p.q.blocking.strides[nd - 2];
    a.q_col = p.q.blocking.strides[nd - 1];
    // K(j, d) and V(j, d) whichever way the graph holds them.
    a.k_key = p.k.blocking.strides[p.k_transposed ? nd - 2 : nd - 1];
    a.k_col = p.k.blocking.strides[p.k_transposed ? nd - 1 : nd - 2];
    a.v_key = p.v.blocking.strides[p.v_transposed ? nd - 1 : nd - 2];
    a.v_col = p.v.blocking.strides[p.v_transposed ? nd - 2 : nd - 1];
    a.dst_row = p.dst.blocking.strides[nd - 2];
    a.dst_col = p.dst.blocking.strides[nd - 1];
    if (p.has_mask) {
        a.mask_off = p.mask.offset0;
        row_col(p.mask, a.mask_row, a.mask_col);
    }
    a.Sq = p.Sq;
    a.Sk = p.Sk;
    if (p.has_stats) {
        fill_batch(a.stats_b, p.ss);
        a.stats_off = p.stats.offset0;
        a.stats_row = p.stats.dims[nd - 2] == 1 ? 0 : p.stats.blocking.strides[nd - 2];
    }
    return a;
}

} // namespace

status_t make_sdpa_device_kernel(
        engine_t *engine, const sdpa_plan_t &p, sdpa_device_kernel_t &kernel_out) {
    // ANYDNN_GRAPH_SDPA_UNFUSED=1: the primitive sequence instead (to compare and to test it).
    const char *unfused = std::getenv("ANYDNN_GRAPH_SDPA_UNFUSED");
    ANYDNN_REQUIRE(!unfused || std::string(unfused) != "1", dnnl_unimplemented,
            "fused sdpa: ANYDNN_GRAPH_SDPA_UNFUSED=1");
    ANYDNN_REQUIRE(static_cast<int>(p.batch.size()) <= gpu::sdpa_max_batch_dims,
            dnnl_unimplemented, "fused sdpa: more than %d batch dimensions",
            gpu::sdpa_max_batch_dims);
    ANYDNN_REQUIRE(plain_strided(p.q) && plain_strided(p.k) && plain_strided(p.v)
                    && plain_strided(p.dst) && (!p.has_mask || plain_strided(p.mask))
                    && (!p.has_stats || plain_strided(p.stats)),
            dnnl_unimplemented, "fused sdpa: blocked layouts");
    ANYDNN_REQUIRE(p.Sk > 0, dnnl_unimplemented, "fused sdpa: no keys");
    gpu::sdpa_config_t c;
    c.D = p.D;
    c.Dv = p.Dv;
    c.q_dt = p.q.data_type;
    c.k_dt = p.k.data_type;
    c.v_dt = p.v.data_type;
    c.dst_dt = p.dst.data_type;
    c.has_scale = p.has_scale;
    c.divide = p.divide;
    c.has_mask = p.has_mask;
    if (p.has_scale) c.scale_dt = p.scale_dt;
    if (p.has_mask) c.mask_dt = p.mask.data_type;
    c.causal = p.causal;
    c.causal_lengths = p.causal_lengths;
    c.has_stats = p.has_stats;

    int64_t nbatch = 1;
    const gpu::sdpa_args_t args = kernel_args(p, nbatch);
    // ANYDNN_GRAPH_SDPA_FLASH=0: the generic kernel even where the flash kernel applies.
    const char *flash_env = std::getenv("ANYDNN_GRAPH_SDPA_FLASH");
    auto flash = std::make_shared<gpu::flash_sdpa_kernel_t>();
    if ((!flash_env || std::string(flash_env) != "0")
            && flash->init(engine, c, args) == dnnl_success) {
        kernel_out.run = [flash, args, nbatch](stream_t *stream,
                                 const memory_storage_t *const buffers[sdpa_device_buffers]) {
            return flash->launch(stream, buffers, args, nbatch);
        };
        kernel_out.info = flash->info();
        return dnnl_success;
    }
    auto kernel = std::make_shared<gpu::sdpa_kernel_t>();
    ANYDNN_CHECK(kernel->init(engine, c));
    kernel_out.run = [kernel, args, nbatch](stream_t *stream,
                             const memory_storage_t *const buffers[sdpa_device_buffers]) {
        return kernel->launch(stream, buffers, args, nbatch);
    };
    kernel_out.info = "sdpa:ocl:fused_online_softmax";
    return dnnl_success;
}

} // namespace anydnn
