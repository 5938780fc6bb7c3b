"""Every page in every language, in headless Chromium: the lobby, the replay of a finished
game of every recorded title and the play page, asked for in English, Thai and
Traditional Chinese (the browser's Accept-Language), and switched by the page's own
language picker. Each page in Thai and Chinese keeps no English sentence the catalogues
translate; no text overflows its box at 1400 px or at 390 px; every event kind in a
finished game's event list reads differently from English. Screenshots of each page in
each language and width go to test-artifacts/browser/."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from service.i18n import LANGUAGES, TRANSLATIONS
from service.simulation import game_seed, play_one
from tests.browser.support import Site, shot

WIDE = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}
TRANSLATED = [language.tag for language in LANGUAGES if language.tag != "en"]
PLACEHOLDER = re.compile(r"\{\w+\}|%\(\w+\)s")


def english_sentences() -> dict[str, set[str]]:
    """For each translated language: the English text of every catalogue message it
    translates differently, cut at its placeholders into pieces of two words or more
    (single words such as a colour may be a name the data holds). Games' own names
    (context `game`) are left out: they are shown beside their translations on purpose."""
    out: dict[str, set[str]] = {}
    for language in LANGUAGES[1:]:
        pieces: set[str] = set()
        for domain in ("messages", "js"):
            with open(TRANSLATIONS / language.locale / "LC_MESSAGES" / f"{domain}.po", "rb") as f:
                catalogue = read_po(f)
            for message in catalogue:
                if not message.id or message.context == "game":
                    continue
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                for english in ids:
                    if english in strings:
                        continue
                    for piece in PLACEHOLDER.split(english):
                        piece = piece.strip(" :·—()#,.")
                        if len(piece.split()) >= 2 and len(piece) >= 10:
                            pieces.add(piece)
        out[language.tag] = pieces
    return out


ENGLISH = english_sentences()

# The page's words as a reader sees them: text nodes outside scripts, styles and the SVG
# board (city and card names there are the map's own).
VISIBLE_TEXT = """() => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const out = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest('script, style, svg, [hidden]')) continue;
    out.push(node.textContent);
  }
  for (const el of document.querySelectorAll('[placeholder], [aria-label]')) {
    out.push(el.getAttribute('placeholder') || '', el.getAttribute('aria-label') || '');
  }
  out.push(document.title);
  return out.join('\\n');
}"""

# Boxes whose text does not fit: an element showing text of its own that is wider than its
# box (unless the box scrolls), or that reaches past the window's right edge; and the page
# itself wider than the window.
OVERFLOWING = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > width + 1) out.push(`page ${document.documentElement.scrollWidth} > ${width}`);
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg, script, style, [hidden], #event-list, #board-panel')) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const rect = el.getBoundingClientRect();
    if (!rect.width) continue;
    const scrolls = (node) => { for (let n = node; n; n = n.parentElement) {
      const s = getComputedStyle(n); if (/(auto|scroll)/.test(s.overflowX)) return true; } return false; };
    if (scrolls(el)) continue;
    const name = `${el.tagName}#${el.id}.${el.className}: ${el.textContent.trim().slice(0, 40)}`;
    if (style.display !== 'inline' && el.scrollWidth > el.clientWidth + 1) out.push(`${name} (${el.scrollWidth} > ${el.clientWidth})`);
    else if (rect.right > width + 1) out.push(`${name} ends at ${Math.round(rect.right)}`);
  }
  return out;
}"""

# Each row of the event list: its kind and its words.
ROWS = "() => [...document.querySelectorAll('#event-list > li')].map((li) => [li.dataset.kind, li.querySelector('.text').textContent])"


@pytest.fixture(scope="module", autouse=True)
def fonts() -> None:
    """Thai and Chinese drawn as empty boxes would measure nothing true: without a font for
    each the test fails (the README's test command installs them), as without chromium."""
    for lang, package in (("th", "fonts-thai-tlwg"), ("zh-tw", "fonts-wqy-microhei")):
        found = subprocess.run(["fc-list", f":lang={lang}", "family"], capture_output=True, text=True, check=False).stdout
        if not found.strip():
            pytest.fail(f"no font for {lang} is installed: `apt-get install -y {package}` (as the README's test command does)",
                        pytrace=False)


@pytest.fixture(scope="module")
def finished(site: Site) -> dict[str, str]:
    """A finished game of every recorded title (Ticket to Ride and Age of Steam are the site's)."""
    boom = play_one(site.app, "railway_boom", 3, game_seed(171, 0), random.Random(171), check=False)
    toot = play_one(site.app, "toot_toot", 3, game_seed(171, 1), random.Random(172), check=False, options={"map": "forest"})
    return {"ticket_to_ride": site.games["finished"], "age_of_steam": site.games["steam"],
            "railway_boom": boom.game_id, "toot_toot": toot.game_id}


def check_page(page: Any, tag: str, name: str, artifacts: Path) -> None:
    assert page.evaluate("() => document.documentElement.lang") == tag
    text = page.evaluate(VISIBLE_TEXT)
    if tag != "en":
        left = sorted(piece for piece in ENGLISH[tag] if piece in text)
        assert left == [], f"{name} in {tag}: English left: {left}"
    else:
        # The same look-out finds the English where English is asked for: it can see.
        assert len([piece for piece in ENGLISH["th"] if piece in text]) >= 3, f"{name}: the English check finds nothing"
    for viewport, label in ((WIDE, "1400"), (PHONE, "390")):
        page.set_viewport_size(viewport)
        page.wait_for_function(f"() => document.documentElement.clientWidth === {viewport['width']}")
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        over = page.evaluate(OVERFLOWING)
        assert over == [], f"{name} in {tag} at {label} px: text overflows its box: {over}"
        shot(page, artifacts, f"language-{name}-{tag}-{label}")
    assert not page.errors, page.errors


@pytest.mark.parametrize("tag", [language.tag for language in LANGUAGES])
def test_the_lobby_in_each_language(site: Site, reader: Any, artifacts: Path, tag: str) -> None:
    page = reader(tag, f"{site.base}/")
    check_page(page, tag, "lobby", artifacts)


@pytest.mark.parametrize("tag", [language.tag for language in LANGUAGES])
def test_the_play_page_in_each_language(site: Site, reader: Any, artifacts: Path, tag: str) -> None:
    page = reader(tag, site.replay("running", f"token={site.tokens['ann']}"))
    page.wait_for_selector("#play:not([hidden])")
    check_page(page, tag, "play", artifacts)


@pytest.mark.parametrize("game", ["ticket_to_ride", "age_of_steam", "railway_boom", "toot_toot"])
def test_a_finished_games_event_list_reads_in_every_language(site: Site, finished: dict[str, str], reader: Any,
                                                               artifacts: Path, game: str) -> None:
    url = f"{site.base}/games/{finished[game]}/replay"
    rows: dict[str, list[list[str]]] = {}
    for tag in [language.tag for language in LANGUAGES]:
        page = reader(tag, url)
        rows[tag] = page.evaluate(ROWS)
        assert rows[tag] and all(text.strip() for _kind, text in rows[tag])
        check_page(page, tag, f"replay-{game}", artifacts)
    english = rows["en"]
    for tag in TRANSLATED:
        assert [kind for kind, _ in rows[tag]] == [kind for kind, _ in english]
        # Every kind the game recorded reads differently from English in at least one row.
        kinds = {kind for kind, _ in english}
        changed = {kind for (kind, text), (_, plain) in zip(rows[tag], english, strict=True) if text != plain}
        assert kinds - changed == set(), f"{game} in {tag}: kinds still worded as in English: {sorted(kinds - changed)}"


def test_the_picker_switches_the_language_and_the_browser_remembers_it(site: Site, reader: Any, artifacts: Path) -> None:
    page = reader("en", f"{site.base}/")
    assert page.text_content("h1") == "Railway games by mail"
    with page.expect_navigation():
        page.select_option("#language", "th")
    page.wait_for_function("() => document.body.dataset.ready === 'true'")
    assert page.evaluate("() => document.documentElement.lang") == "th"
    assert page.text_content("h1") == "เกมรถไฟเล่นทางไกล"
    assert page.evaluate("() => localStorage.getItem('caboose.language')") == "th"
    # Another page of the site, in the same browser: the choice holds over Accept-Language.
    page.goto(site.replay("finished"))
    page.wait_for_function("() => document.body.dataset.ready === 'true'")
    assert page.evaluate("() => document.documentElement.lang") == "th"
    assert page.text_content("#status") == "จบแล้ว"
    shot(page, artifacts, "language-picked-th-replay")
    # The cookie lost, the browser still remembers: the page sets it again and reloads once.
    page.context.clear_cookies()
    page.goto(f"{site.base}/")
    page.wait_for_function("() => document.documentElement.lang === 'th' && document.body.dataset.ready === 'true'")
    assert page.text_content("h1") == "เกมรถไฟเล่นทางไกล"
    assert not page.errors, page.errors
