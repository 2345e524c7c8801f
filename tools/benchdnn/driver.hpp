// A driver: the knobs and problems of one primitive kind. Each lives in drivers/<kind>.cpp
// and registers itself, so adding a primitive kind adds one file.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "knobs.hpp"

namespace benchdnn {

class driver_t {
public:
    virtual ~driver_t() = default;
    // Restores every knob of the driver to its default.
    virtual void reset() = 0;
    // Takes one knob ("--alg", "relu,tanh"); false if the driver has no such knob.
    // Throws std::invalid_argument for a bad value.
    virtual bool parse(const std::string &key, const std::string &value) = 0;
    // Runs every combination of the current knob lists on one problem descriptor.
    // Throws std::invalid_argument for a bad descriptor.
    virtual void run(const std::string &desc) = 0;
    // Called once when the driver is named on the command line (--self runs its checks here).
    virtual void on_select() {}
};

using driver_factory_t = std::function<std::unique_ptr<driver_t>()>;
std::map<std::string, driver_factory_t> &driver_registry();

struct driver_registrar_t {
    driver_registrar_t(const char *name, driver_factory_t f) {
        driver_registry()[name] = std::move(f);
    }
};

#define BENCHDNN_REGISTER_DRIVER(name, type) \
    static ::benchdnn::driver_registrar_t registrar_##type( \
            name, [] { return std::unique_ptr<::benchdnn::driver_t>(new type()); })

// Builds the repro line knob by knob.
class repro_t {
public:
    explicit repro_t(const std::string &driver) : s_("--" + driver) {}
    // Appends " --key=value" unless value equals the default.
    repro_t &knob(const std::string &key, const std::string &value, const std::string &def) {
        if (value != def) s_ += " --" + key + "=" + value;
        return *this;
    }
    repro_t &raw(const std::string &text) {
        s_ += text;
        return *this;
    }
    std::string str(const std::string &desc) const { return s_ + " " + desc; }

private:
    std::string s_;
};

} // namespace benchdnn
