#!/usr/bin/env bash
# The README's first command: build eqsat and simplify the bundled example batch.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" "$root/build" >&2
echo "\$ build/bin/eqsat batch examples/index_arith.jsonl" >&2
"$root/build/bin/eqsat" batch "$root/examples/index_arith.jsonl"
