#!/bin/bash
# The pipelined wgmma flash kernel's candidates on an NVIDIA GPU, one device call (under 2
# minutes): each checked against the double-precision reference (sdpa_flash.py --test, the
# test flash_wgmma_quick_match_reference of anydnn_gpu_tests: bf16 and f16, head sizes 64 and
# 128, causal and GQA), then the default (pipe) and the candidates that passed timed against
# PyTorch's SDPA on bf16 b8 h32 s4096 d128 causal and GQA 32/8 heads. Candidates
# (ANYDNN_SDPA_FLASH_WGMMA, cuda/flash_attention_sm90_try.cu): pipen (lean K, V copies),
# pipell (and issued after the wgmma), pipelle (and 3 of 16 chunks of exponentials on the
# FMA units); pipe_h4, pipell_h4: ANYDNN_SDPA_FLASH_ORDER=4 (launch order walking 4 heads).
# Prints sdpa_flash.py's lines:
#   CHECK|variant|PASSED or FAILED|impls|first failure
#   ROW|sdpa|variant|problem|our impl|ours ms|PyTorch ms|ratio|error
# and writes them to $OUT/flash2.log. After tools/gpu_bench/prepare.sh build .dev-flash:
#   D=.dev-flash bash .dev-flash/run_flash2.sh
D=${D:-.dev-int}
OUT=${OUT:-/tmp}
log=$OUT/flash2.log
start=$SECONDS
budget=${FLASH2_BUDGET:-115}
# sdpa_flash.py with what is left of the budget (a kernel that hangs costs no more than that),
# at most $cap seconds.
cap=$budget
py() {
    local left=$((budget - (SECONDS - start)))
    if [ "$left" -gt "$cap" ]; then left=$cap; fi
    if [ "$left" -lt 10 ]; then
        echo "SKIPPED|sdpa_flash.py $*|no time left in the call" | tee -a "$log"
        return 1
    fi
    timeout "$left" python3 "$D/sdpa_flash.py" --bin "$D" "$@" 2>&1 | tee -a "$log"
    return 0
}
: > "$log"
# The checks take at most half the budget: a candidate whose check did not finish is not timed.
cap=$((budget / 2))
out=$(py --variants pipell,pipelle,pipell_h4,pipen --no-rows \
    --test graph_ocl_sdpa_causal_t.flash_wgmma_quick_match_reference)
echo "$out"
cap=$budget
passed() { grep -q "^CHECK|$1|PASSED" <<<"$out"; }
# pipe_h4 is pipe's kernel with pipell_h4's launch order.
causal=(pipe) gqa=(pipe)
for v in pipell pipelle; do
    if passed $v; then causal+=($v) gqa+=($v); fi
done
if passed pipen; then causal+=(pipen); fi
if passed pipell_h4; then gqa+=(pipe_h4 pipell_h4); fi
# 300 ms of kernels per row and variant (about 100 runs of 3 ms).
py --variants "$(IFS=,; echo "${causal[*]}")" --no-check --max-ms 300 \
    --rows 'bf16 b8 h32 s4096 d128, causal'
py --variants "$(IFS=,; echo "${gqa[*]}")" --no-check --max-ms 300 \
    --rows 'GQA bf16 b8 h32 kv8 s4096 d128, causal'
echo "TIME|run_flash2.sh|$((SECONDS - start)) s" | tee -a "$log"
