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
DIGEST_BYTES = 12  # of a chunk's content hash


def document_prefix(document_key: str) -> str:
    """The part of every chunk id that names the document."""
    digest = hashlib.blake2b(
        document_key.encode("utf-8", "surrogatepass"), digest_size=5
    ).hexdigest()
    readable = _NOT_KEY_CHAR.sub("_", document_key).strip("_-")[-_READABLE_KEY_CHARS:].lstrip("_-")
    return f"{readable or 'doc'}-{digest}"


class IdMaker:
    """Ids for the chunks of one document, in document order.

    ``key`` gives a chunk's content hash and how many identical chunks came before it, twelve
    bytes and a count that a result keeps instead of the id string (``ChunkTable``); ``chunk_id``
    spells the id from them."""

    def __init__(self, document_key: str) -> None:
        self.prefix = document_prefix(document_key)
        self._seen: dict[bytes, int] = {}

    def key(
        self, level: int, headings: tuple[str, ...], source: str, start: int, end: int
    ) -> tuple[bytes, int]:
        """The content hash of ``source[start:end]`` at ``level`` under ``headings``, and its
        occurrence (0 for the first chunk with that hash)."""
        content = hashlib.blake2b(digest_size=DIGEST_BYTES)
        content.update(str(level).encode())
        for heading in headings:
            content.update(b"\x1f" + heading.encode("utf-8", "surrogatepass"))
        content.update(b"\x1e" + source[start:end].encode("utf-8", "surrogatepass"))
        digest = content.digest()
        occurrence = self._seen.get(digest, 0)
        self._seen[digest] = occurrence + 1
        return digest, occurrence


def chunk_id(prefix: str, level: int, digest: bytes, occurrence: int) -> str:
    """The id of a chunk of the document ``prefix`` names (``document_prefix``), from its
    ``IdMaker.key``."""
    base = digest.hex()
    suffix = base if occurrence == 0 else f"{base}_{occurrence}"
    return f"{prefix}-{'p' if level == 0 else 'c'}{suffix}"
