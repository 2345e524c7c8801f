# Sourced by the device scripts (run_bwb.sh, run_f32flash.sh), not run: benchdnn_check NAME
# ARGS... runs benchdnn --engine=gpu --mode=C (double-precision reference) on ARGS, appends its
# output to $LOG and prints CHECK|NAME|pass or fail|benchdnn's summary|impls: what ran.
# Needs D (the prepared folder) and LOG; CHECK_TIMEOUT (seconds, default 120) bounds a batch.
benchdnn_check() {
    local name=$1
    shift
    local out
    out=$(ONEDNN_VERBOSE=exec timeout "${CHECK_TIMEOUT:-120}" "$D"/benchdnn --engine=gpu --mode=C \
        --verbose=1 "$@" 2>&1)
    [ $? -eq 124 ] && out="$out
timed out after ${CHECK_TIMEOUT:-120} s"
    echo "== $name: $*" >>"$LOG"
    echo "$out" >>"$LOG"
    local summary impls
    summary=$(echo "$out" | grep -E '^tests:' | tail -1)
    impls=$(echo "$out" | grep -oE '^onednn_verbose,[^,]*,primitive,exec,[^,]*,[^,]*,[^,]*' \
        | awk -F, '{print $7}' | sort -u | tr '\n' ' ')
    if echo "$summary" | grep -q 'failed:0' && ! echo "$summary" | grep -q 'passed:0 '; then
        echo "CHECK|$name|pass|$summary|impls: $impls"
    else
        echo "CHECK|$name|fail|${summary:-$(echo "$out" | tail -2 | tr '\n' ' ')}|impls: $impls"
    fi
}
