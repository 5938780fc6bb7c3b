"""Files the commands read as text (records, score sheets, an observed opening): UTF-8, a
byte-order mark allowed. A file that is not UTF-8 text is one line of error naming the file,
the line and the byte, never a traceback; it is read a line at a time, so a large export is
never held whole."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

import click


class Utf8Lines:
    """A file's lines as text, decoded one at a time."""

    def __init__(self, raw: IO[bytes], name: str) -> None:
        self.raw, self.name = raw, name

    def __iter__(self) -> Iterator[str]:
        for number, line in enumerate(self.raw, start=1):
            try:
                yield line.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as error:
                raise click.ClickException(f"{self.name}: line {number} is not UTF-8 text (byte 0x{line[error.start]:02x} "
                                           f"at column {error.start + 1}); save the file as UTF-8") from None

    def read(self) -> str:
        return "".join(self)


class Utf8File(click.File):
    """A command's text file argument or option (`-` for standard input)."""

    name = "filename"

    def __init__(self) -> None:
        super().__init__("rb")

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, Utf8Lines):
            return value
        shown = "standard input" if value == "-" else click.format_filename(value)
        return Utf8Lines(super().convert(value, param, ctx), shown)
