// Names and blocking layouts of dnnl_format_tag_t values, from the generated tables.
#ifndef ANYDNN_CORE_FORMAT_TAG_HPP
#define ANYDNN_CORE_FORMAT_TAG_HPP

#include "oneapi/dnnl/dnnl_config.h"
#include "oneapi/dnnl/dnnl_format_tags.h"

namespace anydnn {
namespace core {

struct format_tag_entry_t {
    dnnl_format_tag_t tag;
    const char *name;
};

// The canonical name ("aBcd16b"; "undef", "any", "format_tag_last" for the
// special values), or nullptr when tag is not a value of the enum.
const char *format_tag_name(dnnl_format_tag_t tag);

// Every spelling format_tag_from_name accepts (canonical names, "undef",
// "any" and the semantic aliases), sorted by strcmp; *count gets the size.
const format_tag_entry_t *format_tag_spellings(int *count);

// The semantic aliases (nchw, OIhw16i16o, ldigo, ...) in declaration order.
const format_tag_entry_t *format_tag_aliases(int *count);

// The tag a canonical or alias name ("aBcd16b", "nChw16c", "any") denotes;
// dnnl_format_tag_undef when the name is unknown. Case-sensitive.
dnnl_format_tag_t format_tag_from_name(const char *name);

// The blocking a tag describes. outer_order[i] is the logical dimension of
// the i-th outermost dimension; inner_idx/inner_blk list the inner blocks
// from outermost to innermost. Returns false, touching nothing, for undef,
// any, the sentinel and unknown values.
bool format_tag_layout(dnnl_format_tag_t tag, int *ndims, int outer_order[12],
        int *n_inner, int inner_idx[12], long inner_blk[12]);

} // namespace core
} // namespace anydnn

#endif
