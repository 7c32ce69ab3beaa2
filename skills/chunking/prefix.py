"""What a chunk is embedded with besides its own text: the heading path and reopened containers.

``embed_text = prefix + text``. The prefix is the heading path (document title > H1 > H2 ...) on
one line, then, when the chunk starts inside a table or a fenced code block, that table's header
and delimiter rows (and the row's first cell when it starts inside a row) or the fence's opening
line. A prefix always ends with a newline and a chunk's text starts at a non-blank line or a
non-space character, so the tokens of the embedded text are exactly the prefix's plus the text's
(see ``token_index``): the prefix is counted once per distinct prefix, not once per chunk.

A prefix never takes more than half of a chunk's budget: a deeper heading path loses its outermost
headings first, and an innermost heading too long alone keeps its first words (every chunk of its
section repeats it: the answer stays linear in the input). A table header too large to repeat whole
is repeated as its words alone (``header_words``: a compact delimiter row, no border lines, no HTML
tags, no padding; then without the delimiter), or left out when even they do not fit. A row read
without its header is a row of bare values: for a wide table, whose padding and delimiter row cost
more tokens than its column names, the names are what the row needs. A code block or table row that
fits a chunk only without part of its path gets that shorter path (``fitted``): the block stays
whole, and the path gives way, outermost headings first, down to none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from skills.chunking.model import Chunk
from skills.chunking.outline import MAX_TITLE_CHARS, Container, Outline, cut_at_word
from skills.chunking.pages import without_page_markers
from skills.chunking.tokens import count_tokens, decode, encode

PATH_SEPARATOR = " > "
_TAG = re.compile(r"<[^<>]*>")  # no "<" inside: a line of unclosed "<a " costs one pass
_SPACES = re.compile(r"\s+")
_WORD = re.compile(r"\w")
#: A row's first cell is looked for in its first characters only: a longer one (a row with no
#: closing pipe, a cell of a whole page) is no key to repeat, and a search to the chunk's start
#: for every chunk of a long row would cost time quadratic in the row.
MAX_KEY_CHARS = 1000
_CONTENT = re.compile(r"\S")
_DELIMITER_ROW = re.compile(r"\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?[ \t]*)?")
_DASHES = re.compile(r"-+")


@dataclass(frozen=True, slots=True)
class Prefix:
    text: str
    tokens: int
    headings: tuple[str, ...]
    path_chars: int = 0  # ``text[:path_chars]`` is the heading path line and its blank line


class PrefixBuilder:
    """Prefixes for chunks of one document, cached by (section, what is reopened)."""

    def __init__(
        self, text: str, outline: Outline, title: str | None, include_headings: bool
    ) -> None:
        self.text = text
        self.outline = outline
        self.title = cut_at_word((title or "").strip().replace("\n", " "), MAX_TITLE_CHARS)
        self.include_headings = include_headings
        #: (section, where the reopened lines begin, token limit or None, led) -> prefix
        self._cache: dict[tuple[int, int, int | None, bool], Prefix] = {}
        #: the row found last, and up to where no row starts after it (``_row_start``)
        self._last_row = (-1, -1)
        # the chunks that begin where the text does are led by the page's description
        found = _CONTENT.search(text, outline.content_start) if outline.lead else None
        self._lead_at = -1 if found is None else text.rfind("\n", 0, found.start()) + 1

    def for_span(self, start: int, end: int, budget: int) -> Prefix:
        """The prefix of a chunk ``[start, end)``: the path of the section holding all of it."""
        section = self.outline.section_spanning(start, max(start + 1, end))
        return self._prefix(section, start, budget)

    def fitted(self, start: int, end: int, room: int) -> Prefix | None:
        """The prefix of ``[start, end)`` in at most ``room`` tokens, for a block that must not be
        cut: its heading path shortened as far as needed, the reopened lines kept (None when
        not even their words fit: a table row is not sent without its header)."""
        if room < 0:
            return None
        _, reopen, key = self._reopened(start)
        if reopen and not reopen_within(reopen, room):
            return None
        section = self.outline.section_spanning(start, max(start + 1, end))
        return self._build(section, reopen, key, room, start == self._lead_at)

    def upper_bound(self, start: int, budget: int) -> int:
        """Tokens of the longest prefix any chunk starting at ``start`` can get."""
        return self._prefix(self.outline.section_at(start), start, budget).tokens

    def _prefix(self, section: int, start: int, budget: int) -> Prefix:
        where, reopen, key = self._reopened(start)
        lead = start == self._lead_at
        full = self._cached(section, where, reopen, key, None, lead)
        if full.tokens <= budget // 2:
            return full
        # a very long heading path or description
        return self._cached(section, where, reopen, key, budget // 2, lead)

    def _cached(
        self, section: int, where: int, reopen: str, key: str, limit: int | None, lead: bool
    ) -> Prefix:
        """``_build`` once per section, reopened lines, limit and lead: a section's chunks share
        it."""
        prefix = self._cache.get((section, where, limit, lead))
        if prefix is None:
            prefix = self._build(section, reopen, key, limit, shorten=True, lead=lead)
            self._cache[section, where, limit, lead] = prefix
        return prefix

    def _reopened(self, start: int) -> tuple[int, str, str]:
        """What a chunk starting at ``start`` reopens, and where that begins (-1 for nothing):
        the opening lines of the container it starts in and, when it starts inside a table row
        past the row's first cell (a row too long for a chunk is cut at words), that cell (the
        row's key) too, as ``| `license_info` | …``: the rest of a row read without its key
        describes nothing."""
        container = self.outline.container_at(start)
        if container is None:
            return -1, "", ""
        if container.row_key is not None:
            row = self._row_start(container, start)
            key = container.row_key.match(self.text, row, min(start, row + MAX_KEY_CHARS))
            if key is not None and _WORD.search(_TAG.sub(" ", key.group())):
                return row, container.reopen, " ".join(key.group().split()) + " …\n"
        return container.start, container.reopen, ""

    def _row_start(self, container: Container, start: int) -> int:
        """Where the row holding ``start`` begins: its line, or, for rows spread over lines (an
        HTML table's), the last line by ``start`` that opens a row.

        Chunks are asked for in document order, mostly: only the lines after those read for the
        row found last are read, so the pieces of one long row cost one pass over it."""
        row, checked = self._last_row
        if not container.body_start <= row <= start:  # another container, or an earlier row
            row, checked = container.body_start, container.body_start
        if start > checked:
            row, checked = self._last_row_line(container, row, checked, start), start
        self._last_row = (row, checked)
        return row

    def _last_row_line(self, container: Container, row: int, low: int, high: int) -> int:
        """The last line start in ``(low, high]`` that opens a row of ``container`` (any line of
        a pipe table does), else ``row``."""
        newline = self.text.rfind("\n", low, high)
        while newline >= 0:
            line = newline + 1
            if container.row_start is None or container.row_start.match(self.text, line):
                return line
            newline = self.text.rfind("\n", low, newline)
        return row

    def _build(
        self,
        section: int,
        reopen: str,
        key: str,
        limit: int | None,
        shorten: bool = False,
        lead: bool = False,
    ) -> Prefix:
        """The prefix, shortened to ``limit`` tokens when one is given: a row's key gives way
        before its header does, and the outer headings before the innermost one. With
        ``shorten``, an innermost heading that alone exceeds the limit keeps its first words;
        one that fits alone, or any heading of a block kept whole (``fitted``), gives way
        whole: a word or two of it beside a block says nothing. The page's description
        (``lead``) gives way before all of them."""
        if lead:
            led = self._build(section, self.outline.lead + "\n\n" + reopen, key, None, shorten)
            if limit is None or led.tokens <= limit:
                return led
        headings = self.outline.heading_path(section)
        path = [self.title, *headings] if self.title else list(headings)
        if not self.include_headings:
            path = []
        reopen = reopen_within(reopen + key, limit) or reopen_within(reopen, limit)
        path = [part for part in path if part]
        while True:
            prefix = _prefix(PATH_SEPARATOR.join(path), reopen, headings)
            if limit is None or prefix.tokens <= limit:
                return prefix
            if len(path) <= 1:  # the innermost heading does not fit
                innermost = path[0] if path and shorten else ""
                if _prefix(innermost, "", headings).tokens <= limit:
                    innermost = ""  # the reopened lines crowd it out: it gives way whole
                return _innermost_within(innermost, reopen, headings, limit)
            path = path[1:]


def _prefix(line: str, reopen: str, headings: tuple[str, ...]) -> Prefix:
    path_line = line + "\n\n" if line else ""
    text = path_line + reopen
    return Prefix(text, prefix_tokens(text) if text else 0, headings, len(path_line))


def _innermost_within(title: str, reopen: str, headings: tuple[str, ...], limit: int) -> Prefix:
    """The prefix with as many of ``title``'s first words as fit ``limit`` (none at worst: the
    reopened lines fit by construction). A binary search over lengths: titles are short
    (``MAX_TITLE_CHARS``), so it takes a few counts."""
    best = _prefix("", reopen, headings)
    low, high = 1, len(title)
    while low <= high:
        length = (low + high) // 2
        prefix = _prefix(cut_at_word(title, length), reopen, headings)
        if prefix.tokens <= limit:
            best, low = prefix, length + 1
        else:
            high = length - 1
    return best


def reopen_within(reopen: str, limit: int | None) -> str:
    """A container's opening lines in at most ``limit`` tokens: whole when they fit, else their
    words with a compact delimiter row (``header_words``), else their words alone, else nothing.
    Empty stays empty (indented code reopens nothing)."""
    if not reopen or limit is None or prefix_tokens(reopen) <= limit:
        return reopen
    for words in (header_words(reopen, delimiter=True), header_words(reopen)):
        if words and prefix_tokens(words) <= limit:
            return words
    return ""


#: Longer inputs are worked out each time: the caches below outlive the document (a Function
#: instance serves many), and their thousands of entries of a wide table's header each would
#: hold gigabytes. Bounded so, a cache holds at most its entries times this many characters.
_CACHED_CHARS = 2048


def prefix_tokens(text: str) -> int:
    """``count_tokens`` for prefixes and the lines they reopen, which repeat: every piece of a
    section has the same path, and code has a container (with its own cache entry in
    ``PrefixBuilder``) per stretch of every definition, all reopening a few signatures."""
    return _counted(text) if len(text) <= _CACHED_CHARS else count_tokens(text)


@lru_cache(maxsize=4096)
def _counted(text: str) -> int:
    return count_tokens(text)


def header_words(reopen: str, delimiter: bool = False) -> str:
    """The lines of ``reopen`` that hold a word, with HTML tags and runs of spaces dropped:
    ``| Name    | Type |`` over ``|---------|------|`` becomes ``| Name | Type |``, and an HTML
    header's ``<th>`` lines become their cell texts. With ``delimiter``, a pipe table's
    delimiter row is kept, as short as it can be: without it the names are no longer read as
    a table's header (a 536-character padded header left its rows with neither).

    >>> header_words("| Name    | Type |\\n|---------|------|\\n")
    '| Name | Type |\\n'
    >>> header_words("| Name    | Type |\\n|---------|:-----|\\n", delimiter=True)
    '| Name | Type |\\n|---|:---|\\n'
    >>> header_words("<table>\\n<tr>\\n<th><a href='v20'>20</a> (LTS)</th>\\n</tr>\\n")
    '20 (LTS)\\n'
    """
    if len(reopen) <= _CACHED_CHARS:
        return _cached_header_words(reopen, delimiter)
    return _header_words(reopen, delimiter)


def _header_words(reopen: str, delimiter: bool) -> str:
    kept = []
    for line in reopen.splitlines():
        if delimiter and _DELIMITER_ROW.fullmatch(line.strip()):
            kept.append(_DASHES.sub("---", _SPACES.sub("", line.strip())))
            continue
        line = _SPACES.sub(" ", _TAG.sub(" ", line)).strip()
        if _WORD.search(line):
            kept.append(line)
    return "\n".join(kept) + "\n" if kept else ""


_cached_header_words = lru_cache(maxsize=1024)(_header_words)


def with_note(chunk: Chunk, note: str, limit: int) -> Chunk:
    """``chunk`` embedded with ``note`` after its heading path and before the rest, within
    ``limit`` tokens: the note is made one line and cut at a word (then a token) boundary when the
    room runs out; the chunk's text and offsets stay as they are. No room, or an empty note,
    leaves the chunk unchanged.

    >>> from skills.chunking.model import Chunk
    >>> plain = Chunk("c", None, 1, 0, 0, 5, 3, "Hello", prefix="A > B\\n\\n", path_chars=8)
    >>> with_note(plain, "Greets  the reader.", 20).embed_text
    'A > B\\n\\nGreets the reader.\\n\\nHello'
    """
    words = " ".join(note.split())
    while words:
        prefix = (
            chunk.prefix[: chunk.path_chars] + words + "\n\n" + chunk.prefix[chunk.path_chars :]
        )
        tokens = count_tokens(prefix + without_page_markers(chunk.text))
        if tokens <= limit:
            return replace(chunk, prefix=prefix, tokens=tokens, note=words)
        words = _shorter(words, tokens - limit)
    return chunk


def _shorter(words: str, excess: int) -> str:
    """``words`` less about ``excess`` tokens from the end, cut back to a whole word."""
    ids = encode(words)
    kept = decode(ids[: max(0, len(ids) - excess)])
    cut = kept.rfind(" ")
    return (kept[:cut] if cut > 0 else kept).rstrip()
