#!/bin/bash
# Branch s12-conf on an NVIDIA GPU: int8 matmul with src scales along K (dynamic quantization:
# integer sums per run of K, scaled into f32) and 4-bit float matmul (f4_e2m1/f4_e3m0 src,
# weights, dst), both on ocl:matmul:generic's per-element kernel, checked by benchdnn
# --mode=C against the double-precision reference. Under a minute:
#   tools/gpu_bench/prepare.sh build .dev-conf   (here), then on the GPU machine:
#   D=.dev-conf bash .dev-conf/run_conf.sh
# 1. the CI batches tests/inputs/matmul/int8_k_groups (26) and fp4 (32);
# 2. the "int4 src grouped quantization" part of oneDNN's harness_matmul_decompression (48);
# 3. the plain part of oneDNN's test_matmul_fp4 (a quarter of its 256: any layouts).
# Log: $OUT/conf.log.
D=${D:-.dev-conf}
. "$D"/benchdnn_check.sh
device_setup conf
CHECK_TIMEOUT=40
# The CI batches from the checkout, or from D where the checkout predates them (copied there).
B=tests/inputs/matmul
[ -f $B/int8_k_groups ] || B=$D
echo "GPU|$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)" \
    | tee -a "$LOG"
benchdnn_check int8-k-groups-ci --batch=$B/int8_k_groups | tee -a "$LOG"
benchdnn_check fp4-ci --batch=$B/fp4 | tee -a "$LOG"
benchdnn_check int8-src-groups-onednn --matmul --wtag=any,ab,ba --dt=s8:s8:f16 \
    --attr-scales=src:common:0.5:f32+wei:per_oc:f16 4x256:256x64 6x384:384x100 \
    --wtag=any,ab,ba --dt=s8:s4:f16 \
    --attr-scales=src:per_oc:f16:1x32+wei:per_ocic:f16:128x1,src:per_ocic:f16:1x256+wei:per_ocic:f16:128x1 \
    --attr-zero-points=wei:per_ocic:s4:128x1 4x256:256x64 6x256:256x100 \
    --attr-zero-points= --dt=s8:u8:f16 4x256:256x64 6x256:256x100 \
    --wtag=any,abc,acb --dt=s8:u4:f32 \
    --attr-scales=src:per_oc:f16:1x16+wei:per_ocic:f16:192x1,src:per_ocic:f16:1x192+wei:per_ocic:f16:192x1, \
    --attr-zero-points=wei:per_ocic:u4:192x1 12x4x576:12x576x192 12x6x192:12x192x100 \
    | tee -a "$LOG"
benchdnn_check fp4-onednn --matmul --stag=any,ab --wtag=any,ab --dtag=ab,any \
    --bia-dt=undef,f32 --bia_mask=2 \
    --dt=f4_e2m1,f4_e2m1:f4_e2m1:f32,f4_e2m1:f4_e2m1:bf16,f4_e2m1:f4_e3m0:f4_e2m1 \
    24x32:32x64 25x32:32x16 | tee -a "$LOG"
