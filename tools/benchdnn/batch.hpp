// Command-line words with where they came from: argv, or a line of a batch file.
#pragma once

#include <string>
#include <vector>

namespace benchdnn {

struct token_t {
    std::string text;
    std::string origin; // "command line" or "FILE:LINE"
    std::string base_dir; // where a relative --batch= path is looked up first
};

// Words of a batch file; '#' starts a comment that runs to the end of the line.
// Throws std::runtime_error when the file cannot be read.
std::vector<token_t> read_batch(const std::string &path);

// A batch path as written, resolved against the directory of the file that names it,
// then against the working directory.
std::string resolve_batch_path(const std::string &name, const std::string &base_dir);

} // namespace benchdnn
