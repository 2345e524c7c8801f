// GPU sparse matmul: CSR or COO src (COO sorted by row, as oneDNN documents for GPU engines)
// times dense weights, one work-item per dst element; or dense src times CSR or COO weights
// (COO in any order), one work-item per dst row accumulating in f32 in the scratchpad (the
// CPU engine's cases). f32/f16/bf16 values and s32 metadata. Rules shared with the CPU engine
// in core/ops/matmul/sparse.hpp; metadata is checked by the kernels' guards, not on the host.
#include "core/ops/matmul/sparse.hpp"
#include "gpu/impl_entries.hpp"
#include "gpu/launch.hpp"

namespace anydnn {
namespace gpu {

namespace {

using matmul_sparse::conf_t;

struct sparse_t;

struct sparse_pd_t : public primitive_desc_impl_t<sparse_pd_t, sparse_t> {
    using primitive_desc_impl_t::primitive_desc_impl_t;
    const char *name() const override { return "ocl:matmul:sparse"; }
    conf_t conf;

    static status_t init(sparse_pd_t &pd) {
        ANYDNN_CHECK(matmul_sparse::init_conf(
                std::get<matmul_desc_t>(pd.desc), pd.attr, pd.conf, pd.args));
        // Sparse weights: an f32 accumulator row per dst row.
        if (!pd.conf.src_sparse)
            pd.scratchpad_size = static_cast<size_t>(pd.conf.M * pd.conf.N) * sizeof(float);
        return dnnl_success;
    }
};

// Storage type and load/store helper (cl/common.h) of a value type, as build options.
void type_options(dnnl_data_type_t dt, bool is_dst, std::string &out) {
    const char *t = dt == dnnl_f32 ? "float" : dt == dnnl_f16 ? "half" : "ushort";
    const char *s = dt == dnnl_f32 ? "f32" : dt == dnnl_f16 ? "f16" : "bf16";
    out += std::string(is_dst ? " -DDST_T=" : " -DVAL_T=") + t;
    out += std::string(is_dst ? " -DSTORE_DST=store_" : " -DLOAD_VAL=load_") + s;
}

struct sparse_t : public primitive_t {
    using primitive_t::primitive_t;

    status_t init() override {
        const conf_t &c = static_cast<const sparse_pd_t &>(pd()).conf;
        std::string opt = c.encoding == dnnl_csr ? " -DENC_CSR=1" : " -DENC_CSR=0";
        type_options(c.dt, false, opt);
        type_options(c.dst_dt, true, opt);
        return create_kernel(pd().engine, "matmul/sparse.cl", opt,
                c.src_sparse ? "sparse_matmul_src" : "sparse_matmul_wei", kernel_);
    }

    status_t execute(const exec_ctx_t &ctx) const override {
        const conf_t &c = static_cast<const sparse_pd_t &>(pd()).conf;
        if (c.M == 0 || c.N == 0) return dnnl_success;
        const int sp_arg = c.src_sparse ? DNNL_ARG_SRC : DNNL_ARG_WEIGHTS;
        const int dn_arg = c.src_sparse ? DNNL_ARG_WEIGHTS : DNNL_ARG_SRC;
        const memory_t *sp = ctx.arg(sp_arg);
        const memory_desc_t &dn = pd().arg_md(dn_arg);
        const memory_desc_t &d = pd().arg_md(DNNL_ARG_DST);
        const bool any = c.nnz > 0;
        // Buffers the kernel reads must be there (an empty CSR matrix still has pointers).
        for (int h = 0; h < sp->nhandles(); ++h) {
            const bool read = any || (c.encoding == dnnl_csr && h == 2);
            ANYDNN_REQUIRE(!read || (sp->storage(h) && sp->storage(h)->data_handle()),
                    dnnl_invalid_arguments, "sparse matmul: buffer %d of %s is missing", h,
                    c.src_sparse ? "src" : "weights");
        }
        kernel_args_t args;
        args.add(any ? sp->storage(0) : nullptr);
        args.add(any ? sp->storage(1) : nullptr);
        args.add(c.encoding == dnnl_csr || any ? sp->storage(2) : nullptr);
        args.add(c.K > 0 ? storage_of(ctx, dn_arg) : nullptr);
        args.add(storage_of(ctx, DNNL_ARG_DST));
        if (!c.src_sparse) {
            ANYDNN_REQUIRE(ctx.scratchpad_storage, dnnl_invalid_arguments,
                    "sparse matmul: the scratchpad is missing");
            args.add(ctx.scratchpad_storage);
        }
        for (int64_t v : {c.M, c.N, c.K, c.nnz, dn.blocking.strides[0], dn.blocking.strides[1],
                     dn.offset0, d.blocking.strides[0], d.offset0})
            args.add_value<int64_t>(v);
        const int64_t items = c.src_sparse ? c.M * c.N : c.M;
        return kernel_->launch(ctx.stream, args, range_1d(static_cast<size_t>(items)));
    }

private:
    std::shared_ptr<kernel_t> kernel_;
};

} // namespace

impl_entry_t matmul_sparse_entry() {
    return make_impl_entry<sparse_pd_t>("ocl:matmul:sparse");
}

} // namespace gpu
} // namespace anydnn
