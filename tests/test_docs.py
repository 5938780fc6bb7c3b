"""The public documents stay true: every relative link in README.md and docs/ resolves, nothing
outside docs/ sends the reader to a folder users of the package never see, the rules pages
cite modules and functions that exist and define every ruling the code cites, and the worked
example of docs/FORMAT.md is what the code produces and checks by hand as the page says."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from domain import games
from domain.core import log
from domain.core.canonical import canonical, sha256_hex
from domain.core.decider import Setup
from domain.core.envelope import GENESIS_HASH, digest, record_hash, seal
from domain.core.randomness import SeededRandom, commitment

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
FORMAT = DOCS / "FORMAT.md"
BUILT_GAMES = ("ticket_to_ride", "age_of_steam")

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
# Written in two parts so this file does not match itself.
OUTSIDE_FOLDER = re.compile(r"(?<![\w-])(?:\.\./)?" + "shared" + "/")
EXAMPLE_SEED = bytes.fromhex("00" * 31 + "2a")


# -- links --------------------------------------------------------------------------------

def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return {slug(line.lstrip("#")) for line in lines if line.startswith("#")}


def broken_links(page: Path) -> list[str]:
    """Each relative link of `page` whose file (or heading) does not exist."""
    problems = []
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, fragment = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.exists():
            problems.append(f"{page.name}: {target} (no such file)")
        elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
            problems.append(f"{page.name}: {target} (no such heading)")
    return problems


def public_pages() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def test_every_relative_link_resolves() -> None:
    pages = public_pages()
    assert DOCS / "FORMAT.md" in pages and DOCS / "rules" / "ticket_to_ride.md" in pages
    assert [problem for page in pages for problem in broken_links(page)] == []


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    (tmp_path / "there.md").write_text("# A heading\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("[ok](there.md) [ok](there.md#a-heading) [web](https://example.org/x.md)\n"
                    "[gone](missing.md) [bad anchor](there.md#elsewhere)\n", encoding="utf-8")
    assert broken_links(page) == ["page.md: missing.md (no such file)", "page.md: there.md#elsewhere (no such heading)"]


# -- the README is a user's page, and the index lists every document ----------------------------

README_LIMIT = 300
"""Lines: what Caboose is, the two commands, a tour per user, settings and links; the rest is in docs/."""


def readme_commands() -> list[str]:
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## The two commands", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)]


def test_the_readme_is_short_and_its_test_command_is_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= README_LIMIT
    serve, test = readme_commands()
    assert serve == "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/caboose serve --demo"
    assert test.endswith("&& .venv/bin/pytest") and "\n" not in test
    # CI runs the README's test command verbatim, as a line of its own.
    assert test in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def unindexed(index: Path) -> list[str]:
    """The documents under the index's folder (rules pages aside: the index names each game's)
    that it does not link to."""
    linked = {target.partition("#")[0] for target in LINK.findall(index.read_text(encoding="utf-8"))}
    return sorted(path.name for path in index.parent.iterdir()
                  if path.suffix in (".md", ".py") and path != index and path.name not in linked)


def test_the_documents_index_lists_every_document() -> None:
    index = DOCS / "README.md"
    assert unindexed(index) == []
    assert {f"rules/{page.name}" for page in (DOCS / "rules").glob("*.md")} <= set(LINK.findall(index.read_text(encoding="utf-8")))


def test_a_document_missing_from_the_index_is_found(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("[listed](listed.md#part)\n", encoding="utf-8")
    for name in ("listed.md", "forgotten.md", "tool.py", "data.json"):
        (tmp_path / name).write_text("x\n", encoding="utf-8")
    assert unindexed(tmp_path / "README.md") == ["forgotten.md", "tool.py"]


# -- nothing points outside the repository --------------------------------------------------

def tracked_files() -> list[Path]:
    git = shutil.which("git")
    assert git, "git is needed to list the tracked files"
    listing = subprocess.run([git, "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [ROOT / name for name in listing.decode().split("\0") if name]


def outside_references(path: Path) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, FileNotFoundError):
        return []
    return [f"{path.relative_to(ROOT)}:{number}" for number, line in enumerate(text.splitlines(), 1)
            if OUTSIDE_FOLDER.search(line)]


def test_nothing_outside_docs_sends_the_reader_outside_the_repository() -> None:
    files = [path for path in tracked_files() if DOCS not in path.parents]
    assert ROOT / "README.md" in files and ROOT / "domain" / "ticket_to_ride" / "__init__.py" in files
    assert [ref for path in files for ref in outside_references(path)] == []


def test_a_reference_outside_the_repository_is_found(tmp_path: Path) -> None:
    page = ROOT / "README.md"
    probe = tmp_path / "probe.md"
    probe.write_text("see `" + "shared" + "/rules/x.md` and ../" + "shared" + "/FORMAT.md\ncache=shared is fine\n",
                     encoding="utf-8")
    text = probe.read_text(encoding="utf-8")
    assert [bool(OUTSIDE_FOLDER.search(line)) for line in text.splitlines()] == [True, False]
    assert outside_references(page) == []


# -- the rules pages cite what exists ---------------------------------------------------------

def module_citations(page: str) -> list[tuple[str, str | None]]:
    """`module.py`, optionally followed by (`name`) of a function, class or constant in it."""
    return [(m.group(1), m.group(2)) for m in re.finditer(r"`(\w+\.py)`(?: \(`(\w+)`\))?", page)]


@pytest.mark.parametrize("game", BUILT_GAMES)
def test_the_modules_and_functions_a_rules_page_cites_exist(game: str) -> None:
    page = (DOCS / "rules" / f"{game}.md").read_text(encoding="utf-8")
    citations = module_citations(page)
    assert len(citations) >= 10
    missing = []
    for module, function in citations:
        found = [p for p in [ROOT / "domain" / game / module, *ROOT.glob(f"tests/**/{game}/{module}")] if p.exists()]
        if not found:
            missing.append(module)
        elif function and not any(re.search(rf"^(?:def |class )?{function}\b", p.read_text(encoding="utf-8"), re.M) for p in found):
            missing.append(f"{module}: {function}")
    assert missing == []


def rulings_defined(page: str) -> set[int]:
    section = page.split("## The project's rulings", 1)[1].split("\n## ", 1)[0]
    return {int(n) for n in re.findall(r"^(\d+)\. \*\*", section, re.M)}


@pytest.mark.parametrize("game", BUILT_GAMES)
def test_every_ruling_the_code_cites_is_on_the_rules_page(game: str) -> None:
    defined = rulings_defined((DOCS / "rules" / f"{game}.md").read_text(encoding="utf-8"))
    assert defined == set(range(1, len(defined) + 1)) and defined
    cited = set()
    for path in [*(ROOT / "domain" / game).rglob("*.py"), *ROOT.glob(f"tests/**/{game}/*.py")]:
        cited |= {int(n) for n in re.findall(r"\b[Rr]uling (\d+)", path.read_text(encoding="utf-8"))}
    assert cited and cited <= defined


def test_the_pages_of_the_new_games_say_whether_they_are_built_and_keep_their_ruling_ids() -> None:
    boom = (DOCS / "rules" / "railway_boom.md").read_text(encoding="utf-8")
    toot = (DOCS / "rules" / "toot_toot.md").read_text(encoding="utf-8")
    assert "**Status: built**" in boom.split("\n\n")[1]
    assert "**Status: built**" in toot.split("\n\n")[1]
    assert sorted(int(n) for n in re.findall(r"^\*\*R(\d+)[ .]", boom, re.M)) == list(range(1, 38))
    # Built games keep their ruling ids and add new rulings after them.
    toot_rulings = toot.split("## Rulings", 1)[1].split("\n## ", 1)[0]
    assert [int(n) for n in re.findall(r"^(\d+)\. \*\*", toot_rulings, re.M)] == list(range(1, 36))


def test_the_documents_index_calls_no_built_game_unbuilt() -> None:
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    for line in index.splitlines():
        if "not yet built" in line or "not built" in line:
            raise AssertionError(f"docs/README.md says a game is not built, but every rules page it lists is: {line}")
    assert "R1–R34" in index  # Toot-Toot Train's rulings as its page numbers them


# -- the worked example of FORMAT.md -----------------------------------------------------------

def example_records() -> list[dict]:
    blocks = re.findall(r"```json\n(.*?)```", FORMAT.read_text(encoding="utf-8"), re.S)
    return [json.loads(line) for block in blocks for line in block.splitlines() if line.strip()]


def opening(new_salt_for: dict[int, str]) -> list[dict]:
    """The example game's opening as the code seals it today (ids, times and salts aside)."""
    decider = games.current("ticket_to_ride")
    setup = Setup(("Ada", "Ben"), decider.options({}, 2))
    events = [log.game_created(decider, setup, commitment(EXAMPLE_SEED), "client"),
              *decider.setup(decider.initial_state(setup), SeededRandom(EXAMPLE_SEED))]
    records: list[dict] = []
    for version, event in enumerate(events, 1):
        salt = new_salt_for.get(version, "00" * 16)
        records.append(seal(game_id="g", version=version, time="2026-01-01T00:00:00.000000Z", actor="system",
                            command_id="create:x", event=event,
                            prev_hash=records[-1]["hash"] if records else GENESIS_HASH, new_salt=lambda salt=salt: salt))
    return records


def test_the_example_lines_hash_as_the_page_says() -> None:
    shown = example_records()
    assert [r["version"] for r in shown] == [1, 11, 11, 13]
    assert all(record_hash(r) == r["hash"] for r in shown)
    full, public = shown[1], shown[2]
    assert full["hash"] == public["hash"]
    assert public["secrets"][0]["digest"] == digest(full["secrets"][0]["salt"], full["secrets"][0]["value"])
    assert shown[0]["data"]["seed_commitment"] == sha256_hex(EXAMPLE_SEED)


def test_the_example_is_what_the_code_produces() -> None:
    shown = {(r["version"], "digest" in str(r["secrets"])): r for r in example_records()}
    produced = opening({})
    assert len(produced) == 13
    for (version, redacted), record in shown.items():
        made = produced[version - 1]
        assert (record["kind"], record["actor"], canonical(record["data"])) == (made["kind"], made["actor"], canonical(made["data"]))
        if not redacted:
            assert [(s["to"], s["value"]) for s in record["secrets"]] == [(s["to"], s["value"]) for s in made["secrets"]]


def test_the_check_by_hand_runs_as_the_page_says(tmp_path: Path) -> None:
    salt = example_records()[1]["secrets"][0]["salt"]
    with (tmp_path / "game.jsonl").open("w", encoding="utf-8") as file:
        for record in opening({11: salt}):
            file.write(json.dumps(record, ensure_ascii=False) + "\n")
    script = re.search(r"```python\n(.*?)```", FORMAT.read_text(encoding="utf-8"), re.S)
    assert script
    result = subprocess.run([sys.executable, "-c", script.group(1)], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        example_records()[2]["secrets"][0]["digest"], "True True", "True",
        "2 TrainCardsShuffled True", "10 TicketsShuffled True", "13 FirstPlayerChosen True",
    ]


def test_the_notation_page_gives_each_tiles_edges_at_r0_and_r1_as_the_rules_lay_them() -> None:
    """A referee writes `rN` from the page: its table must be the tiles the code lays."""
    from domain.age_of_steam.tiles import TILE_TYPES, exits_of, paths_of

    page = (DOCS / "notation-age-of-steam.md").read_text(encoding="utf-8")
    assert "edge 0 is north" in page
    rows = dict(re.findall(r"^\| `(\w+)` \| (.+?) \|", page, re.MULTILINE))
    rows_r1 = dict(re.findall(r"^\| `(\w+)` \| .+? \| (.+?) \|$", page, re.MULTILINE))
    assert set(rows) >= {t.name for t in TILE_TYPES}
    for tile in TILE_TYPES:
        for rotation, table in ((0, rows), (1, rows_r1)):
            shown = [tuple(int(n) for n in pair) for pair in re.findall(r"\((\d)–(\d)\)", table[tile.name])]
            if tile.paths:
                assert sorted(tuple(sorted(p)) for p in shown) == sorted(paths_of(tile.name, rotation)), tile.name
            else:
                exits = [int(n) for n in re.findall(r"\((\d)\)", table[tile.name])]
                assert sorted(exits) == list(exits_of(tile.name, rotation)), tile.name
