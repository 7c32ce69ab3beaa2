"""Structure rules, one behaviour per test: code, tables, lists, sentences, headings, pages, ids."""

from __future__ import annotations

import itertools
import re

import pytest
from pydantic import ValidationError

from skills.chunking import ChunkOptions, chunk_document, count_tokens
from skills.chunking.levels import Level
from skills.chunking.markup.markdown import parse_markdown
from skills.chunking.outline import NO_SECTION
from skills.chunking.pages import without_page_markers

LEAF = ChunkOptions(strategy="structural", child_max_tokens=64)


def leaves(source: str, options: ChunkOptions = LEAF, title: str | None = None) -> list[str]:
    return [c.text for c in chunk_document(source, title=title, options=options).leaves]


def code_block(lines: int, info: str = "python") -> str:
    body = "\n".join(f"    value_{i} = compute({i}, retries=3)" for i in range(lines))
    return f"```{info}\n{body}\n```\n"


def test_a_code_block_that_fits_is_never_cut() -> None:
    source = "Intro paragraph that comes first.\n\n" + code_block(4) + "\nA closing paragraph.\n"
    chunks = leaves(source)
    assert any(code_block(4).strip() in chunk for chunk in chunks)


def test_an_oversized_code_block_is_cut_between_lines_and_each_piece_reopens_the_fence() -> None:
    source = code_block(60, info='python title="app.py"')
    result = chunk_document(source, options=LEAF)
    assert len(result.leaves) > 2
    for chunk in result.leaves:
        assert chunk.text.endswith("\n") or chunk.end == len(source)
        assert chunk.embed_text.lstrip().startswith('```python title="app.py"\n')
    lines = source.splitlines(keepends=True)
    starts = {sum(len(line) for line in lines[:i]) for i in range(len(lines))}
    assert all(chunk.start in starts for chunk in result.leaves), "cuts fall between lines"


def test_a_table_is_cut_between_rows_and_each_piece_repeats_header_and_delimiter() -> None:
    header = "| Code | Meaning | Action |\n|------|---------|--------|\n"
    rows = "".join(
        f"| E{i:03} | failure number {i} of the ingest tier | restart it |\n" for i in range(40)
    )
    result = chunk_document("## Error codes\n\n" + header + rows, options=LEAF)
    table_chunks = [c for c in result.leaves if "| E0" in c.text]
    assert len(table_chunks) > 2
    assert header in table_chunks[0].text
    for chunk in table_chunks[1:]:
        assert "| Code | Meaning | Action |\n|---|---|---|\n| E" in chunk.embed_text, (
            "every piece carries the header and delimiter rows"
        )
    for chunk in table_chunks:
        for line in chunk.text.strip().splitlines():
            if line and not line.startswith("#"):
                assert line.startswith("|") and line.endswith("|"), "no row is cut"


def test_a_padded_table_header_is_reopened_without_its_padding() -> None:
    # axios' error codes: cells padded to a 400-character column, a delimiter row of 400 dashes.
    # Reopened as written, the local embedder (a word piece per dash, 256 read) saw only the
    # header in every piece after the first; the rows themselves stay as written.
    header = f"| {'Code':<25} | {'Definition':<400} |\n| {'-' * 25} | {'-' * 400} |\n"
    rows = "".join(
        f"| {f'ERR_{i:03}':<25} | {f'The request failed in step {i} of the pipeline.':<400} |\n"
        for i in range(30)
    )
    result = chunk_document("## Error types\n\n" + header + rows, options=LEAF)
    table_chunks = [c for c in result.leaves if "| ERR_" in c.text]
    assert len(table_chunks) > 2
    assert header in table_chunks[0].text
    for chunk in table_chunks[1:]:
        assert "| Code | Definition |\n| --- | --- |\n| ERR_" in chunk.embed_text
        assert "-----" not in chunk.embed_text and f"{'Code':<25}" not in chunk.embed_text


WIDE_HEADER = (
    "| Algorithm       | `generateKey` | `exportKey` | `importKey` | `encrypt` | `decrypt` |\n"
    "|-----------------|---------------|-------------|-------------|-----------|-----------|\n"
)


def test_a_header_too_wide_to_repeat_whole_is_repeated_as_its_column_names() -> None:
    # A matrix of marks: without its column names, a row says nothing.
    rows = "".join(
        f"| `'ALGO-{i:03}'`    | yes           | yes         | no          "
        "| yes       | no        |\n"
        for i in range(30)
    )
    assert count_tokens(WIDE_HEADER) > LEAF.child_max_tokens // 2, "too wide to repeat whole"
    result = chunk_document("## Algorithm matrix\n\n" + WIDE_HEADER + rows, options=LEAF)
    later = [c for c in result.leaves if c.text.startswith("| `'ALGO")]
    assert len(later) > 2
    names = "| Algorithm | `generateKey` | `exportKey` | `importKey` | `encrypt` | `decrypt` |\n"
    for chunk in later:
        assert chunk.prefix.endswith(names), "the names, without padding or delimiter row"
        assert chunk.tokens <= LEAF.child_max_tokens


def test_an_html_header_too_wide_to_repeat_whole_is_repeated_as_its_cell_texts() -> None:
    versions = range(20, 14, -1)
    header = "<table>\n<tr>\n" + "".join(
        f'<th><a href="doc/changelogs/CHANGELOG_V{v}.md">{v}</a></th>\n' for v in versions
    )
    rows = "".join(
        "<tr>" + "".join(f"<td>{v}.{i}.0</td>" for v in versions) + "</tr>\n" for i in range(20)
    )
    source = header + "</tr>\n" + rows + "</table>\n"
    assert count_tokens(header + "</tr>\n") > LEAF.child_max_tokens // 2
    result = chunk_document(source, options=LEAF)
    later = [c for c in result.leaves if c.start > source.index("<td>")]
    assert len(later) > 2
    cells = "".join(f"{v}\n" for v in versions)
    for chunk in later:  # a piece inside a row (cut at words) reopens the row's first cell too
        row = source.rfind("<tr><td>", 0, chunk.start)
        key = source[row + 8 : source.index("<", row + 8)] + " …\n"
        assert chunk.prefix in (cells, cells + key), "the header cells' text, no tags"


def test_each_piece_of_a_row_too_long_for_a_chunk_reopens_the_row_key_after_the_header() -> None:
    # FastAPI's metadata table: a `dict` parameter's row holds a whole table of its fields
    header = "| Parameter | Type | Description |\n|---|---|---|\n"
    fields = " ".join(f"The field number {i} of the license." for i in range(40))
    rows = f"| `title` | `str` | The title. |\n| `license_info` | `dict` | {fields} |\n"
    result = chunk_document(header + rows, options=LEAF)
    pieces = [c for c in result.leaves if "field number" in c.text]
    assert len(pieces) > 2
    assert pieces[0].text.startswith("| `license_info` |") and "…" not in pieces[0].prefix
    for piece in pieces[1:]:
        assert piece.prefix.endswith(header + "| `license_info` | …\n")
        assert piece.tokens <= LEAF.child_max_tokens


@pytest.mark.parametrize("cell_per_line", [False, True], ids=["row-per-line", "cell-per-line"])
def test_each_piece_of_an_html_row_too_long_for_a_chunk_reopens_its_first_cell(
    cell_per_line: bool,
) -> None:
    # Document Intelligence's Markdown: a lease's terms in one cell of a PDF table
    terms = " ".join(f"Clause {i} binds the lessee." for i in range(30))
    row = (
        "<tr>\n<td>Laser cutter</td>\n<td>{}</td>\n</tr>\n"
        if cell_per_line
        else ("<tr><td>Laser cutter</td><td>{}</td></tr>\n")
    )
    header = "<table>\n<tr><th>Item</th><th>Terms</th></tr>\n"
    source = header + "<tr><td>CNC mill</td><td>none</td></tr>\n" + row.format(terms) + "</table>\n"
    pieces = [c for c in chunk_document(source, options=LEAF).leaves if "Clause" in c.text]
    assert len(pieces) > 2
    key = "<tr> <td>Laser cutter</td> …\n" if cell_per_line else "<tr><td>Laser cutter</td> …\n"
    assert all(piece.prefix.endswith(header + key) for piece in pieces[1:])


def test_a_row_key_that_does_not_fit_beside_the_header_gives_way_to_the_header() -> None:
    names = ["Setting", "Type", "Default", "Scope", "Since", "Notes", "Owner"]
    header = "| " + " | ".join(names) + " |\n|" + "---|" * len(names) + "\n"
    key = "| `ingest_retry_backoff_multiplier_of_the_secondary_tier_worker_pool` |"
    clauses = " ".join(f"Clause {i} applies." for i in range(60))
    source = f"{header}{key} float | 2.0 | tier | 3.1 | {clauses} | ops |\n"
    assert count_tokens(header) <= LEAF.child_max_tokens // 2 < count_tokens(header + key)
    pieces = chunk_document(source, options=LEAF).leaves[1:]
    assert len(pieces) > 2
    assert all(piece.prefix == header for piece in pieces), "the header, never nothing"


def test_a_row_cut_inside_its_first_cell_reopens_only_the_header() -> None:
    header = "| Name | Type |\n|---|---|\n"
    name = " ".join(f"word{i}" for i in range(120))
    result = chunk_document(f"{header}| {name} | `str` |\n", options=LEAF)
    assert len(result.leaves) > 2
    assert all(leaf.prefix.endswith(header) for leaf in result.leaves[1:])


def test_a_header_whose_names_alone_do_not_fit_is_left_out() -> None:
    names = " | ".join(f"`setting_number_{i}`" for i in range(12))
    header = f"| {names} |\n|" + "---|" * 12 + "\n"
    rows = "".join("| " + " | ".join(f"v{i}" for _ in range(12)) + " |\n" for i in range(30))
    result = chunk_document(header + rows, options=LEAF)
    assert len(result.leaves) > 2
    for chunk in result.leaves[1:]:
        assert "setting_number" not in chunk.prefix
        assert chunk.tokens <= LEAF.child_max_tokens


def test_the_header_is_never_separated_from_the_first_row() -> None:
    source = "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n"
    outline = parse_markdown(source)
    delimiter = source.index("|---")
    first_row = source.index("| 1")
    assert outline.level_at(delimiter) <= Level.AVOID
    assert outline.level_at(first_row) <= Level.AVOID


def indented_code(lines: int, indent: str = "    ") -> str:
    body = "".join(
        f"{indent}def step_{i}(event):\n{indent * 2}return compute({i}, event)\n\n"
        for i in range(lines)
    )
    return body.rstrip("\n") + "\n"


@pytest.mark.parametrize("indent", ["    ", "\t", "  \t"])
def test_an_indented_code_block_that_fits_is_never_cut_at_its_blank_lines(indent: str) -> None:
    prose = "This paragraph explains the handler in some detail so that it takes room. " * 3
    code = indented_code(2, indent)
    source = f"## Example\n\n{prose}\n\n{code}\n{prose}\n"
    assert any(code in chunk for chunk in leaves(source))


def test_an_oversized_indented_code_block_is_cut_between_lines_not_sentences() -> None:
    lines = "".join(
        f"    echo Step {i} done. Now run step {i + 1} of the job.\n" for i in range(30)
    )
    source = "## Setup\n\n" + lines
    result = chunk_document(source, options=LEAF)
    code = [c for c in result.leaves if "echo" in c.text]
    assert len(code) > 2
    assert all(source[c.start - 1] == "\n" for c in code), "cut between lines"


def test_indented_text_in_a_list_item_an_admonition_or_a_tab_is_not_code() -> None:
    in_list = "- An item\n\n    that goes on in a second paragraph.\n"
    in_note = "!!! note\n\n    The body of the note, indented.\n"
    in_tab = '=== "Windows"\n\n    Run the installer, then restart.\n'
    note_in_item = "- Step one\n\n    !!! note\n\n        The body of a note in the item.\n"
    deeper = "- An item\n\n        code inside the item\n"
    for source in (in_list, in_note, in_tab, note_in_item):
        assert not parse_markdown(source).containers
    [code] = parse_markdown(deeper).containers
    assert deeper[code.start : code.end] == "        code inside the item\n"


def test_a_fenced_block_indented_in_a_list_item_is_a_code_block() -> None:
    # MkDocs lists indent their content four columns: so do the code blocks in them.
    yaml = "    steps:\n    - name: install\n      run: pip install .\n\n    - name: test\n"
    source = f"1. Add the workflow:\n\n    ```yaml\n{yaml}    ```\n\n2. Push it.\n"
    [code] = parse_markdown(source).containers
    assert source[code.start : code.end] == f"    ```yaml\n{yaml}    ```\n"
    assert code.reopen == "    ```yaml\n"
    outline = parse_markdown(source)
    inside = [p for p in outline.positions if code.start < p < code.end]
    assert inside == [], "no list item or block starts inside the code"
    assert source.index("2. Push") in outline.positions


def test_a_fenced_block_in_a_list_item_ends_with_the_item_when_unclosed() -> None:
    source = "- Run:\n\n    ```sh\n    make test\n\nA paragraph after the list.\n"
    [code] = parse_markdown(source).containers
    assert source[code.start : code.end] == "    ```sh\n    make test\n\n"


def test_a_nested_fence_closed_less_indented_opens_no_block_of_its_own() -> None:
    # npm's docs close "    ```bash" with "   ```": that line must not open the next block.
    first = "    ```bash\n    npm install a/b\n   ```\n"
    second = "    ```bash\n    npm install gist:101a\n    ```\n"
    source = f"* `npm install <repo>`:\n\n{first}\n* `npm install gist`:\n\n{second}\nDone.\n"
    blocks = [source[c.start : c.end] for c in parse_markdown(source).containers]
    assert blocks == [first, second]


def test_a_fence_indented_four_columns_outside_a_list_is_indented_code() -> None:
    source = "Some text.\n\n    ```sh\n    make test\n    ```\n"
    [code] = parse_markdown(source).containers
    assert code.reopen == "" and code.start == source.index("    ```sh")


def test_a_hard_wrapped_quote_is_one_block_until_an_empty_quote_line() -> None:
    source = (
        "> A quoted paragraph that is wrapped\n> by hand. It goes on here.\n>\n"
        "> A second paragraph.\n> - an item in the quote\n"
    )
    positions = list(parse_markdown(source).positions)
    starts = [source.index(text) for text in ("> A second", "> - an item")]
    assert positions == starts, "no block starts at a wrapped line"


def test_a_fenced_block_in_a_quote_is_one_block_to_its_closing_fence() -> None:
    # A GitHub alert with an example: its code lines are neither headings nor list items.
    code = "> ```bash\n> npm install\n>\n> # then build\n> - not a list item\n> ```\n"
    source = f"> [!TIP]\n> Install it:\n{code}> And run it.\n"
    positions = list(parse_markdown(source).positions)
    assert positions == [source.index(code), source.index("> And run")]


def test_an_oversized_fenced_block_in_a_quote_reopens_its_fence_in_every_piece() -> None:
    code = "".join(f"> value_{i} = compute({i}, retries=3)\n" for i in range(40))
    source = f"> [!NOTE]\n> The whole run:\n>\n> ```python\n{code}> ```\n>\n> Done.\n"
    result = chunk_document(source, options=LEAF)
    pieces = [c for c in result.leaves if "value_" in c.text]
    assert len(pieces) > 2
    assert all(c.embed_text.lstrip().startswith("> ```python\n") for c in pieces)
    assert all(c.text.startswith("> ") for c in pieces), "cuts fall between lines"


def test_an_empty_quote_line_after_a_quoted_fence_is_no_piece_of_its_own() -> None:
    sentence = "Sentence number {} explains a detail of the configuration option."
    prose = "> " + " ".join(sentence.format(i) for i in range(8)) + "\n"
    code = "".join(f"> x{i} = compute_value({i})\n" for i in range(12))
    source = f"{prose}>\n> ```python\n{code}> ```\n>\n{prose}"
    chunks = leaves(source, ChunkOptions())  # the default sizes, with their overlap
    assert all(chunk.strip("> \n") for chunk in chunks)
    assert any(f"> ```python\n{code}> ```" in chunk for chunk in chunks), "kept whole"


def test_a_hard_wrapped_quote_is_cut_at_a_sentence_not_at_its_line_ends() -> None:
    sentence = "the proxy forwards every request it receives to the ingest tier at once"
    lines = [f"> {word} {sentence}" for word in ("First,", "and", "so")]
    source = "\n".join([*lines[:1], f"> {sentence}. Then {sentence}", *lines[1:]]) + ".\n"
    chunks = leaves(source, ChunkOptions(strategy="structural", child_max_tokens=40))
    assert len(chunks) > 1
    assert any(chunk.startswith("Then ") for chunk in chunks), "cut at the sentence"


def html_table(
    rows: int, row: str = "<tr><td>E{i:03}</td><td>failure {i} of the ingest tier</td></tr>"
) -> str:
    header = (
        "<table>\n<caption>Table 3. Error codes</caption>\n<tr><th>Code</th><th>Meaning</th></tr>\n"
    )
    return header + "".join(row.format(i=i) + "\n" for i in range(rows)) + "</table>\n"


def test_an_html_table_is_cut_between_rows_and_each_piece_repeats_caption_and_header() -> None:
    # Document Intelligence's Markdown: a PDF's tables come as HTML, one row per line
    source = "## Errors\n\n" + html_table(40) + "Codes above 900 are reserved.\n"
    result = chunk_document(source, options=LEAF)
    table_chunks = [c for c in result.leaves if "<td>E0" in c.text]
    assert len(table_chunks) > 2
    header = (
        "<table>\n<caption>Table 3. Error codes</caption>\n<tr><th>Code</th><th>Meaning</th></tr>\n"
    )
    for chunk in table_chunks:
        assert header in chunk.embed_text, "every piece carries the caption and the header row"
        rows = [line for line in chunk.text.splitlines() if "<td>" in line]
        assert all(line.startswith("<tr>") and line.endswith("</tr>") for line in rows)


def test_an_html_row_spread_over_lines_is_never_cut() -> None:
    row = "<tr>\n<td>E{i:03}</td>\n<td>failure {i} of the ingest tier</td>\n</tr>"
    source = html_table(30, row)
    result = chunk_document(source, options=LEAF)
    assert len(result.leaves) > 2
    for chunk in result.leaves:
        body = chunk.text[chunk.text.index("<tr>\n<td>") :] if "<td>" in chunk.text else ""
        assert body.count("<tr>") == body.count("</tr>"), f"a row was cut: {chunk.text!r}"


def test_html_tables_inline_unclosed_or_holding_code_are_handled_as_blocks() -> None:
    inline = "A paragraph with <table><tr><td>x</td></tr></table> inside.\n"
    unclosed = "<table>\n<tr><td>a</td></tr>\n<tr><td>b</td></tr>\n\nAfter the blank line.\n"
    with_code = "<table>\n<tr><td>\n\n```sh\nmake\n```\n\n</td></tr>\n</table>\n"
    assert not parse_markdown(inline).containers
    [table] = parse_markdown(unclosed).containers
    assert unclosed[table.start : table.end] == unclosed[: unclosed.index("\n\n") + 1]
    [fence] = parse_markdown(with_code).containers
    assert fence.reopen == "```sh\n", "the code block keeps its own rule"


def test_document_intelligence_markdown_is_detected_as_markdown() -> None:
    source = '<!-- PageHeader="Lease" -->\n\nThe rent is due monthly.\n\n' + html_table(2)
    assert chunk_document(source).format == "markdown"


def test_list_items_stay_whole_when_they_fit() -> None:
    items = [
        f"- Item {i}: the client retries the request {i} times before it gives up."
        for i in range(30)
    ]
    source = "## Retries\n\n" + "\n".join(items) + "\n"
    for chunk in leaves(source):
        for line in chunk.strip().splitlines():
            assert not line or line.startswith(("- Item", "## Retries"))


def test_a_nested_list_is_cut_before_top_level_items_first() -> None:
    source = "\n".join(
        f"- Parent {i} introduces a group of settings\n  - child a of {i} sets a timeout\n"
        f"  - child b of {i} sets a retry budget"
        for i in range(12)
    )
    for chunk in leaves(source):
        assert chunk.lstrip().startswith("- Parent"), "pieces start at top-level items"


def test_a_sentence_is_cut_only_when_it_alone_exceeds_the_limit() -> None:
    sentences = [
        "The client uses e.g. os.path.join to build paths.",
        "Dr. Smith measured 3.14 s on version 2.4.1 of the U.S. build.",
        "See https://example.com/a.b for details.",
    ] * 6
    paragraph = " ".join(sentences)
    for chunk in leaves(paragraph, ChunkOptions(strategy="structural", child_max_tokens=48)):
        assert chunk.rstrip().endswith("."), "pieces end at a sentence end"
        assert chunk.lstrip()[0].isupper()


def test_an_enormous_word_is_cut_between_tokens_within_the_limit() -> None:
    result = chunk_document("a" * 20000, options=LEAF)
    assert "".join(c.text for c in result.leaves) == "a" * 20000
    assert all(count_tokens(c.embed_text) <= 64 for c in result.leaves)


def test_embed_text_starts_with_title_and_heading_path() -> None:
    source = (
        "# Guide\n\nIntro.\n\n## Install\n\nRun the installer.\n\n### Linux\n\n" + "Use apt. " * 40
    )
    result = chunk_document(source, title="Widget docs", options=LEAF)
    linux = [c for c in result.leaves if "Use apt" in c.text]
    assert linux[-1].embed_text.startswith("Widget docs > Guide > Install > Linux\n\n")
    assert linux[-1].headings == ("Guide", "Install", "Linux")


def test_setext_headings_and_heading_attributes_make_clean_titles() -> None:
    source = "Guide\n=====\n\nIntro.\n\nSetup { #setup }\n-----\n\nText.\n\n## Run ## \n\nMore.\n"
    outline = parse_markdown(source)
    assert [s.title for s in outline.sections] == ["Guide", "Setup", "Run"]
    assert [s.depth for s in outline.sections] == [1, 2, 2]


def test_heading_titles_keep_words_and_drop_urls_badges_and_tags() -> None:
    source = (
        "# rustfmt [![linux](https://ci.example/linux.svg)](https://ci.example/linux)\n\n"
        "Intro.\n\n## [`Client.get`](api.md#get) <a id='get'></a>\n\n" + "Text. " * 60 + "\n\n"
        "## <code>Vec<u8></code> and List<String>\n\nMore.\n"
    )
    assert [s.title for s in parse_markdown(source).sections] == [
        "rustfmt",
        "`Client.get`",
        "Vec<u8> and List<String>",
    ]
    leaf = chunk_document(source, options=LEAF).leaves[-2]
    assert leaf.text.startswith("Text.")
    assert leaf.embed_text.startswith("rustfmt > `Client.get`\n\n")


FRONT_MATTER = "---\ntitle: {title}\nsection: 1\ndescription: Set access level\n---\n\n"


@pytest.mark.parametrize("title", ["npm-access", '"npm-access"', "'npm-access'"])
def test_a_front_matter_title_names_a_page_without_an_h1(title: str) -> None:
    # npm's command pages, like many static-site pages, are titled only in their front matter:
    # without it, every page's "Synopsis" and "Configuration" look alike.
    source = FRONT_MATTER.format(title=title) + "### Synopsis\n\nnpm access list\n\n"
    source += "### Configuration\n\n#### `json`\n\n* Default: false\n\n"
    source += "Whether or not to output JSON data, rather than the normal output. " * 8 + "\n"
    outline = parse_markdown(source)
    assert [(s.title, s.depth, s.parent) for s in outline.sections] == [
        ("npm-access", 1, NO_SECTION),
        ("Synopsis", 3, 0),
        ("Configuration", 3, 0),
        ("`json`", 4, 2),
    ]
    assert outline.sections[0].start == 0 and outline.sections[0].end == len(source)
    leaves = chunk_document(source, options=LEAF).leaves
    assert leaves[-1].embed_text.startswith("npm-access > Configuration > `json`\n\n")


def test_front_matter_is_metadata_and_its_description_leads_the_first_child() -> None:
    # Alone, its vector ("title: ... description: ...") ranked high for any question on the
    # page; joined to the page, its ``ms.author`` and dates were embedded as if they were text.
    source = FRONT_MATTER.format(title="npm-access") + "### Synopsis\n\n"
    source += "Sets the access level of a published package for its users and teams. " * 6
    leaves = chunk_document(source, options=LEAF).leaves
    assert leaves[0].start == source.index("### Synopsis")
    assert leaves[0].embed_text.startswith("npm-access > Synopsis\n\nSet access level\n\n###")
    assert all("section: 1" not in leaf.embed_text for leaf in leaves)
    assert "Set access level" not in leaves[1].embed_text


def test_a_page_of_nothing_but_front_matter_is_chunked_as_text() -> None:
    source = "---\ntitle: only front matter\n---\n"
    assert [leaf.text for leaf in chunk_document(source, options=LEAF).leaves] == [source]


@pytest.mark.parametrize(
    ("front", "body"),
    [
        (FRONT_MATTER.format(title="npm-access"), "# npm access\n\n## Synopsis\n\nText.\n"),
        (FRONT_MATTER.format(title="''"), "## Synopsis\n\nText.\n"),
        ("---\nsource:\n    - permissions.py\n---\n\n", "## Synopsis\n\nText.\n"),
    ],
    ids=["an H1 names the page", "an empty title", "no title"],
)
def test_a_front_matter_without_a_usable_title_or_beside_an_h1_adds_no_section(
    front: str, body: str
) -> None:
    titles = [s.title for s in parse_markdown(front + body).sections]
    assert titles == [s.title for s in parse_markdown(body).sections]


def test_heading_depth_limits_which_headings_open_sections() -> None:
    source = "# A\n\ntext\n\n## B\n\ntext\n\n### C\n\ntext\n"
    assert [s.title for s in parse_markdown(source, heading_depth=2).sections] == ["A", "B"]


def test_hashes_inside_code_are_not_headings() -> None:
    source = "```bash\n# install it\npip install x\n```\n"
    assert not parse_markdown(source).sections


def test_small_sibling_sections_share_a_chunk() -> None:
    source = "# API\n\n## GET\n\nReads.\n\n## PUT\n\nWrites.\n\n## DELETE\n\nRemoves.\n"
    assert leaves(source) == [source]


def only_headings(chunk: str) -> bool:
    lines = [line for line in chunk.splitlines() if line.strip()]
    return all(line.startswith("#") or set(line) <= {"-", " "} for line in lines)


def test_a_heading_stays_with_its_content_when_the_two_fill_more_than_the_target() -> None:
    # The heading and its first paragraph fit a child whole but not with room for overlap, and
    # the section goes on: the heading must not become a child of its own.
    paragraph = "The scheduler retries failed jobs with exponential backoff between attempts. " * 5
    source = "## Retry policy\n\n" + "\n\n".join([paragraph] * 4)
    options = ChunkOptions(child_max_tokens=128, child_overlap_tokens=64)
    result = chunk_document(source, options=options)
    assert len(result.leaves) > 1
    assert not any(only_headings(c.text) for c in result.leaves)
    assert result.leaves[0].text.startswith("## Retry policy\n\n" + paragraph[:40])


def test_headings_before_an_oversized_block_open_its_first_piece() -> None:
    rule = "Must be set before the indexer runs, or the skill rejects the request. " * 2
    header = "| Parameter | Rule |\n|---|---|\n"
    rows = "".join(f"| `param_{i}` | {rule}|\n" for i in range(12))
    source = f"# Skill reference\n\n## Definition parameters\n\n{header}{rows}"
    chunks = [c.text for c in chunk_document(source, options=ChunkOptions()).leaves]
    assert len(chunks) > 2
    assert not any(only_headings(chunk) for chunk in chunks)
    assert chunks[0].startswith(f"# Skill reference\n\n## Definition parameters\n\n{header}| `")


def test_a_code_block_that_fits_only_without_its_path_keeps_its_heading_and_a_shorter_path() -> (
    None
):
    code = code_block(5)
    title = "Configure the retry policy of the ingestion client"
    source = f"# Client guide\n\n## {title}\n\n{code}"
    alone = count_tokens(f"## {title}\n\n{code}")
    options = ChunkOptions(strategy="structural", child_max_tokens=alone + 3)
    assert count_tokens(f"{title}\n\n## {title}\n\n{code}") > options.child_max_tokens
    result = chunk_document(source, options=options)
    (chunk,) = [c for c in result.leaves if code in c.text]
    assert chunk.text == f"## {title}\n\n{code}", "the block is whole, its heading with it"
    assert chunk.headings == ("Client guide", title), "the full path stays in the metadata"
    assert chunk.tokens <= options.child_max_tokens


def test_a_code_block_that_fits_alone_is_not_cut_to_make_room_for_its_heading() -> None:
    code = code_block(5)
    title = "Configure the retry policy of the ingestion client"
    options = ChunkOptions(strategy="structural", child_max_tokens=count_tokens(code) + 3)
    chunks = leaves(f"## {title}\n\n{code}", options)
    assert code in chunks


def test_a_code_block_keeps_the_innermost_headings_of_its_path_that_fit() -> None:
    code = code_block(5)
    path = ("Reference", "Clients", "Retries")
    source = (
        "".join(f"{'#' * depth} {t}\n\nAbout {t.lower()}.\n\n" for depth, t in enumerate(path, 1))
        + code
    )
    room = count_tokens(f"Clients > Retries\n\n{code}")
    result = chunk_document(
        source, options=ChunkOptions(strategy="structural", child_max_tokens=room)
    )
    (chunk,) = [c for c in result.leaves if code.strip() in c.text]
    assert chunk.text == code
    assert chunk.prefix == "Clients > Retries\n\n", "outermost headings give way first"


@pytest.mark.parametrize("last", [False, True], ids=["middle row", "last row, then a break"])
def test_a_table_row_that_fits_only_without_its_path_keeps_its_header(last: bool) -> None:
    header = "| Setting | Meaning |\n|---|---|\n"
    long_row = "| retries | " + "how many times a failed request is sent again, " * 4 + "|\n"
    short = "| timeout | seconds to wait |\n"
    rows = (
        short + long_row + "\n---\n\nMore settings below.\n" if last else short + long_row + short
    )
    source = "# Client reference guide\n\n## Settings of the ingestion client\n\n" + header + rows
    room = count_tokens(header + long_row) + 2
    result = chunk_document(
        source, options=ChunkOptions(strategy="structural", child_max_tokens=room)
    )
    (chunk,) = [c for c in result.leaves if "how many times" in c.text]
    assert chunk.text.startswith(long_row), "the row is whole"
    assert chunk.embed_text.startswith(header + long_row), "and keeps its header"
    assert chunk.tokens <= room


def test_a_row_that_fits_only_beside_its_header_names_keeps_them_and_stays_whole() -> None:
    header = (
        "| Encoding"
        + " " * 20
        + "| Aliases"
        + " " * 60
        + "|\n|"
        + "-" * 28
        + "|"
        + "-" * 67
        + "|\n"
    )
    long_row = "| `'iso-8859-6'` | " + ", ".join(f"`'alias-{i}'`" for i in range(9)) + " |\n"
    short = "| `'utf-8'` | `'unicode-1-1-utf-8'` |\n"
    source = "## Encodings\n\n" + header + short + long_row + short
    room = count_tokens("| Encoding | Aliases |\n" + long_row) + 1
    assert count_tokens(header + long_row) > room, "the whole header does not fit beside the row"
    result = chunk_document(
        source, options=ChunkOptions(strategy="structural", child_max_tokens=room)
    )
    (chunk,) = [c for c in result.leaves if "alias-0" in c.text]
    assert chunk.text.startswith(long_row), "the row is whole"
    assert chunk.embed_text == "| Encoding | Aliases |\n" + chunk.text, "with its column names"


HISTORY = (
    "<!-- YAML\nadded:\n  - v14.2.0\n  - v12.19.0\nchanges:\n  - version: v20.1.0\n"
    "    description: the class has been deprecated.\n-->\n"
)


def test_a_comment_under_a_heading_leads_into_the_section_and_is_read_as_one_block() -> None:
    # Node.js API docs: every method heading is followed by its version history in a comment.
    options = "".join(
        f"* `option{i}` {{number}} How many times to retry step {i}.\n" for i in range(8)
    )
    source = "## `tracker.calls([fn][, exact])`\n\n" + HISTORY + "\n" + options
    outline = parse_markdown(source)
    inside = range(source.index("<!--") + 1, source.index("-->"))
    assert not [p for p in outline.positions if p in inside], "no list item inside the comment"
    chunks = chunk_document(
        source, options=ChunkOptions(strategy="structural", child_max_tokens=96)
    )
    assert len(chunks.leaves) > 1
    first = chunks.leaves[0]
    assert first.text.startswith("## `tracker.calls") and "* `option0`" in first.text


def test_an_empty_section_heading_stays_with_the_next_section() -> None:
    # A changelog's version heading followed at once by a heading of the same depth.
    note = "* fix number {} of the release, with a longer description\n"
    notes = "".join(note.format(i) for i in range(9))
    source = f"### [10.0.1] (2023-11-02)\n\n### Bug Fixes\n\n{notes}\n### Miscellaneous\n\n{notes}"
    chunks = leaves(source)
    assert len(chunks) > 1
    assert not any(only_headings(chunk) for chunk in chunks)
    assert chunks[0].startswith("### [10.0.1] (2023-11-02)\n\n### Bug Fixes\n\n* fix number 0")


def test_a_thematic_break_never_makes_a_child_alone() -> None:
    # A section that closes with "---": its parent ends with the break, which stays with the
    # text before it (before a heading in the same range, it leads into the heading instead).
    paragraph = "Filters narrow the queryset with the parameters of the request. " * 4
    paragraph += "Order them with care and thought. "  # the break does not fit the target
    source = f"## Filtering\n\n{paragraph}\n\n{paragraph}\n\n---\n\n## Ordering\n\n{paragraph}\n"
    options = ChunkOptions(parent_max_tokens=160, child_max_tokens=64, child_overlap_tokens=16)
    result = chunk_document(source, options=options)
    assert result.parents[0].text.rstrip().endswith("---")
    assert not any(only_headings(c.text) for c in result.leaves)
    assert any(c.text.rstrip().endswith(paragraph + "\n\n---") for c in result.leaves)
    assert not any(only_headings(chunk) for chunk in leaves(source))


def test_a_line_of_bare_html_tags_never_makes_a_child_alone() -> None:
    # Node's and Rust's changelogs put an anchor line before every version heading; here it
    # follows a list item too long for one child, whose last piece leaves no room for it.
    names = " ".join(f"`attr_{i}`" for i in range(10))
    item = (
        "- Validate usage of crate-level doc attributes. This means that if any of the "
        f"attributes {names} is missing, rustdoc emits the lint.\n"
    )
    source = "".join(f'## Rustdoc {v}\n\n{item}\n<a id="notes-{v}"></a>\n\n' for v in range(3))
    result = chunk_document(source, options=ChunkOptions())
    assert not [
        c.text for c in result.leaves if not c.text.strip().endswith("lint.") and "##" not in c.text
    ]
    assert not [c.text for c in result.leaves if c.text.startswith("<a")], (
        "no overlap of a bare line"
    )


@pytest.mark.parametrize(
    ("line", "bare"),
    [
        ('<a id="v8.2.0"></a>', True),
        ("</div>", True),
        ("<br/>", True),
        ("<https://www.npmjs.com/>", False),  # an autolink: the whole answer of its section
        ("<team@example.com>", False),
        ("<!-- v14.2.0 -->", False),
    ],
)
def test_a_bare_line_is_html_tags_and_an_autolink_is_not_one(line: str, bare: bool) -> None:
    source = f"## Where\n\n{line}\n\n## Next\n\nText.\n"
    assert (source.index(line) in parse_markdown(source).bare_lines) is bare


def test_a_list_items_label_stays_with_its_nested_items() -> None:
    # A changelog's "* **n-api**:" introduces the items nested under it.
    notes = [
        "add an API for asynchronous functions (Ada Lovelace) [#17887](https://example.org/pull/17887)",
        "mark the thread-safe function as stable (Ada Lovelace) [#25556](https://example.org/pull/25556)",
        "fix case 0 (Ada Lovelace) [#20000](https://example.org/pull/20000)",
        "fix case 1 (Ada Lovelace) [#21000](https://example.org/pull/21000)",
    ]
    source = (
        "## 2019-04-16, Version 8.16.0 'Carbon' (LTS), @releaser\n\n### Notable Changes\n\n"
        "* **n-api**:\n" + "".join(f"  * {note}\n" for note in notes)
    )
    result = chunk_document(source, options=ChunkOptions())
    assert len(result.leaves) > 1
    assert not [c.text for c in result.leaves if c.text.rstrip().endswith("* **n-api**:")]
    assert "* **n-api**:\n  * add an API" in result.leaves[0].text


def test_a_document_of_only_headings_is_cut_between_them() -> None:
    source = "".join(f"## Chapter {i}: the part about topic number {i}\n" for i in range(60))
    chunks = leaves(source)
    assert len(chunks) > 2
    assert all(chunk.endswith("\n") for chunk in chunks), "no heading is cut"


def test_a_comment_that_leads_in_is_never_left_alone_by_a_long_list_item_after_it() -> None:
    # Node's API pages: a version history under each heading, then a long "Returns:" item
    item = (
        "* Returns: {Buffer} When using an authenticated encryption mode (`GCM`, `CCM`,\n"
        "  `OCB`, and `chacha20-poly1305` are currently supported), the\n"
        "  `cipher.getAuthTag()` method returns a\n"
        "  [`Buffer`][] containing the _authentication tag_ that has been computed from\n"
        "  the given data.\n"
    )
    source = "## Class: `Cipher`\n\n### `cipher.getAuthTag()`\n\n<!-- YAML\nadded: v1.0.0\n-->\n\n"
    options = ChunkOptions(strategy="hierarchical", parent_max_tokens=256, child_max_tokens=64)
    chunks = leaves(source + item, options, title="Crypto")
    assert all("* Returns" in chunk for chunk in chunks if "-->" in chunk)


def test_a_heading_longer_than_a_child_is_cut_between_words() -> None:
    source = "# " + " ".join(f"word{i}" for i in range(200)) + "\n\nSome text after it.\n"
    chunks = chunk_document(source, options=LEAF).leaves
    assert len(chunks) > 2
    assert all(source[chunk.end] == " " for chunk in chunks[:-1]), "cut before a word"


def test_a_numbered_heading_is_no_sentence_break() -> None:
    sentence = "Install the package with the command shown below before anything else. "
    source = "## 1. Installing the command line tools\n\n" + sentence * 20
    result = chunk_document(source, options=LEAF)
    heading = "## 1. Installing the command line tools"
    assert result.leaves[0].text.startswith(heading + "\n\n" + sentence)
    assert all(heading[6:] not in c.text or heading in c.text for c in result.leaves)


def test_page_markers_give_each_chunk_its_pages() -> None:
    page = "Clause text that fills the page. " * 12
    source = f"{page}\n<!-- PageBreak -->\n{page}\n<!-- PageBreak -->\n{page}\n"
    result = chunk_document(
        source, options=ChunkOptions(strategy="structural", child_max_tokens=128)
    )
    assert result.leaves[0].pages[0] == 1 and result.leaves[-1].pages[-1] == 3
    whole = chunk_document(
        source, options=ChunkOptions(strategy="structural", child_max_tokens=1024)
    )
    assert whole.leaves[0].pages == (1, 2, 3)
    assert chunk_document("no markers here").leaves[0].pages == ()


def test_page_markers_are_not_embedded_and_the_tokens_count_what_is() -> None:
    page = "Clause text that fills the page. " * 12
    source = f'# Terms\n\n{page}\n<!-- PageNumber="1" -->\n\n<!-- PageBreak -->\n\n{page}\n'
    result = chunk_document(source, options=ChunkOptions(child_max_tokens=1024))
    (leaf,) = result.leaves
    assert "<!--" in leaf.text and leaf.pages == (1, 2)
    assert "<!--" not in leaf.embed_text and "fills the page. \n\nClause" in leaf.embed_text
    assert leaf.tokens == count_tokens(leaf.embed_text)


def test_a_page_break_after_a_full_child_joins_it_instead_of_making_a_child_alone() -> None:
    words = [
        "alpha",
        "beta",
        "gamma",
        "delta",
        "section",
        "value",
        "record",
        "table",
        "page",
        "network",
    ]
    paragraphs = [" ".join(words[(i * 7 + k) % 10] for i in range(120)) for k in range(6)]
    source = "# Doc\n\n## S1\n\n" + ".\n\n".join(paragraphs) + ".\n\n<!-- PageBreak -->\n\n"
    leaves = chunk_document(source, options=ChunkOptions()).leaves
    assert all(without_page_markers(leaf.text).strip() for leaf in leaves)
    assert leaves[-1].text.endswith("<!-- PageBreak -->\n\n")  # the marker is still covered


def test_an_unchanged_section_keeps_its_ids_when_another_section_changes() -> None:
    first = "# A\n\n" + "Alpha text. " * 60 + "\n\n# B\n\n" + "Beta text. " * 60 + "\n"
    second = first.replace("Alpha text. Alpha", "Alpha words. Alpha", 1)
    options = ChunkOptions(parent_max_tokens=256, child_max_tokens=64)
    ids_before = {
        c.id
        for c in chunk_document(first, document_key="k", options=options).leaves
        if "Beta" in c.text
    }
    ids_after = {
        c.id
        for c in chunk_document(second, document_key="k", options=options).leaves
        if "Beta" in c.text
    }
    assert ids_before and ids_before == ids_after


def test_ids_name_the_document_and_differ_between_documents() -> None:
    a = chunk_document("Same text.", document_key="https://x/blob/a.md").leaves[0].id
    b = chunk_document("Same text.", document_key="https://x/blob/b.md").leaves[0].id
    assert a != b and "a_md" in a


def test_children_overlap_by_at_most_the_overlap_limit() -> None:
    source = " ".join(f"Sentence {i} talks about retries and timeouts." for i in range(200))
    options = ChunkOptions(parent_max_tokens=512, child_max_tokens=64, child_overlap_tokens=16)
    result = chunk_document(source, options=options)
    overlaps = 0
    for parent in result.parents:
        children = result.children_of(parent)
        for previous, child in itertools.pairwise(children):
            if child.start < previous.end:
                overlaps += 1
                assert count_tokens(source[child.start : previous.end]) <= 16
    assert overlaps > 0


@pytest.mark.parametrize(
    ("given", "overlap"),
    [
        ({}, 32),  # hierarchical: a fifth of the 160-token leaf, chosen with those sizes
        ({"strategy": "semantic"}, 32),
        ({"childMaxTokens": 256}, 51),
        ({"childMaxTokens": "256"}, 51),  # as pydantic's lax mode reads it
        ({"childMaxTokens": 256, "noteTokens": 56}, 40),  # a fifth of what the note leaves
        ({"strategy": "fixed"}, 40),  # fixed windows: a quarter
        ({"strategy": "fixed", "childMaxTokens": 512}, 128),
        ({"strategy": "structural"}, 0),
        ({"strategy": "recursive"}, 0),
        ({"childOverlapTokens": 16}, 16),
        ({"childOverlapTokens": 0}, 0),
    ],
)
def test_the_default_overlap_is_a_share_of_the_leaf_budget(
    given: dict[str, object], overlap: int
) -> None:
    assert ChunkOptions.model_validate(given).child_overlap_tokens == overlap


@pytest.mark.parametrize("strategy", [["fixed"], {"name": "fixed"}, None, 3, "FIXED", ""])
def test_a_strategy_that_is_not_one_is_refused_by_name(strategy: object) -> None:
    # the overlap default reads the raw strategy before validation: an odd value must still
    # reach the field's own error, never a TypeError
    with pytest.raises(ValidationError, match="strategy"):
        ChunkOptions.model_validate({"strategy": strategy})


def test_cjk_sentences_keep_their_full_stop() -> None:
    source = "请先安装依赖。然后运行测试程序并检查结果。" * 40
    result = chunk_document(
        source, options=ChunkOptions(strategy="structural", child_max_tokens=64)
    )
    assert len(result.leaves) > 1
    assert all(chunk.text.endswith("。") for chunk in result.leaves)


def test_overlap_never_swallows_the_previous_child() -> None:
    source = "# Title\n\nShort intro.\n\n## Section\n\n" + "A sentence about retries. " * 60
    result = chunk_document(source, options=ChunkOptions(child_max_tokens=128))
    for parent in result.parents:
        children = result.children_of(parent)
        for previous, child in itertools.pairwise(children):
            assert child.start > previous.start


def test_an_overlap_never_reaches_back_across_a_heading() -> None:
    # Sections a little longer than a child: each one's second child overlaps its first, and
    # without the rule the next section's first child would begin in this section's tail.
    parts = [
        f"## Part {n}\n\n" + f"Part {n} explains step {n} of the rollout in detail. " * 14
        for n in range(1, 7)
    ]
    source = "# Guide\n\nHow the rollout goes, part by part.\n\n" + "\n\n".join(parts) + "\n"
    options = ChunkOptions(child_max_tokens=128, child_overlap_tokens=32)
    result = chunk_document(source, options=options)
    overlapped = 0
    for previous, leaf in itertools.pairwise(result.leaves):
        overlapped += leaf.start < previous.end
        heading = re.search(r"^## (Part \d)$", leaf.text, re.M)
        if heading:  # a child holding a heading begins at it and is prefixed with it
            assert leaf.text.startswith("## "), leaf.text[:60]
            assert leaf.headings[-1] == heading[1]
        first = re.search(r"Part (\d) explains", leaf.text)
        assert first and leaf.headings[-1] == f"Part {first[1]}"
    assert overlapped  # children still overlap inside a section


def test_code_keeps_its_overlap_across_definitions(monkeypatch: pytest.MonkeyPatch) -> None:
    # the lines before a definition are often its caller's: code's children may reach back into
    # the definition before, so code never asks where its leaf's section starts
    from skills.chunking import strategies

    def never(*_: object) -> int:
        raise AssertionError("code's overlap was floored at a definition")

    monkeypatch.setattr(strategies, "_section_floor", never)
    body = "".join(f"        value = self.step(value) + {k}  # stage {k}\n" for k in range(12))
    methods = [
        f"    def step_{n}(self, value: int) -> int:\n{body}        return value\n"
        for n in range(6)
    ]
    source = "class Steps:\n" + "\n".join(methods)
    options = ChunkOptions(child_max_tokens=128, child_overlap_tokens=32)
    result = chunk_document(source, document_key="steps.py", options=options)
    assert result.format == "code"
    assert any(leaf.start < previous.end for previous, leaf in itertools.pairwise(result.leaves))


def test_a_parent_that_fits_one_child_is_one_child_whatever_the_overlap() -> None:
    # Short paragraphs: more than a child less its overlap, within a whole child.
    paragraphs = [" ".join(["Retries back off exponentially between attempts."] * 2)] * 6
    source = "## Recap\n\n" + "\n\n".join(paragraphs) + "\n"
    options = ChunkOptions(parent_max_tokens=640, child_max_tokens=128, child_overlap_tokens=32)
    tokens = count_tokens("Recap\n\n" + source)
    assert 128 - 32 < tokens <= 128, tokens  # the case: between the target and the limit
    result = chunk_document(source, options=options)
    assert len(result.parents) == 1
    [child] = result.leaves
    assert (child.start, child.end) == (result.parents[0].start, result.parents[0].end)


def test_a_parent_larger_than_one_child_still_packs_to_leave_room_for_overlap() -> None:
    paragraphs = [" ".join(["Retries back off exponentially between attempts."] * 2)] * 9
    source = "## Recap\n\n" + "\n\n".join(paragraphs) + "\n"
    options = ChunkOptions(parent_max_tokens=640, child_max_tokens=128, child_overlap_tokens=32)
    result = chunk_document(source, options=options)
    assert len(result.leaves) > 1
    assert all(leaf.tokens <= 128 for leaf in result.leaves)


def test_a_closing_page_marker_after_a_full_parent_is_no_chunk_of_its_own() -> None:
    # a sheet's last table fills its parent; the sheet's closing marker came out a parent and
    # a child of nothing to read (xlrd's qPCR export, 97 columns wide)
    rows = "\n".join(f"| {i} | item {i} | {i * 7} |" for i in range(21))
    table = f"| No | Name | Count |\n| --- | --- | --- |\n{rows}"
    source = f'# Stock\n\n{table}\n\n<!-- PageNumber="1" -->\n'
    options = ChunkOptions(parent_max_tokens=256, child_max_tokens=64)
    result = chunk_document(source, format="markdown", options=options)
    for chunks in (result.parents, result.leaves):
        assert all(without_page_markers(chunk.text).strip() for chunk in chunks)
    assert result.parents[-1].text.endswith('<!-- PageNumber="1" -->\n')  # still covered
    assert result.leaves[-1].text.endswith('<!-- PageNumber="1" -->\n')
