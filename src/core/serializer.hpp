// Writes descriptor fields into a byte string: the key of the primitive cache, the
// contents of cache blobs and the basis of descriptor equality. One encoder per field type.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "core/hash.hpp"
#include "core/memory_desc.hpp"

namespace anydnn {

class serializer_t {
public:
    template <typename T,
            typename = std::enable_if_t<std::is_arithmetic<T>::value || std::is_enum<T>::value>>
    void write(const T &v) {
        bytes_.append(reinterpret_cast<const char *>(&v), sizeof(v));
    }
    void write(const memory_desc_t &md);
    void write(const std::string &s) {
        write(s.size());
        bytes_ += s;
    }
    template <typename T>
    void write(const std::vector<T> &v) {
        write(v.size());
        for (const auto &e : v) write(e);
    }

    const std::string &bytes() const { return bytes_; }

private:
    std::string bytes_;
};

} // namespace anydnn
