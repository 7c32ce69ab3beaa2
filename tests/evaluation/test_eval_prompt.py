"""A prompt's table fragments come with their header: measured, and kept by the budget policy."""

from __future__ import annotations

from skills.chunking import count_tokens
from skills.evaluation.dataset import Dataset
from skills.evaluation.engine import engine_chunks
from skills.evaluation.returns import prompt, returned
from skills.evaluation.run import Corpus
from skills.evaluation.spans import Span

ROWS = "\n".join(
    f"| E{1300 + i} | service-{i} | severity {i % 3} | retry after {i} s |" for i in range(60)
)
DOCUMENT = (
    "# Errors\n\nThe gateway's error codes.\n\n"
    "| Code | Service | Severity | What to do |\n|---|---|---|---|\n" + ROWS + "\n\n"
    "# Other\n\nSomething else entirely, long enough to be a section of its own.\n"
)
OPTIONS = {"strategy": "hierarchical", "parentMaxTokens": 640, "childMaxTokens": 128}
CHUNKS = engine_chunks("errors.md", DOCUMENT, OPTIONS)
CORPUS = Corpus(Dataset({"errors.md": DOCUMENT}, ()))
#: A leaf deep in the table (no header line of its own), ranked second after the last section's.
ROW_LEAF = next(i for i, leaf in enumerate(CHUNKS.leaves) if "E1350" in CORPUS.text(leaf.span))
OTHER = len(CHUNKS.leaves) - 1
RANKING = [OTHER, ROW_LEAF]


def test_a_raw_slice_of_a_row_child_is_a_headerless_fragment() -> None:
    contexts = returned(RANKING, CHUNKS, "top-parent", text_of=CORPUS.text)
    fragment = next(span for span in contexts if span.covers(CHUNKS.leaves[ROW_LEAF].span))
    assert CORPUS.headerless(fragment, "")


def test_the_budget_policy_sends_the_row_child_with_the_header_its_chunk_reopens() -> None:
    sent = prompt(RANKING, CHUNKS, 300, CORPUS.text, count_tokens)
    row = next(s for s in sent if s.span.covers(CHUNKS.leaves[ROW_LEAF].span))
    assert "| Code | Service | Severity | What to do |" in row.prefix
    assert "Errors" in row.prefix  # the heading path
    assert not CORPUS.headerless(row.span, row.prefix)
    assert sum(count_tokens(s.prefix + CORPUS.text(s.span)) for s in sent) <= 300


def test_a_whole_table_is_not_a_fragment() -> None:
    table = Span("errors.md", DOCUMENT.index("| Code"), DOCUMENT.index("\n\n# Other"))
    assert not CORPUS.headerless(table, "")
