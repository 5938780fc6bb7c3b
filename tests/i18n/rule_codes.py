"""Every stable code the rules can refuse with, collected from domain/'s source: the
literal codes given to the error classes, to the helpers that pass a code parameter on to
them, to a move field's `unknown=`, and to the subclasses' own `super().__init__`. A code
built at run time (an f-string) is returned as a pattern, `not_enough_{}`, for the caller
to expand."""

from __future__ import annotations

import ast
from pathlib import Path

DOMAIN = Path(__file__).resolve().parents[2] / "domain"
ERRORS = {"RuleError", "IllegalMove", "MalformedMove", "RecordError", "NotYourTurn", "GameOver", "UnknownKind"}


def _name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _code(node: ast.AST) -> str | None:
    """A literal code, or an f-string's code as a pattern with `{}` for each hole."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def _trees(folder: Path = DOMAIN) -> list[ast.Module]:
    return [ast.parse(path.read_text(encoding="utf-8")) for path in sorted(folder.rglob("*.py"))]


def _helpers(trees: list[ast.Module]) -> dict[str, int]:
    """Functions that hand one of their parameters to an error class as its code:
    name -> the parameter's position."""
    found: dict[str, int] = {}
    for tree in trees:
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            params = [a.arg for a in func.args.args]
            for call in ast.walk(func):
                if isinstance(call, ast.Call) and _name(call) in ERRORS and call.args:
                    first = call.args[0]
                    if isinstance(first, ast.Name) and first.id in params and func.name != "__init__":
                        found[func.name] = params.index(first.id)
    return found


def rule_codes(within: Path = DOMAIN) -> set[str]:
    """Every code (patterns included) the rules in `within` (a folder of domain/, or a
    test's own game) can raise, through the helpers of all of domain/ and its own."""
    helpers = _helpers(_trees() + ([] if within == DOMAIN else _trees(within)))
    codes: set[str] = set()
    for tree in _trees(within):
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = _name(node)
            if name in ERRORS or (name == "__init__" and isinstance(node.func, ast.Attribute)
                                  and isinstance(node.func.value, ast.Call) and _name(node.func.value) == "super"):
                if node.args and (code := _code(node.args[0])) is not None and " " not in code:
                    codes.add(code)
            elif name in helpers:
                position = helpers[name]
                if len(node.args) > position and (code := _code(node.args[position])) is not None:
                    codes.add(code)
            for keyword in node.keywords:
                if keyword.arg == "unknown" and (code := _code(keyword.value)) is not None:
                    codes.add(code)
            # `x if cond else y` as a code: both branches.
            if name in ERRORS and node.args and isinstance(node.args[0], ast.IfExp):
                for branch in (node.args[0].body, node.args[0].orelse):
                    if (code := _code(branch)) is not None:
                        codes.add(code)
        codes |= _assigned_codes(tree)
        for cls in ast.walk(tree):
            if isinstance(cls, ast.ClassDef) and any(isinstance(b, ast.Name) and b.id in ERRORS for b in cls.bases):
                for stmt in cls.body:
                    if (isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "code" for t in stmt.targets)
                            and (code := _code(stmt.value)) is not None):
                        codes.add(code)
    return codes


def _assigned_codes(tree: ast.Module) -> set[str]:
    """`code = "a" if … else error.code` then `MalformedMove(code, …)`: the literals assigned
    to a name that a function hands to an error class as its code."""
    found: set[str] = set()
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        names = {call.args[0].id for call in ast.walk(func) if isinstance(call, ast.Call) and _name(call) in ERRORS
                 and call.args and isinstance(call.args[0], ast.Name)}
        for node in ast.walk(func):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in names for t in node.targets):
                values = [node.value.body, node.value.orelse] if isinstance(node.value, ast.IfExp) else [node.value]
                found |= {code for value in values if (code := _code(value)) is not None}
    return found
