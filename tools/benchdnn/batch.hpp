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

// Words of a batch file; '#' starts a comment that runs to the end of the line, and a line
// ending in a backslash goes on on the next one.
// Throws std::runtime_error when the file cannot be read.
std::vector<token_t> read_batch(const std::string &path);

// A continued line: head (its trailing backslash removed) followed by next. A head ending in a
// list separator (, : + =) is glued to next's first word: "--alg=a,b," then "  c" is "--alg=a,b,c".
std::string join_continued(const std::string &head, const std::string &next);

// A batch path as written, resolved against the directory of the file that names it and the
// folders above that one, then against the working directory.
std::string resolve_batch_path(const std::string &name, const std::string &base_dir);

} // namespace benchdnn
