#!/bin/bash
# Issue 14: the inner product mb256 4096 -> 4096 bf16/f16 on the wgmma core under its
# candidates (64-row tiles of one warpgroup, K split 2; ANYDNN_GPU_TUNING wgmma sections listed
# in ipbf16_rows.py), and the f32 GEMV's table rule (one launch, no K split, for one row of
# C with N >= 16 per compute unit). Correctness first: benchdnn --mode=C (double-precision
# reference, output poisoned) of every candidate over inner products with tails in every size
# (bf16/f16, FWD_B/BWD_D/BWD_WB, scales and post-ops) and matmuls of all four A/B layouts,
# with the dispatch lines counted to show the candidate's kernels ran; then the GEMV shapes
# (odd sizes, both B layouts, N = 1); then timed rows against PyTorch (ipbf16_rows.py).
# Prints CHECK|name|pass/fail|detail and ROW|... lines; the whole log goes to $OUT/ipbf16.log.
# Under 2 minutes.
#   tools/gpu_bench/prepare.sh build .dev-ipbf16   (here), then on the GPU machine:
#   D=.dev-ipbf16 bash .dev-ipbf16/run_ipbf16.sh
D=${D:-.dev-int}
OUT=${OUT:-/tmp}
export LD_LIBRARY_PATH=$PWD/$D${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ANYDNN_OCL_DEVICE=${ANYDNN_OCL_DEVICE:-NVIDIA}
LOG=$OUT/ipbf16.log
BD="timeout 60 $D/benchdnn --engine=gpu"

# One CHECK line per batch: pass where every problem passed (none failed, skipped or
# unimplemented);
# the detail counts the dispatch lines naming $want (a kernel configuration or plan).
check() {
    local name=$1 want=$2
    shift 2
    local out
    out=$(ONEDNN_VERBOSE=dispatch $BD --mode=C "$@" 2>&1)
    echo "=== CHECK $name [${ANYDNN_GPU_TUNING:-table}]: $*" >>"$LOG"
    echo "$out" | grep -E "FAILED|UNIMPL|MISTRUSTED|tests:" >>"$LOG"
    echo "$out" | grep -E ":dispatch" | sed "s/^onednn_verbose,[0-9.]*,//" | cut -c1-220 \
        | sort | uniq -c | sort -rn | head -4 >>"$LOG"
    local summary hits
    summary=$(echo "$out" | grep -E "^tests:" | tail -1)
    hits=$(echo "$out" | grep -E ":dispatch" | grep -c -- "$want")
    if [ -n "$summary" ] && echo "$summary" | grep -q "failed:0" \
            && ! echo "$summary" | grep -qE "(unimplemented|skipped):[1-9]"; then
        echo "CHECK|$name|pass|$summary; $hits launches on '$want'"
    else
        echo "CHECK|$name|fail|${summary:-$(echo "$out" | tail -2 | tr '\n' ' ' | cut -c1-200)}; $hits launches on '$want'"
    fi
}

main() {
echo "=== $(date +%T) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
for v in "" $(python3 "$D/ipbf16_rows.py" --print-candidates 2>/dev/null); do
    cfg=${v#wgmma:config=}
    cfg=${cfg%%,*}
    [ -z "$v" ] && cfg="wgmma [a-z0-9_]*x[0-9]*s"
    ANYDNN_GPU_TUNING=$v check "ip-16bit[${v:-table}]" "$cfg" --ip --dt=bf16,f16 \
        --dir=FWD_B,BWD_D,BWD_WB mb256ic512oc1024 mb300ic520oc1030 mb33ic264oc130 \
        --dir=FWD_B --attr-scales=src:common:0.5+wei:per_oc+dst:common:2 \
        --attr-post-ops=sum+relu mb300ic520oc1030
    ANYDNN_GPU_TUNING=$v check "matmul-16bit-layouts[${v:-table}]" "$cfg" --matmul \
        --dt=bf16,f16:f16:f32 --stag=ab,ba --wtag=ab,ba --dtag=ab 200x520:520x136
done
# The f32 GEMV: one wide row on the one-launch shape (its dispatch names 1 K slice), the rest
# (4 rows, N below 16 per compute unit) on the K-split one.
check gemv-f32 "skinny" --matmul --dt=f32 --stag=ab --wtag=ab,ba --dtag=ab \
    1x4096:4096x4096 1x777:777x2500 1x3001:3001x2113 1x4096:4096x1024 4x4096:4096x4096 \
    4096x777:777x1 3x257:257x1031
check gemv-f32-ip "skinny" --ip --dt=f32 --dir=FWD_B mb1ic4096oc4096 mb1ic777oc2500
ONEDNN_VERBOSE=dispatch $BD --mode=P --max-ms-per-prb=10 --matmul --dt=f32 1x4096:4096x4096 \
    1x4096:4096x1024 4x4096:4096x4096 2>&1 | grep -E "exec:dispatch" | grep -E "skinny" \
    | sed "s/^onednn_verbose,[0-9.]*,//" | cut -c1-260 | sort -u | head -4 | sed "s/^/DISPATCH|gemv|/"

python3 "$D/ipbf16_rows.py" --bin "$D" 2>&1 | grep -E "^(ROW|GPU)|Error|error"
echo "=== done $(date +%T)"
}

: >"$LOG"
main 2>&1 | tee -a "$LOG"
