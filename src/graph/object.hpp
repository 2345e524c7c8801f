// The base of every graph API handle: registered while alive (core/object.hpp, kind
// graph_object) and tagged with its own kind, so a handle of the wrong graph type is refused.
#pragma once

#include "core/object.hpp"
#include "oneapi/dnnl/dnnl_graph.h"

namespace anydnn {
namespace graph {

enum class handle_kind { allocator, tensor, op, graph, partition, compiled_partition };

struct graph_object_t {
    explicit graph_object_t(handle_kind kind) : kind_(kind) {
        registry_add(object_kind::graph_object, this);
    }
    graph_object_t(const graph_object_t &) = delete;
    graph_object_t &operator=(const graph_object_t &) = delete;
    virtual ~graph_object_t() { registry_remove(object_kind::graph_object, this); }
    handle_kind kind() const { return kind_; }

private:
    handle_kind kind_;
};

// Whether p is a live graph handle of `kind`.
inline bool is_live(handle_kind kind, const graph_object_t *p) {
    return registry_contains(object_kind::graph_object, p) && p->kind() == kind;
}

} // namespace graph
} // namespace anydnn

#define ANYDNN_REQUIRE_GRAPH_HANDLE(kind, p) \
    ANYDNN_REQUIRE(anydnn::graph::is_live(anydnn::graph::handle_kind::kind, (p)), \
            dnnl_invalid_arguments, "%s is null or not a live graph " #kind, #p)
