#include "driver.hpp"

namespace benchdnn {

std::map<std::string, driver_factory_t> &driver_registry() {
    static std::map<std::string, driver_factory_t> r;
    return r;
}

} // namespace benchdnn
