#!/usr/bin/env bash
# The README's second command, and what CI runs: build and run the whole test suite,
# check that the rule lock is current and that Z3 proves every rule of the catalogue,
# run the differential fuzzer on 2000 fixed-seed cases, then build and test again
# under AddressSanitizer + UndefinedBehaviorSanitizer.
#   scripts/test.sh            everything
#   scripts/test.sh --no-asan  skip the sanitizer build (a quicker local check)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
start=$SECONDS
# Each phase's header says how long the run has taken so far (CI has a time budget).
phase() { echo "== [$((SECONDS - start)) s] $*"; }

run_suite() {
  local build_dir=$1
  shift
  "$root/scripts/build.sh" "$build_dir" "$@"
  (cd "$build_dir" && ctest --output-on-failure --parallel "$jobs" --timeout 1200)
}

phase "build and test (build/)"
run_suite "$root/build"

phase "the rule lock matches the catalogue (rules/rules.lock)"
"$root/build/bin/eqsat" verify-rules --check-lock
phase "every rule of the catalogue is proved sound by Z3"
# A generous per-proof timeout: a few division rules take several seconds on a loaded
# 2-core machine, and an "unknown" fails the run.
"$root/build/bin/eqsat" verify-rules --no-progress -j "$jobs" --timeout 60 > "$root/build/verify-rules.txt" ||
  { cat "$root/build/verify-rules.txt"; exit 1; }
tail -n 1 "$root/build/verify-rules.txt"
phase "differential fuzzing: 2000 fixed-seed random cases, each result proved equal by Z3"
# Prints minimized reproducers (batch format) and exits 1 on any failing case.
"$root/build/bin/eqsat" fuzz --seed 1 --cases 2000 -j "$jobs" --timeout 5 --no-progress

if [ "${1:-}" != "--no-asan" ]; then
  phase "build and test with ASan+UBSan (build-asan/)"
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  # The benchmarks are built (and so kept compiling) by the first build; not again here.
  run_suite "$root/build-asan" -DEQSAT_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DEQSAT_BUILD_BENCH=OFF
fi
phase "all tests passed"
