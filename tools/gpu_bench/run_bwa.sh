#!/bin/bash
# Issue 15 item 1, the dense reductions (ocl:reduction:dense), softmax along a non-innermost
# axis (ocl:softmax:axis_columns) and PReLU (ocl:prelu:dense) on the GPU: benchdnn --mode=C
# checks first (double-precision reference), then 1 GiB rows against PyTorch (rows_reduce.py).
#   D=.dev-bwa bash .dev-bwa/run_bwa.sh      (D: the folder tools/gpu_bench/prepare.sh filled)
# Prints CHECK|bwa|state|problem and ROW|problem|impl|ours ms|torch ms|ratio; log in $OUT/bwa.log.
D=${D:-.dev-int}
OUT=${OUT:-.}
LOG="$OUT/bwa.log"
export LD_LIBRARY_PATH="$D:${LD_LIBRARY_PATH:-}"
export ANYDNN_OCL_DEVICE=${ANYDNN_OCL_DEVICE:-NVIDIA}
timeout 230 python3 "$D"/gpu_vs_torch.py --bin "$D" --only bwr --check >"$LOG" 2>&1
rc=$?
# gpu_vs_torch's CHECK|state|repro and ROW|group|problem|impl|ours|theirs|ratio|note lines.
awk -F'|' '
    /^GPU\|/ { print }
    /^CHECK\|/ { print "CHECK|bwa|" $2 "|" $3 (($4 != "") ? "|" $4 : "") }
    /^CHECKS\|/ { print }
    /^ROW\|/ { print "ROW|" $3 "|" $4 "|" $5 "|" $6 "|" $7 (($8 != "") ? "|" $8 : "") }
' "$LOG"
[ $rc -eq 0 ] || echo "CHECK|bwa|fail|gpu_vs_torch exited $rc (124: past 230 s); see bwa.log"
