"""Input that breaks chunkers: it is chunked, or refused with a clear error; it never crashes."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from test_invariants import check_invariants

from skills.chunking import ChunkingError, ChunkOptions, chunk_document, count_tokens

SMALL = ChunkOptions(parent_max_tokens=256, child_max_tokens=64)


@pytest.mark.parametrize("source", ["", " ", "\n\n\t  \n", "\u2028\xa0"])
def test_empty_and_whitespace_only_give_no_chunks(source: str) -> None:
    result = chunk_document(source)
    assert result.parents == () and result.leaves == ()


def test_binary_looking_text_is_refused_with_a_clear_error() -> None:
    binary = bytes(range(256)).decode("latin-1") * 20
    with pytest.raises(ChunkingError, match="binary"):
        chunk_document(binary)


def test_a_few_stray_control_characters_are_still_text() -> None:
    result = chunk_document("Report\x00 line one.\n\nLine two with a bell\x07.")
    assert len(result.leaves) == 1


def test_lone_surrogates_are_chunked_and_counted() -> None:
    source = "Broken \ud800 surrogate in a sentence. " * 30
    result = chunk_document(source, options=SMALL)
    assert "".join(c.text for c in result.parents).replace(" ", "") == source.replace(" ", "")
    assert all(c.tokens <= 64 for c in result.leaves)


def test_a_long_line_without_spaces_is_cut_within_the_limit() -> None:
    source = "=" * 300_000 + "\n" + "x9/" * 100_000
    result = chunk_document(source, options=SMALL)
    assert all(c.tokens <= 64 for c in result.leaves)
    assert sum(len(c.text.strip()) for c in result.parents) == len(source.replace("\n", ""))


def test_deeply_nested_lists_and_quotes() -> None:
    # (deeper is slow in tiktoken itself: its pre-tokenizer is quadratic in long space runs)
    lists = "\n".join("  " * depth + f"- level {depth}" for depth in range(1000))
    quotes = "\n".join(">" * depth + f" quoted {depth}" for depth in range(1, 3000))
    for source in (lists, quotes):
        result = chunk_document(source, options=SMALL)
        assert all(c.tokens <= 64 for c in result.leaves)


def test_malformed_markdown_unclosed_fence_and_ragged_table() -> None:
    source = (
        "# Title\n\n| a | b | c |\n|---|---|\n| 1 |\n| 1 | 2 | 3 | 4 | 5 |\nno pipes here\n\n"
        "```python\ndef f():\n    return 1\n" + "x = 1\n" * 200
    )
    result = chunk_document(source, options=SMALL)
    assert result.leaves[-1].end == len(source)
    assert all(c.embed_text.count("```python") >= 1 for c in result.leaves if "x = 1" in c.text)


@pytest.mark.parametrize(
    "source",
    [
        "<table>\n<tr><td>a</td></tr>\n\nno closing tag, a blank line ends it\n" * 500,
        "<table>\n" * 2000 + "<tr><td>deep</td></tr>\n" + "</table>\n" * 2000,
        "</table>\n</tr>\n<tr><td>stray tags</td>\n" * 500,
        "<table><tr><td>" + "x " * 5000 + "</td></tr></table>\n",  # one huge row on one line
    ],
    ids=["unclosed", "nested", "stray", "one-line"],
)
def test_malformed_html_tables(source: str) -> None:
    result = chunk_document(source, options=SMALL)
    assert result.leaves
    check_invariants(source, result, SMALL, None)  # within limits, nothing dropped


@pytest.mark.parametrize(
    "source",
    [
        "<!-- never closed\n- item\n" * 20000,  # no later comment can close: linear
        ("## h\n\n<!-- YAML\n- v1\n-->\n\n<!-- type=misc -->\n\ntext.\n\n") * 5000,
        "---\ntitle: only front matter\n---\n",
        "<!-- a comment holding a fence\n```\n-->\n\n# After\n\ntext\n",
    ],
    ids=["unclosed", "many", "front-matter-only", "fence-inside"],
)
def test_malformed_comments_and_front_matter(source: str) -> None:
    result = chunk_document(source, document_key="page.md", options=SMALL)
    assert result.leaves
    check_invariants(source, result, SMALL, None)


@pytest.mark.parametrize(
    "source",
    [
        "> ```a\n" * 50_000,  # every line opens a fence with an info string: none closes
        "> ```\n> x\n" * 30_000,
        "> > ```py\n> x\n" * 20_000,  # a deeper quote closed by a shallower fence line
        "> ```\n" + "> " + "y" * 200_000 + "\n",  # one huge quoted code line
        "| a | b |\n|---|---|\n" + ("| " + "w " * 300 + "| x |\n") * 300,  # every row cut
        "| a |\n|---|\n| " + "k" * 50_000 + " tail words here |\n",  # a key longer than a child
        "<table>\n<tr><th>h</th></tr>\n" + "<tr>\n<td>k</td>\n<td>" + "w " * 3000 + "</td>\n",
    ],
    ids=[
        "quoted-openers",
        "quoted-pairs",
        "nested-quotes",
        "quoted-long-line",
        "long-rows",
        "huge-key",
        "html-cell-per-line-unclosed",
    ],
)
def test_quoted_fences_and_rows_longer_than_a_chunk(source: str) -> None:
    result = chunk_document(source, options=SMALL)
    assert result.leaves
    check_invariants(source, result, SMALL, None)  # within limits, nothing dropped


def test_wrong_types_get_a_clear_error() -> None:
    with pytest.raises(ChunkingError, match="string"):
        chunk_document(b"bytes are not text")  # type: ignore[arg-type]


def test_invalid_options_name_the_option_and_the_range() -> None:
    with pytest.raises(ValidationError, match=r"child_max_tokens|childMaxTokens"):
        ChunkOptions.model_validate({"childMaxTokens": 5})
    with pytest.raises(ValidationError, match="at most half"):
        ChunkOptions(child_max_tokens=64, child_overlap_tokens=40)
    with pytest.raises(ValidationError, match="parentMaxTokens"):
        ChunkOptions(parent_max_tokens=100, child_max_tokens=200)
    with pytest.raises(ValidationError, match="extra"):
        ChunkOptions.model_validate({"chunkSize": 100})


def test_options_accept_wire_names() -> None:
    options = ChunkOptions.model_validate(
        {"strategy": "fixed", "childMaxTokens": 128, "childOverlapTokens": 32}
    )
    assert options.child_max_tokens == 128 and options.strategy.value == "fixed"


@pytest.mark.parametrize("strategy", ["structural", "recursive"])
def test_structure_only_strategies_never_overlap_and_say_so(strategy: str) -> None:
    assert ChunkOptions(strategy=strategy).child_overlap_tokens == 0
    assert ChunkOptions(strategy="fixed", child_max_tokens=512).child_overlap_tokens == 128
    text = "# A\n\n" + "One sentence here. " * 200
    quiet = chunk_document(text, options=ChunkOptions(strategy=strategy, child_max_tokens=64))
    asked = chunk_document(
        text,
        options=ChunkOptions(strategy=strategy, child_max_tokens=64, child_overlap_tokens=16),
    )
    assert not quiet.warnings
    assert [(c.start, c.end) for c in asked.leaves] == [(c.start, c.end) for c in quiet.leaves]
    assert asked.warnings == (
        f"childOverlapTokens (16) ignored: the {strategy} strategy cuts at structure and never "
        "overlaps",
    )


def test_semantic_without_a_model_falls_back_with_a_warning() -> None:
    result = chunk_document("# A\n\ntext", options=ChunkOptions(strategy="semantic"))
    assert result.leaves and "semantic boundaries unavailable" in result.warnings[0]


@pytest.mark.slow
def test_a_50_mb_document_is_chunked_within_limits() -> None:
    unit = (
        "## Section\n\nA paragraph about retries, timeouts and e.g. os.path.join in v2.4.\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n```python\nprint('x')\n```\n\n"
        "- item one\n- item two\n\n"
    )
    source = unit * (50_000_000 // len(unit))
    result = chunk_document(source, document_key="big.md")
    assert result.leaves[-1].end == len(source)
    sample = result.leaves[:: max(1, len(result.leaves) // 200)]
    assert all(c.tokens == count_tokens(c.embed_text) <= 256 for c in sample)


@pytest.mark.parametrize(
    "source",
    [
        "".join("  " * depth + "- item\n" for depth in range(1000)),
        ".. code-block:: python\n\n" + "    x = 1\n" * 5000,
        ".. code-block:: python\n" + "   :option:\n" * 5000,  # options, no body
        "+---+---+\n" + "| a | b |\n+---+---+\n" * 3000,
        "+---+\nnot a row\n\n" * 2000,
        "====  ====\nrow   text\n\n" * 5000,  # borders that close nothing
        "".join(f"T{i}\n{'~^=-'[i % 4] * 5}\n\n" for i in range(3000)),
        "=====\nTitle\n=====\n\n" * 2000,
        ".. _x:\n\n" * 3000,
        "Para::\n\n" + "\tcode\r\n" * 2000,  # tabs and Windows line breaks
        "x" * 100_000 + "::\n\n    " + "y" * 100_000,
        ".. list-table:: T\n   :header-rows: 99\n\n" + "   * - a\n     - b\n" * 3000,
        ".. list-table::\n   :header-rows: x\n\n   not a bullet\n" * 2000,
        ".. csv-table:: C\n   :file: data.csv\n\n" * 2000,  # no body
        '.. csv-table:: C\n   :header: "a"\n\n   "' + "v " * 20_000 + '"\n',
        "".join(f"term {i}\n    definition {i}\n\n" for i in range(5000)),
        "".join(" " * d + "term\n" + " " * (d + 1) + "definition\n\n" for d in range(500)),
        "t" * 100_000 + "\n    " + "d " * 50_000 + "\n",  # a term longer than a chunk
        "term\r\n    definition\r\n\r\n" * 2000 + "last term\n",  # the last has no definition
    ],
    ids=[
        "deep-list",
        "long-directive",
        "options-only",
        "grid",
        "stray-grid",
        "stray-simple",
        "titles",
        "overlines",
        "targets",
        "tabs-crlf",
        "long-lines",
        "all-header-rows",
        "list-table-no-bullets",
        "csv-table-file",
        "csv-huge-row",
        "many-terms",
        "staircase-terms",
        "huge-term",
        "crlf-terms",
    ],
)
def test_malformed_rst_is_chunked_within_limits(source: str) -> None:
    result = chunk_document(source, format="rst", options=SMALL)
    assert result.format == "rst" and result.leaves
    check_invariants(source, result, SMALL, None)  # within limits, nothing dropped


@pytest.mark.parametrize("source", ["", "\n\n  \n"])
def test_empty_rst_gives_no_chunks(source: str) -> None:
    result = chunk_document(source, format="rst")
    assert result.parents == () and result.leaves == () and result.format == "rst"
