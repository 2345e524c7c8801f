#include "gpu/launch.hpp"

namespace anydnn {
namespace gpu {

status_t check_tensors(std::initializer_list<const memory_desc_t *> mds) {
    for (const memory_desc_t *md : mds) {
        ANYDNN_REQUIRE(kernel_data_type(md->data_type), dnnl_unimplemented,
                "GPU kernels do not handle data type %s", dnnl_dt2str(md->data_type));
        tensor_layout_t l;
        ANYDNN_CHECK(make_layout(*md, l));
    }
    return dnnl_success;
}

bool same_dense_layout(std::initializer_list<const memory_desc_t *> mds) {
    const memory_desc_t *first = *mds.begin();
    for (const memory_desc_t *md : mds) {
        if (!is_dense(*md) || nelems(*md) != nelems(*md, true)) return false;
        if (md->ndims != first->ndims) return false;
        for (int d = 0; d < md->ndims; ++d)
            if (md->dims[d] != first->dims[d]
                    || md->blocking.strides[d] != first->blocking.strides[d])
                return false;
        if (md->blocking.inner_nblks != first->blocking.inner_nblks) return false;
        for (int b = 0; b < md->blocking.inner_nblks; ++b)
            if (md->blocking.inner_blks[b] != first->blocking.inner_blks[b]
                    || md->blocking.inner_idxs[b] != first->blocking.inner_idxs[b])
                return false;
    }
    return true;
}

const memory_storage_t *storage_of(const exec_ctx_t &ctx, int arg) {
    memory_t *m = ctx.arg(arg);
    return m ? m->storage() : nullptr;
}

void add_layout(kernel_args_t &args, const memory_desc_t &md) {
    tensor_layout_t l;
    make_layout(md, l);
    args.add_value(l);
}

void add_logical_dims(kernel_args_t &args, const memory_desc_t &md) {
    int64_t dims[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    for (int d = 0; d < md.ndims && d < 8; ++d) dims[d] = md.dims[d];
    args.add_value(dims);
}

nd_range_t range_1d(size_t n) {
    nd_range_t r;
    r.ndims = 1;
    r.global[0] = n;
    return r;
}

} // namespace gpu
} // namespace anydnn
