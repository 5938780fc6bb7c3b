"""The replay page under its Content-Security-Policy in a real browser: the page draws and
steps with no violation of the policy, while code injected inline is refused."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.support import Site, Watched

WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
"""


@pytest.mark.parametrize("game", ["finished", "steam", "running"])
def test_the_page_runs_under_its_policy_and_refuses_inline_code(site: Site, browser: Any, game: str) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        context.add_init_script(WATCH_VIOLATIONS)
        page = context.new_page()
        response = page.goto(site.replay(game))
        assert response is not None and "script-src 'self'" in response.headers["content-security-policy"]
        assert response.headers["x-frame-options"] == "DENY"
        watched = Watched(page)
        watched.ready()
        for key in ("Home", "ArrowRight", "End", "PageUp"):
            page.keyboard.press(key)
        page.wait_for_function("() => document.querySelector('#board').childElementCount > 0")
        assert page.evaluate("() => window.__violations") == []

        # The policy is in force: an inline script is refused and reported, never run.
        page.evaluate("() => { const s = document.createElement('script'); s.textContent = 'window.__ran = 1';"
                      " document.body.append(s); }")
        page.wait_for_function("() => window.__violations.length > 0")
        assert page.evaluate("() => window.__ran") is None
        assert page.evaluate("() => window.__violations")[0].startswith("script-src")
    finally:
        context.close()
