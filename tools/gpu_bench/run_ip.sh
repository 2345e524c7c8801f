#!/bin/bash
# Issue 14: the bf16 inner product mb256 4096 -> 4096 on the GEMM core's wgmma kernels, which
# now takes the TMA kernels (wgmma_tma.cu) where the table chooses them and the primitive
# books their tensor maps (gemm_wgmma_scratchpad_bytes), as the matmul does.
# Checks first (benchdnn --mode=C, double-precision reference; benchdnn_check.sh, each counting
# the dispatch lines naming the kernels it is meant to run):
#   - the table's choice: bf16 FWD_B/BWD_D/BWD_WB with tails in every size (cp.async tiles
#     there); forward and backward data of 264 rows, 1000 and 3000 (TMA 128 x 128 tiles, K
#     whole, with tails in M, N and K); the 256 x 4096 x 4096 problem (forward and backward
#     data on TMA 128 x 128 tiles, backward weights on TMA 128 x 256 tiles in the form that
#     loads the next tile during the epilogue); the bf16/f16 matmul of the same narrow shape
#     in its four A/B layouts (the matmul's wgmma_tma dispatch);
#   - the TMA kernels forced (tma_256x64s4o K whole; tma_128x64s6o K split 3; 64-row tiles
#     tma_m64_128x64s8 K split 2): bf16 and f16, FWD_B/BWD_D/BWD_WB (layouts kk, kn, mn) with
#     tails in M, N, K, and forward with scales and a sum + relu chain (the _epi kernels, or
#     split, the sum kernel's epilogue: four columns per thread where N % 4 == 0, oc 1032,
#     else one, oc 1030); odd sizes whose rows are not 16 bytes (the core's other kernels).
# Then the timed rows against PyTorch (ip_rows.py: the inner product's three directions and
# four bf16 matmuls under the table, then three candidates for forward and backward data and
# the 128-row matmul under the first; IP_SWEEP=0 leaves those out). Log: $OUT/ip.log. Under 2
# minutes.
#   tools/gpu_bench/prepare.sh build .dev-ip   (here), then on the GPU machine:
#   D=.dev-ip bash .dev-ip/run_ip.sh
D=${D:-.dev-ip}
. "$D"/benchdnn_check.sh
device_setup ip
CHECK_TIMEOUT=60

main() {
echo "=== $(date +%T) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
CHECK_WANT="gemm,wgmma" benchdnn_check "ip-bf16-tails[table]" --ip --dt=bf16 \
    --dir=FWD_B,BWD_D,BWD_WB mb33ic264oc136 mb300ic520oc1032 mb31ic75oc33
CHECK_WANT="wgmma tma_" benchdnn_check "ip-16bit-tma-tails[table]" --ip --dt=bf16,f16 \
    --dir=FWD_B mb264ic1000oc3000 --dir=BWD_D mb264ic3000oc1000
CHECK_WANT="wgmma tma_" benchdnn_check "ip-bf16-4096[table]" --ip --dt=bf16 \
    --dir=FWD_B,BWD_D,BWD_WB mb256ic4096oc4096
CHECK_WANT="wgmma_tma" benchdnn_check "matmul-16bit-tma[table]" --matmul \
    --dt=bf16,f16:f16:f32 --stag=ab,ba --wtag=ab,ba --dtag=ab 264x1000:1000x3000
for v in "wgmma:config=tma_256x64s4o,splits=1" "wgmma:config=tma_128x64s6o,splits=3" \
        "wgmma:config=tma_m64_128x64s8,splits=2"; do
    ANYDNN_GPU_TUNING=$v CHECK_WANT="wgmma tma_" benchdnn_check "ip-16bit-tma[$v]" --ip \
        --dt=bf16,f16 --dir=FWD_B,BWD_D,BWD_WB mb33ic264oc136 mb300ic520oc1032 mb17ic72oc24 \
        mb31ic75oc33 --dir=FWD_B mb300ic520oc1030 \
        --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 --attr-post-ops=sum+relu \
        mb300ic520oc1032 mb300ic520oc1030
done
flag=""
[ "${IP_SWEEP:-1}" = 0 ] && flag=--no-sweep
python3 "$D/ip_rows.py" --bin "$D" $flag 2>&1 | grep -E "^(ROW|GPU)|Error|error"
echo "=== done $(date +%T)"
}

main 2>&1 | tee -a "$LOG"
