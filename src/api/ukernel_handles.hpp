// Live handles of the ukernel API (brgemm, transform, attribute parameters): a destroyed or
// foreign handle given to a configuration call is refused with a status. The scheme of
// core/object.hpp's registry; a kind there each would be the tidier home (a follow-up: adding
// kinds to that header rebuilds the whole library).
#pragma once

namespace anydnn {

enum class ukernel_handle { brgemm, transform, attr_params };

void ukernel_handle_add(ukernel_handle kind, const void *p);
void ukernel_handle_remove(ukernel_handle kind, const void *p);
bool ukernel_handle_live(ukernel_handle kind, const void *p);

} // namespace anydnn
