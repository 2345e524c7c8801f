// Per-channel src/dst zero points of int8 convolution and deconvolution on the CPU engine
// (conv_zero_points_check.hpp).
#include "primitives/conv_zero_points_check.hpp"

namespace {

TEST(conv_zero_points, per_channel_src_and_dst_match_the_reference) {
    conv_zero_points::check_all(dnnl::engine(dnnl::engine::kind::cpu, 0));
}

TEST(conv_zero_points, other_masks_weights_and_float_are_refused) {
    conv_zero_points::check_refusals(dnnl::engine(dnnl::engine::kind::cpu, 0));
}

} // namespace
