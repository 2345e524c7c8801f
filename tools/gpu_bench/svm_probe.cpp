// How a device's OpenCL runtime takes many small coarse-grained SVM allocations: the graph
// concurrency scenario saw clSVMAlloc return null for 80-144 byte requests on NVIDIA's OpenCL,
// with 2 and 8 threads. Each mode allocates and frees in a loop and prints how many calls
// failed, so one run on the device tells which pattern the runtime refuses:
//   serial      alloc, free, one thread
//   mapped      alloc, map+unmap on a queue, finish, free (what our USM memory does)
//   live N      keep N allocations alive, then free them (is there a count limit?)
//   threads T   T threads, alloc+free each, unlocked / under one mutex
//   busy        each thread keeps a fill of its last allocation in flight while it allocates
//               the next (allocation while the device works on SVM memory)
// Build: g++ -O2 -std=c++17 svm_probe.cpp -lOpenCL -pthread -o svm_probe
// Run:   ./svm_probe [vendor substring, default NVIDIA]
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

cl_context ctx;
cl_device_id dev;
std::mutex svm_lock;

struct tally_t {
    std::atomic<long> calls {0}, fails {0};
    long first_fail = -1;
};

void report(const char *mode, const tally_t &t, double ms) {
    std::printf("SVM|%s|calls=%ld|fails=%ld|first_fail=%ld|%.1f ms\n", mode, t.calls.load(),
            t.fails.load(), t.first_fail, ms);
    std::fflush(stdout);
}

template <typename F>
void timed(const char *mode, F body) {
    tally_t t;
    auto t0 = std::chrono::steady_clock::now();
    body(t);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                        .count();
    report(mode, t, ms);
}

void *alloc_one(tally_t &t, size_t size, bool locked) {
    void *p;
    if (locked) {
        std::lock_guard<std::mutex> g(svm_lock);
        p = clSVMAlloc(ctx, CL_MEM_READ_WRITE, size, 0);
    } else {
        p = clSVMAlloc(ctx, CL_MEM_READ_WRITE, size, 0);
    }
    long n = t.calls++;
    if (!p && t.fails++ == 0) t.first_fail = n;
    return p;
}

void free_one(void *p, bool locked) {
    if (!p) return;
    if (locked) {
        std::lock_guard<std::mutex> g(svm_lock);
        clSVMFree(ctx, p);
    } else {
        clSVMFree(ctx, p);
    }
}

void threads_mode(const char *name, int nthreads, bool locked, bool mapped, bool busy = false) {
    timed(name, [&](tally_t &t) {
        std::vector<std::thread> ts;
        for (int i = 0; i < nthreads; ++i)
            ts.emplace_back([&] {
                cl_int err;
                cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, nullptr, &err);
                void *in_flight = nullptr;
                for (int it = 0; it < 1000; ++it) {
                    size_t size = 80 + 4 * (it % 17);
                    void *p = alloc_one(t, size, locked);
                    if (busy) {
                        clFinish(q);
                        free_one(in_flight, locked);
                        const float one = 1.f;
                        if (p) clEnqueueSVMMemFill(q, p, &one, sizeof(one), 80, 0, nullptr, nullptr);
                        in_flight = p;
                        continue;
                    }
                    if (p && mapped) {
                        clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, p, size, 0, nullptr, nullptr);
                        std::memset(p, 1, size);
                        clEnqueueSVMUnmap(q, p, 0, nullptr, nullptr);
                        clFinish(q);
                    }
                    free_one(p, locked);
                }
                clFinish(q);
                free_one(in_flight, locked);
                clReleaseCommandQueue(q);
            });
        for (auto &th : ts) th.join();
    });
}

} // namespace

int main(int argc, char **argv) {
    const std::string want = argc > 1 ? argv[1] : "NVIDIA";
    cl_uint np = 0;
    clGetPlatformIDs(0, nullptr, &np);
    std::vector<cl_platform_id> ps(np);
    clGetPlatformIDs(np, ps.data(), nullptr);
    dev = nullptr;
    for (auto p : ps) {
        char name[256] = {};
        clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof(name), name, nullptr);
        if (std::string(name).find(want) == std::string::npos) continue;
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, nullptr) == CL_SUCCESS) break;
    }
    if (!dev) {
        std::printf("SVM|no platform matching %s\n", want.c_str());
        return 1;
    }
    cl_device_svm_capabilities caps = 0;
    clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof(caps), &caps, nullptr);
    std::printf("SVM|capabilities=0x%llx\n", static_cast<unsigned long long>(caps));
    cl_int err;
    ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);

    timed("serial", [](tally_t &t) {
        for (int it = 0; it < 4000; ++it) free_one(alloc_one(t, 80 + 4 * (it % 17), false), false);
    });
    threads_mode("mapped_1thread", 1, false, true);
    for (int live : {64, 1024, 8192})
        timed(("live_" + std::to_string(live)).c_str(), [live](tally_t &t) {
            std::vector<void *> v;
            for (int i = 0; i < live; ++i) v.push_back(alloc_one(t, 120, false));
            for (void *p : v) free_one(p, false);
        });
    threads_mode("threads2_unlocked", 2, false, false);
    threads_mode("threads8_unlocked", 8, false, false);
    threads_mode("threads8_locked", 8, true, false);
    threads_mode("threads8_mapped_unlocked", 8, false, true);
    threads_mode("threads8_mapped_locked", 8, true, true);
    threads_mode("busy_1thread", 1, false, false, true);
    threads_mode("busy_threads8_unlocked", 8, false, false, true);
    threads_mode("busy_threads8_locked", 8, true, false, true);
    clReleaseContext(ctx);
    return 0;
}
