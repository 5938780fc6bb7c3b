"""`caboose content …`: check a content pack, list the installed ones.

Packs are found as `service/content.py` describes: the shipped packs, then the folders of
`CABOOSE_CONTENT_PATH`. See docs/content-packs.md for the format.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from domain.core.content import ContentError
from service.content import CONTENT_PATH, SHELF, load_folder, pack_folders, summary, user_folders


@click.group("content")
def content_cli() -> None:
    """Content packs: a game's maps and cards as data files."""


@content_cli.command()
@click.argument("path", type=click.Path(exists=True, file_okay=False, path_type=Path))
def validate(path: Path) -> None:
    """Check the pack in PATH (or every pack in its sub-folders): one line per valid pack,
    or every problem found, each naming the file, the entry and what is wrong."""
    folders = list(pack_folders(path)) or [path]
    failed = False
    for folder in folders:
        try:
            pack = load_folder(folder)
        except ContentError as error:
            failed = True
            for problem in error.problems:
                click.echo(problem, err=True)
            continue
        click.echo(f"{folder.name}: valid {pack.game} pack {pack.id!r} version {pack.manifest.version}, "
                   f"{len(pack.manifest.files)} files, sha256 {pack.sha256}")
    if failed:
        sys.exit(1)


@content_cli.command("list")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line: id, game, version, sha256, path.")
def list_(as_json: bool) -> None:
    """The installed packs, in search order (shipped first, then CABOOSE_CONTENT_PATH)."""
    packs, broken = SHELF.all()
    for pack in packs:
        line = summary(pack)
        click.echo(json.dumps(line, ensure_ascii=False) if as_json else
                   f"{line['id']:<16} {line['game']:<16} {line['version']:<8} {line['sha256'][:16]}…  {line['path']}")
    for each in broken:
        click.echo(f"skipped {each.where}: " + "; ".join(each.problems), err=True)


def content_option(value: str | None) -> str | None:
    """`--content PATH_OR_ID`: a folder is loaded (and checked) and named by its id; anything
    else is a pack id, looked up when the game is created. A folder must be one the server
    and every later command find too (on `CABOOSE_CONTENT_PATH`): a game on a pack nobody
    else can read could never be shown, replayed or audited, so it is refused here."""
    if value is None or not Path(value).is_dir():
        return value
    try:
        pack = load_folder(value)
    except ContentError as error:
        raise click.ClickException("the content pack is not valid:\n" + "\n".join(error.problems)) from None
    folders = {folder.resolve() for folder in user_folders()}
    where = Path(value).resolve()
    if where not in folders:
        raise click.ClickException(
            f"{value} is not on {CONTENT_PATH}, so the server and later commands could not read a game made on it; "
            f"add it (export {CONTENT_PATH}={where}) and run this again. Nothing was stored.")
    SHELF.add(pack)
    return pack.id
