"""Time per expression through the Python API, over a corpus in the batch format.

    PYTHONPATH=build/python /usr/bin/python3 scripts/api_cost.py ../shared/corpus/external/halide.jsonl

Prints the median and 99th percentile of one `eqsat.simplify` call per case (text in,
Expr out; the rules are loaded once, on the first call), for docs/integration.md.
"""
import json
import statistics
import sys
import time

import eqsat

cases = [json.loads(line) for line in open(sys.argv[1])]
eqsat.simplify("x + 0")  # load the catalogue once
times = []
for case in cases:
    bounds = {k: tuple(v) for k, v in case.get("bounds", {}).items()}
    start = time.perf_counter()
    eqsat.simplify(case["input"], vars=case.get("vars"), bounds=bounds, assume=case.get("assume", []))
    times.append((time.perf_counter() - start) * 1e6)
times.sort()
print(f"{len(times)} cases: median {statistics.median(times):.1f} us, p99 {times[int(len(times) * 0.99)]:.1f} us")
