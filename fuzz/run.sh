#!/bin/sh
# Run one libFuzzer harness: fuzz/run.sh NAME SECONDS [extra libFuzzer args].
# Inputs: build/fuzz/seeds/NAME (from fuzz/seeds.py) and the growing corpus
# build/fuzz/corpus/NAME; a crash is saved in build/fuzz/crashes/NAME/ and
# fails the run. The log is build/fuzz/logs/NAME.log.
set -eu
name=$1 seconds=$2
shift 2
out=build/fuzz
mkdir -p "$out/corpus/$name" "$out/crashes/$name" "$out/logs" "$out/seeds/$name" "$out/failed"
rm -f "$out/failed/$name"
dict=""
[ -f "fuzz/$name.dict" ] && dict="-dict=fuzz/$name.dict"
# fuzz/NAME.options: extra libFuzzer options for one harness (e.g. -max_len)
opts=""
[ -f "fuzz/$name.options" ] && opts=$(cat "fuzz/$name.options")
log="$out/logs/$name.log"
echo "fuzz $name: ${seconds}s (log $log)"
rc=0
ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:allocator_may_return_null=0 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
"$out/fuzz_$name" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=1024 \
  -max_len="${FUZZ_MAX_LEN:-16384}" -print_final_stats=1 $dict $opts \
  -artifact_prefix="$out/crashes/$name/" "$@" \
  "$out/corpus/$name" "$out/seeds/$name" >"$log" 2>&1 || rc=$?
grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb)|^#[0-9]+[[:space:]]+DONE' "$log" | sed "s/^/  $name /" || true
if [ "$rc" != 0 ]; then
    echo "fuzz $name FAILED (exit $rc); tail of $log:" >&2
    tail -n 40 "$log" >&2
    : >"$out/failed/$name"
    exit 1
fi
