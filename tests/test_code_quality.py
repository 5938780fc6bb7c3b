"""The house rules that a machine can check: ruff is clean, the rules type-check and never
import infrastructure."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INFRASTRUCTURE = ("flask", "sqlalchemy", "eventsourcing", "psycopg", "service", "projections", "cli", "marshmallow")


def test_ruff_is_clean() -> None:
    ruff = Path(sys.executable).parent / "ruff"
    result = subprocess.run([str(ruff), "check", str(ROOT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:]


def test_the_code_type_checks() -> None:
    """Type hints are checked, not only written: mypy runs clean on the rules, the service,
    the read models and the command line."""
    mypy = Path(sys.executable).parent / "mypy"
    folders = [str(ROOT / folder) for folder in ("domain", "service", "projections", "cli")]
    result = subprocess.run([str(mypy), "--config-file", str(ROOT / "pyproject.toml"), *folders],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout[-3000:]


def test_the_domain_imports_no_infrastructure() -> None:
    offenders = []
    for path in (ROOT / "domain").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in INFRASTRUCTURE]
    assert offenders == []
