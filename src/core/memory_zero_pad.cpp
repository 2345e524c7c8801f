#include "core/memory_zero_pad.hpp"

namespace anydnn {

namespace {

bool has_padding(const memory_desc_t &md) {
    if (md.format_kind != dnnl_blocked || md.ndims == 0) return false;
    for (int d = 0; d < md.ndims; ++d)
        if (md.padded_dims[d] != md.dims[d]) return true;
    return false;
}

bool is_sub_byte(dnnl_data_type_t dt) {
    return dt == dnnl_s4 || dt == dnnl_u4 || dt == dnnl_f4_e2m1 || dt == dnnl_f4_e3m0;
}

} // namespace

status_t zero_pad(const memory_desc_t &md, memory_storage_t &s) {
    if (!has_padding(md) || is_sub_byte(md.data_type) || !s.data_handle()) return dnnl_success;
    void *host = nullptr;
    ANYDNN_CHECK(s.map(&host));
    char *base = static_cast<char *>(host);
    const size_t esz = data_type_size(md.data_type);
    const int nd = md.ndims;
    // For each padded dimension d: every position with d in its padding and the other
    // dimensions over their whole padded extent (corners are zeroed more than once).
    for (int d = 0; d < nd; ++d) {
        if (md.padded_dims[d] == md.dims[d]) continue;
        dim_t lo[max_ndims], n[max_ndims], total = 1;
        for (int e = 0; e < nd; ++e) {
            lo[e] = e == d ? md.dims[e] : -md.padded_offsets[e];
            n[e] = e == d ? md.padded_dims[e] - md.padded_offsets[e] - md.dims[e]
                          : md.padded_dims[e];
            total *= n[e];
        }
        dim_t pos[max_ndims];
        for (dim_t i = 0; i < total; ++i) {
            dim_t r = i;
            for (int e = nd - 1; e >= 0; --e) {
                pos[e] = lo[e] + r % n[e];
                r /= n[e];
            }
            std::memset(base + off_logical(md, pos) * esz, 0, esz);
        }
    }
    return s.unmap(host);
}

} // namespace anydnn
