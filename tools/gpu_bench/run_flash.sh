#!/bin/bash
# The flash attention kernels on an NVIDIA GPU, one device call (about 4 minutes at most):
# every variant checked against the double-precision reference (sdpa_flash.py, the test
# flash_variants_match_reference of anydnn_gpu_tests; f32pf flash_f32_match_reference), the
# default (pipe) first and, if it passes, timed against PyTorch's SDPA on bf16 causal s4096
# d128 and GQA, bf16 s1024 d64 without mask and f32 s1024 d64 (the default f32 kernel); then
# the f32 kernel's variant (f32pf), checked and timed on its row; then the other variants'
# checks while time is left (run_flash2.sh: the default alone, quicker). Prints
# sdpa_flash.py's lines:
#   CHECK|variant|PASSED or FAILED|impls|first failure
#   ROW|sdpa|variant|problem|our impl|ours ms|PyTorch ms|ratio|error
# and writes them to $OUT/flash.log. After tools/gpu_bench/prepare.sh build .dev-flash:
#   D=.dev-flash bash .dev-flash/run_flash.sh
D=${D:-.dev-int}
OUT=${OUT:-/tmp}
log=$OUT/flash.log
start=$SECONDS
# sdpa_flash.py with what is left of 285 seconds (a kernel that hangs costs no more than that).
py() {
    local left=$((285 - (SECONDS - start)))
    if [ "$left" -lt 15 ]; then
        echo "SKIPPED|sdpa_flash.py $*|no time left in the call" | tee -a "$log"
        return 1
    fi
    timeout "$left" python3 "$D/sdpa_flash.py" --bin "$D" "$@" 2>&1 | tee -a "$log"
    return 0
}
: > "$log"
# Only the variants that pass are timed; the likeliest ones first, in case time runs short.
ok=()
# variant [gtest case of graph_ocl_sdpa_causal_t, default flash_variants_match_reference]:
# sdpa_flash.py's CHECK line (not a benchdnn batch: benchdnn_check.sh does not apply).
check_variant() {
    local out
    out=$(py --variants "$1" --no-rows ${2:+--test graph_ocl_sdpa_causal_t.$2})
    echo "$out"
    if grep -q "^CHECK|$1|PASSED" <<<"$out"; then ok+=("$1"); fi
}
check_variant pipe
if [ ${#ok[@]} -gt 0 ]; then
    rows='bf16 b8 h32 s4096 d128, causal;GQA bf16 b8 h32 kv8 s4096 d128, causal'
    py --variants pipe --no-check --rows "$rows;f32 b1 h16 s1024 d64;bf16 b1 h16 s1024 d64"
fi
ok=()
check_variant f32pf flash_f32_match_reference
# f32 rows run for the first variant named.
if [ ${#ok[@]} -gt 0 ]; then py --variants f32pf --no-check --rows 'f32 b1 h16 s1024 d64'; fi
# The other variants share the softmax and the prologue and tail: checked only (their speed
# is unchanged), each while the call has time for it.
for v in wgmma wgmma_ps w4 w8 w4x2; do
    py --variants "$v" --no-rows
done
echo "TIME|run_flash.sh|$((SECONDS - start)) s" | tee -a "$log"
