/* Compile-only check: the graph C headers are valid C99 through both include paths, with
 * oneDNN v3.13's fixed values. */
#include <dnnl_graph.h>
#include <dnnl_graph_types.h>

#include "oneapi/dnnl/dnnl_graph.h"
#include "oneapi/dnnl/dnnl_graph_types.h"

#define GRAPH_C_CHECK(name, cond) typedef char graph_c_check_##name[(cond) ? 1 : -1]

GRAPH_C_CHECK(op_kinds, dnnl_graph_op_wildcard == 78 && dnnl_graph_op_last_symbol == 88);
GRAPH_C_CHECK(dropout, dnnl_graph_op_dropout == 87 && dnnl_graph_op_rms_norm == 86);
GRAPH_C_CHECK(attrs, dnnl_graph_op_attr_scales == 0x20 && dnnl_graph_op_attr_group_shape == 0x4e);
GRAPH_C_CHECK(attr_str, dnnl_graph_op_attr_accumulation_mode == 0x88);
GRAPH_C_CHECK(policy, dnnl_graph_partition_policy_fusion == 1 && dnnl_graph_partition_policy_debug == 2);
GRAPH_C_CHECK(layout, dnnl_graph_layout_type_opaque == 3);
GRAPH_C_CHECK(property, dnnl_graph_tensor_property_host_scalar == 3);
GRAPH_C_CHECK(dump, dnnl_graph_dump_mode_graph == 2);
GRAPH_C_CHECK(unknown, DNNL_GRAPH_UNKNOWN_NDIMS == -1);

/* Prototypes are callable from C. */
static dnnl_status_t (*const graph_c_entry)(dnnl_graph_graph_t, dnnl_graph_op_t) = dnnl_graph_add_op;
int graph_c_headers_check(void) {
    return graph_c_entry != 0;
}
