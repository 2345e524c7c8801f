#!/bin/sh
# Runs every fuzz target of BUILD (a clang ASan build) for SECONDS each, two at a time, at the
# lowest priority; corpora grow in BUILD/tests/fuzz/corpus/<target>, crashes land in
# BUILD/tests/fuzz/crashes/<target>. Prints each target's final statistics.
#   tests/fuzz/run_all.sh build-asan 600
set -u
build=${1:-build-asan}
seconds=${2:-600}
src=$(cd "$(dirname "$0")" && pwd)
out=$build/tests/fuzz
targets="memory_desc primitive cache_blob graph_api graph_json batch_file"

run_one() {
    t=$1
    mkdir -p "$out/corpus/$t" "$out/crashes/$t"
    OMP_NUM_THREADS=1 nice -n 19 "$out/fuzz_$t" -max_total_time="$seconds" -timeout=30 \
        -rss_limit_mb=3072 -print_final_stats=1 -artifact_prefix="$out/crashes/$t/" \
        "$out/corpus/$t" "$src/corpus/$t" > "$out/$t.log" 2>&1
    rc=$?
    echo "== $t (exit $rc)"
    grep -E '^stat::|DONE|ERROR|SUMMARY' "$out/$t.log" | tail -12
    return $rc
}

set -- $targets
status=0
while [ $# -gt 0 ]; do
    run_one "$1" &
    a=$!
    b=""
    if [ $# -gt 1 ]; then
        run_one "$2" &
        b=$!
    fi
    wait $a || status=1
    if [ -n "$b" ]; then wait $b || status=1; fi
    shift
    if [ $# -gt 0 ]; then shift; fi
done
exit $status
