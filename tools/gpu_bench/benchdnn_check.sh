# Sourced by the device scripts (run_*.sh), not run. What they share:
# device_setup NAME: the environment of a run on the GPU machine from the checkout's root: D
#   (the folder tools/gpu_bench/prepare.sh filled; set it, or the script's default, before
#   sourcing this file from it), OUT (default /tmp, made if missing, absolute), LOG =
#   $OUT/NAME.log emptied, the library from D, ANYDNN_OCL_DEVICE NVIDIA unless set.
# benchdnn_check NAME ARGS...: benchdnn --engine=gpu --mode=C (double-precision reference,
#   output poisoned) on ARGS, its output appended to $LOG, and one line
#     CHECK|NAME|pass or fail|benchdnn's summary|impls: what ran
#   pass only where every problem passed (none failed, skipped or unimplemented).
#   CHECK_TIMEOUT (seconds, default 120) bounds the batch; CHECK_WANT (a grep pattern) adds
#   the dispatch lines (ONEDNN_VERBOSE=dispatch) and counts those naming it: "; N launches on
#   'CHECK_WANT'" (a kernel configuration or plan the batch is meant to run).
# The timed rows print ROW|problem|impl|ours ms|PyTorch ms|ratio (rows_*.py, *_rows.py).

device_setup() {
    OUT=$(mkdir -p "${OUT:-/tmp}" && cd "${OUT:-/tmp}" && pwd)
    LOG=$OUT/$1.log
    : >"$LOG"
    local lib=$D
    [[ $lib == /* ]] || lib=$PWD/$D
    export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export ANYDNN_OCL_DEVICE=${ANYDNN_OCL_DEVICE:-NVIDIA}
}

benchdnn_check() {
    local name=$1
    shift
    local verbose=exec out
    [ -n "${CHECK_WANT:-}" ] && verbose=exec,dispatch
    out=$(ONEDNN_VERBOSE=$verbose timeout "${CHECK_TIMEOUT:-120}" "$D"/benchdnn --engine=gpu \
        --mode=C --verbose=1 "$@" 2>&1)
    [ $? -eq 124 ] && out="$out
timed out after ${CHECK_TIMEOUT:-120} s"
    echo "== $name [${ANYDNN_GPU_TUNING:-table}]: $*" >>"$LOG"
    echo "$out" >>"$LOG"
    local summary impls hits=""
    summary=$(echo "$out" | grep -E '^tests:' | tail -1)
    impls=$(echo "$out" | grep -oE '^onednn_verbose,[^,]*,primitive,exec,[^,]*,[^,]*,[^,]*' \
        | awk -F, '{print $7}' | sort -u | tr '\n' ' ')
    if [ -n "${CHECK_WANT:-}" ]; then
        hits="; $(echo "$out" | grep -E ':dispatch' | grep -c -- "$CHECK_WANT") launches on"
        hits="$hits '$CHECK_WANT'"
    fi
    local tests passed
    tests=$(echo "$summary" | sed -n 's/^tests:\([0-9]*\) .*/\1/p')
    passed=$(echo "$summary" | sed -n 's/.* passed:\([0-9]*\) .*/\1/p')
    if [ -n "$tests" ] && [ "$tests" != 0 ] && [ "$tests" = "$passed" ]; then
        echo "CHECK|$name|pass|$summary$hits|impls: $impls"
    else
        summary=${summary:-$(echo "$out" | tail -2 | tr '\n' ' ' | cut -c1-200)}
        echo "CHECK|$name|fail|$summary$hits|impls: $impls"
    fi
}
