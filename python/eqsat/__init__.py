"""eqsat: an equality-saturation simplifier for the index arithmetic of tensor compilers.

Build expressions from Python values and operators, or parse the text syntax of
docs/expressions.md, then simplify them under what is known::

    >>> import eqsat
    >>> i = eqsat.var("i")
    >>> eqsat.simplify((i * 8 + 3) // 8, bounds={"i": (0, 15)})
    Expr('i', INDEX)
    >>> eqsat.simplify("x + 1 > x", vars={"x": "INT32"})   # INT32 wraps: kept
    Expr('x + 1 > x', BOOL)

Every rule the engine runs is proved sound by Z3 (docs/verification.md); ``verify_equal``
checks a result against its input the same way. Errors are ``eqsat.Error`` (a
ValueError) with ``message``, ``line`` and ``column``.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Optional, Sequence, Tuple, Union

from . import _eqsat
from ._eqsat import Error, Expr, SimplifyResult, cast, parse, simplify_program, var

__all__ = [
    "Error", "Expr", "SimplifyResult", "var", "const", "parse", "cast", "min", "max", "abs", "select",
    "truncdiv", "truncmod", "logical_and", "logical_or", "logical_not", "simplify", "simplify_program",
    "verify_equal", "verify_rules",
]

ExprLike = Union[Expr, str]
Bounds = Mapping[str, Tuple[Optional[int], Optional[int]]]

const = _eqsat.const


def min(a, b) -> Expr:  # noqa: A001 - the expression language's name
    """``min(a, b)``; Python numbers take the dtype of the Expr operand."""
    return _eqsat._build("min", [a, b])


def max(a, b) -> Expr:  # noqa: A001
    """``max(a, b)``."""
    return _eqsat._build("max", [a, b])


def abs(a) -> Expr:  # noqa: A001
    """``abs(a)``."""
    return _eqsat._build("abs", [a])


def select(condition, if_true, if_false) -> Expr:
    """``select(c, t, f)``: ``t`` if ``c`` else ``f``."""
    return _eqsat._build("select", [condition, if_true, if_false])


def truncdiv(a, b) -> Expr:
    """C division: the quotient rounded toward zero (``//`` is floor division)."""
    return _eqsat._build("truncdiv", [a, b])


def truncmod(a, b) -> Expr:
    """C remainder: the sign of the dividend (``%`` is floor modulo)."""
    return _eqsat._build("truncmod", [a, b])


def logical_and(a, b) -> Expr:
    """``a and b`` on BOOL expressions (also ``a & b``)."""
    return _eqsat._build("and", [a, b])


def logical_or(a, b) -> Expr:
    """``a or b`` on BOOL expressions (also ``a | b``)."""
    return _eqsat._build("or", [a, b])


def logical_not(a) -> Expr:
    """``not a`` on a BOOL expression (also ``~a``)."""
    return _eqsat._build("not", [a])


def simplify(
    expr: ExprLike,
    *,
    vars: Optional[Mapping[str, str]] = None,
    bounds: Optional[Bounds] = None,
    assume: Iterable[ExprLike] = (),
    costs: Optional[str] = None,
    rules: Optional[Sequence[str]] = None,
    rule_locks: Sequence[str] = (),
    allow_unproved_rules: bool = False,
    iter_limit: int = 30,
    node_limit: int = 10000,
    time_limit: float = 5.0,
    report: bool = False,
) -> Union[Expr, SimplifyResult]:
    """The cheapest expression equal to ``expr`` under the bounds and assumptions.

    ``expr`` and the ``assume`` conditions are Exprs or text; ``vars`` declares the dtypes
    of names in text (undeclared names are INDEX). ``bounds`` maps a name to inclusive
    ``(lo, hi)``, ``None`` for an open side. ``costs`` is a JSON cost profile file
    (docs/cli.md); ``rules`` replaces the built-in catalogue with rule files, which
    ``rule_locks`` must prove (docs/verification.md). With ``report=True`` the result is
    a SimplifyResult (``output``, ``cost``, ``report`` dict); else the output Expr.
    """
    result = _eqsat._simplify(expr, dict(vars or {}), dict(bounds or {}), list(assume), costs,
                              None if rules is None else list(rules), list(rule_locks), allow_unproved_rules,
                              iter_limit, node_limit, time_limit)
    return result if report else result.output


def verify_equal(
    input: ExprLike,
    output: ExprLike,
    *,
    vars: Optional[Mapping[str, str]] = None,
    bounds: Optional[Bounds] = None,
    assume: Iterable[ExprLike] = (),
    timeout: float = 10.0,
) -> Tuple[str, str]:
    """Proves with Z3 that ``output`` may replace ``input`` under the facts.

    Returns ``("equal", "")``, ``("counterexample", "x = 2147483647 (INT32): input = False,
    output = True")`` or ``("unknown", reason)``.
    """
    return _eqsat._verify_equal(input, output, dict(vars or {}), dict(bounds or {}), list(assume), timeout)


def verify_rules(files: Sequence[str], *, timeout: float = 10.0, threads: int = 0) -> list:
    """Proves every dtype instance of every rule in ``files``; one tuple per instance:
    ``(rule name, dtype, "proved" | "counterexample" | "unknown", report line)``."""
    return _eqsat._verify_rules(list(files), timeout, threads)
