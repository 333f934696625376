#!/usr/bin/env bash
# Compares two builds of eqsat on one standard workload, on a machine whose speed
# drifts: the binaries run alternately (A, B, A, B, ...), so that a slow stretch of the
# machine falls on both, and the comparison is the median of the paired ratios B/A,
# not of two series taken at different times (docs/performance.md, session 9).
#
#   scripts/compare_binaries.sh OLD_EQSAT NEW_EQSAT [RUNS] [WORKLOAD] [THREADS]
#   scripts/compare_binaries.sh /tmp/eqsat.main build/bin/eqsat 15 "sum 10"
#
# Prints, for each binary, the median of the run's time and of its phases (ms), then
# the median paired ratio B/A of each. A ratio under 1 means the second binary is
# faster. One-thread runs are pinned to one core (EQSAT_COMPARE_CORE, default 0): the
# cores of a virtual machine need not run alike (docs/performance.md, "Cores of unequal
# speed"), and runs that land on either at random compare the cores, not the binaries.
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,15p' "$0" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
old=$1 new=$2 runs=${3:-15} workload=${4:-sum 10} threads=${5:-1}
for binary in "$old" "$new"; do
  [ -x "$binary" ] || { echo "compare_binaries.sh: $binary: not an executable" >&2; exit 2; }
done
saturate=(saturate --rules "$root/bench/workloads.rules" --no-default-rules --scheduler simple
  --node-limit 1000000 --iter-limit 1000 --time-limit 600 --report --threads "$threads" --workload "$workload")
pin=()
[ "$threads" = 1 ] && pin=(taskset -c "${EQSAT_COMPARE_CORE:-0}")
for _ in $(seq "$runs"); do
  echo "A $("${pin[@]}" "$old" "${saturate[@]}")"
  echo "B $("${pin[@]}" "$new" "${saturate[@]}")"
done | python3 -c '
import json, statistics, sys
runs = {"A": [], "B": []}
for line in sys.stdin:
    which, report = line.split(" ", 1)
    runs[which].append(json.loads(report))
phases = ["seconds", "search_seconds", "filter_seconds", "apply_seconds", "rebuild_seconds"]
name = lambda phase: phase.replace("_seconds", "") if phase != "seconds" else "total"
for which in "AB":
    print(which, " ".join(f"{name(p)}={1e3 * statistics.median(r[p] for r in runs[which]):.1f}" for p in phases))
ratio = lambda p: statistics.median(b[p] / a[p] for a, b in zip(runs["A"], runs["B"]) if a[p] > 0)
print("B/A", " ".join(f"{name(p)}={ratio(p):.3f}" for p in phases))
'
