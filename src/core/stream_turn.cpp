#include "core/stream_turn.hpp"

namespace anydnn {

std::unique_lock<std::recursive_mutex> stream_turn(const stream_t *stream) {
    if (stream->engine()->kind() == dnnl_cpu || stream->turn_exempt())
        return std::unique_lock<std::recursive_mutex>();
    return std::unique_lock<std::recursive_mutex>(stream->turn());
}

} // namespace anydnn
