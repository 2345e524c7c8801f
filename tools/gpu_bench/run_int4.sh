#!/bin/bash
# Branch s11-int4 on an NVIDIA GPU: matmul weights decompression (s4/u4/s8/u8 weights, grouped
# scales and zero points) checked by benchdnn --mode=C against the double-precision reference.
# Under a minute:
#   tools/gpu_bench/prepare.sh build .dev-int4   (here), then on the GPU machine:
#   D=.dev-int4 bash .dev-int4/run_int4.sh
# 1. tests/inputs/matmul/weights_decompression (the CI batch, 100 problems).
# 2. oneDNN's int4 decompression shapes (harness_matmul_decompression's int4 part): bf16/f16
#    src, s4/u4 weights, scales and zero points grouped 32x1 / 128x1, 1x4096:4096x4096.
# Log: $OUT/int4.log.
D=${D:-.dev-int4}
. "$D"/benchdnn_check.sh
device_setup int4
CHECK_TIMEOUT=25
echo "GPU|$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)" \
    | tee -a "$LOG"
benchdnn_check woq-ci-batch --batch=tests/inputs/matmul/weights_decompression | tee -a "$LOG"
benchdnn_check woq-int4-bf16 --matmul --dt=bf16:s4:bf16,bf16:u4:bf16 --wtag=any,abc,acb \
    --attr-scales=wei:per_oc:bf16,wei:per_ocic:bf16:32x1 \
    --attr-zero-points=wei:per_oc:u4,wei:per_ocic:s4:32x1 --attr-fpmath=bf16:true \
    7x24x32:7x32x64 7x25x32:1x32x65 3x96x96:3x96x64 3x14x96:1x96x77 | tee -a "$LOG"
benchdnn_check woq-int4-f16-gemv --matmul --dt=f16:s4:f16,f16:u4:f16 --wtag=ab,ba \
    --attr-scales=wei:per_ocic:f16:128x1 --attr-zero-points=,wei:per_ocic:u4:128x1 \
    --attr-fpmath=f16:true 1x4096:4096x4096 --wtag=abc,acb 3x6x512:1x512x62 | tee -a "$LOG"
