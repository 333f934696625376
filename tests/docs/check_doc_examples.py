#!/usr/bin/env python3
"""Runs the command-line examples of the docs and checks they print what the docs say.

A console example in a Markdown file is a fenced block whose lines start with `$ `:

    ```
    $ build/bin/eqsat simplify-expr 'x + 0'
    x
    ```

Every `$ ` line that runs `build/bin/eqsat` is run with bash in a fresh temporary directory
(`build/bin/` is the binary directory under test, `../shared` the shared directory), and
what it prints (stdout, then stderr) must equal the lines that follow it, up to the next
`$ ` line or the end of the block. A command may go on over lines ending in `\`. In the
expected text, a line `...` matches any number of lines, and `...` inside a line any
text (for timings and other figures that vary from run to run). Lines after other
commands (cmake, python, benchmarks) are not checked, nor commands piping into a program
this machine lacks (`| dot -Tsvg` without Graphviz).

The temporary directory holds links to the project's top-level files and folders (so
`examples/...` and `tests/...` work), and every fenced block whose info string names a
file (```json file=npu.json) is written into it before the document's examples run. An
example `$ cat NAME` of a file that is not there yet writes the lines that follow it into
NAME (the docs show a file's text that way, then use it).

Usage: check_doc_examples.py ROOT BIN_DIR SHARED_DIR FILE.md [FILE.md ...]
Exit status 1 with a diff-like report naming file and line on any mismatch.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

FENCE = re.compile(r"^(\s*)```(.*)$")


def blocks(text):
    """Yields (first_line_number, info_string, lines) for each fenced block."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, info = m.group(1), m.group(2).strip()
        start = i + 1
        body = []
        i += 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1
        yield start + 1, info, body


def examples(block_start, body):
    """Yields (line_number, command, expected_lines) for each `$ ` line of a block."""
    i = 0
    while i < len(body):
        if not body[i].startswith("$ "):
            i += 1
            continue
        command, line = body[i][2:], block_start + i
        i += 1
        while command.endswith("\\") and i < len(body):
            command = command[:-1] + " " + body[i].strip()
            i += 1
        expected = []
        while i < len(body) and not body[i].startswith("$ "):
            expected.append(body[i])
            i += 1
        while expected and expected[-1] == "":
            expected.pop()
        yield line, command, expected


def matches(expected, actual):
    """Whether `actual` fits `expected`, where a `...` line stands for any lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and line_matches(expected[0], actual[0]) and matches(expected[1:], actual[1:])


def line_matches(expected, actual):
    if "..." not in expected:
        return expected == actual
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual) is not None


def missing_program(command):
    """A program the command pipes into that this machine does not have, if any."""
    for stage in command.split("|")[1:]:
        words = stage.split()
        if words and shutil.which(words[0]) is None:
            return words[0]
    return None


def check_file(path, root, bin_dir, shared_dir):
    text = path.read_text()
    failures, checked = [], 0
    with tempfile.TemporaryDirectory() as work:
        for entry in root.iterdir():
            if not entry.name.startswith(".") and not entry.name.startswith("build"):
                os.symlink(entry, Path(work) / entry.name)
        found = list(blocks(text))
        for _, info, body in found:
            m = re.search(r"\bfile=(\S+)", info)
            if m:
                (Path(work) / m.group(1)).write_text("\n".join(body) + "\n")
        for start, _, body in found:
            for line, command, expected in examples(start, body):
                shown = re.fullmatch(r"cat (\S+)", command)
                if shown and not (Path(work) / shown.group(1)).exists():
                    (Path(work) / shown.group(1)).write_text("\n".join(expected) + "\n")
                    continue
                if "build/bin/eqsat" not in command or missing_program(command):
                    continue
                run = command.replace("build/bin/", str(bin_dir) + "/").replace("../shared", str(shared_dir))
                done = subprocess.run(["bash", "-c", run], cwd=work, capture_output=True, text=True, timeout=600)
                actual = (done.stdout + done.stderr).rstrip("\n").split("\n") if (done.stdout + done.stderr) else []
                actual = [a.replace(str(bin_dir) + "/", "build/bin/") for a in actual]
                checked += 1
                if not matches(expected, actual):
                    failures.append(
                        f"{path}:{line}: $ {command}\n  the docs say:\n"
                        + "".join(f"    {e}\n" for e in expected)
                        + "  it printed:\n"
                        + "".join(f"    {a}\n" for a in actual)
                    )
    return checked, failures


def main():
    if len(sys.argv) < 5:
        print("usage: check_doc_examples.py ROOT BIN_DIR SHARED_DIR FILE.md [FILE.md ...]", file=sys.stderr)
        return 2
    root, bin_dir, shared_dir = (Path(a).resolve() for a in sys.argv[1:4])
    total, failures = 0, []
    for name in sys.argv[4:]:
        checked, failed = check_file(Path(name), root, bin_dir, shared_dir)
        total += checked
        failures += failed
    for f in failures:
        print(f, file=sys.stderr)
    print(f"{total - len(failures)} of {total} documented examples print what the docs say")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
