// Format tag names and layouts, backed by the tables gen_format_tags.py writes.
#include <cstring>

#include "oneapi/dnnl/dnnl_debug.h"

#include "core/format_tag.hpp"

namespace anydnn {
namespace core {

namespace {
#include "format_tag_names.inc"

static_assert(canonical_format_tag_count == dnnl_format_tag_last + 1,
        "format_tag_names.inc and dnnl_format_tags.h disagree");

// Real tags lie strictly between dnnl_format_tag_any and the sentinel.
bool is_real(dnnl_format_tag_t tag) {
    return tag > dnnl_format_tag_any && tag < dnnl_format_tag_last;
}
} // namespace

const char *format_tag_name(dnnl_format_tag_t tag) {
    long v = static_cast<long>(tag);
    if (v < 0 || v > static_cast<long>(dnnl_format_tag_last)) return nullptr;
    return canonical_format_tags[tag].name;
}

const format_tag_entry_t *format_tag_spellings(int *count) {
    *count = format_tag_lookup_count;
    return format_tag_lookup;
}

const format_tag_entry_t *format_tag_aliases(int *count) {
    *count = alias_format_tag_count;
    return alias_format_tags;
}

dnnl_format_tag_t format_tag_from_name(const char *name) {
    if (!name) return dnnl_format_tag_undef;
    int lo = 0, hi = format_tag_lookup_count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        int c = std::strcmp(format_tag_lookup[mid].name, name);
        if (c == 0) return format_tag_lookup[mid].tag;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return dnnl_format_tag_undef;
}

// The generator has checked every canonical name against this grammar:
// [a-lA-L]+ naming each of a..(ndims-1) once, then (<size>[a-l])*.
bool format_tag_layout(dnnl_format_tag_t tag, int *ndims, int outer_order[12],
        int *n_inner, int inner_idx[12], long inner_blk[12]) {
    if (!is_real(tag)) return false;
    const char *p = canonical_format_tags[tag].name;
    int nd = 0;
    for (; *p && (*p < '0' || *p > '9'); ++p) {
        char lower = (*p >= 'A' && *p <= 'Z') ? char(*p - 'A' + 'a') : *p;
        outer_order[nd++] = lower - 'a';
    }
    int ni = 0;
    while (*p) {
        long blk = 0;
        for (; *p >= '0' && *p <= '9'; ++p)
            blk = blk * 10 + (*p - '0');
        inner_idx[ni] = *p++ - 'a';
        inner_blk[ni] = blk;
        ++ni;
    }
    *ndims = nd;
    *n_inner = ni;
    return true;
}

} // namespace core
} // namespace anydnn

// Matches oneDNN: the sentinel prints as "format_tag_last", anything else
// outside the enum as "unknown fmt_tag".
extern "C" const char DNNL_API *dnnl_fmt_tag2str(dnnl_format_tag_t v) {
    const char *name = anydnn::core::format_tag_name(v);
    return name ? name : "unknown fmt_tag";
}
