// --matmul --encoding=SRC:WEI:DST, each ENC[+SPARSITY] (csr, coo, packed; sparsity 0.9 by
// default, the share of zeros) or empty for a dense tensor, as oneDNN's benchdnn takes it.
#pragma once

#include <memory>
#include <string>

#include "harness.hpp"
#include "test_mem.hpp"

namespace benchdnn {

struct encoding_t {
    dnnl_sparse_encoding_t enc[3] = {dnnl_sparse_encoding_undef, dnnl_sparse_encoding_undef,
            dnnl_sparse_encoding_undef};
    double sparsity[3] = {0.9, 0.9, 0.9};
    std::string text; // as given
    bool dense() const {
        return enc[0] == dnnl_sparse_encoding_undef && enc[1] == dnnl_sparse_encoding_undef
                && enc[2] == dnnl_sparse_encoding_undef;
    }
};

// Throws std::invalid_argument for an unknown encoding or a sparsity outside [0, 1].
encoding_t parse_encoding(const std::string &s);

struct sparse_matmul_cfg_t {
    dnnl_data_type_t sdt, wdt, ddt;
    std::string stag, wtag, dtag;
    dims_t sd, wd;
    encoding_t enc;
    std::string unsupported; // attributes or bias the sparse problem does not model
};

std::unique_ptr<problem_t> make_sparse_matmul(const sparse_matmul_cfg_t &c);

} // namespace benchdnn
