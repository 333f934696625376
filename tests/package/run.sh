#!/usr/bin/env bash
# The outside-project test of issue "packaging": install eqsat from BUILD_DIR into a
# fresh prefix, build tests/package/consumer against it with find_package(eqsat), run
# it, and compare its output with what a user of the package must get.
#   tests/package/run.sh BUILD_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build_dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
test -x "$work/prefix/bin/eqsat"
cmake -S "$root/tests/package/consumer" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/consumer" > "$work/got.txt"
cat > "$work/want.txt" <<'WANT'
(ko * 8 + ki) % 8 -> ki (cost 1, minimal)
def kernel(n: Scalar[INDEX]):
    store(0)
    for j in range(0, n):
        load(truncdiv(j, 8))
rules installed: 1
profiles installed: 1
WANT
diff -u "$work/want.txt" "$work/got.txt"
# The installed tool runs from anywhere (its catalogue is built in).
echo '{"input": "x * 1 + 0"}' | "$work/prefix/bin/eqsat" batch - | grep -q '"output": "x"'
echo "package test: ok"
