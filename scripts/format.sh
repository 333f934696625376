#!/usr/bin/env bash
# Formats every C++ file of the project with clang-format (.clang-format: Google style,
# 120 columns). `scripts/format.sh --check` changes nothing and exits 1 if a file would
# change (for a pre-commit check).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# Tracked files and new ones not yet added (but not what .gitignore leaves out): a file
# written in this change is checked before its first commit, not after it.
mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.cpp' '*.h')
if [ "${1:-}" = "--check" ]; then
  clang-format --dry-run --Werror "${files[@]}"
else
  clang-format -i "${files[@]}"
fi
