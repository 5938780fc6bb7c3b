"""Keeping the shipped catalogues up to date: `python -m service.i18n.catalogues`
extracts every message (both domains) into `translations/*.pot`, merges them into each
language's `.po` (new messages arrive untranslated, marked for a translator) and compiles
the `.mo` files the service reads. The `.mo` files are committed, so an installed
package needs no build step; `tests/i18n/` fails when a `.mo` is older than its `.po`
says or a message lacks a translation."""

from __future__ import annotations

import subprocess
import sys

from service.i18n import DOMAINS, LANGUAGES, TRANSLATIONS

ROOT = TRANSLATIONS.parents[2]
HERE = TRANSLATIONS.parent
KEYWORDS = {
    "messages": ["-k", "N_", "-k", "pgettext_noop:1c,2", "-k", "_l"],
    "js": ["-k", "t", "-k", "tn:1,2", "-k", "pt:1c,2", "-k", "tpn:1c,2,3"],
}
CONFIG = {"messages": HERE / "babel.cfg", "js": HERE / "babel-js.cfg"}


def pybabel(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", *args], check=True, cwd=ROOT)


def update() -> None:
    for domain in DOMAINS:
        template = TRANSLATIONS / f"{domain}.pot"
        pybabel("extract", "-F", str(CONFIG[domain]), *KEYWORDS[domain], "--no-wrap", "--sort-by-file",
                "--project", "Caboose", "-o", str(template), ".")
        for language in LANGUAGES[1:]:
            po = TRANSLATIONS / language.locale / "LC_MESSAGES" / f"{domain}.po"
            if po.exists():
                pybabel("update", "-D", domain, "-i", str(template), "-d", str(TRANSLATIONS), "-l", language.locale,
                        "--no-wrap", "--ignore-obsolete")
            else:
                pybabel("init", "-D", domain, "-i", str(template), "-d", str(TRANSLATIONS), "-l", language.locale, "--no-wrap")
    compile_all()


def compile_all() -> None:
    for domain in DOMAINS:
        pybabel("compile", "-D", domain, "-d", str(TRANSLATIONS), "--statistics")


if __name__ == "__main__":
    compile_all() if sys.argv[1:] == ["compile"] else update()
