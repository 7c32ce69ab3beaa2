"""Markdown's fenced code blocks: fence lines paired into containers, each piece of a block cut
in several reopening its fence line; and the indentation rules fences and indented code share.

A backtick or tilde fence at most three columns in opens a block that the same character, as
many or more and nothing after them, closes; an unclosed fence runs to the end of the text.

>>> [(b.start, b.body_start, b.end) for b in fenced_blocks("a\\n\\n```py\\nx = 1\\n```\\n", 0)]
[(3, 9, 19)]
"""

from __future__ import annotations

import re
from functools import lru_cache

from skills.chunking.outline import Container

_FENCE_LINE = re.compile(r"^([ \t]*)(`{3,}|~{3,})([^\n]*)$", re.MULTILINE)
#: A fence line read past a prefix (a list item's indentation, a quote's ``>``).
NESTED_FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})([^\n]*)")
ITEM_CONTENT = 2  # the least indentation of a list item's content ("- x")
CODE_INDENT = 4  # columns past the enclosing list item or admonition body that make a code block
TAB_STOP = 4


def fenced_blocks(text: str, start: int) -> list[Container]:
    """Fence lines from ``start`` on paired into code blocks; an unclosed fence runs to the end.

    Fences indented four columns or more are paired too but left to the block parser
    (``_MarkdownParser._nested_fence``), which knows the list item they belong to: so the
    closing fence of one (npm's docs close a ``    ```bash`` block with a fence indented three
    spaces) is not taken for the opening of another. Such a fence is closed by a fence indented
    at least as far as a list item's content can be; a line indented less ends the item, and
    the line may open a fence of its own."""
    found = []
    opening: re.Match[str] | None = None
    for match in _FENCE_LINE.finditer(text, start):
        indent = line_indent(text, match.start())
        if opening is not None:
            nested = line_indent(text, opening.start()) >= CODE_INDENT
            closes = closes_fence(opening.group(2), match.group(2), match.group(3)) and (
                indent >= ITEM_CONTENT if nested else indent < CODE_INDENT
            )
            if closes:
                if not nested:
                    end = min(match.end() + 1, len(text))
                    found.append(_fenced_block(text, opening, match.start(), end))
                opening = None
                continue
            if not (nested and indent < ITEM_CONTENT):
                continue  # a line of the open code block
        opening = match if opens_fence(match.group(2), match.group(3)) else None
    if opening is not None and line_indent(text, opening.start()) < CODE_INDENT:
        found.append(_fenced_block(text, opening, len(text), len(text)))
    return found


def _fenced_block(text: str, opening: re.Match[str], close: int, end: int) -> Container:
    """The block from the fence line ``opening`` to ``end``, its closing fence at ``close``."""
    start = opening.start()
    body = min(opening.end() + 1, len(text))
    reopen = text[start : opening.end()].rstrip() + "\n"
    return Container(start, body, end, reopen, (body, close))


@lru_cache(maxsize=16)
def indented_code_lines(column: int) -> re.Pattern[str]:
    """Lines indented at least ``column`` columns (a tab moves to the next multiple of four, as
    in ``line_indent``), with the blank lines between them; the match ends after the last
    non-blank one.

    Four columns are four spaces or a tab after up to three spaces; ``column = 4 * stops + rest``.
    """
    stops, rest = divmod(column, TAB_STOP)
    stop = rf"(?: {{{TAB_STOP}}}| {{0,{TAB_STOP - 1}}}\t)"
    indent = rf"{stop}{{{stops}}}" + (rf"(?: {{{rest}}}|{stop})" if rest else "")
    return re.compile(rf"(?:(?:[ \t]*\n)*{indent}[^\n]*?\S[^\n]*(?:\n|\Z))+")


def opens_fence(run: str, info: str) -> bool:
    """Whether a fence line (its run of backticks or tildes, then the rest) can open a code
    block: a backtick fence whose info string holds a backtick is an inline code span."""
    return not (run[0] == "`" and "`" in info)


def closes_fence(opening: str, run: str, info: str) -> bool:
    """Whether a fence line closes the block ``opening`` began: the same character, at least as
    many, and nothing after them."""
    return run[0] == opening[0] and len(run) >= len(opening) and not info.strip()


def line_indent(text: str, start: int) -> int:
    """The indentation of the line at ``start`` in columns, a tab moving to the next tab stop."""
    column, position = 0, start
    while position < len(text) and text[position] in " \t":
        column += 1 if text[position] == " " else TAB_STOP - column % TAB_STOP
        position += 1
    return column
