#!/usr/bin/env bash
# Run the libFuzzer targets one after another (the machine may have few cores).
#
#   cmake --preset fuzz && cmake --build --preset fuzz
#   tests/fuzz/run.sh [-t SECONDS] [-T SECONDS] [--merge] [TARGET...]
#
# TARGET is a name such as units or calc_model (default: every fuzz_* built). Each runs for
# SECONDS (default 90) on a work corpus build/fuzz/work/<target> seeded from
# tests/fuzz/corpus/<target>; crashes go to build/fuzz/artifacts/<target>/. With --merge,
# the inputs that add coverage are merged back into tests/fuzz/corpus/<target> (libFuzzer
# -merge=1 keeps the corpus small). -T is libFuzzer's -timeout, the longest one input may
# take (default 2 s: every call is meant to answer within 100 ms, so a slow input is a
# finding, written as a timeout-* file). Prints one line per target: executions and findings.
# Exit status 1 when any target found something.
set -u
cd "$(dirname "$0")/../.."
seconds=90
timeout=2
merge=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    -t) seconds=$2; shift 2 ;;
    -T) timeout=$2; shift 2 ;;
    --merge) merge=1; shift ;;
    *) targets+=("$1"); shift ;;
  esac
done
bin=build/fuzz/tests/fuzz
if [ ${#targets[@]} -eq 0 ]; then
  for f in "$bin"/fuzz_*; do targets+=("$(basename "$f" | sed 's/^fuzz_//')"); done
fi
found=0
for t in "${targets[@]}"; do
  exe="$bin/fuzz_$t"
  [ -x "$exe" ] || { echo "$t: $exe not built (cmake --build --preset fuzz)"; found=1; continue; }
  work="build/fuzz/work/$t" art="build/fuzz/artifacts/$t"
  mkdir -p "$work" "$art"
  log="build/fuzz/$t.log"
  "$exe" -max_total_time="$seconds" -timeout="$timeout" -print_final_stats=1 \
    -artifact_prefix="$art/" \
    "$work" "tests/fuzz/corpus/$t" > "$log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$')
  cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
  crashes=$(find "$art" -type f | wc -l)
  echo "$t: ${execs:-?} executions in ${seconds}s (${cov:-cov: ?}), exit $rc, $crashes finding(s) in $art"
  [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ] && found=1
  if [ "$merge" -eq 1 ]; then
    "$exe" -merge=1 "tests/fuzz/corpus/$t" "$work" > "build/fuzz/$t.merge.log" 2>&1
  fi
done
exit $found
