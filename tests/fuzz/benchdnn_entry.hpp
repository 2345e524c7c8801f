// benchdnn's command line as a function (its main.cpp is compiled for the fuzz targets with
// main renamed), and a file of this process for inputs that benchdnn reads from disk.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <unistd.h>

int benchdnn_main(int argc, char **argv);

namespace fuzz {

inline int run_benchdnn(std::vector<std::string> words) {
    std::vector<char *> argv {const_cast<char *>("benchdnn")};
    for (auto &w : words) argv.push_back(&w[0]);
    argv.push_back(nullptr);
    return benchdnn_main(static_cast<int>(argv.size() - 1), argv.data());
}

// The path of a file holding `data`, rewritten for every input.
inline std::string input_file(const uint8_t *data, size_t size, const char *ext) {
    static const std::string path
            = "/tmp/anydnn_fuzz_" + std::to_string(::getpid()) + ext;
    if (FILE *f = std::fopen(path.c_str(), "wb")) {
        std::fwrite(data, 1, size, f);
        std::fclose(f);
    }
    return path;
}

} // namespace fuzz
