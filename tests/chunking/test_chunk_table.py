"""A result keeps its chunks as rows of numbers (``ChunkTable``) and reads as a sequence of them.

Specifications: every read gives the same ``Chunk`` (ids as ``ids.chunk_id`` spells them, the
parent's id, pages, ordinal), the table behaves as the tuple it replaced (indexing, slicing,
equality, ``+``), and the result holds no ``Chunk`` objects, only a few bytes a chunk.
"""

from __future__ import annotations

import gc
import tracemalloc
from dataclasses import replace

import pytest

from skills.chunking import Chunk, Chunking, ChunkOptions, chunk_document
from skills.chunking.ids import IdMaker, chunk_id
from skills.chunking.model import ChunkRows, ChunkTable

SECTION = "## Retry policy\n\nRequests are retried three times with backoff.\n\n"
SMALL = ChunkOptions(child_max_tokens=32, parent_max_tokens=96, child_overlap_tokens=0)


def table_of(source: str, spans: list[tuple[int, int]], headings: tuple[str, ...]) -> ChunkTable:
    rows = ChunkRows()
    for start, end in spans:
        rows.add(start, end, 3, "A > B\n\n", headings, 7)
    return ChunkTable(rows, source, 1, IdMaker("doc.md"))


def test_a_row_reads_as_the_chunk_it_describes() -> None:
    source = "alpha beta\n\ngamma"
    chunk = table_of(source, [(0, 10), (12, 17)], ("A", "B"))[1]
    ids = IdMaker("doc.md")
    assert chunk == Chunk(
        id=chunk_id(ids.prefix, 1, *ids.key(1, ("A", "B"), source, 12, 17)),
        parent_id=None,
        level=1,
        ordinal=1,
        start=12,
        end=17,
        tokens=3,
        source=source,
        prefix="A > B\n\n",
        headings=("A", "B"),
        path_chars=7,
    )
    assert chunk.embed_text == "A > B\n\ngamma"


def test_identical_chunks_get_numbered_ids() -> None:
    table = table_of("same same", [(0, 4), (5, 9)], ())
    assert table[1].id == table[0].id + "_1"


def test_leaves_name_their_parent_by_its_id() -> None:
    result = chunk_document(SECTION * 20, document_key="guide.md", options=SMALL)
    parents = {parent.id for parent in result.parents}
    assert len(parents) > 1
    assert {leaf.parent_id for leaf in result.leaves} == parents


def test_the_table_reads_like_the_tuple_it_replaces() -> None:
    result = chunk_document(SECTION * 20, document_key="guide.md", options=SMALL)
    leaves = tuple(result.leaves)
    assert len(result.leaves) == len(leaves) > 3
    assert result.leaves[-1] == leaves[-1] and result.leaves[0] == leaves[0]
    assert result.leaves[1:3] == leaves[1:3] and result.leaves[::2] == leaves[::2]
    assert result.leaves == leaves and result.leaves != leaves[1:]
    assert result.parents + result.leaves == (*result.parents, *leaves)
    assert [chunk.ordinal for chunk in result.leaves] == list(range(len(leaves)))
    with pytest.raises(IndexError):
        result.leaves[len(leaves)]


def test_a_result_can_still_be_given_chunks_of_its_own() -> None:
    result = chunk_document(SECTION * 4, document_key="guide.md", options=SMALL)
    edited = replace(result, leaves=(*result.leaves[1:], result.leaves[0]))
    assert edited.leaves[-1] == result.leaves[0]
    assert Chunking((), (), "text").leaves == ()


def test_a_result_holds_no_chunk_objects_and_a_few_bytes_a_chunk() -> None:
    source = "".join(f"## Part {n}\n\n" + SECTION * 3 for n in range(300))
    chunk_document(SECTION, document_key="warm.md", options=SMALL)  # caches filled on first use
    gc.collect()
    earlier = [o for o in gc.get_objects() if isinstance(o, Chunk)]  # other tests', kept alive
    others = {id(o) for o in earlier}
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        result = chunk_document(source, document_key="guide.md", options=SMALL)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    chunks = len(result.parents) + len(result.leaves)
    assert chunks > 500
    assert not [o for o in gc.get_objects() if isinstance(o, Chunk) and id(o) not in others]
    # Chunk objects alone took about 400 bytes each; a row takes 40, plus one copy of each
    # distinct prefix (one per section here)
    assert held < 150 * chunks, held / chunks
