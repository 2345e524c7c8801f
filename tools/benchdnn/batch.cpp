#include "batch.hpp"

#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace benchdnn {

namespace {

bool readable(const std::string &p) {
    std::ifstream f(p);
    return f.good();
}

std::string dir_of(const std::string &path) {
    auto p = path.find_last_of('/');
    return p == std::string::npos ? std::string(".") : path.substr(0, p == 0 ? 1 : p);
}

std::string rtrim(std::string s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    return s;
}

} // namespace

std::string join_continued(const std::string &head, const std::string &next) {
    const std::string h = rtrim(head), t = rtrim(next);
    if (h.empty()) return t;
    // "--alg=a,b, \" then "c": a list split over lines is one word again.
    const bool glue = std::string(",:+=").find(h.back()) != std::string::npos;
    size_t start = 0;
    while (glue && start < t.size() && std::isspace(static_cast<unsigned char>(t[start]))) ++start;
    return h + (glue ? "" : " ") + t.substr(start);
}

std::vector<token_t> read_batch(const std::string &path) {
    std::ifstream f(path);
    if (!f) throw std::runtime_error("cannot read batch file '" + path + "'");
    std::vector<token_t> out;
    std::string line, joined;
    const std::string dir = dir_of(path);
    int first = 0; // the line a continued line starts on
    for (int n = 1; std::getline(f, line); ++n) {
        auto hash = line.find('#');
        if (hash != std::string::npos) line.resize(hash);
        if (joined.empty()) first = n;
        joined = join_continued(joined, line);
        // A trailing backslash continues the line on the next one.
        if (!joined.empty() && joined.back() == '\\') {
            joined.pop_back();
            continue;
        }
        std::istringstream words(joined);
        std::string w;
        while (words >> w) out.push_back({w, path + ":" + std::to_string(first), dir});
        joined.clear();
    }
    std::istringstream words(joined); // a file ending in a backslash
    std::string w;
    while (words >> w) out.push_back({w, path + ":" + std::to_string(first), dir});
    return out;
}

std::string resolve_batch_path(const std::string &name, const std::string &base_dir) {
    if (name.empty() || name[0] == '/') return name;
    // Beside the including file first, then in the folders above it: oneDNN's graph harnesses
    // name cases relative to inputs/graph (op/harness_f32_ci reads op/f32/conv_2d.json).
    for (std::string dir = base_dir; !dir.empty();) {
        const std::string p = dir + "/" + name;
        if (readable(p)) return p;
        const size_t slash = dir.find_last_of('/');
        if (slash == std::string::npos || slash == 0) break;
        dir.resize(slash);
    }
    return name;
}

} // namespace benchdnn
