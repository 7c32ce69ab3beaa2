"""Documents for the engine's tests: real ones, and hypothesis strategies for Markdown and
reStructuredText documents with every block kind the engine knows."""

from __future__ import annotations

from pathlib import Path

from hypothesis import strategies as st

PROJECT = Path(__file__).resolve().parents[2]
SAMPLES = PROJECT / "samples"
DEV_DOCS = PROJECT.parent / "shared" / "eval" / "dev" / "docs"


def real_documents() -> list[Path]:
    """The bundled samples, plus the shared dev set's documents when they are beside the project."""
    paths = sorted(p for p in SAMPLES.iterdir() if p.suffix in {".md", ".rst", ".txt"})
    if DEV_DOCS.is_dir():
        paths += sorted(DEV_DOCS.rglob("*.md"))
    return paths


words = st.sampled_from(
    [
        "the",
        "client",
        "retries",
        "a",
        "request",
        "e.g.",
        "Dr.",
        "U.S.",
        "3.14",
        "v1.2.3",
        "`os.path.join`",
        "https://example.com/a.b",
        "timeout",
        "5.000",
        "TL",
        "and",
        "returns",
        "éclair",
        "中文",
        "😀",
        "x" * 40,
        "value,",
        "it's",
        "(see",
        "below)",
    ]
)
sentence = st.lists(words, min_size=1, max_size=30).map(lambda w: " ".join(w).capitalize() + ".")
paragraph = st.lists(sentence, min_size=1, max_size=8).map(" ".join)
#: What real headings carry besides words: links, badges, anchors, inline HTML, generics, a
#: " > " (Jinja templates), or nothing at all (a lone "#").
heading_decoration = st.sampled_from(
    [
        "",
        "",
        " [link](https://example.org/a_b)",
        " [![ci](https://ci.example/badge.svg)](https://ci.example)",
        " <a id='anchor'></a>",
        " { #anchor }",
        " Vec<u8>",
        " {{ items | length > 1 }}",
    ]
)
heading = st.tuples(st.integers(1, 6), st.lists(words, max_size=5), heading_decoration).map(
    lambda t: ("#" * t[0] + " " + " ".join(t[1]) + t[2]).rstrip()
)
setext = st.tuples(st.sampled_from("=-"), st.lists(words, min_size=1, max_size=4)).map(
    lambda t: " ".join(t[1]) + "\n" + t[0] * 5
)
code_line = st.lists(words, max_size=12).map(lambda w: "    " * (len(w) % 3) + " ".join(w))
fence = st.tuples(
    st.sampled_from(["```", "~~~", "````"]),
    st.sampled_from(["", "python", "json"]),
    st.lists(code_line, min_size=1, max_size=40),
).map(lambda t: f"{t[0]}{t[1]}\n" + "\n".join(t[2]) + f"\n{t[0]}")
unclosed_fence = st.lists(code_line, min_size=1, max_size=10).map(
    lambda lines: "```sh\n" + "\n".join(lines)
)
nested_fence = st.tuples(
    st.sampled_from(["- ", "1. "]), st.sampled_from(["  ", "    "]), fence
).map(lambda t: t[0] + "Run this:\n\n" + "\n".join(t[1] + line for line in t[2].split("\n")))
indented_code = st.lists(code_line, min_size=1, max_size=10).map(
    lambda lines: "\n".join("    " + line if line else "" for line in lines)  # blank lines inside
)
cell = st.lists(words, min_size=1, max_size=6).map(" ".join)
table = st.tuples(
    st.integers(2, 4), st.lists(st.lists(cell, min_size=4, max_size=4), min_size=1, max_size=40)
).map(
    lambda t: "\n".join(
        ["| " + " | ".join(f"h{i}" for i in range(t[0])) + " |", "|" + "---|" * t[0]]
        + ["| " + " | ".join(row[: t[0]]) + " |" for row in t[1]]
    )
)
html_table = st.tuples(
    st.booleans(), st.lists(st.lists(cell, min_size=2, max_size=2), min_size=1, max_size=30)
).map(  # as Document Intelligence writes them: one row per line, or one cell per line
    lambda t: (
        "<table>\n<tr><th>Name</th><th>Value</th></tr>\n"
        + "".join(
            (
                "<tr>\n<td>{}</td>\n<td>{}</td>\n</tr>\n"
                if t[0]
                else "<tr><td>{}</td><td>{}</td></tr>\n"
            ).format(*row)
            for row in t[1]
        )
        + "</table>"
    )
)
#: a parameter table whose description may outgrow a chunk (cut at words, the row key reopened)
long_row_table = st.lists(
    st.tuples(cell, st.lists(words, min_size=1, max_size=90).map(" ".join)), min_size=1, max_size=4
).map(
    lambda rows: (
        "| Name | Description |\n|---|---|\n"
        + "\n".join(f"| `{name}` | {text} |" for name, text in rows)
    )
)
long_html_row_table = long_row_table.map(  # the same rows as Document Intelligence writes them
    lambda table: (
        "<table>\n<tr><th>Name</th><th>Description</th></tr>\n"
        + "".join(
            "<tr>\n<td>{}</td>\n<td>{}</td>\n</tr>\n".format(*row.strip("| ").split(" | ", 1))
            for row in table.splitlines()[2:]
        )
        + "</table>"
    )
)
ragged_table = st.lists(st.lists(cell, min_size=1, max_size=5), min_size=1, max_size=8).map(
    lambda rows: "| a | b |\n|---|---|\n" + "\n".join("| " + " | ".join(r) for r in rows)
)
list_item = st.tuples(st.integers(0, 3), st.sampled_from(["-", "*", "1."]), sentence).map(
    lambda t: "  " * t[0] * 2 + f"{t[1]} {t[2]}"
)
bullet_list = st.lists(list_item, min_size=1, max_size=20).map("\n".join)
quote = paragraph.map(lambda p: "> " + p)
#: a GitHub alert with an example: a fenced block inside a block quote, maybe after prose
quoted_fence = st.tuples(st.sampled_from(["", "> [!NOTE]\n> Run it:\n>\n"]), fence).map(
    lambda t: t[0] + "\n".join(f"> {line}" for line in t[1].split("\n"))
)
page_break = st.just('<!-- PageBreak -->\n<!-- PageNumber="7" -->')
#: an HTML comment block (Node.js keeps version histories in them, with list-like lines)
comment = st.lists(st.lists(words, max_size=5).map(" ".join), max_size=6).map(
    lambda lines: "<!-- YAML\n" + "".join(f"  - {line}\n" for line in lines) + "-->"
)
#: link reference definitions ending the document: a changelog's back matter
back_matter = st.lists(words, min_size=1, max_size=40).map(
    lambda labels: "\n".join(f"[{label}]: https://example.com/{label}" for label in labels)
)
block = st.one_of(
    paragraph,
    paragraph,
    heading,
    heading,
    setext,
    fence,
    unclosed_fence,
    nested_fence,
    indented_code,
    table,
    html_table,
    long_row_table,
    long_html_row_table,
    ragged_table,
    bullet_list,
    quote,
    quoted_fence,
    st.just("---"),
    page_break,
    comment,
)
#: YAML front matter, maybe with a (maybe quoted, maybe empty) title that names a page without H1
front_matter = st.tuples(
    st.lists(words, max_size=4).map(" ".join),
    st.sampled_from(["", '"', "'"]),
    st.lists(st.tuples(words, st.lists(words, max_size=6).map(" ".join)), max_size=4),
).map(
    lambda f: "---\ntitle: " + f[1] + f[0] + f[1] + "\n"
    + "".join(f"{key}: {value}\n" for key, value in f[2]) + "---\n\n"
)  # fmt: skip
markdown_document = st.tuples(
    st.one_of(st.just(""), front_matter),
    st.lists(block, max_size=25).map("\n\n".join),
    st.one_of(st.just(""), back_matter.map(lambda definitions: f"\n\n{definitions}\n")),
).map("".join)


# -- reStructuredText ---------------------------------------------------------------------------
_title_words = st.lists(words, min_size=1, max_size=4).map(" ".join)


def _adorned(char: str, overline: bool, title: str, short: bool) -> str:
    rule = char * (4 if short else max(len(title), 1))
    return f"{rule}\n{title}\n{rule}" if overline else f"{title}\n{rule}"


rst_title = st.builds(
    _adorned, st.sampled_from("=-~^\"'*+#"), st.booleans(), _title_words, st.booleans()
)
rst_literal = st.tuples(paragraph, st.lists(code_line, min_size=1, max_size=12)).map(
    lambda p: p[0] + "::\n\n" + "\n".join("    " + line for line in p[1])
)
rst_code_directive = st.tuples(
    st.sampled_from(["code-block:: python", "code:: bash", "sourcecode::", "doctest::"]),
    st.booleans(),
    st.lists(code_line, min_size=0, max_size=12),
).map(
    lambda p: (
        f".. {p[0]}"
        + ("\n   :linenos:" if p[1] else "")
        + ("\n\n" + "\n".join("   " + line for line in p[2]) if p[2] else "")
    )
)
rst_directive = st.tuples(
    st.sampled_from(["note", "warning", "versionadded:: 3.1"]), paragraph
).map(lambda p: f".. {p[0] if '::' in p[0] else p[0] + '::'}\n\n   {p[1]}")


def _grid_table(header: list[str], rows: list[list[str]], has_header: bool) -> str:
    widths = [max(len(c) for c in column) + 2 for column in zip(header, *rows, strict=False)]

    def border(char: str) -> str:
        return "+" + "+".join(char * width for width in widths) + "+"

    def line(cells: list[str]) -> str:
        return "|" + "|".join(f" {c:<{w - 1}}" for c, w in zip(cells, widths, strict=False)) + "|"

    out = [border("-")]
    if has_header:
        out += [line(header), border("=")]
    for row in rows:
        out += [line(row), border("-")]
    return "\n".join(out)


def _simple_table(header: list[str], rows: list[list[str]], has_header: bool) -> str:
    widths = [max(len(c) for c in column) for column in zip(header, *rows, strict=False)]
    border = "  ".join("=" * width for width in widths)

    def line(cells: list[str]) -> str:
        return "  ".join(f"{c:<{w}}" for c, w in zip(cells, widths, strict=False)).rstrip()

    out = [border] + ([line(header), border] if has_header else [])
    out += [line(row) for row in rows] + [border]
    return "\n".join(out)


_cells = st.integers(2, 4).flatmap(
    lambda n: st.tuples(
        st.lists(cell, min_size=n, max_size=n),
        st.lists(st.lists(cell, min_size=n, max_size=n), min_size=1, max_size=12),
        st.booleans(),
    )
)


def _list_table(header: list[str], rows: list[list[str]], has_header: bool) -> str:
    options = "   :header-rows: 1\n   :widths: auto\n" if has_header else ""
    body = [header, *rows] if has_header else rows
    lines = [f"   * - {r[0]}\n" + "".join(f"     - {c}\n" for c in r[1:]) for r in body]
    return f".. list-table:: Settings\n{options}\n" + "".join(lines).rstrip("\n")


def _csv_table(header: list[str], rows: list[list[str]], has_header: bool) -> str:
    names = '   :header: "' + '", "'.join(header) + '"\n' if has_header else ""
    body = "".join("   " + ", ".join(row) + "\n" for row in rows)
    return f".. csv-table:: Limits\n{names}   :widths: 10, 30\n\n" + body.rstrip("\n")


rst_grid_table = _cells.map(lambda p: _grid_table(*p))
rst_list_table = _cells.map(lambda p: _list_table(*p))
rst_csv_table = _cells.map(lambda p: _csv_table(*p))
rst_simple_table = _cells.map(lambda p: _simple_table(*p))
rst_list = st.lists(
    st.tuples(st.integers(0, 2), st.sampled_from(["-", "*", "#.", "1.", ":param x:"]), sentence),
    min_size=1,
    max_size=12,
).map(lambda items: "\n".join("  " * depth + f"{mark} {text}" for depth, mark, text in items))
rst_doctest = st.lists(code_line, min_size=1, max_size=6).map(
    lambda lines: "\n".join(">>> " + line.strip() for line in lines)
)
rst_block = st.one_of(
    rst_title,
    rst_title,
    paragraph,
    paragraph,
    rst_literal,
    rst_code_directive,
    rst_directive,
    rst_grid_table,
    rst_simple_table,
    rst_list_table,
    rst_csv_table,
    rst_list,
    rst_doctest,
    st.just(".. _a-target:"),
    st.just("----"),
    st.just(".. a comment"),
)
#: A reStructuredText document of every construct the engine reads.
rst_document = st.lists(rst_block, max_size=25).map("\n\n".join)
