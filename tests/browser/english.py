"""Finding English on a page meant to be in another language: every word of Latin letters a
reader meets (text, the board's labels and tooltips, placeholders and labels for screen
readers), except the proper names the page marks as such (`translate="no"`, or a `lang` of
their own) and the names of the seats' players."""

from __future__ import annotations

import re
from typing import Any

# Keys named as they are printed on a keyboard, whatever its language.
KEY_NAMES = {"Home", "End", "PageUp", "PageDown", "Shift"}
# Terms written in Latin letters in Thai and Chinese too ("เอกสาร API", "API 文件").
TERMS = {"API"}

WORDS_ON_PAGE = """() => {
  const lang = document.documentElement.lang;
  const marked = (el) => el.closest('[translate="no"]') || [...(function* () {
    for (let e = el; e && e !== document.documentElement; e = e.parentElement) if (e.hasAttribute('lang') && e.lang !== lang) yield e;
  })()].length > 0;
  const texts = [], proper = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (el.closest('script, style')) continue;
    (marked(el) ? proper : texts).push(node.textContent);
  }
  for (const el of document.querySelectorAll('[placeholder], [aria-label], [title], [alt]')) {
    for (const name of ['placeholder', 'aria-label', 'title', 'alt']) {
      if (el.getAttribute(name)) (marked(el) ? proper : texts).push(el.getAttribute(name));
    }
  }
  return {texts, proper, title: document.title, names: (window.replay?.page?.names || [])};
}"""

# A game's id is no word of any language ("…-aabb-…").
UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.IGNORECASE)
LATIN_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{3,}(?:['’-][A-Za-z]+)*(?![A-Za-z0-9])")


def english_on(page: Any, typed: tuple[str, ...] = ()) -> dict[str, str]:
    """Each English word left on the page, with a piece of the text it is in; words `typed`
    by people into the game (a dispute's claim, a referee's name) are theirs, not the page's."""
    found = page.evaluate(WORDS_ON_PAGE)
    allowed = KEY_NAMES | TERMS
    for text in [*found["proper"], *found["names"], *typed]:
        allowed |= set(LATIN_WORD.findall(text))
    left: dict[str, str] = {}
    for text in [*found["texts"], found["title"]]:
        for word in LATIN_WORD.findall(UUID.sub(" ", text)):
            if word not in allowed:
                left.setdefault(word, text.strip()[:100])
    return left
