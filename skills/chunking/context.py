"""What a chunk is embedded with besides its own text: the heading path and reopened containers.

``embed_text = prefix + text``. The prefix is the heading path (document title > H1 > H2 ...) on
one line, then, when the chunk starts inside a table or a fenced code block, that table's header
and delimiter rows or the fence's opening line. A prefix always ends with a newline and a chunk's
text starts at a non-blank line or a non-space character, so the tokens of the embedded text are
exactly the prefix's plus the text's (see ``token_index``): the prefix is counted once per
distinct prefix, not once per chunk.

A prefix never takes more than half of a chunk's budget: a deeper heading path loses its
outermost headings first, and a table header too large to repeat is left out. A code block or
table row that fits a chunk only without part of its path gets that shorter path (``fitted``):
the block stays whole, and the path gives way, outermost headings first, down to none.
"""

from __future__ import annotations

from dataclasses import dataclass

from skills.chunking.outline import Container, Outline
from skills.chunking.tokens import count_tokens

PATH_SEPARATOR = " > "


@dataclass(frozen=True, slots=True)
class Prefix:
    text: str
    tokens: int
    headings: tuple[str, ...]


class ContextBuilder:
    """Prefixes for chunks of one document, cached by (section, container, budget)."""

    def __init__(self, outline: Outline, title: str | None, include_headings: bool) -> None:
        self.outline = outline
        self.title = (title or "").strip().replace("\n", " ")
        self.include_headings = include_headings
        self._cache: dict[tuple[int, int], Prefix] = {}

    def for_span(self, start: int, end: int, budget: int) -> Prefix:
        """The prefix of a chunk ``[start, end)``: the path of the section holding all of it."""
        section = self.outline.section_spanning(start, max(start + 1, end))
        return self._prefix(section, self.outline.container_at(start), budget)

    def fitted(self, start: int, end: int, room: int) -> Prefix | None:
        """The prefix of ``[start, end)`` in at most ``room`` tokens, for a block that must not be
        cut: its heading path shortened as far as needed, the reopened lines kept whole (None
        when they alone do not fit: a table row is not sent without its header)."""
        container = self.outline.container_at(start)
        if room < 0 or (container is not None and count_tokens(container.reopen) > room):
            return None
        section = self.outline.section_spanning(start, max(start + 1, end))
        return self._build(section, container, room)

    def upper_bound(self, start: int, budget: int) -> int:
        """Tokens of the longest prefix any chunk starting at ``start`` can get."""
        return self._prefix(
            self.outline.section_at(start), self.outline.container_at(start), budget
        ).tokens

    def _prefix(self, section: int, container: Container | None, budget: int) -> Prefix:
        key = (section, -1 if container is None else container.start)
        full = self._cache.get(key)
        if full is None:
            full = self._cache[key] = self._build(section, container, None)
        if full.tokens <= budget // 2:
            return full
        return self._build(section, container, budget // 2)  # rare: a very long heading path

    def _build(self, section: int, container: Container | None, limit: int | None) -> Prefix:
        """The prefix, shortened to ``limit`` tokens when one is given."""
        headings = self.outline.heading_path(section)
        path = [self.title, *headings] if self.title else list(headings)
        if not self.include_headings:
            path = []
        reopen = container.reopen if container is not None else ""
        if reopen and limit is not None and count_tokens(reopen) > limit:
            reopen = ""
        while True:
            line = PATH_SEPARATOR.join(part for part in path if part)
            text = (line + "\n\n" if line else "") + reopen
            tokens = count_tokens(text) if text else 0
            if limit is None or tokens <= limit:
                return Prefix(text, tokens, headings)
            if not path:  # only a reopened container left, and it fits by construction
                return Prefix("", 0, headings)
            path = path[1:]
