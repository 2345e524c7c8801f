#!/bin/bash
# Branch s11-graphb on an NVIDIA GPU, one device call of about a minute (90 s at most):
#   tools/gpu_bench/prepare.sh build .dev-graphb   (here), then on the GPU machine:
#   D=.dev-graphb bash .dev-graphb/run_graphb.sh
# Correctness only (benchdnn --mode=C, double-precision graph reference), no timings:
# 1. --sdpa: oneDNN's attention problems as graph SDPA partitions, every mask kind in f16 and
#    bf16, grouped KV heads, strided layouts (the forward part of tests/inputs/sdpa/smoke).
# 2. --graph: the training ops case (pooling, normalization and convolution backward ops)
#    and the graph smoke batch with oneDNN's case rewriting (tests/inputs/compat/graph_rewrite).
# Log: $OUT/graphb.log.
D=${D:-.dev-graphb}
. "$D"/benchdnn_check.sh
device_setup graphb
CHECK_TIMEOUT=40
benchdnn_check sdpa_masks --sdpa --dt=f16,bf16 \
    --mask=none,buffer,buffer_1d,buffer_2d,causal_top_left,causal_bottom_right \
    1x2x8x16:1x2x16x8:1x2x8x16 1x4x5x8:1x2x8x7:1x2x7x8 2x8x64x64:2x2x64x128:2x2x128x64
benchdnn_check sdpa_tags --sdpa --dt=f32 --qtag=acbd --ktag=abdc --vtag=acbd --dtag=acbd \
    2x3x4x5:2x3x5x6:2x3x6x7
CHECK_TIMEOUT=25
benchdnn_check graph_train_ops --graph --case=tests/inputs/graph/train_ops_f32.json
# 19 problems of many ops, each op a first OpenCL build on the device: 25 s was too short (H100).
CHECK_TIMEOUT=60 benchdnn_check graph_rewrite --batch=tests/inputs/compat/graph_rewrite
