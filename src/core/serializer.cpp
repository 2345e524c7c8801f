#include "core/serializer.hpp"

namespace anydnn {

// Only the fields that define the layout: equal tensors serialize to equal bytes.
void serializer_t::write(const memory_desc_t &md) {
    write(md.ndims);
    if (md.ndims == 0) return;
    for (int i = 0; i < md.ndims; ++i)
        write(md.dims[i]);
    write(md.data_type);
    write(md.format_kind);
    write(md.offset0);
    for (int i = 0; i < md.ndims; ++i) {
        write(md.padded_dims[i]);
        write(md.padded_offsets[i]);
    }
    switch (md.format_kind) {
        case dnnl_blocked:
            for (int i = 0; i < md.ndims; ++i)
                write(md.blocking.strides[i]);
            write(md.blocking.inner_nblks);
            for (int i = 0; i < md.blocking.inner_nblks; ++i) {
                write(md.blocking.inner_blks[i]);
                write(md.blocking.inner_idxs[i]);
            }
            break;
        case dnnl_format_kind_sparse:
            write(md.sparse.encoding);
            write(md.sparse.nnz);
            write(md.sparse.metadata_types[0]);
            write(md.sparse.metadata_types[1]);
            break;
        case dnnl_format_kind_opaque:
            write(md.opaque_id);
            write(md.opaque_size);
            break;
        default: break;
    }
}

} // namespace anydnn
