#!/bin/bash
# Issue 14: the inner product mb256 4096 -> 4096 bf16/f16 on the wgmma core under its
# candidates (64-row tiles of one warpgroup, K split 2; ANYDNN_GPU_TUNING wgmma sections listed
# in ipbf16_rows.py), and the f32 GEMV's table rule (one launch, no K split, for one row of
# C with N >= 16 per compute unit). Checks first (benchdnn_check.sh, each counting the
# dispatch lines of the candidate's kernels): inner products with tails in every size
# (bf16/f16, FWD_B/BWD_D/BWD_WB, scales and post-ops) and matmuls of all four A/B layouts;
# then the GEMV shapes (odd sizes, both B layouts, N = 1); then timed rows against PyTorch
# (ipbf16_rows.py). Log: $OUT/ipbf16.log. Under 2 minutes.
#   tools/gpu_bench/prepare.sh build .dev-ipbf16   (here), then on the GPU machine:
#   D=.dev-ipbf16 bash .dev-ipbf16/run_ipbf16.sh
D=${D:-.dev-int}
. "$D"/benchdnn_check.sh
device_setup ipbf16
CHECK_TIMEOUT=60
BD="timeout 60 $D/benchdnn --engine=gpu"

main() {
echo "=== $(date +%T) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
for v in "" $(python3 "$D/ipbf16_rows.py" --print-candidates 2>/dev/null); do
    cfg=${v#wgmma:config=}
    cfg=${cfg%%,*}
    [ -z "$v" ] && cfg="wgmma [a-z0-9_]*x[0-9]*s"
    ANYDNN_GPU_TUNING=$v CHECK_WANT=$cfg benchdnn_check "ip-16bit[${v:-table}]" --ip \
        --dt=bf16,f16 --dir=FWD_B,BWD_D,BWD_WB mb256ic512oc1024 mb300ic520oc1030 mb33ic264oc130 \
        --dir=FWD_B --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 \
        --attr-post-ops=sum+relu mb300ic520oc1030
    ANYDNN_GPU_TUNING=$v CHECK_WANT=$cfg benchdnn_check "matmul-16bit-layouts[${v:-table}]" \
        --matmul --dt=bf16,f16:f16:f32 --stag=ab,ba --wtag=ab,ba --dtag=ab 200x520:520x136
done
# The f32 GEMV: one wide row with B's N dense (wtag ab) on the one-launch shape (its dispatch
# names 1 K slice), the rest (B's K dense, 4 rows, N below 16 per compute unit) on the K-split
# one.
CHECK_WANT=skinny benchdnn_check gemv-f32 --matmul --dt=f32 --stag=ab --wtag=ab,ba --dtag=ab \
    1x4096:4096x4096 1x777:777x2500 1x3001:3001x2113 1x4096:4096x1024 4x4096:4096x4096 \
    4096x777:777x1 3x257:257x1031
CHECK_WANT=skinny benchdnn_check gemv-f32-ip --ip --dt=f32 --dir=FWD_B mb1ic4096oc4096 \
    mb1ic777oc2500
ONEDNN_VERBOSE=dispatch $BD --mode=P --max-ms-per-prb=10 --matmul --dt=f32 1x4096:4096x4096 \
    1x4096:4096x1024 4x4096:4096x4096 2>&1 | grep -E "exec:dispatch" | grep -E "skinny" \
    | sed "s/^onednn_verbose,[0-9.]*,//" | cut -c1-260 | sort -u | head -4 | sed "s/^/DISPATCH|gemv|/"

python3 "$D/ipbf16_rows.py" --bin "$D" 2>&1 | grep -E "^(ROW|GPU)|Error|error"
echo "=== done $(date +%T)"
}

main 2>&1 | tee -a "$LOG"
