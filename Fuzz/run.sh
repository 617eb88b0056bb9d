#!/usr/bin/env bash
# Builds the libFuzzer driver in its own scratch path and runs each harness for a bounded time and/or number
# of executions. Usage (from the repository root, normally through `make fuzz`):
#   Fuzz/run.sh [harness ...]        (default: every harness with a folder under Fuzz/Corpus)
# Environment: FUZZ_SECONDS (per harness, default 60), FUZZ_RUNS (per harness, default unlimited),
# FUZZ_SCRATCH (default .build-fuzz), SWIFT (default swift).
# The seed corpus in Fuzz/Corpus/<harness> is read, never written: new inputs go to
# $FUZZ_SCRATCH/corpus/<harness>, crashes and leaks to $FUZZ_SCRATCH/artifacts/<harness>/. One line per
# harness (executions, seconds, new units, findings) is appended to $FUZZ_SCRATCH/results.tsv and printed.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
SCRATCH=${FUZZ_SCRATCH:-.build-fuzz}
SECONDS_EACH=${FUZZ_SECONDS:-60}
RUNS=${FUZZ_RUNS:-}

# -sanitize=fuzzer instruments every module for coverage; address adds ASan and LeakSanitizer, so a leak
# or an out-of-bounds access is a finding like a trap. -enable-testing: the entry points reach internal API.
QUARTET_FUZZ=1 "$SWIFT" build -c release --scratch-path "$SCRATCH" --product quartet-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing
BIN="$SCRATCH/release/quartet-fuzz"

if [ $# -gt 0 ]; then harnesses=("$@"); else harnesses=($(ls Fuzz/Corpus)); fi
status=0
for h in "${harnesses[@]}"; do
  [ -d "Fuzz/Corpus/$h" ] || { echo "no seed corpus Fuzz/Corpus/$h" >&2; exit 2; }
  mkdir -p "$SCRATCH/corpus/$h" "$SCRATCH/artifacts/$h" "$SCRATCH/work/$h"
  log="$SCRATCH/artifacts/$h/last-run.log"
  args=(-max_total_time="$SECONDS_EACH" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048
        -artifact_prefix="$SCRATCH/artifacts/$h/")
  [ -n "$RUNS" ] && args+=(-runs="$RUNS")
  start=$(date +%s)
  set +e
  QUARTET_FUZZ_HARNESS="$h" QUARTET_FUZZ_WORKDIR="$SCRATCH/work/$h" \
    "$BIN" "${args[@]}" "$SCRATCH/corpus/$h" "Fuzz/Corpus/$h" >"$log" 2>&1
  rc=$?
  set -e
  elapsed=$(( $(date +%s) - start ))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  added=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  findings=$(find "$SCRATCH/artifacts/$h" -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' | wc -l)
  line=$(printf '%s\t%s\t%s\t%ss\t%s\t%s\trc=%s\t%s' "$(date -u +%FT%TZ)" "$h" "${runs:-?}" "$elapsed" "${cov:-?}" \
         "${added:-?}" "$rc" "$findings")
  echo "$line" | tee -a "$SCRATCH/results.tsv"
  if [ "$rc" -ne 0 ] || [ "$findings" -ne 0 ]; then
    echo "$h: finding, see $log and $SCRATCH/artifacts/$h/" >&2
    status=1
  fi
done
echo "columns: time harness executions seconds edges-covered new-units exit findings"
exit $status
