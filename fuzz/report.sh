#!/bin/sh
# Print, last, what a failed fuzz run left (fuzz/run.sh marks a failed
# harness in build/fuzz/failed/NAME): the sanitizer's or the harness's
# message and the crashing input in base64 (when it is small enough for a
# CI log's tail), so that a failure seen only in CI can be reproduced:
#   echo '<base64>' | base64 -d > crash && build/fuzz/fuzz_NAME crash
out=build/fuzz
for f in "$out"/failed/*; do
    [ -e "$f" ] || continue
    name=$(basename "$f")
    echo "=== fuzz $name FAILED; its log's key lines:"
    grep -E 'ERROR:|SUMMARY:|WK_FUZZ|#[0-9]+ 0x[0-9a-f]+ in ' "$out/logs/$name.log" | head -n 25
    for c in "$out/crashes/$name"/*; do
        [ -f "$c" ] || continue
        size=$(wc -c <"$c")
        echo "=== input $(basename "$c") ($size bytes):"
        if [ "$size" -le 6000 ]; then base64 -w 0 "$c"; echo; else echo "(too large to print)"; fi
    done
done
