"""Hostile HTML shapes convert in time linear in their size, keep their text, and are refused
before work when their time cannot fit.

markdownify's time per element grows with its depth (each element rewrites the text of all it
holds and looks up its ancestors) and it recurses; BeautifulSoup removes an element by scanning
its siblings. Before the HTML converter walked the page once (``skills/formats/html.py``), 8,000
nested ``div`` took 10.7 s and 32,000 took 49 s, 5,000 nested tables 37 s, a list of 20,000
numbered items 27 s and 20,000 hidden elements between paragraphs 8 s: each grew about 16-fold
from ``n`` to ``4 n``. Each test here builds ``n`` and ``4 n`` units of one shape and compares
their CPU times (``bench/cputime.py``'s ``least_growth``, as the other converters' growth tests).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from bench.cputime import least_growth
from skills.formats.conversion import ConversionError, Limits
from skills.formats.html import HTML_BYTES_PER_SECOND, MAX_DEPTH, html_to_markdown
from skills.formats.read import read_file

#: Linear: about 4 from ``n`` to ``4 n``; quadratic: about 16.
MAX_GROWTH = 8.0


def page(body: str) -> bytes:
    return f"<!DOCTYPE html><html><head><title>T</title></head><body>{body}</body></html>".encode()


def nested(open_: str, close: str) -> Callable[[int], bytes]:
    """``n`` levels of ``open_`` (which holds one numbered word) closed by ``close``."""
    return lambda n: page("".join(open_.format(k=k) for k in range(n)) + close * n)


def joined(unit: str) -> Callable[[int], str]:
    """``n`` copies of ``unit``, each with its number."""
    return lambda n: "".join(unit.format(k=k) for k in range(n))


def repeated(unit: str) -> Callable[[int], bytes]:
    return lambda n: page(joined(unit)(n))


SHAPES: dict[str, tuple[Callable[[int], bytes], int]] = {
    "nested divs": (nested("<div>w{k} ", "</div>"), 1000),
    "tables in tables": (nested("<table><tr><td>w{k} ", "</td></tr></table>"), 300),
    "lists in lists": (nested("<ul><li>w{k} ", "</li></ul>"), 500),
    "blockquotes in blockquotes": (nested("<blockquote>w{k} ", "</blockquote>"), 1000),
    "headers in headers": (nested("<header>w{k} ", "</header>"), 1000),
    "unclosed paragraphs": (lambda n: page("".join(f"<p>w{k} " for k in range(n))), 1000),
    "a long numbered list": (lambda n: page(f"<ol>{joined('<li>w{k}</li>')(n)}</ol>"), 2000),
    "hidden elements between paragraphs": (repeated("<p>w{k}</p><div hidden>x</div>"), 2000),
    "scripts between paragraphs": (repeated("<p>w{k}</p><script>x()</script>"), 2000),
    "a table of many rows": (
        lambda n: page(f"<table>{joined('<tr><td>{k}</td></tr>')(n)}</table>"),
        2000,
    ),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_html_of_any_shape_converts_in_linear_time(shape: str) -> None:
    make, n = SHAPES[shape]
    growth = least_growth(
        make, n, lambda data: read_file(data, "page.html", isolated=False), MAX_GROWTH
    )  # in this thread: its CPU time is the converter's
    assert growth < MAX_GROWTH


@pytest.mark.parametrize("shape", ["nested divs", "tables in tables", "lists in lists"])
def test_deep_nesting_keeps_every_word(shape: str) -> None:
    make, _ = SHAPES[shape]
    converted = read_file(make(3000), "page.html")
    words = converted.text.replace("\\", " ").split()
    assert [w for w in words if w.startswith("w")] == [f"w{k}" for k in range(3000)]


def test_what_lies_below_the_depth_bound_is_plain_text_with_a_warning() -> None:
    converted = read_file(SHAPES["lists in lists"][0](MAX_DEPTH), "page.html")
    assert len(converted.warnings) == 1
    assert f"more than {MAX_DEPTH} levels deep" in converted.warnings[0]
    assert "w99" in converted.text and "- w99" not in converted.text
    shallow = read_file(SHAPES["lists in lists"][0](MAX_DEPTH // 2 - 1), "page.html")
    assert shallow.warnings == () and "- w48" in shallow.text


def test_a_hundred_thousand_nested_divs_convert() -> None:
    """1.1 MB of them gave no answer in 305 s: now the walk and the text are a loop each."""
    converted = read_file(SHAPES["nested divs"][0](100_000), "page.html")
    assert converted.text.split()[-1] == "w99999"


def test_a_table_in_a_cell_is_the_cell_s_text() -> None:
    html = page(
        "<table><tr><th>Key</th><th>Value</th></tr><tr><td>k</td><td>"
        "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>"
        "</td></tr></table>"
    )
    assert read_file(html, "page.html").text == "| Key | Value |\n| --- | --- |\n| k | a b c d |\n"


def test_a_numbered_list_counts_from_its_start() -> None:
    html = page("<ol start='7'><li>a</li>\n<li>b</li><li>c</li></ol>")
    assert read_file(html, "page.html").text == "7. a\n8. b\n9. c\n"


@pytest.mark.parametrize(
    "start", ["½", "9" * 5000, "-2", "x"], ids=["fraction", "digits", "minus", "x"]
)
def test_a_list_start_that_is_no_number_counts_from_1(start: str) -> None:
    """``start="½"`` (numeric to Python, no integer) and one of 5,000 digits failed the page."""
    html = page(f"<ol start='{start}'><li>a</li>\n<li>b</li></ol>")
    assert read_file(html, "page.html").text == "1. a\n2. b\n"


def test_deep_html_that_cannot_fit_is_refused_before_conversion() -> None:
    """The estimate counts nesting: a page that would fit by its bytes alone is refused once the
    parse shows it nested deep, and a flat page of the same size with the same time goes on."""
    deep = SHAPES["lists in lists"][0](MAX_DEPTH // 2)
    deep = deep * (200_000 // len(deep))
    flat = repeated("<p>w{k} in a paragraph of a flat page</p>")(200_000 // 40)
    for data in (deep, flat):
        assert 150_000 < len(data) < 250_000
    seconds = 3 * 250_000 / HTML_BYTES_PER_SECOND
    with pytest.raises(ConversionError, match="converting this HTML page would take"):
        html_to_markdown(deep, Limits(deadline=time.monotonic() + seconds))
    assert html_to_markdown(flat, Limits(deadline=time.monotonic() + seconds)).text
