#include "ze_driver/spirv_to_spir.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

#include <level_zero/ze_api.h>

extern char **environ;

namespace ze_driver {

namespace {

std::string find_in_path(const char *name) {
    const char *path = std::getenv("PATH");
    std::stringstream ss(path ? path : "/usr/bin");
    for (std::string dir; std::getline(ss, dir, ':');) {
        const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
        if (access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return {};
}

const std::string &translator() {
    static const std::string tool = [] {
        const char *env = std::getenv("ANYDNN_ZE_TEST_LLVM_SPIRV");
        if (env) return std::string(env);
        std::string found = find_in_path("llvm-spirv-15");
        return found.empty() ? find_in_path("llvm-spirv") : found;
    }();
    return tool;
}

bool read_file(const std::string &path, std::string &out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    return true;
}

// Runs `argv` with stderr into `err`; true when it exits with 0.
bool run(std::vector<std::string> argv, const std::string &err) {
    std::vector<char *> args;
    for (auto &a : argv)
        args.push_back(&a[0]);
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) return false;
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

} // namespace

bool spirv_translator_available() {
    return !translator().empty();
}

uint32_t spirv_translator_version() {
    return ZE_MAKE_VERSION(1, 4);
} // llvm-spirv 15 reads 1.4

bool spirv_to_spir(
        const uint8_t *spirv, size_t size, std::vector<uint8_t> &bitcode, std::string &log) {
    if (!spirv_translator_available()) {
        log = "no llvm-spirv to take SPIR-V to an OpenCL device that takes SPIR only";
        return false;
    }
    const char *tmp = std::getenv("TMPDIR");
    std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/anydnn-ze-spirv-XXXXXX";
    if (!mkdtemp(&dir[0])) {
        log = "cannot make a temporary directory for llvm-spirv";
        return false;
    }
    const std::string in = dir + "/module.spv", out = dir + "/module.bc", err = dir + "/err";
    bool ok = false;
    {
        std::ofstream f(in, std::ios::binary);
        f.write(reinterpret_cast<const char *>(spirv), static_cast<std::streamsize>(size));
    }
    std::string text;
    if (run({translator(), "-r", "--spirv-target-env=CL1.2", in, "-o", out}, err)
            && read_file(out, text)) {
        bitcode.assign(text.begin(), text.end());
        ok = true;
    } else {
        read_file(err, text);
        log = "llvm-spirv could not read the SPIR-V module: " + text;
    }
    for (const std::string &f : {in, out, err})
        unlink(f.c_str());
    rmdir(dir.c_str());
    return ok;
}

} // namespace ze_driver
