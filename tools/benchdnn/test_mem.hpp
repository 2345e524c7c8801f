// A tensor the tester owns: library memory of any layout, read and written as logical values.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "dnnl_api.hpp"

namespace benchdnn {

using dims_t = std::vector<int64_t>;

int64_t product(const dims_t &d);
// Dense row-major strides of dims.
dims_t dense_strides(const dims_t &d);
// Row-major linear index of a logical position.
int64_t linear_index(const dims_t &dims, const int64_t *pos);
// pos <- logical position of linear index i (row-major).
void logical_position(const dims_t &dims, int64_t i, int64_t *pos);

class test_mem_t {
public:
    test_mem_t() = default;
    // Memory the library allocates for md on engine.
    test_mem_t(const_dnnl_memory_desc_t md, dnnl_engine_t engine);
    test_mem_t(test_mem_t &&) = default;
    test_mem_t &operator=(test_mem_t &&) = default;

    dnnl_memory_t get() const { return mem_.get(); }
    const_dnnl_memory_desc_t md() const { return md_.get(); }
    int ndims() const { return static_cast<int>(dims_.size()); }
    const dims_t &dims() const { return dims_; }
    dnnl_data_type_t dt() const { return dt_; }
    int64_t nelems() const { return product(dims_); }
    size_t size() const { return size_; }

    // Logical values in row-major order over dims(); every padded element becomes zero.
    void write(const std::vector<double> &values);
    // The same from a function of the row-major index (tensors too large to hold as doubles).
    void write_fn(const std::function<double(int64_t)> &value);
    // Raw bytes into buffer `index` of a memory of several handles (sparse encodings).
    void write_handle(int index, const void *bytes, size_t n);
    bool sparse() const { return sparse_; }
    std::vector<double> read() const;
    // How many elements of the padding (blocked tails) are not zero.
    int64_t nonzero_padding() const;

    bool direct() const; // true: the tester addresses the layout itself
    // Element offset of a position within padded_dims() (direct layouts only).
    int64_t offset(const int64_t *pos) const;
    const dims_t &padded_dims() const { return padded_dims_; }

private:
    void write_through_reorder(const std::vector<double> &values);
    std::vector<double> read_through_reorder() const;

    md_h md_;
    memory_h mem_;
    dnnl_engine_t engine_ = nullptr;
    dims_t dims_;
    dnnl_data_type_t dt_ = dnnl_data_type_undef;
    size_t size_ = 0;
    // Blocked layout, from the public queries.
    bool blocked_ = false;
    bool has_extra_ = false; // bytes past the blocked layout (see the constructor)
    bool sparse_ = false;
    dims_t strides_, padded_dims_, padded_offsets_, inner_blks_, inner_idxs_, dim_block_;
    int64_t offset0_ = 0;
};

} // namespace benchdnn
