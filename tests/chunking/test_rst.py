"""reStructuredText: detected, and read by its own rules (titles, literal blocks, tables, lists)."""

from __future__ import annotations

import pytest

from skills.chunking import Chunking, ChunkOptions, chunk_document, count_tokens
from skills.chunking.chunker import detect_format
from skills.chunking.levels import Level
from skills.chunking.markup.rst import parse_rst

LEAF = ChunkOptions(strategy="structural", child_max_tokens=64)


def chunk(source: str, options: ChunkOptions = LEAF) -> Chunking:
    return chunk_document(source, format="rst", options=options)


def leaves(source: str) -> list[str]:
    return [leaf.text for leaf in chunk(source).leaves]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("Install\n~~~~~~~\n\nRun it.\n", "rst"),  # a Markdown fence would need a blank line
        ("=======\nOverview\n=======\n\nText.\n", "rst"),
        ("Intro.\n\n.. note::\n\n   Careful.\n", "rst"),
        ("Call :func:`connect` first.\n", "rst"),
        ("Example::\n\n    pip install agent\n", "rst"),
        ("=====  =======\nName   Meaning\n=====  =======\n", "rst"),
        ("+----+----+\n| a  | b  |\n+----+----+\n", "rst"),
        ("# Install\n\n.. note::\n\n   Careful.\n", "markdown"),  # an ATX heading: Markdown
        ("Text\n\n```\ncode\n```\n\n.. _x:\n", "markdown"),
        ("code\n}\n~~~\n\n- item\n", "markdown"),  # a fence closing a short code line
        ("Just a sentence or two.\n", "text"),
    ],
)
def test_the_format_is_detected(source: str, expected: str) -> None:
    assert detect_format(source).value == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("https://account.blob.core.windows.net/docs/guide.rst", "rst"),
        ("docs/GUIDE.MD", "markdown"),  # RST signs in the text, but the name says Markdown
        ("docs/notes.txt", "rst"),  # a name that says nothing: the text decides
        ("", "rst"),
    ],
)
def test_a_document_name_s_suffix_decides_before_its_text(name: str, expected: str) -> None:
    source = "Setup\n~~~~~\n\nRun ``agent start``.\n"
    assert detect_format(source, name).value == expected
    assert chunk_document(source, document_key=name or "document").format == expected


def test_titles_nest_in_the_order_their_styles_first_appear() -> None:
    source = (
        "=====\nGuide\n=====\n\nIntro.\n\nSetup\n~~~~~\n\nText.\n\nProxy\n^^^^^\n\nText.\n\n"
        "Usage\n~~~~~\n\nText.\n"
    )
    outline = parse_rst(source)
    assert [(s.title, s.depth) for s in outline.sections] == [
        ("Guide", 1),
        ("Setup", 2),
        ("Proxy", 3),
        ("Usage", 2),
    ]
    assert outline.sections[3].parent == 0, "Usage closes Proxy and Setup"
    assert outline.level_at(source.index("Setup")) == Level.heading(2)


def test_a_tilde_underline_is_a_title_not_a_code_fence() -> None:
    step = "Run the agent once by hand and read what it logs before you enable it. " * 3
    source = f"Setup\n~~~~~\n\n{step}\n\nUsage\n~~~~~\n\n{step}\n"
    result = chunk(source)
    assert result.format == "rst"
    assert [leaf.headings for leaf in result.leaves] == [("Setup",), ("Usage",)]
    assert not parse_rst(source).containers


def test_an_underline_shorter_than_its_title_counts_only_from_four_characters() -> None:
    assert [s.title for s in parse_rst("A long title\n~~~~\n\nText.\n").sections] == [
        "A long title"
    ]
    assert not parse_rst("A long title\n~~\n\nText.\n").sections


def test_a_literal_block_after_double_colon_stays_whole_with_no_cut_inside() -> None:
    code = "".join(f"    step_{i} = run({i})\n" for i in range(6))
    source = "Intro paragraph.\n\nRun the following::\n\n" + code + "\nAfter the block.\n"
    outline = parse_rst(source)
    (block,) = outline.containers
    assert source[block.start : block.end] == code
    assert block.reopen == ""
    assert not [p for p in outline.positions if block.start < p < block.end]
    assert any(code.strip() in leaf for leaf in leaves(source))


def test_an_oversized_code_directive_is_cut_between_lines_and_each_piece_reopens_it() -> None:
    body = "".join(f"   value_{i} = compute({i}, retries=3)\n" for i in range(40))
    source = ".. code-block:: python\n   :linenos:\n\n" + body
    result = chunk(source)
    assert len(result.leaves) > 2
    for leaf in result.leaves:
        assert leaf.embed_text.startswith(".. code-block:: python\n   :linenos:\n\n")
        assert leaf.text.endswith("\n"), "cuts fall between lines"


def test_a_grid_table_is_cut_between_rows_and_each_piece_repeats_its_header() -> None:
    header = "+------+----------------------+\n| Code | Meaning              |\n"
    rows = "".join(
        f"+------+----------------------+\n| E{i:03} | failure of tier {i:<5}|\n"
        f"|      | restart the worker   |\n"
        for i in range(20)
    )
    source = header + "+======+======================+\n" + rows[32:]
    source += "+------+----------------------+\n"
    result = chunk(source)
    assert len(result.leaves) > 2
    for leaf in result.leaves:
        assert leaf.text.endswith("+\n"), "whole rows only"
        if leaf.start > 0:
            assert leaf.text.startswith("| E")
            assert leaf.embed_text.startswith("| Code | Meaning              |\n| E")


def test_a_simple_table_keeps_a_row_with_its_continuation_line_and_repeats_its_header() -> None:
    border = "=======  ===========================\n"
    rows = "".join(
        f"opt_{i:<3}  sets value {i} of the agent\n         and keeps it after a restart\n"
        for i in range(20)
    )
    source = border + "Name     Meaning\n" + border + rows + border + "\nAfter.\n"
    result = chunk(source)
    pieces = [leaf for leaf in result.leaves if "opt_" in leaf.text]
    assert len(pieces) > 2
    for leaf in pieces[1:]:
        assert leaf.embed_text.startswith("Name     Meaning\nopt_"), "the header, not its borders"
    for leaf in pieces:
        assert not leaf.text.endswith("of the agent\n"), "a row keeps its continuation line"


def test_a_list_table_is_cut_between_rows_and_each_piece_repeats_its_header_rows() -> None:
    rows = "".join(
        f"   * - ``opt_{i}``\n     - int\n     - Sets value {i} of the agent.\n" for i in range(20)
    )
    source = (
        ".. list-table:: Agent settings\n   :header-rows: 1\n   :widths: 20 10 70\n\n"
        "   * - Name\n     - Type\n     - Meaning\n" + rows + "\nAfter.\n"
    )
    pieces = [leaf for leaf in chunk(source).leaves if "opt_" in leaf.text]
    assert len(pieces) > 2
    header = ".. list-table:: Agent settings\n\n   * - Name\n     - Type\n     - Meaning\n"
    for leaf in pieces[1:]:
        assert leaf.text.lstrip().startswith("* - ``opt_"), "whole rows only"
        assert leaf.embed_text.startswith(header + "   * - ``opt_"), "title and header, no layout"
    assert pieces[0].text.startswith(".. list-table::"), "the header stays with the first row"


def test_a_csv_table_is_cut_between_rows_and_each_piece_repeats_its_header_option() -> None:
    rows = "".join(
        f'   "E{i:03}", "failure {i} of the ingest tier", "restart"\n' for i in range(30)
    )
    source = '.. csv-table:: Errors\n   :header: "Code", "Meaning", "Action"\n\n' + rows
    pieces = chunk(source).leaves
    assert len(pieces) > 2
    for leaf in pieces[1:]:
        assert leaf.text.lstrip().startswith('"E'), "whole rows"
        assert leaf.text.endswith('"restart"\n'), "whole rows"
        assert leaf.embed_text.startswith('.. csv-table:: Errors\n   :header: "Code", "Meaning"')


def test_list_items_and_field_list_items_are_item_cuts() -> None:
    source = "Options:\n\n- first item\n- second item\n\n:param name: the name\n:returns: it\n"
    outline = parse_rst(source)
    for marker in ("- first", "- second", ":param", ":returns"):
        assert outline.level_at(source.index(marker)) == Level.list_item(0)
    assert outline.level_at(source.index(":returns")) == Level.list_item(0)


def test_a_target_and_a_transition_never_make_a_piece_alone() -> None:
    source = "Before.\n\n----\n\n.. _next:\n\nNext\n====\n\nText after the title.\n"
    outline = parse_rst(source)
    assert source.index("----") in outline.bare_lines
    assert source.index(".. _next:") in outline.label_lines, "a target leads into its title"
    assert not any(leaf.strip() in {"----", ".. _next:"} for leaf in leaves(source))


def test_a_doctest_block_runs_to_the_blank_line() -> None:
    source = "Try it:\n\n>>> import agent\n>>> agent.ping()\n'pong'\n\nThen stop.\n"
    (block,) = parse_rst(source).containers
    assert source[block.start : block.end] == ">>> import agent\n>>> agent.ping()\n'pong'\n"


def test_windows_line_breaks_read_the_same() -> None:
    source = "Setup\n~~~~~\n\nRun::\n\n    agent start\n\nUsage\n~~~~~\n\nText.\n"
    unix, windows = parse_rst(source), parse_rst(source.replace("\n", "\r\n"))
    assert [s.title for s in windows.sections] == [s.title for s in unix.sections]
    assert len(windows.containers) == len(unix.containers) == 1


def test_a_title_costs_its_text_in_the_path_not_its_adornment() -> None:
    source = "Proxy settings\n==============\n\nUse the ``HTTPS_PROXY`` variable.\n"
    (leaf,) = chunk(source).leaves
    assert leaf.embed_text.startswith("Proxy settings\n\n")
    assert leaf.tokens == count_tokens(leaf.embed_text)


def test_stray_table_borders_are_read_once_not_once_per_border() -> None:
    # 40,000 borders that close nothing: scanning to the end from each would never finish
    source = "====  ====\nrow   text\n\n" * 40_000
    outline = parse_rst(source)
    assert not outline.containers
    indented = "Text.\n\n====  ====\nstray\n\n.. note::\n\n   ===  ===\n   a    b\n   ===  ===\n"
    (table,) = parse_rst(indented).containers
    assert indented[table.start :].startswith("   ===  ===\n   a    b"), "its own indentation"


def test_a_section_starts_at_the_targets_that_name_it() -> None:
    text = "Run the agent once by hand and read what it logs before you enable it. " * 3
    source = f"{text}\n\n.. _setup:\n.. _install:\n\nSetup\n=====\n\n{text}\n"
    (section,) = parse_rst(source).sections
    assert section.start == source.index(".. _setup:")
    pieces = chunk(source).leaves
    assert pieces[-1].text.startswith(".. _setup:") and pieces[-1].headings == ("Setup",)


def test_a_rule_between_simple_table_rows_stays_with_the_row_above() -> None:
    border = "=======  ===========================\n"
    rule = "-------  ---------------------------\n"
    rows = "".join(f"opt_{i:<3}  sets value {i} of the agent\n" + rule for i in range(30))
    source = border + "Name     Meaning\n" + border + rows + border
    pieces = chunk(source).leaves
    assert len(pieces) > 2
    for leaf in pieces[1:]:
        assert leaf.embed_text.startswith("Name     Meaning\nopt_"), "a piece opens at a row"


def test_a_definition_list_term_leads_into_its_definition() -> None:
    long_sentence = " ".join(["the client retries the request on every failure"] * 9) + "."
    definitions = [
        ("``retries``", "How many times a request is sent again."),
        ("``timeout`` : float", long_sentence),  # too long to share a piece with its term
        ("--verbose", "Print each request and its response while they run."),
        ("``backoff``", long_sentence),
    ]
    source = "Options\n=======\n\n" + "".join(
        f"{term}\n    {definition}\n\n" for term, definition in definitions
    )
    outline = parse_rst(source)
    for term, _ in definitions:
        assert source.index(term) in outline.label_lines
    for options in (LEAF, ChunkOptions(child_max_tokens=48, child_overlap_tokens=0)):
        for leaf in chunk(source, options).leaves:
            last = leaf.text.rstrip().splitlines()[-1]
            assert last not in {term for term, _ in definitions}, leaf.text


def test_a_paragraph_followed_by_a_blank_line_or_ending_in_a_double_colon_is_no_term() -> None:
    source = "Intro line.\n\n    A quote.\n\nExample::\n    not a literal, not a term\n"
    outline = parse_rst(source)
    assert source.index("Intro") not in outline.label_lines
    assert source.index("Example") not in outline.label_lines
