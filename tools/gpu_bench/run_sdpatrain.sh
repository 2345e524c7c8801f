#!/bin/bash
# The SDPA training forward on the GPU machine (issue 15): the flash kernels' reference check
# with the softmax statistics (every entry that writes them), then one row of the training
# forward bf16 b8 h32 s4096 d128 causal against PyTorch's flash attention forward with its
# logsumexp (and the inference case beside it). Under 4 minutes. Here:
#   tools/gpu_bench/prepare.sh build .dev-int
# there (repository root):  D=.dev-int bash .dev-int/run_sdpatrain.sh
# The checks run in the order of sdpa_train.py's CHECK_ORDER until CHECK_BUDGET seconds
# (default 150) are spent; those left print CHECK|variant|NOT RUN.
D=${D:-.dev-int}
OUT=${OUT:-/tmp}
export ANYDNN_OCL_DEVICE=${ANYDNN_OCL_DEVICE:-NVIDIA}
timeout 235 python3 "$D"/sdpa_train.py --bin "$D" --check-budget ${CHECK_BUDGET:-150} 2>&1 | tee "$OUT"/sdpatrain.log
