"""The markups the engine reads, one module each, and the one table that names them.

Each markup is a parser (text -> ``Outline``), the file suffixes that say a document is written in
it, and a test of a text's start that says it looks so (``looks_like``). ``detect_format`` and the
strategies only look a markup up here: a new markup is one module and one row of ``MARKUPS``.

>>> MARKUPS[Format.RST].suffixes
('rst', 'rest')
>>> markup_named("guide.MD").format.value
'markdown'
>>> markup_of_text("Install\\n~~~~~~~\\n\\nRun ``pip install x``.\\n").format.value
'rst'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from skills.chunking.markup import code, markdown, plaintext, rst
from skills.chunking.markup.languages import SUFFIX_LANGUAGES
from skills.chunking.options import Format
from skills.chunking.outline import Outline


@dataclass(frozen=True, slots=True)
class Reading:
    """What a strategy asks of a parser: headings deeper than ``heading_depth`` open no section;
    ``sections_only`` wants the heading paths and nothing else (the fixed windows); code's
    ``language`` (a name of ``languages.LANGUAGES``)."""

    heading_depth: int = 6
    sections_only: bool = False
    language: str | None = None


@dataclass(frozen=True, slots=True)
class Markup:
    """One markup: its ``format``, the file ``suffixes`` (lower case, no dot) that say a document
    is written in it, whether the start of a text ``looks_like`` it, and its parser."""

    format: Format
    suffixes: tuple[str, ...]
    looks_like: Callable[[str], bool]
    parse: Callable[[str, Reading], Outline]


def _never(sample: str) -> bool:
    """Code is known by its file's suffix alone: no test of the text says which language."""
    return False


def _always(sample: str) -> bool:
    """Text is what a document is when no other markup claims it."""
    return True


#: Every markup, in the order a text's start is tested against them: reStructuredText before
#: Markdown (an RST document shows list items and quotes that Markdown would claim), text last.
MARKUPS: Mapping[Format, Markup] = {
    markup.format: markup
    for markup in (
        Markup(
            Format.RST,
            ("rst", "rest"),
            rst.looks_like,
            lambda text, reading: rst.parse_rst(text, reading.heading_depth),
        ),
        Markup(
            Format.MARKDOWN,
            ("md", "markdown", "mdx"),
            markdown.looks_like,
            lambda text, reading: markdown.parse_markdown(
                text, reading.heading_depth, reading.sections_only
            ),
        ),
        Markup(
            Format.CODE,
            tuple(SUFFIX_LANGUAGES),
            _never,
            lambda text, reading: code.parse_code(text, reading.language),
        ),
        Markup(  # numbered titles are sections
            Format.TEXT,
            (),
            _always,
            lambda text, reading: plaintext.parse_text(text, reading.heading_depth, titles=True),
        ),
    )
}

#: File suffix (lower case, no dot) -> the format it says.
SUFFIX_FORMATS: Mapping[str, Format] = {
    suffix: markup.format for markup in MARKUPS.values() for suffix in markup.suffixes
}


def markup_named(name: str) -> Markup | None:
    """The markup a document's name (a path or URL) says by its suffix, if any."""
    _, dot, suffix = name.rpartition(".")
    found = SUFFIX_FORMATS.get(suffix.lower()) if dot and "/" not in suffix else None
    return None if found is None else MARKUPS[found]


def markup_of_text(sample: str) -> Markup:
    """The first markup (in ``MARKUPS``' order) the start of a text looks like."""
    return next(markup for markup in MARKUPS.values() if markup.looks_like(sample))


def read_as_paragraphs(text: str) -> Outline:
    """Any markup read as plain text: paragraphs only (the recursive strategy)."""
    return plaintext.parse_text(text)
