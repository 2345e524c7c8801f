#include "batch.hpp"

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

} // namespace

std::vector<token_t> read_batch(const std::string &path) {
    std::ifstream f(path);
    if (!f) throw std::runtime_error("cannot read batch file '" + path + "'");
    std::vector<token_t> out;
    std::string line;
    const std::string dir = dir_of(path);
    for (int n = 1; std::getline(f, line); ++n) {
        auto hash = line.find('#');
        if (hash != std::string::npos) line.resize(hash);
        std::istringstream words(line);
        std::string w;
        while (words >> w) out.push_back({w, path + ":" + std::to_string(n), dir});
    }
    return out;
}

std::string resolve_batch_path(const std::string &name, const std::string &base_dir) {
    if (name.empty() || name[0] == '/') return name;
    if (!base_dir.empty()) {
        std::string p = base_dir + "/" + name;
        if (readable(p)) return p;
    }
    return name;
}

} // namespace benchdnn
