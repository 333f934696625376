#!/usr/bin/env python3
# Generates a kernel of about N statements for timing `eqsat simplify` (docs/simplify-pass.md):
#   scripts/gen_simplify_bench.py 100000 > k.py && /usr/bin/time -v build/bin/eqsat simplify k.py > /dev/null
import sys
n = int(sys.argv[1])
lines = ["def kernel(x: Scalar[INDEX], n: Scalar[INDEX]) -> Scalar[INDEX]:"]
i = 0; k = 0
while i < n:
    lines += [f"    c{k}: Scalar[INDEX] = {k % 7 + 1}",
              f"    for i{k} in range(0, 64, c{k}):",
              f"        off{k}: Scalar[INDEX] = i{k} * 256 + 256",
              f"        if off{k} == 0:",
              f"            first(off{k})",
              f"        else:",
              f"            later(off{k} + 0, x * 1 + c{k})"]
    i += 7; k += 1
lines.append("    return x")
print("\n".join(lines))
