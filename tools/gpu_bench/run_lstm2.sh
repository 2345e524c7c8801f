#!/bin/bash
# LSTM f32 forward (issue 14's row: 50 steps, mb64, 512 channels, FWD_I) on an NVIDIA GPU in
# one device call of about a minute and a half:
# 1. correctness (benchdnn --mode=C: double-precision reference, outputs poisoned) of the fused
#    one-launch LSTM step (op_tuning's rnn_fused) under each tile variant timed below, on the
#    timed shape in few steps, one row, odd channels (tails in rows, channels and K), one
#    step, inference and training, bidirectional with peepholes and two layers; verbose
#    dispatch shows the fused kernel chosen;
# 2. timing of the row per variant against PyTorch (cuDNN, TF32 off), lstm2_rows.py: the
#    table as built, K split into 8 slices or none (the two-launch steps), and the fused step
#    with several tiles, loading the next chunk after (rnn_fused=1) or before (2) the products.
# Prints CHECK|name|pass/fail|detail and ROW|problem|impl|ours ms|torch ms|ratio lines (ratio
# = PyTorch's time / ours), everything into $OUT/run_lstm2.log too.
#   tools/gpu_bench/prepare.sh build .dev-int      (here), then on the GPU machine:
#   D=.dev-int bash .dev-int/run_lstm2.sh
D=${D:-.dev-int}
OUT=${OUT:-/tmp}
LOG=$OUT/run_lstm2.log
: > "$LOG"
export LD_LIBRARY_PATH=$PWD/$D${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ANYDNN_OCL_DEVICE=${ANYDNN_OCL_DEVICE:-NVIDIA}
BD="timeout 60 $D/benchdnn --engine=gpu --mode=C --rnn --alg=VANILLA_LSTM"
FUSED=("ops:rnn_fused=1"
    "ops:rnn_fused=1,rnn_fused_cols=4"
    "ops:rnn_fused=1,rnn_fused_rows=64,rnn_fused_cols=4"
    "ops:rnn_fused=1,rnn_fused_rows=16"
    "ops:rnn_fused=2"
    "ops:rnn_fused=2,rnn_fused_cols=4")
say() { echo "$@" | tee -a "$LOG"; }
# One CHECK line from a benchdnn run's output: pass when nothing failed and something passed.
verdict() {
    local name=$1 out=$2 summary fused
    echo "$out" >> "$LOG"
    summary=$(echo "$out" | grep -E "^tests:" | tail -1)
    fused=$(echo "$out" | grep -o "lstm forward steps [^,]*" | sort -u | head -1)
    if echo "$summary" | grep -qE "failed:0" && ! echo "$summary" | grep -qE "passed:0 " \
        && ! echo "$out" | grep -qE "FAILED|MISTRUSTED"; then
        say "CHECK|$name|pass|$summary|$fused"
    else
        say "CHECK|$name|fail|$summary|$fused $(echo "$out" | grep -E "FAILED|MISTRUSTED" | head -2 | cut -c1-200)"
    fi
}
for v in "${FUSED[@]}"; do
    export ANYDNN_GPU_TUNING=$v ONEDNN_VERBOSE=dispatch
    verdict "lstm $v" "$($BD --prop=FWD_I,FWD_D l1t4mb64sic512slc512dhc512dic512 \
        l1t3mb1sic512slc300dhc512dic512 l1t3mb7sic200slc130dhc200dic200 \
        l1t1mb3sic200slc64dhc200dic200 l1t2mb70sic100slc37dhc100dic100 \
        --prop=FWD_D --direction=concat --with-peephole=true l2t3mb33sic72slc72dhc72dic72 2>&1)"
done
unset ANYDNN_GPU_TUNING ONEDNN_VERBOSE
python3 "$D"/lstm2_rows.py --bin "$D" "" "ops:rnn_split_elems=8192" "ops:rnn_split_elems=0" \
    "${FUSED[@]}" 2>&1 | tee -a "$LOG" | grep -E '^(GPU|ROW)'
