#!/bin/bash
# Branch s11-mend on an NVIDIA GPU, one device call of under a minute (75 s at most):
#   tools/gpu_bench/prepare.sh build .dev-mend   (here), then on the GPU machine:
#   D=.dev-mend bash .dev-mend/run_mend.sh
# 1. The f32 GEMV with either layout of the weights (matmul 1x4096x4096 and odd sizes, wtag
#    ab and ba) checked (benchdnn_check.sh); then the skinny plan each took (verbose
#    dispatch): ab on the one-launch row (1 K slice), ba on the K-split row (B's K dense, as
#    the inner product's weights, which the matmul now tells the GEMM core).
# 2. ROW lines: f32 1x4096x4096 with either layout against PyTorch (TF32 off).
# 3. The flash kernels whose prologue moved to sm90_cta_t::to_head: the default (pipe) and
#    the plain wgmma kernel, each through sdpa_flash.py's quick test
#    (flash_wgmma_quick_match_reference: double-precision reference, bf16 and f16, head sizes
#    64 and 128, causal and GQA), while the call has time.
# Log: $OUT/mend.log.
D=${D:-.dev-mend}
. "$D"/benchdnn_check.sh
device_setup mend
CHECK_TIMEOUT=20
start=$SECONDS
left() { echo $((75 - (SECONDS - start))); }

echo "GPU|$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)" \
    | tee -a "$LOG"
benchdnn_check gemv-f32-both-layouts --matmul --dt=f32 --stag=ab --wtag=ab,ba --dtag=ab \
    1x4096:4096x4096 4x4096:4096x4096 1x777:777x2500 4x257:257x1031 1x3001:3001x2113 \
    | tee -a "$LOG"

# The K slices of each layout's launch, from the skinny kernel's dispatch line.
for w in ab ba; do
    line=$(ONEDNN_VERBOSE=dispatch timeout 20 "$D"/benchdnn --engine=gpu --mode=P \
        --max-ms-per-prb=10 --matmul --dt=f32 --stag=ab --wtag=$w --dtag=ab 1x4096:4096x4096 \
        2>&1 | grep -E 'exec:dispatch,gemm,skinny' | head -1)
    echo "$line" >>"$LOG"
    slices=$(sed -n 's/.*K slices \([0-9]*\) of.*/\1/p' <<<"$line")
    if [ "$w" = ab ]; then ok=$([ "$slices" = 1 ] && echo pass || echo fail)
    else ok=$([ -n "$slices" ] && [ "$slices" -gt 1 ] && echo pass || echo fail); fi
    echo "CHECK|gemv-f32-$w-plan|$ok|K slices ${slices:-none}: ${line#*exec:dispatch,}" \
        | cut -c1-300 | tee -a "$LOG"
done

timeout "$(left)" python3 - "$D" <<'EOF' 2>>"$LOG" | tee -a "$LOG"
import sys
sys.path.insert(0, sys.argv[1])
import ipgemv_rows as ig
tt = ig.g.Torch()
tt.budget_s = 0.3
for w, key in (('ab', 'mm'), ('ba', 'mmt')):
    args = f'--matmul --dt=f32 --stag=ab --wtag={w} --dtag=ab 1x4096:4096x4096'
    ig.row(sys.argv[1], f'matmul f32 1x4096x4096 wei {w}', args,
           tt.case((key, 'f32', 1, 4096, 4096)))
EOF

for v in default wgmma; do
    t=$(left)
    if [ "$t" -lt 12 ]; then
        echo "SKIPPED|flash quick $v|no time left in the call" | tee -a "$LOG"
        continue
    fi
    timeout "$t" python3 "$D/sdpa_flash.py" --bin "$D" --variants $v --no-rows \
        --timeout $((t - 4)) --test graph_ocl_sdpa_causal_t.flash_wgmma_quick_match_reference \
        2>&1 | tee -a "$LOG" | grep -E '^(CHECK|SKIPPED)'
done
echo "TIME|run_mend.sh|$((SECONDS - start)) s" | tee -a "$LOG"
