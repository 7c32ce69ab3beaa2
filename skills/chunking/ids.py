"""Deterministic chunk ids that are valid Azure AI Search keys.

An id is ``<readable key>-<key hash>-<p|c><content hash>``: letters, digits, ``-`` and ``_``
only (a key may hold those and ``=``), at most ~110 characters. The content hash covers the
chunk's level, heading path and text, plus how many identical chunks came before it in the
document, so editing one section leaves the ids of every other section unchanged, and the same
input gives the same ids on every machine (no randomness, no offsets).
"""

from __future__ import annotations

import hashlib
import re

_NOT_KEY_CHAR = re.compile(r"[^A-Za-z0-9_-]+")
_READABLE_KEY_CHARS = 64


def document_prefix(document_key: str) -> str:
    """The part of every chunk id that names the document."""
    digest = hashlib.blake2b(
        document_key.encode("utf-8", "surrogatepass"), digest_size=5
    ).hexdigest()
    readable = _NOT_KEY_CHAR.sub("_", document_key).strip("_-")[-_READABLE_KEY_CHARS:].lstrip("_-")
    return f"{readable or 'doc'}-{digest}"


class IdMaker:
    """Ids for the chunks of one document, in document order."""

    def __init__(self, document_key: str) -> None:
        self.prefix = document_prefix(document_key)
        self._seen: dict[str, int] = {}

    def make(self, level: int, headings: tuple[str, ...], source: str, start: int, end: int) -> str:
        """The id of the chunk ``source[start:end]`` at ``level`` under ``headings``."""
        content = hashlib.blake2b(digest_size=12)
        content.update(str(level).encode())
        for heading in headings:
            content.update(b"\x1f" + heading.encode("utf-8", "surrogatepass"))
        content.update(b"\x1e" + source[start:end].encode("utf-8", "surrogatepass"))
        base = content.hexdigest()
        occurrence = self._seen.get(base, 0)
        self._seen[base] = occurrence + 1
        suffix = base if occurrence == 0 else f"{base}_{occurrence}"
        return f"{self.prefix}-{'p' if level == 0 else 'c'}{suffix}"
