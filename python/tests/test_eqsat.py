"""The Python module, used as a compiler written in Python uses it."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

import eqsat

SOURCE_DIR = pathlib.Path(os.environ.get("EQSAT_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


def test_build_with_operators_and_print_in_the_spec_syntax():
    i, j = eqsat.var("i"), eqsat.var("j")
    e = (i * 8 + j) % 8
    assert str(e) == "(i * 8 + j) % 8"
    assert e.dtype == "INDEX"
    assert e.op == "floormod"
    assert [str(a) for a in e.args] == ["i * 8 + j", "8"]
    assert repr(3 - i) == "Expr('3 - i', INDEX)"
    assert str(eqsat.select(i < j, i, j)) == "select(i < j, i, j)"
    assert str(eqsat.min(i, 4) + eqsat.truncdiv(j, -2)) == "min(i, 4) + truncdiv(j, -2)"
    assert eqsat.const(7, "INT32").value == 7
    assert eqsat.const(2**100).value == 2**100  # INDEX is unbounded
    assert eqsat.const(True, "BOOL").value is True


def test_numbers_take_the_dtype_of_the_expression():
    x = eqsat.var("x", "INT32")
    assert (x + 1).args[1].dtype == "INT32"
    f = eqsat.var("f", "FP32")
    assert str(f * 0.5 + 1) == "f * 0.5 + 1.0"
    b = (x < 3) & (x > 0)
    assert b.dtype == "BOOL" and b.op == "and"


def test_type_errors_are_reported_not_built():
    x, y = eqsat.var("x", "INT32"), eqsat.var("y")
    with pytest.raises(eqsat.Error, match="different dtypes"):
        x + y
    with pytest.raises(eqsat.Error, match="needs float operands"):
        x / 2
    with pytest.raises(eqsat.Error, match="out of range for INT8"):
        eqsat.var("a", "INT8") + 300
    with pytest.raises(TypeError):
        bool(x < 3)  # an Expr is not a truth value
    with pytest.raises(TypeError):
        x + "1"


def test_simplify_under_bounds_and_assumptions():
    i = eqsat.var("i")
    assert str(eqsat.simplify((i * 8 + 3) // 8, bounds={"i": (0, 15)})) == "i"
    assert str(eqsat.simplify("select(i < n, i, n)", assume=["i < n"])) == "i"
    assert str(eqsat.simplify(eqsat.max(i, 0), bounds={"i": (0, None)})) == "i"
    # No sign is assumed for a bare INDEX, and INT32 wraps: both kept.
    assert str(eqsat.simplify(eqsat.max(i, 0))) == "max(i, 0)"
    wraps = eqsat.simplify("x + 1 > x", vars={"x": "INT32"})
    assert str(wraps) != "True" and wraps.tree_size() == 5  # the comparison stays, in some order
    assert str(eqsat.simplify("x + 1 > x")) == "True"


def test_report_and_cost_profile(tmp_path):
    profile = tmp_path / "div.json"
    profile.write_text(json.dumps({"name": "div-heavy", "ops": {"floordiv": 40}}))
    result = eqsat.simplify("x // 4 * 4 + x % 4", costs=str(profile), report=True)
    assert str(result.output) == "x"
    assert result.cost == 1
    # The normal forms give `x` before any rule runs; a leaf is as cheap as it gets.
    assert result.report["stop_reason"] == "minimal"
    assert result.report["nodes"] >= 1


def test_errors_carry_the_position():
    with pytest.raises(eqsat.Error) as caught:
        eqsat.parse("x + (y * ")
    assert caught.value.column == 10
    assert "column 10" in str(caught.value)
    with pytest.raises(eqsat.Error, match="unknown dtype 'INT7'"):
        eqsat.var("x", "INT7")
    with pytest.raises(eqsat.Error, match="cannot|No such|not exist|open"):
        eqsat.simplify("x", costs="/no/such/profile.json")


def test_simplify_a_kernel():
    program = "def kernel(n: Scalar[INDEX]):\n    for i in range(0, 1, 1):\n        store(i * 4 + 0)\n"
    assert eqsat.simplify_program(program) == "def kernel(n: Scalar[INDEX]):\n    store(0)\n"
    with pytest.raises(eqsat.Error) as caught:
        eqsat.simplify_program("def kernel(:\n")
    assert caught.value.line == 1


def test_verify_equal_and_a_counterexample():
    assert eqsat.verify_equal("x // 4 * 4 + x % 4", "x") == ("equal", "")
    status, detail = eqsat.verify_equal("x + 1 > x", "True", vars={"x": "INT32"})
    assert status == "counterexample"
    assert detail == "x = 2147483647 (INT32): input = False, output = True"


def test_verify_rules_refutes_the_wrong_ones():
    results = eqsat.verify_rules([str(SOURCE_DIR / "tests/verify/wrong.rules")], threads=1)
    by_name = {(name, dtype): verdict for name, dtype, verdict, _ in results}
    assert by_name[("wrap-gt", "INT32")] == "counterexample"
    assert by_name[("float-add-zero", "FP32")] == "counterexample"


def test_unproved_rule_files_are_refused(tmp_path):
    rules = tmp_path / "mine.rules"
    rules.write_text("mine [index]: x * 2 - x => x\n")
    with pytest.raises(eqsat.Error, match="mine"):
        eqsat.simplify("y * 2 - y", rules=[str(rules)])
    out = eqsat.simplify("y * 2 - y", rules=[str(rules)], allow_unproved_rules=True)
    assert str(out) == "y"


def test_the_tiled_matmul_example_runs():
    example = SOURCE_DIR / "examples" / "tiled_matmul.py"
    done = subprocess.run([sys.executable, str(example)], capture_output=True, text=True, check=True)
    assert "A[(io * 16 + ii) * 64 + (ko * 16 + ki)]" in done.stdout
    assert "->" in done.stdout
