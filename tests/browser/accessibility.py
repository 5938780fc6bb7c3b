"""An accessibility check of a page with axe-core, from the vendored copy beside these tests."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
SERIOUS = {"serious", "critical"}


@cache
def _axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


def violations(page: Any) -> list[dict[str, Any]]:
    """axe's violations on the page as it is now (WCAG 2.x A and AA rules, and best practices)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated through the browser's debugging protocol, not as a script element, so
        # the page's CSP (no inline code) needs no exception for the check.
        page.evaluate(_axe_source())
    result: dict[str, Any] = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return list(result["violations"])


def serious(page: Any) -> list[str]:
    """The serious and critical violations, each as rule, impact and the first offending nodes."""
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
            for v in violations(page) if v.get("impact") in SERIOUS]
