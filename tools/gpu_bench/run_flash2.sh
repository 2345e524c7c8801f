#!/bin/bash
# The default flash attention kernel where sm_90a PTX loads (the pipelined wgmma entries,
# sdpa:ocl:flash_wgmma_pipe_sm90a) on an NVIDIA GPU, one device call of at most 90 seconds:
# checked against the double-precision reference (sdpa_flash.py --test: the quick test
# flash_wgmma_quick_match_reference of anydnn_gpu_tests, bf16 and f16, head sizes 64 and 128,
# causal and GQA), then, if it passed, timed against PyTorch's SDPA on bf16 b8 h32 s4096 d128
# causal and GQA 32/8 heads, then checked by the full flash_variants_match_reference with the
# time left. Prints sdpa_flash.py's lines, the checks named by their test:
#   CHECK|default quick or default full|PASSED, FAILED or TIMEOUT|impls|first failure
#   ROW|sdpa|default|problem|our impl|ours ms|PyTorch ms|ratio|error
# and writes them to $OUT/flash2.log. After tools/gpu_bench/prepare.sh build .dev-flash:
#   D=.dev-flash bash .dev-flash/run_flash2.sh
D=${D:-.dev-int}
OUT=${OUT:-/tmp}
log=$OUT/flash2.log
start=$SECONDS
budget=${FLASH2_BUDGET:-88}
# sdpa_flash.py on the default variant with at most $1 seconds of what is left of the budget
# (a kernel that hangs costs no more than that); $2 names its CHECK lines.
py() {
    local cap=$1 name=$2
    shift 2
    local left=$((budget - (SECONDS - start)))
    if [ "$left" -gt "$cap" ]; then left=$cap; fi
    if [ "$left" -lt 8 ]; then
        echo "SKIPPED|sdpa_flash.py $*|no time left in the call" | tee -a "$log"
        return 1
    fi
    # The checks stop on their own a few seconds early (--timeout), so that they say so.
    timeout "$left" python3 "$D/sdpa_flash.py" --bin "$D" --variants default \
        --timeout $((left - 4)) "$@" 2>&1 | sed -u "s/^CHECK|default|/CHECK|$name|/" \
        | tee -a "$log"
}
: > "$log"
out=$(py 30 "default quick" --no-rows \
    --test graph_ocl_sdpa_causal_t.flash_wgmma_quick_match_reference)
echo "$out"
if grep -q "^CHECK|default quick|PASSED" <<<"$out"; then
    # 300 ms of kernels per row (about 100 runs of 3 ms).
    py 45 "default" --no-check --max-ms 300 \
        --rows 'bf16 b8 h32 s4096 d128, causal;GQA bf16 b8 h32 kv8 s4096 d128, causal'
fi
py 60 "default full" --no-rows
echo "TIME|run_flash2.sh|$((SECONDS - start)) s" | tee -a "$log"
