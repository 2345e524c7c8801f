#include "test_mem.hpp"

#include <algorithm>
#include <cstring>

#include "data_types.hpp"
#include "harness.hpp"
#include "parallel.hpp"

namespace benchdnn {

int64_t product(const dims_t &d) {
    int64_t p = 1;
    for (auto v : d) p *= v;
    return p;
}

dims_t dense_strides(const dims_t &d) {
    dims_t s(d.size(), 1);
    for (int i = static_cast<int>(d.size()) - 2; i >= 0; --i)
        s[i] = s[i + 1] * std::max<int64_t>(d[i + 1], 1);
    return s;
}

int64_t linear_index(const dims_t &dims, const int64_t *pos) {
    int64_t l = 0;
    for (size_t d = 0; d < dims.size(); ++d) l = l * dims[d] + pos[d];
    return l;
}

void logical_position(const dims_t &dims, int64_t i, int64_t *pos) {
    for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
        pos[d] = i % dims[d];
        i /= dims[d];
    }
}

namespace {

dims_t query_dims(const_dnnl_memory_desc_t md, dnnl_query_t what, int n) {
    const dnnl_dims_t *p = nullptr;
    BENCHDNN_CHECK(dnnl_memory_desc_query(md, what, &p));
    return dims_t(*p, *p + n);
}

// Maps a memory for host access for the lifetime of the object.
class mapping_t {
public:
    explicit mapping_t(dnnl_memory_t m) : m_(m) { BENCHDNN_CHECK(dnnl_memory_map_data(m, &p_)); }
    ~mapping_t() { dnnl_memory_unmap_data(m_, p_); }
    void *ptr() const { return p_; }

private:
    dnnl_memory_t m_;
    void *p_ = nullptr;
};

} // namespace

test_mem_t::test_mem_t(const_dnnl_memory_desc_t md, dnnl_engine_t engine) : engine_(engine) {
    BENCHDNN_CHECK(dnnl_memory_desc_clone(md_.out(), md));
    int nd = 0;
    BENCHDNN_CHECK(dnnl_memory_desc_query(md, dnnl_query_ndims_s32, &nd));
    dims_ = query_dims(md, dnnl_query_dims, nd);
    BENCHDNN_CHECK(dnnl_memory_desc_query(md, dnnl_query_data_type, &dt_));
    size_ = dnnl_memory_desc_get_size(md);
    dnnl_format_kind_t fk = dnnl_format_kind_undef;
    BENCHDNN_CHECK(dnnl_memory_desc_query(md, dnnl_query_format_kind, &fk));
    blocked_ = fk == dnnl_blocked;
    if (blocked_) {
        strides_ = query_dims(md, dnnl_query_strides, nd);
        padded_dims_ = query_dims(md, dnnl_query_padded_dims, nd);
        padded_offsets_ = query_dims(md, dnnl_query_padded_offsets, nd);
        int nblks = 0;
        BENCHDNN_CHECK(dnnl_memory_desc_query(md, dnnl_query_inner_nblks_s32, &nblks));
        inner_blks_ = query_dims(md, dnnl_query_inner_blks, nblks);
        inner_idxs_ = query_dims(md, dnnl_query_inner_idxs, nblks);
        BENCHDNN_CHECK(dnnl_memory_desc_query(md, dnnl_query_submemory_offset_s64, &offset0_));
        dim_block_.assign(nd, 1);
        for (int k = 0; k < nblks; ++k) dim_block_[inner_idxs_[k]] *= inner_blks_[k];
        // oneDNN appends data the public queries do not describe to some layouts (the s8
        // compensation of int8 weights) but counts it in the size: those go through the
        // library's reorder, which writes it.
        int64_t extent = 0;
        for (int d = 0; d < nd; ++d)
            extent = std::max(extent, strides_[d] * (padded_dims_[d] / dim_block_[d]));
        has_extra_ = size_ > static_cast<size_t>(offset0_ + extent) * dnnl_data_type_size(dt_);
    }
    sparse_ = fk == dnnl_format_kind_sparse;
    if (sparse_) {
        // Every buffer of a sparse encoding allocated by the library, then zeroed.
        // Entry points of oneDNN's sparse API, looked up: older libraries lack them.
        auto create = BENCHDNN_API(dnnl_memory_create_v2);
        auto size_of = BENCHDNN_API(dnnl_memory_desc_get_size_v2);
        if (!create || !size_of)
            throw dnnl_error(dnnl_unimplemented, "library has no dnnl_memory_create_v2");
        int n = 0;
        BENCHDNN_CHECK(dnnl_memory_desc_query(md, dnnl_query_num_handles_s32, &n));
        std::vector<void *> handles(n, DNNL_MEMORY_ALLOCATE);
        BENCHDNN_CHECK(create(mem_.out(), md_.get(), engine, n, handles.data()));
        for (int h = 0; h < n; ++h) {
            const size_t bytes = size_of(md, h);
            std::vector<char> zeros(bytes, 0);
            if (bytes) write_handle(h, zeros.data(), bytes);
        }
        return;
    }
    BENCHDNN_CHECK(dnnl_memory_create(mem_.out(), md_.get(), engine, DNNL_MEMORY_ALLOCATE));
    if (size_ > 0) {
        mapping_t map(mem_.get());
        std::memset(map.ptr(), 0, size_);
    }
}

bool test_mem_t::direct() const {
    return blocked_ && !has_extra_ && dt_supported(dt_);
}

int64_t test_mem_t::offset(const int64_t *pos) const {
    const int nd = ndims();
    int64_t off = offset0_;
    int64_t rem[DNNL_MAX_NDIMS];
    for (int d = 0; d < nd; ++d) {
        int64_t p = pos[d] + padded_offsets_[d];
        off += (p / dim_block_[d]) * strides_[d];
        rem[d] = p % dim_block_[d];
    }
    int64_t mult = 1;
    for (int k = static_cast<int>(inner_blks_.size()) - 1; k >= 0; --k) {
        int64_t d = inner_idxs_[k], b = inner_blks_[k];
        off += (rem[d] % b) * mult;
        rem[d] /= b;
        mult *= b;
    }
    return off;
}

void test_mem_t::write_handle(int index, const void *bytes, size_t n) {
    auto map = BENCHDNN_API(dnnl_memory_map_data_v2);
    auto unmap = BENCHDNN_API(dnnl_memory_unmap_data_v2);
    if (!map || !unmap) throw dnnl_error(dnnl_unimplemented, "library has no dnnl_memory_map_data_v2");
    void *p = nullptr;
    BENCHDNN_CHECK(map(mem_.get(), &p, index));
    std::memcpy(p, bytes, n);
    BENCHDNN_CHECK(unmap(mem_.get(), p, index));
}

void test_mem_t::write_fn(const std::function<double(int64_t)> &value) {
    if (nelems() == 0 || size_ == 0) return;
    if (!direct()) {
        std::vector<double> v(static_cast<size_t>(nelems()));
        for (int64_t i = 0; i < nelems(); ++i) v[i] = value(i);
        return write_through_reorder(v);
    }
    mapping_t map(mem_.get());
    std::memset(map.ptr(), 0, size_);
    auto store = [&](int64_t begin, int64_t end) {
        int64_t pos[DNNL_MAX_NDIMS] = {0};
        for (int64_t i = begin; i < end; ++i) {
            logical_position(dims_, i, pos);
            store_elem(map.ptr(), static_cast<size_t>(offset(pos)), dt_, value(i));
        }
    };
    // 4-bit elements share bytes: one thread writes them.
    if (dt_is_4bit(dt_)) return store(0, nelems());
    parallel_chunks(nelems(), store);
}

void test_mem_t::write(const std::vector<double> &values) {
    if (nelems() == 0 || size_ == 0) return;
    if (!direct()) return write_through_reorder(values);
    write_fn([&](int64_t i) { return values[i]; });
}

std::vector<double> test_mem_t::read() const {
    std::vector<double> v(static_cast<size_t>(nelems()));
    if (v.empty() || size_ == 0) return v;
    if (!direct()) return read_through_reorder();
    mapping_t map(mem_.get());
    parallel_chunks(int64_t(v.size()), [&](int64_t begin, int64_t end) {
        int64_t pos[DNNL_MAX_NDIMS] = {0};
        for (int64_t i = begin; i < end; ++i) {
            logical_position(dims_, i, pos);
            v[i] = load_elem(map.ptr(), static_cast<size_t>(offset(pos)), dt_);
        }
    });
    return v;
}

int64_t test_mem_t::nonzero_padding() const {
    if (!direct() || padded_dims_ == dims_ || size_ == 0) return 0;
    mapping_t map(mem_.get());
    int64_t pos[DNNL_MAX_NDIMS] = {0};
    int64_t bad = 0;
    const int64_t n = product(padded_dims_);
    for (int64_t i = 0; i < n; ++i) {
        logical_position(padded_dims_, i, pos);
        bool in_pad = false;
        for (int d = 0; d < ndims(); ++d) in_pad = in_pad || pos[d] >= dims_[d];
        if (in_pad && load_elem(map.ptr(), static_cast<size_t>(offset(pos)), dt_) != 0) ++bad;
    }
    return bad;
}

// Layouts the tester cannot address (opaque, packed) or data types it cannot encode go
// through a plain memory and the library's reorder.
namespace {
dnnl_data_type_t plain_dt(dnnl_data_type_t dt) {
    return dt_supported(dt) ? dt : dnnl_f32;
}

dnnl_status_t reorder_pd(pd_h &pd, const_dnnl_memory_desc_t from, const_dnnl_memory_desc_t to,
        dnnl_engine_t engine) {
    auto create = BENCHDNN_API(dnnl_reorder_primitive_desc_create);
    if (!create) return dnnl_unimplemented;
    return create(pd.out(), from, engine, to, engine, nullptr);
}
} // namespace

void test_mem_t::write_through_reorder(const std::vector<double> &values) {
    md_h pmd;
    dims_t strides = dense_strides(dims_);
    BENCHDNN_CHECK(dnnl_memory_desc_create_with_strides(
            pmd.out(), ndims(), dims_.data(), plain_dt(dt_), strides.data()));
    test_mem_t plain(pmd.get(), engine_);
    plain.write(values);
    pd_h pd;
    BENCHDNN_CHECK(reorder_pd(pd, plain.md(), md_.get(), engine_));
    prim_h p;
    BENCHDNN_CHECK(dnnl_primitive_create(p.out(), pd.get()));
    dnnl_exec_arg_t args[] = {{DNNL_ARG_FROM, plain.get()}, {DNNL_ARG_TO, mem_.get()}};
    BENCHDNN_CHECK(dnnl_primitive_execute(p.get(), test_stream(), 2, args));
    BENCHDNN_CHECK(dnnl_stream_wait(test_stream()));
}

std::vector<double> test_mem_t::read_through_reorder() const {
    md_h pmd;
    dims_t strides = dense_strides(dims_);
    BENCHDNN_CHECK(dnnl_memory_desc_create_with_strides(
            pmd.out(), ndims(), dims_.data(), plain_dt(dt_), strides.data()));
    test_mem_t plain(pmd.get(), engine_);
    pd_h pd;
    BENCHDNN_CHECK(reorder_pd(pd, md_.get(), plain.md(), engine_));
    prim_h p;
    BENCHDNN_CHECK(dnnl_primitive_create(p.out(), pd.get()));
    dnnl_exec_arg_t args[] = {{DNNL_ARG_FROM, mem_.get()}, {DNNL_ARG_TO, plain.get()}};
    BENCHDNN_CHECK(dnnl_primitive_execute(p.get(), test_stream(), 2, args));
    BENCHDNN_CHECK(dnnl_stream_wait(test_stream()));
    return plain.read();
}

} // namespace benchdnn
