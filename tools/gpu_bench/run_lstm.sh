#!/bin/bash
# Branch s11-lstm on an NVIDIA GPU that loads sm_90a PTX, one device call (about 90 s):
#   tools/gpu_bench/prepare.sh build .dev-lstm   (here), then on the GPU machine:
#   D=.dev-lstm bash .dev-lstm/run_lstm.sh
# 1. The persistent LSTM forward (gpu/rnn/persistent.hpp) forced on (ops:rnn_persistent=1)
#    through benchdnn --mode=C (double-precision reference, output poisoned): the timed shape
#    at 4 steps, mb1, mb7 and odd channels, two layers, every direction, two passes of items
#    (mb1100), the largest weights slice that fits (768 channels), gpu_vs_torch.py's LSTM
#    checks; each line counts the launches the persistent kernel was chosen for. A shape
#    whose slice does not fit (1024 channels) must take the per-step path and pass too.
# 2. The GPU gtests of LSTM inference, some without src_iter / src_iter_c / dst_iter /
#    dst_iter_c (tests/gpu/rnn_test.cpp), with the kernel on.
# 3. The default (the tuning table as built) picks it for the timed shape (verbose dispatch).
# 4. ROW lines: t50 mb64 512 FWD_I against PyTorch (cuDNN), persistent on and off, twice
#    each, interleaved (each ROW a median of benchdnn's and torch's repeats).
# Log: $OUT/lstm.log.
D=${D:-.dev-lstm}
. "$D"/benchdnn_check.sh
device_setup lstm
CHECK_TIMEOUT=30
start=$SECONDS
left() { echo $((90 - (SECONDS - start))); }

echo "GPU|$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)" \
    | tee -a "$LOG"

# A batch that was to run the persistent kernel but never chose it fails.
chosen() { sed "s/|pass|\(.*; 0 launches on 'rnn,lstm persistent\)/|fail|\1/"; }

ON="ops:rnn_persistent=1"
OFF="ops:rnn_persistent=0"
LSTM="--rnn --prop=FWD_I --alg=VANILLA_LSTM"
export CHECK_WANT="rnn,lstm persistent: chosen"
ANYDNN_GPU_TUNING=$ON benchdnn_check lstm-persistent-shapes $LSTM \
    l1t4mb64sic512slc512dhc512dic512 l1t3mb1sic512slc300dhc512dic512 \
    l1t3mb7sic200slc130dhc200dic200 l1t1mb3sic200slc64dhc200dic200 \
    l1t5mb5sic37slc19dhc37dic37 l1t3mb5sic64slc64dhc64dic64 l2t3mb9sic100slc100dhc100dic100 \
    l1t2mb1100sic64slc64dhc64dic64 l1t2mb33sic768slc768dhc768dic768 | chosen | tee -a "$LOG"
ANYDNN_GPU_TUNING=$ON benchdnn_check lstm-persistent-directions $LSTM \
    --direction=right2left,concat,sum l2t4mb7sic40slc40dhc40dic40 l1t3mb64sic512slc512dhc512dic512 \
    | chosen | tee -a "$LOG"
export CHECK_WANT="rnn,lstm per-step"
ANYDNN_GPU_TUNING=$ON benchdnn_check lstm-slice-too-big-per-step $LSTM \
    l1t2mb8sic1024slc64dhc1024dic1024 | tee -a "$LOG"
unset CHECK_WANT

# 2. The gtests (optional states absent), counting the persistent launches.
if [ -x "$D"/anydnn_gpu_tests ]; then
    out=$(ANYDNN_GPU_TUNING=$ON ONEDNN_VERBOSE=dispatch timeout 30 "$D"/anydnn_gpu_tests \
        --gtest_filter='cells/rnn_gpu.forward_inference_matches_reference/lstm*' 2>&1)
    echo "$out" >>"$LOG"
    n=$(echo "$out" | grep -c 'rnn,lstm persistent: chosen')
    ok=$(echo "$out" | grep -q '^\[  PASSED  \]' && ! echo "$out" | grep -q '^\[  FAILED  \]' \
        && [ "$n" -gt 0 ] && echo pass || echo fail)
    echo "CHECK|lstm-gtests-optional-states|$ok|$(echo "$out" | grep -E '^\[  (PASSED|FAILED)  \]' \
        | head -2 | tr '\n' ' ')persistent chosen $n times" | tee -a "$LOG"
else
    echo "CHECK|lstm-gtests-optional-states|fail|no anydnn_gpu_tests in $D" | tee -a "$LOG"
fi

# 3. The table's default for the timed shape.
line=$(ONEDNN_VERBOSE=dispatch timeout 20 "$D"/benchdnn --engine=gpu --mode=P \
    --max-ms-per-prb=10 $LSTM l1t50mb64sic512slc512dhc512dic512 2>&1 \
    | grep -E 'create:dispatch,rnn,lstm' | head -1)
echo "$line" >>"$LOG"
ok=$(echo "$line" | grep -q 'persistent: chosen' && echo pass || echo fail)
echo "CHECK|lstm-default-picks-persistent|$ok|${line#*create:dispatch,}" | cut -c1-300 \
    | tee -a "$LOG"

# 4. The timed row, persistent on and off.
for round in 1 2; do
    for v in $ON $OFF; do
        [ "$(left)" -lt 12 ] && break 2
        ANYDNN_GPU_TUNING=$v timeout "$(left)" python3 "$D"/gpu_vs_torch.py --bin "$D" \
            --only lstm 2>&1 | grep '^ROW' | sed "s/^ROW|/ROW|$v #$round|/" | tee -a "$LOG"
    done
done
echo "DONE|$((SECONDS - start)) s" | tee -a "$LOG"
