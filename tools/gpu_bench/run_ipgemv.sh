#!/bin/bash
# Issue 14, inner product and GEMV rows on an NVIDIA GPU through OpenCL: the inner product
# mb256 4096 -> 4096 (bf16/f16, all directions) on the wgmma core with K split through the
# scratchpad, its bias gradient, and the GEMV / skinny matmuls (f32, bf16, M = 1..16).
# Checks first (benchdnn_check.sh), then verbose dispatch (which GEMM kernel each launch took,
# its K slices), then timed rows against PyTorch (ipgemv_rows.py). Log: $OUT/ipgemv.log.
# Under 4 minutes.
#   tools/gpu_bench/prepare.sh build .dev-int   (here), then on the GPU machine:
#   D=.dev-int bash .dev-int/run_ipgemv.sh
D=${D:-.dev-int}
. "$D"/benchdnn_check.sh
device_setup ipgemv
CHECK_TIMEOUT=150
BD="timeout 150 $D/benchdnn --engine=gpu"

main() {
echo "=== $(date +%T) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"

# Inner product bf16/f16, every direction: K split (mb 256 x 1024, 4 slices), tails
# in every size (N 1030, K 1000 and 260: whole 16-byte rows; K 777: not, the core's own kernel),
# post-ops (the core's mma_sync for bf16), bias gradients over several row lanes.
benchdnn_check ip-16bit-split --ip --dt=bf16,f16 --dir=FWD_B,BWD_D,BWD_WB \
    mb256ic1024oc1024 mb300ic1000oc1030 mb257ic520oc130 mb33ic260oc130 mb5ic777oc70
# (benchdnn's reference is one thread: 2048 rather than the timed 4096, 4 slices rather than 2.)
benchdnn_check ip-16bit-2048 --ip --dt=bf16 --dir=FWD_B,BWD_D,BWD_WB mb256ic2048oc2048
benchdnn_check ip-16bit-postops --ip --dt=bf16,f16 --dir=FWD_B --attr-post-ops=relu \
    mb256ic1024oc1024 \
    --attr-post-ops=sum mb300ic1000oc1030
# bf16/f16 with scales and post-ops: the wgmma _epi kernels (or the split-K sum) apply them.
benchdnn_check ip-16bit-epilogue --ip --dt=bf16,f16 --dir=FWD_B \
    --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 --attr-post-ops=sum+relu \
    mb256ic1024oc1024 mb300ic1000oc1030 --attr-scales= --attr-post-ops=gelu_erf mb256ic2048oc2048 \
    --attr-post-ops=swish:0.5 mb64ic520oc4100
benchdnn_check ip-bf16-f32dst --ip --dt=bf16:bf16:f32 --dir=FWD_B mb256ic1024oc1024 \
    mb300ic1000oc1030
# The epilogue kinds split too (the sum kernel applies scales, bias and post-ops): TF32 and int8.
benchdnn_check ip-tf32-split --ip --dt=f32 --attr-fpmath=tf32 --dir=FWD_B,BWD_D,BWD_WB \
    mb256ic1024oc1024 mb300ic1000oc1030
benchdnn_check ip-int8-split --ip --dt=u8:s8:f32,u8:s8:bf16 --dir=FWD_B \
    --attr-scales=src:common:0.5+wei:per_oc --attr-post-ops=relu mb256ic1024oc1024 mb300ic1000oc1032
# GEMV and skinny matmuls: tails, both layouts of B, N small (C^T), bias and post-ops, and the
# 2..16-row shapes (skinny up to 4 rows, the table's next rows above).
benchdnn_check gemv --matmul --dt=f32,bf16 --stag=ab --wtag=ab,ba --dtag=ab \
    1x4096:4096x1000 2x4096:4096x4096 3x257:257x1031 4x4096:4096x1000 8x4096:4096x1000 \
    16x4096:4096x1000 130x64:64x5 4096x777:777x16
benchdnn_check gemv-f16 --matmul --dt=f16 --stag=ab --wtag=ab,ba --dtag=ab 2x4096:4096x1000 \
    16x520:520x1000
benchdnn_check gemv-postops --matmul --dt=f32,bf16:bf16:f32 --bia-dt=f32 --attr-post-ops=sum+relu \
    --stag=ab --wtag=ab,ba --dtag=ab 1x301:301x72 7x129:129x45 2x1000:1000x4100
benchdnn_check gemv-ip --ip --dt=f32,bf16 --dir=FWD_B mb1ic4096oc4096 mb3ic777oc130 mb4ic4096oc1000
for v in "variant=skinny,wg_m=32,wg_n=8,kt=100000,stages=8" "variant=skinny,wg_m=32,wg_n=8,tn=2,stages=8"; do
    ANYDNN_GPU_TUNING=$v benchdnn_check "gemv[$v]" --matmul --dt=f32 --stag=ab --wtag=ab,ba \
        --dtag=ab 1x4096:4096x4096 3x257:257x1031 4x4096:4096x1000
done

# Which GEMM kernel each launch took (K slices of the wgmma core, the skinny plan).
for d in FWD_B BWD_D BWD_WB "FWD_B --attr-post-ops=relu"; do
    ONEDNN_VERBOSE=dispatch $BD --mode=P --max-ms-per-prb=10 --ip --dt=bf16 --dir=$d \
        mb256ic4096oc4096 2>&1 | grep -E "dispatch" | grep -E "gemm" | sed "s/^onednn_verbose,[0-9.]*,//" | cut -c1-260 | sort -u \
        | head -6 | sed "s/^/DISPATCH|ip $d|/"
done
ONEDNN_VERBOSE=dispatch $BD --mode=P --max-ms-per-prb=10 --matmul --dt=f32 1x4096:4096x4096 \
    2>&1 | grep -E "dispatch" | grep -E "skinny|gemm" | sed "s/^onednn_verbose,[0-9.]*,//" | cut -c1-260 | sort -u | head -3 \
    | sed "s/^/DISPATCH|gemv|/"

python3 "$D/ipgemv_rows.py" --bin "$D" 2>&1 | grep -E "^(ROW|GPU)|Error|error"
echo "=== done $(date +%T)"
}

main 2>&1 | tee -a "$LOG"
