// Installed headers and library work for a downstream program.
#include <cstdio>

#include "dnnl.hpp"

int main() {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::memory::desc md({2, 3}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::ab);
    std::printf("dnnl %d.%d, %zu bytes\n", dnnl::version()->major, dnnl::version()->minor,
            md.get_size());
    return md.get_size() == 24 ? 0 : 1;
}
