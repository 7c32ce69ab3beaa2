"""The structure checks, on a document whose every break is placed by hand."""

from __future__ import annotations

from skills.evaluation.chunksets import Leaf
from skills.evaluation.fragmentation import ends_mid_sentence, fragmentation, leaf_flags, scan
from skills.evaluation.spans import Span

DOC = (
    "Intro sentence one. Intro two\n"
    "\n"
    "```python\n"
    "x = 1\n"
    "y = 2\n"
    "```\n"
    "\n"
    "| key | value |\n"
    "|-----|-------|\n"
    "| a   | 1     |\n"
    "| b   | 2     |\n"
)
CODE = DOC.index("```python")
CODE_END = DOC.index("```\n\n") + 3
HEADER = DOC.index("| key")
ROW_A = DOC.index("| a")
ROW_B = DOC.index("| b")


def leaf(start: int, end: int, embed: str = "") -> Leaf:
    return Leaf(Span("doc", start, end), embed or DOC[start:end])


def test_scan_finds_the_fence_and_the_table() -> None:
    structure = scan(DOC)
    assert structure.code_blocks == ((CODE, CODE_END),)
    (table,) = structure.tables
    assert DOC[table.header[0] : table.header[1]] == "| key | value |"
    assert [DOC[s:e] for s, e in table.rows] == ["| a   | 1     |", "| b   | 2     |"]


HTML = (
    "Intro.\n\n<table>\n<caption>Codes</caption>\n<tr><th>code</th><th>meaning</th></tr>\n"
    "<tr><td>E1</td><td>first</td></tr>\n<tr>\n<td>E2</td>\n<td>second</td>\n</tr>\n</table>\n"
)


def html_leaf(start: int, end: int, embed: str = "") -> Leaf:
    return Leaf(Span("doc", start, end), embed or HTML[start:end])


def test_scan_finds_html_tables_with_rows_over_one_or_several_lines() -> None:
    (table,) = scan(HTML).tables
    assert HTML[table.header[0] : table.header[1]] == "<tr><th>code</th><th>meaning</th></tr>"
    assert [HTML[s:e] for s, e in table.rows] == [
        "<tr><td>E1</td><td>first</td></tr>",
        "<tr>\n<td>E2</td>\n<td>second</td>\n</tr>",
    ]


def test_a_table_nested_in_a_cell_is_part_of_its_row() -> None:
    outer = "<tr><td>x</td><td><table><tr><td>inner</td></tr></table></td></tr>"
    source = f"<table>\n<tr><th>a</th><th>b</th></tr>\n{outer}\n</table>\n"
    (table,) = scan(source).tables
    assert [source[s:e] for s, e in table.rows] == [outer]


def test_html_rows_without_their_header_and_rows_cut_inside() -> None:
    second = HTML.index("<tr>\n<td>E2")
    assert leaf_flags(HTML, html_leaf(second, len(HTML)))[2] is True
    header = "<tr><th>code</th><th>meaning</th></tr>\n"
    assert leaf_flags(HTML, html_leaf(second, len(HTML), header + HTML[second:]))[2] is False
    assert leaf_flags(HTML, html_leaf(0, HTML.index("<td>second")))[3] == 1
    assert leaf_flags(HTML, html_leaf(0, second))[3] == 0


def test_mid_sentence_ends() -> None:
    assert ends_mid_sentence(DOC, DOC.index(" one") + 4) is True
    assert ends_mid_sentence(DOC, DOC.index("one.") + 4) is False
    assert ends_mid_sentence(DOC, DOC.index("two") + 3) is False  # end of a line
    assert ends_mid_sentence(DOC, len(DOC)) is False


def test_a_chunk_ending_inside_the_fence_cuts_the_code() -> None:
    assert leaf_flags(DOC, leaf(0, DOC.index("y = 2")))[1] is True
    assert leaf_flags(DOC, leaf(0, CODE_END))[1] is False


def test_rows_without_header_unless_the_header_is_in_the_embedded_text() -> None:
    assert leaf_flags(DOC, leaf(ROW_A, len(DOC)))[2] is True
    with_header = leaf(ROW_A, len(DOC), "| key | value |\n" + DOC[ROW_A:])
    assert leaf_flags(DOC, with_header)[2] is False
    assert leaf_flags(DOC, leaf(HEADER, len(DOC)))[2] is False


def test_a_header_copied_as_its_words_counts_and_other_words_do_not() -> None:
    # A wide header may be repeated as its column names alone: padding and tags do not matter,
    # the words and their order do.
    assert not leaf_flags(DOC, leaf(ROW_A, len(DOC), "|key|value|\n" + DOC[ROW_A:]))[2]
    as_cells = "<tr><th>key</th><th>value</th></tr>\n" + DOC[ROW_A:]
    assert not leaf_flags(DOC, leaf(ROW_A, len(DOC), as_cells))[2]
    assert leaf_flags(DOC, leaf(ROW_A, len(DOC), "| value | key |\n" + DOC[ROW_A:]))[2]
    assert leaf_flags(DOC, leaf(ROW_A, len(DOC), "| keys | value |\n" + DOC[ROW_A:]))[2]


def test_a_boundary_inside_a_row_is_counted() -> None:
    assert leaf_flags(DOC, leaf(HEADER, ROW_B + 5))[3] == 1
    assert leaf_flags(DOC, leaf(HEADER, ROW_B))[3] == 0


def test_shares_are_percent_of_leaves() -> None:
    shares = fragmentation(
        [leaf(0, DOC.index("y = 2")), leaf(DOC.index("y = 2"), ROW_A), leaf(ROW_A, len(DOC))],
        {"doc": DOC},
        len,
    )
    assert shares["cut_code_pct"] == 200 / 3
    assert shares["headerless_rows_pct"] == 100 / 3
    assert shares["rows_cut"] == 0


def test_a_cut_is_avoidable_only_if_the_element_fits_in_the_largest_leaf() -> None:
    middle = DOC.index("y = 2")
    halves = [leaf(0, middle), leaf(middle, len(DOC))]
    code_length = CODE_END - CODE
    largest = max(len(h.embed_text) for h in halves)
    assert code_length <= largest
    assert fragmentation(halves, {"doc": DOC}, len)["avoidable_cuts"] == 1

    def whole_block_is_huge(text: str) -> int:
        return 1000 if text.count("```") == 2 else 1

    assert fragmentation(halves, {"doc": DOC}, whole_block_is_huge)["avoidable_cuts"] == 0


RST = (
    "Setup\n"
    "~~~~~\n"
    "\n"
    "Run this::\n"
    "\n"
    "    pip install agent\n"
    "    agent start\n"
    "\n"
    ".. note::\n"
    "\n"
    "   Not code.\n"
    "\n"
    ".. code-block:: toml\n"
    "   :caption: agent.toml\n"
    "\n"
    "   [agent]\n"
    "   retries = 3\n"
    "\n"
    "=====  ==========\n"
    "Name   Meaning\n"
    "=====  ==========\n"
    "a      first,\n"
    "       and more\n"
    "b      second\n"
    "=====  ==========\n"
    "\n"
    "+------+---------+\n"
    "| Code | What    |\n"
    "+======+=========+\n"
    "| 0    | fine    |\n"
    "+------+---------+\n"
    "| 2    | broken, |\n"
    "|      | fix it  |\n"
    "+------+---------+\n"
)


def test_scan_finds_rst_literal_and_code_blocks_but_not_a_title_or_a_note() -> None:
    blocks = [RST[s:e] for s, e in scan(RST).code_blocks]
    assert blocks == ["    pip install agent\n    agent start", "   [agent]\n   retries = 3"]


def test_scan_finds_rst_simple_and_grid_tables_with_rows_over_several_lines() -> None:
    simple, grid = scan(RST).tables
    assert RST[simple.header[0] : simple.header[1]] == "Name   Meaning"
    assert [RST[s:e] for s, e in simple.rows] == ["a      first,\n       and more", "b      second"]
    assert RST[grid.header[0] : grid.header[1]] == "| Code | What    |"
    assert [RST[s:e] for s, e in grid.rows] == [
        "| 0    | fine    |",
        "| 2    | broken, |\n|      | fix it  |",
    ]


def test_an_rst_row_is_headerless_unless_its_header_text_is_embedded() -> None:
    row = RST.index("| 2")
    end = RST.index("+\n", RST.index("fix it")) + 2
    bare = Leaf(Span("doc", row, end), RST[row:end])
    assert leaf_flags(RST, bare)[2]
    reopened = Leaf(Span("doc", row, end), "| Code | What    |\n" + RST[row:end])
    assert not leaf_flags(RST, reopened)[2]
