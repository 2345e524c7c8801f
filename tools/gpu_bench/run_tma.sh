#!/bin/bash
# Hopper's bulk tensor copies (TMA) from our PTX kernels loaded through NVIDIA's OpenCL.
#   tools/gpu_bench/prepare.sh build .dev-tma      (here), then on the GPU machine:
#   D=.dev-tma bash .dev-tma/run_tma.sh probe      (under a minute)
# probe: tools/tma_probe (libcuda's cuTensorMapEncodeTiled beside NVIDIA's OpenCL; tiles loaded
#   by cp.async.bulk.tensor through a per-CTA copy of a libcuda template re-pointed by
#   tensormap.replace, through a map built from zero bytes by tensormap.replace alone, and
#   through a map passed by value as a 128-byte kernel argument).
# Prints CHECK|name|pass/fail|detail lines (and INFO lines), everything into $OUT/run_tma.log.
D=${D:-.dev-tma}
OUT=${OUT:-/tmp}
LOG=$OUT/run_tma.log
MODE=${1:-probe}
: > "$LOG"
export LD_LIBRARY_PATH=$PWD/$D${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ANYDNN_OCL_DEVICE=${ANYDNN_OCL_DEVICE:-NVIDIA}
say() { echo "$@" | tee -a "$LOG"; }

say "=== $(date +%T) $MODE $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
case $MODE in
probe)
    if [ ! -x "$D/tma_probe" ]; then
        say "CHECK|tma probe|fail|$D/tma_probe missing (prepare.sh builds it where nvcc is)"
        exit 1
    fi
    timeout 60 "$D/tma_probe" NVIDIA 2>&1 | tee -a "$LOG"
    rc=${PIPESTATUS[0]}
    say "CHECK|tma probe exit|$([ "$rc" = 0 ] && echo pass || echo fail)|status $rc"
    ;;
*)
    say "CHECK|run_tma mode|fail|unknown mode $MODE (probe)"
    exit 1
    ;;
esac
say "=== $(date +%T) done"
