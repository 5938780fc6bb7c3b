"""`If-Match` as RFC 9110 (section 13.1.1) defines it, for requests that change a game.

A game's entity tag is its version (`"12"`). `If-Match: *` holds for any existing game; a
list holds when any of its strong tags is the current version. Weak tags never match (the
strong comparison is required for If-Match), and a header that is not a valid list of entity
tags is a malformed request, never silently ignored.
"""

from __future__ import annotations

import re

from flask import request

from service.errors import BadRequest

ANY = "*"
# entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE, etagc = %x21 / %x23-7E / obs-text
_TAG = re.compile(r'\s*(W/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*')


def entity_tags(header: str) -> list[tuple[bool, str]] | None:
    """The (weak, opaque) tags of an If-Match value, or None for `*`; raises BadRequest for
    anything else."""
    if header.strip() == ANY:
        return None
    tags, position = [], 0
    for item in header.split(","):
        position += len(item) + 1
        if not item.strip():
            continue  # a list may have empty elements (RFC 9110, 5.6.1)
        found = _TAG.fullmatch(item)
        if found is None:
            raise BadRequest(f"If-Match must be `*` or a list of entity tags such as \"12\"; {item.strip()!r} is not one.")
        tags.append((found.group(1) is not None, found.group(2)))
    if not tags:
        raise BadRequest("If-Match is empty; send `*` or the ETag you read, such as \"12\".")
    return tags


def expected_versions(body_version: int | None) -> frozenset[int] | None:
    """The versions a change may apply to, from If-Match and the body's `expected_version`;
    None when neither asks for one. A tag that can never match (weak, or not a version) leaves
    the set empty, so the change is refused with 412."""
    header = request.headers.get("If-Match")
    versions: frozenset[int] | None = None
    if header is not None:
        tags = entity_tags(header)
        if tags is not None:
            versions = frozenset(int(tag) for weak, tag in tags if not weak and tag.isascii() and tag.isdigit() and len(tag) < 12)
    if body_version is not None:
        if versions is not None and body_version not in versions:
            raise BadRequest(f"`expected_version` {body_version} contradicts If-Match {header}; send one of them.")
        versions = frozenset([body_version])
    return versions
