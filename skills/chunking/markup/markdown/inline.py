"""Markdown's inline syntax as a reader reads it: a heading's readable title, and text with its
links reduced to their text (what the packer weighs a small piece by, ``Outline.readable``).

>>> heading_title("Install [![ci](https://ci/badge.svg)](https://ci) { #install }")
'Install'
>>> link_text("See [the guide](https://x.test/guide).")
'See the guide.'
"""

from __future__ import annotations

import re

# The heading rewrites below scan a heading's line at every ``[``, ``(``, ``<`` or ``{``: each
# scan stops at the next one of its own kind, so a line of thousands of them costs linear time.
# ``{ #anchor }`` is found from the last ``}`` back (``_without_attributes``).
#: ``{ #anchor }``, ``{: .class }``, ``{ id="x" data-toc-label="X" }`` (attribute lists)
_ATTRIBUTES_OPEN = re.compile(r"\{:?[ \t]*(?:[#.]|[\w-]+=)")
#: ``**strong**`` (not ``__``: ``__init__`` is a name)
_EMPHASIS = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_CLOSING_HASHES = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
# A link's text holds no bracket; its URL may hold one pair of parentheses (Wikipedia's do).
_LINK_TARGET = r"(?:\((?:[^()\n]|\([^()\n]*\))*\)|\[[^\[\]\n]*\])"
_IMAGE = re.compile(rf"!\[([^\[\]\n]*)\]{_LINK_TARGET}")
_LINK = re.compile(rf"\[([^\[\]\n]*)\]{_LINK_TARGET}")
#: Inline HTML tags headings carry (anchors, code, badges), named so that ``Vec<u8>`` or
#: ``List<String>`` in a heading about types is left alone.
_INLINE_TAG = re.compile(
    r"</?(?:a|abbr|b|br|code|del|div|em|i|img|ins|kbd|mark|p|s|small|span|strong|sub|sup|u)"
    r"(?:[ \t/][^<>\n]*)?>",
    re.IGNORECASE,
)
#: One CommonMark link reference definition: ``[2.3.1]: https://...`` (a ``<...>`` destination,
#: an optional title); not a footnote (``[^1]: ...``), which is read. The one spelling of it: a
#: line of one is nothing to read, a run that ends a page is its back matter, and a reader
#: skips one (``link_text``).
DEFINITION = (
    r"\[(?!\^)[^\[\]\n]+\]:[ \t]*(?:<[^<>\n]*>|\S+)"
    r"""(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?"""
)
_LINK_DEFINITION = re.compile(rf"^[ \t]{{0,3}}{DEFINITION}[ \t]*$", re.MULTILINE)
_SPACES = re.compile(r"\s+")
#: What any of the rewrites below could act on: brackets, tags, braces, hashes, ``**``, runs of
#: spaces.
_DECORATED = re.compile(r"[\[<{#!]|\*\*|\s\s|[^\S ]")


def heading_title(raw: str) -> str:
    """The readable title of a heading line's content, as it leads every chunk's embedded text:
    no closing #s, no ``{ #anchor }``, no images (badges) unless they are all there is (a logo:
    its alt text), links reduced to their text, no inline HTML tags. A URL in a heading would cost
    tokens in every chunk of its section and say nothing.

    >>> heading_title("[`Client.get`](api.md#get) <a id='get'></a> { #get }")
    '`Client.get`'
    >>> heading_title("rustfmt [![ci](https://ci/badge.svg)](https://ci) ##")
    'rustfmt'
    >>> heading_title("![libsodium](https://example.org/logo.png)")
    'libsodium'
    >>> heading_title('[**REST**](#tab/rest) { id="rest" }')
    'REST'
    """
    title = raw.strip()
    if not _DECORATED.search(title):  # most headings: plain words, nothing to take out
        return title
    title = _without_attributes(title)
    return _readable(_IMAGE.sub("", title)) or _readable(_IMAGE.sub(r"\1", title))


def link_text(text: str) -> str:
    """``text`` as a reader reads it: links and images as their text, link reference
    definitions as nothing. A link's URL takes tokens but says nothing a reader asks about:
    ``[#2239](https://github.com/org/repo/pull/2239)`` reads ``#2239`` (see ``Packer``).

    >>> link_text("- [#2239](https://x.test/pull/2239) Thanks!\\n[1.0]: https://x.test/1.0\\n")
    '- #2239 Thanks!\\n\\n'
    """
    if "](" not in text and "]:" not in text and "][" not in text:
        return text
    text = _LINK_DEFINITION.sub("", text)
    return _LINK.sub(r"\1", _IMAGE.sub(r"\1", text))


def _without_attributes(title: str) -> str:
    """``title`` without the attribute list that ends it (``{ #install .tab }``): the first
    ``{`` after the last other ``}`` that opens one, and what follows."""
    if not title.endswith("}"):
        return title
    opening = _ATTRIBUTES_OPEN.search(title, title.rfind("}", 0, len(title) - 1) + 1)
    return title if opening is None else title[: opening.start()].rstrip(" \t")


def _readable(title: str) -> str:
    title = _SPACES.sub(" ", _INLINE_TAG.sub("", _LINK.sub(r"\1", title)))
    title = _EMPHASIS.sub(r"\1", title) if "**" in title else title
    return _CLOSING_HASHES.sub("", title).strip()
