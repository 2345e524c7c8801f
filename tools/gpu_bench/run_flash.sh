#!/bin/bash
# The flash attention kernels on an NVIDIA GPU, one device call (about 4 minutes at most):
# every variant checked against the double-precision reference (sdpa_flash.py, the test
# flash_variants_match_reference of anydnn_gpu_tests), the default (pipe) and the
# warp-specialized ones (ws, ws3) first, then those variants timed against PyTorch's SDPA on
# the goal rows (bf16 causal s4096 d128, GQA, bf16 s1024 d64 without mask, f32 s1024 d64),
# then the other variants' checks while time is left. Prints sdpa_flash.py's lines:
#   CHECK|variant|PASSED or FAILED|impls|first failure
#   ROW|sdpa|variant|problem|our impl|ours ms|PyTorch ms|ratio|error
# and writes them to $OUT/flash.log. After tools/gpu_bench/prepare.sh build .dev-flash:
#   D=.dev-flash bash .dev-flash/run_flash.sh
D=${D:-.dev-int}
OUT=${OUT:-/tmp}
log=$OUT/flash.log
start=$SECONDS
py() { python3 "$D/sdpa_flash.py" --bin "$D" "$@" 2>&1 | tee -a "$log"; }
: > "$log"
py --variants pipe,ws,ws3 --no-rows
py --variants pipe,ws,ws3 --no-check \
    --rows 'bf16 b8 h32 s4096 d128, causal;GQA bf16 b8 h32 kv8 s4096 d128, causal;bf16 b1 h16 s1024 d64;f32 b1 h16 s1024 d64'
# The other variants share the softmax and the prologue and tail: checked only (unchanged in
# speed), each while the call has time for it.
for v in wgmma wgmma_ps pipe3 w4 w8 w4x2; do
    left=$((270 - (SECONDS - start)))
    if [ "$left" -lt 20 ]; then
        echo "CHECK|$v|SKIPPED|-|no time left in the call" | tee -a "$log"
        continue
    fi
    timeout "$left" python3 "$D/sdpa_flash.py" --bin "$D" --variants "$v" --no-rows 2>&1 | tee -a "$log"
done
echo "TIME|run_flash.sh|$((SECONDS - start)) s" | tee -a "$log"
