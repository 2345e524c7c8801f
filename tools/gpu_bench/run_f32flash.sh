#!/bin/bash
# Branch s10-f32flash on an NVIDIA GPU, one device call of under 2 minutes:
#   D=.dev-f32flash bash .dev-f32flash/run_f32flash.sh   (D: the folder prepare.sh filled)
# 1. The f32 flash attention kernel (FMA units, head sizes 64, 80, 96, 128, 256) against the
#    double-precision reference (graph_ocl_sdpa_causal_t.flash_f32_match_reference: every mask,
#    GQA, odd lengths, training statistics), then whether every f32 case ran on the flash
#    kernel (sdpa:ocl:flash_fma_f32_*), not the generic one; then f32 b1 h16 s1024 d64, d80,
#    d256 without a mask timed against PyTorch's SDPA (TF32 off).
# 2. benchdnn --mode=C of the batch norm statistics kernel's channels-last and blocked paths
#    (ocl:bnorm:flat) and the reduction smoke batch (generic and dense kernels).
# 3. The blocked batch norm and dense resampling f32 rows against PyTorch (run_bwb.sh rows).
# Prints CHECK|name|pass or fail|detail and ROW lines; every line also in $OUT/f32flash.log
# (benchdnn's output in $OUT/bwb.log for part 3 and here for part 2).
D=${D:-.dev-int}
. "$D"/benchdnn_check.sh
device_setup f32flash
start=$SECONDS
# Seconds left of 115 for a step, at most $1 (and at least 1: timeout's argument).
budget() {
    local left=$((115 - (SECONDS - start)))
    left=$((left < $1 ? left : $1))
    echo $((left < 1 ? 1 : left))
}

out=$(timeout "$(budget 45)" python3 "$D"/sdpa_flash.py --bin "$D" --variants default \
    --no-rows --test graph_ocl_sdpa_causal_t.flash_f32_match_reference 2>&1)
echo "$out" | tee -a "$LOG" | grep '^CHECK'
# The implementations the cases compiled to (verbose, counted): flash_fma_f32 only.
impls=$(grep -oE 'sdpa:ocl:[a-z0-9_]+=[0-9]+' <<<"$out" | tr '\n' ' ')
others=$(tr ' ' '\n' <<<"$impls" | grep -vE '^(sdpa:ocl:flash_fma_f32_sm(80|90a)=|$)')
if grep -q '^CHECK|default|PASSED' <<<"$out" && [ -n "$impls" ] && [ -z "$others" ]; then
    echo "CHECK|f32flash_impls|pass|$impls" | tee -a "$LOG"
else
    echo "CHECK|f32flash_impls|fail|${impls:-none seen}" | tee -a "$LOG"
fi
timeout "$(budget 30)" python3 "$D"/sdpa_flash.py --bin "$D" --variants default --no-check \
    --rows 'f32 b1 h16 s1024 d64;f32 b1 h16 s1024 d80;f32 b1 h16 s1024 d256' 2>&1 \
    | tee -a "$LOG" | grep -E '^(ROW|GPU)'

# The statistics kernel's per-part stores (channels-last and blocked): forward without G and
# backward, channel tails.
CHECK_TIMEOUT=$(budget 15) benchdnn_check bnorm_flat_stats --bnorm --dir=FWD_D,BWD_DW \
    --flags=,CH,CHR --tag=axb,aBx16b mb2ic35ih5iw3 mb3ic17ih4iw4 mb1ic1ih1iw1 | tee -a "$LOG"
CHECK_TIMEOUT=$(budget 30) benchdnn_check reduction_smoke --batch=tests/inputs/reduction/smoke \
    | tee -a "$LOG"

left=$(budget 40)
if [ "$left" -ge 10 ]; then
    BWB_ROWS='^f32 (resampling (nearest|linear) 2x FWD_D|batch norm (FWD_I|FWD_D))' \
        OUT="$OUT" D="$D" timeout "$left" bash "$D"/run_bwb.sh rows | tee -a "$LOG"
else
    echo "SKIPPED|run_bwb.sh rows|no time left in the call" | tee -a "$LOG"
fi
echo "TIME|run_f32flash.sh|$((SECONDS - start)) s" | tee -a "$LOG"
