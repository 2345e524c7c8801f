// Why the library refused a problem: its verbose lines, caught while a descriptor is created.
#pragma once

#include <string>

namespace benchdnn {

// Turns on the library's dispatch/check messages unless the user chose a verbose level;
// call before the first library call.
void enable_reason_capture();

// While alive, the process's stdout goes to a temporary file (only if capture is enabled).
class stdout_capture_t {
public:
    stdout_capture_t();
    ~stdout_capture_t();
    // Stops capturing and returns the library's reasons, one line each, joined by "; ".
    std::string finish();

private:
    int saved_fd_ = -1;
    void *file_ = nullptr;
};

} // namespace benchdnn
