"""The engine's input and output types."""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from skills.chunking.ids import DIGEST_BYTES, IdMaker, chunk_id
from skills.chunking.pages import MARKER_START, PageMap, without_page_markers
from skills.chunking.tokens import count_tokens


@dataclass(frozen=True, slots=True)
class Chunk:
    """A span of the source document, with what it is embedded as.

    Guarantees (checked as properties by the tests):
    ``source[start:end] == text``; ``tokens == count_tokens(embed_text)`` (or above it, by a
    token or two, for a chunk over a run of 32,000 characters with no safe cut:
    ``token_index``) and never above the strategy's limit; children lie inside their parent.
    ``embed_text`` is ``text`` preceded by ``prefix``, what it needs to stand alone: the
    heading path, and where a table or code block was cut, the table's header rows or the code
    fence's opening line; page markers (``<!-- PageBreak -->``) are left out of it, their pages
    are in ``pages``.

    A chunk keeps a reference to the source rather than copies of its text, so chunking a large
    document does not hold it in memory four times over (parents and children, text and embedded
    text); ``text`` and ``embed_text`` are sliced when asked for. A result keeps its chunks as
    numbers (``ChunkTable``) and makes a ``Chunk`` each time one is asked for.
    """

    id: str
    parent_id: str | None
    level: int  # 0: parent (a section, for the prompt); 1: leaf (embedded and searched)
    ordinal: int  # position among the chunks of its level in the document, from 0
    start: int
    end: int
    tokens: int
    source: str = field(repr=False, compare=False)
    prefix: str = ""
    headings: tuple[str, ...] = ()
    pages: tuple[int, ...] = ()
    path_chars: int = 0  # ``prefix[:path_chars]`` is the heading path line and its blank line
    note: str = ""  # a context note placed after the heading path (``prefix.with_note``)

    @property
    def text(self) -> str:
        return self.source[self.start : self.end]

    @property
    def embed_text(self) -> str:
        """``prefix`` and ``text``, without the page markers ``text`` may hold (``pages``)."""
        return self.prefix + without_page_markers(self.source[self.start : self.end])

    def to_dict(self) -> dict[str, Any]:
        """The wire shape: camelCase keys, lists instead of tuples."""
        return {
            "id": self.id,
            "parentId": self.parent_id,
            "level": self.level,
            "ordinal": self.ordinal,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "embedText": self.embed_text,
            "prefix": self.prefix,
            "tokens": self.tokens,
            "headings": list(self.headings),
            "pages": list(self.pages),
        }


#: The parent row of a leaf that has no parent (the strategies that make no parents).
NO_PARENT = -1


class ChunkRows:
    """The numbers of the chunks of one level, added as they are packed: 28 bytes a chunk in
    arrays, where ``Chunk`` objects cost about 400 (an object, its id string, its offsets as
    Python integers), 180,000 of them on a 50 MB document at the default sizes. Chunks of one
    section share their prefix and heading path: each distinct one is kept once."""

    def __init__(self) -> None:
        self.starts = array("q")
        self.ends = array("q")
        self.tokens = array("i")
        self.parents = array("i")  # the parent's row, NO_PARENT for none
        self.prefix_rows = array("i")  # a row of ``prefix_list``
        self.prefix_list: list[tuple[str, tuple[str, ...], int]] = []
        self._prefix_row_of: dict[tuple[str, tuple[str, ...], int], int] = {}

    def add(
        self,
        start: int,
        end: int,
        tokens: int,
        prefix: str,
        headings: tuple[str, ...],
        path_chars: int,
        parent: int = NO_PARENT,
    ) -> None:
        key = (prefix, headings, path_chars)
        row = self._prefix_row_of.setdefault(key, len(self.prefix_list))
        if row == len(self.prefix_list):
            self.prefix_list.append(key)
        self.starts.append(start)
        self.ends.append(end)
        self.tokens.append(tokens)
        self.parents.append(parent)
        self.prefix_rows.append(row)

    def finish(self) -> None:
        """No more rows: drops the lookup of distinct prefixes, needed only while adding."""
        self._prefix_row_of.clear()

    def __len__(self) -> int:
        return len(self.starts)


class ChunkTable(Sequence[Chunk]):
    """The chunks of one level of one document, read as a sequence of ``Chunk``: each is made
    when asked for, from the rows' numbers, the content hash its id is spelled from, and the
    source (so a result holds about 40 bytes a chunk, not 400).

    Two reads of one position give equal chunks; a slice is a tuple of them."""

    def __init__(
        self,
        rows: ChunkRows,
        source: str,
        level: int,
        ids: IdMaker,
        parents: ChunkTable | None = None,
    ) -> None:
        self._rows = rows
        self._source = source
        self._level = level
        self._id_prefix = ids.prefix
        self._parents = parents
        self._pages: PageMap = PageMap(source) if parents is None else parents._pages  # one scan
        self._digests = bytearray()
        self._repeats: dict[int, int] = {}  # row -> occurrence, for the few repeated chunks
        _count_without_markers(rows, source)
        for row in range(len(rows)):
            _, headings, _ = rows.prefix_list[rows.prefix_rows[row]]
            digest, occurrence = ids.key(level, headings, source, rows.starts[row], rows.ends[row])
            self._digests += digest
            if occurrence:
                self._repeats[row] = occurrence
        rows.finish()

    def id_at(self, row: int) -> str:
        """The id of the chunk at ``row``, without making the chunk."""
        digest = bytes(self._digests[row * DIGEST_BYTES : (row + 1) * DIGEST_BYTES])
        return chunk_id(self._id_prefix, self._level, digest, self._repeats.get(row, 0))

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, index: int) -> Chunk: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Chunk, ...]: ...
    def __getitem__(self, index: int | slice) -> Chunk | tuple[Chunk, ...]:
        if isinstance(index, slice):
            return tuple(self._make(row) for row in range(*index.indices(len(self))))
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("chunk index out of range")
        return self._make(index)

    def __iter__(self) -> Iterator[Chunk]:
        return map(self._make, range(len(self)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __add__(self, other: Sequence[Chunk]) -> tuple[Chunk, ...]:
        return (*self, *other)

    def __radd__(self, other: Sequence[Chunk]) -> tuple[Chunk, ...]:
        return (*other, *self)

    def __repr__(self) -> str:
        return f"ChunkTable(level={self._level}, chunks={len(self)})"

    def _make(self, row: int) -> Chunk:
        rows = self._rows
        prefix, headings, path_chars = rows.prefix_list[rows.prefix_rows[row]]
        start, end, parent = rows.starts[row], rows.ends[row], rows.parents[row]
        parents = self._parents if parent != NO_PARENT else None
        return Chunk(
            id=self.id_at(row),
            parent_id=parents.id_at(parent) if parents is not None else None,
            level=self._level,
            ordinal=row,
            start=start,
            end=end,
            tokens=rows.tokens[row],
            source=self._source,
            prefix=prefix,
            headings=headings,
            pages=self._pages.pages(start, end),
            path_chars=path_chars,
        )


def fold_marker_only(rows: ChunkRows, source: str) -> ChunkRows:
    """``rows`` with each row made only of page markers (``<!-- PageBreak -->`` between a
    section's last paragraph and the next heading) joined to the row before it under the same
    parent, else to the row after it: a child of nothing to read is noise in the index, and
    joined it adds no token to what its neighbour embeds (markers are not embedded)."""
    markers = [match.start() for match in MARKER_START.finditer(source)]
    if not markers:
        return rows

    def lone(row: int) -> bool:
        start, end = rows.starts[row], rows.ends[row]
        first = bisect_left(markers, start)
        holds = first < len(markers) and markers[first] < end
        return holds and not without_page_markers(source[start:end]).strip()

    kept: list[list[int]] = []  # [start, end, tokens, parent, prefix row]
    waiting: list[int] | None = None  # a lone row to join to the next row of its parent
    for row in range(len(rows)):
        entry = [rows.starts[row], rows.ends[row], rows.tokens[row], rows.parents[row],
                 rows.prefix_rows[row]]  # fmt: skip
        if lone(row):
            before = kept[-1] if kept else None
            if before and before[3] == entry[3] and not source[before[1] : entry[0]].strip():
                before[1] = max(before[1], entry[1])
                continue
            waiting = entry
        elif waiting is not None and kept[-1] is waiting and waiting[3] == entry[3]:
            if not source[waiting[1] : entry[0]].strip():
                entry[0] = kept.pop()[0]
            waiting = None
        kept.append(entry)
    folded = ChunkRows()
    for start, end, tokens, parent, prefix_row in kept:
        prefix, headings, path_chars = rows.prefix_list[prefix_row]
        folded.add(start, end, tokens, prefix, headings, path_chars, parent)
    return folded


def fold_marker_only_parents(
    parents: ChunkRows, leaves: ChunkRows, source: str
) -> tuple[ChunkRows, ChunkRows]:
    """``parents`` with each parent made only of page markers joined to the parent before it
    (a sheet's closing ``<!-- PageNumber -->`` after a table that filled the parent before),
    and ``leaves`` pointing at the parents that hold them; ``fold_marker_only`` then joins the
    lone marker child to the child before it, inside the same parent. Markers are not embedded,
    so the joined parent embeds no more tokens."""
    lone = [
        row
        for row in range(1, len(parents))
        if not without_page_markers(source[parents.starts[row] : parents.ends[row]]).strip()
        and not source[parents.ends[row - 1] : parents.starts[row]].strip()
    ]
    if not lone:
        return parents, leaves
    target: dict[int, int] = {}  # old parent row -> new parent row
    folded = ChunkRows()
    dropped = set(lone)
    for row in range(len(parents)):
        if row in dropped:
            folded.ends[-1] = max(folded.ends[-1], parents.ends[row])
            target[row] = len(folded) - 1
            continue
        prefix, headings, path_chars = parents.prefix_list[parents.prefix_rows[row]]
        folded.add(parents.starts[row], parents.ends[row], parents.tokens[row], prefix,
                   headings, path_chars, parents.parents[row])  # fmt: skip
        target[row] = len(folded) - 1
    moved = ChunkRows()
    for row in range(len(leaves)):
        prefix, headings, path_chars = leaves.prefix_list[leaves.prefix_rows[row]]
        parent = leaves.parents[row]
        moved.add(leaves.starts[row], leaves.ends[row], leaves.tokens[row], prefix, headings,
                  path_chars, target.get(parent, parent))  # fmt: skip
    folded.finish()
    moved.finish()
    return folded, moved


def _count_without_markers(rows: ChunkRows, source: str) -> None:
    """The tokens of the rows that hold a page marker, counted again as they are embedded
    (without it): at most a few per page, each a small encode. Leaving a marker out never adds
    tokens (a marker line is pre-tokens of its own), so the rows stay within their limit."""
    markers = [match.start() for match in MARKER_START.finditer(source)]
    if not markers:
        return
    for row in range(len(rows)):
        start, end = rows.starts[row], rows.ends[row]
        first = bisect_left(markers, start)
        if first < len(markers) and markers[first] < end:
            prefix = rows.prefix_list[rows.prefix_rows[row]][0]
            text = without_page_markers(source[start:end])
            rows.tokens[row] = count_tokens(prefix + text)


#: A result's ``parents`` or ``leaves``: the engine's table, or chunks a caller made (a tuple).
Chunks = ChunkTable | tuple[Chunk, ...]


@dataclass(frozen=True, slots=True)
class Chunking:
    """The result for one document.

    ``parents`` is empty for single-level strategies; ``leaves`` are the chunks that get embedded.
    For ``hierarchical``, every leaf has the id of its parent in ``parent_id``. ``language`` is
    the programming language of a document in the ``code`` format (None for the others).
    """

    parents: Chunks
    leaves: Chunks
    format: str
    warnings: tuple[str, ...] = field(default=())
    language: str | None = None

    def children_by_parent(self) -> dict[str, list[Chunk]]:
        """Leaves grouped under their parent's id, in order: one pass for all parents."""
        groups: dict[str, list[Chunk]] = {}
        for leaf in self.leaves:
            if leaf.parent_id is not None:
                groups.setdefault(leaf.parent_id, []).append(leaf)
        return groups

    def children_of(self, parent: Chunk) -> list[Chunk]:
        """The leaves of one parent; a pass over all leaves (``children_by_parent`` for many)."""
        return [leaf for leaf in self.leaves if leaf.parent_id == parent.id]
