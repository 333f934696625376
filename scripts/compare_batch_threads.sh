#!/usr/bin/env bash
# Compares two builds of eqsat on a batch of the external corpora, on one and on two
# threads, on a machine whose speed drifts: each round runs OLD on one thread, OLD on
# two, NEW on one, NEW on two, so that a slow stretch falls on all four, and the
# figures are medians over the rounds (docs/performance.md, "The batch's threads
# without TBB").
#
#   scripts/compare_batch_threads.sh OLD_EQSAT NEW_EQSAT [ROUNDS]
#   scripts/compare_batch_threads.sh /tmp/eqsat.main build/bin/eqsat 30
#
# Prints each binary's median wall time on one and two threads (ms, the process from
# start to exit, output to /dev/null) and the median of its rounds' speedups, then
# the median paired ratios NEW/OLD. A ratio under 1 means NEW is faster.
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,13p' "$0" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${EQSAT_SHARED_DIR:-$root/../shared}
old=$1 new=$2 rounds=${3:-30}
for binary in "$old" "$new"; do
  [ -x "$binary" ] || { echo "compare_batch_threads.sh: $binary: not an executable" >&2; exit 2; }
done
input=$(mktemp)
trap 'rm -f "$input"' EXIT
cat "$shared"/corpus/external/*.jsonl >"$input"
python3 - "$old" "$new" "$rounds" "$input" <<'EOF'
import statistics, subprocess, sys, time
old, new, rounds, input_path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]

def run(binary, threads):
    start = time.perf_counter()
    subprocess.run([binary, "batch", "--threads", threads, input_path], stdout=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - start) * 1e3

times = {key: [] for key in ("old1", "old2", "new1", "new2")}
for _ in range(rounds):
    for name, binary in (("old", old), ("new", new)):
        for threads in ("1", "2"):
            times[name + threads].append(run(binary, threads))
med = statistics.median
for name in ("old", "new"):
    one, two = times[name + "1"], times[name + "2"]
    print(f"{name}: 1 thread {med(one):.1f} ms, 2 threads {med(two):.1f} ms, "
          f"speedup {med(a / b for a, b in zip(one, two)):.3f}")
for threads in ("1", "2"):
    ratio = med(b / a for a, b in zip(times["old" + threads], times["new" + threads]))
    print(f"new/old on {threads} thread(s): {ratio:.3f} (paired, {rounds} rounds)")
EOF
