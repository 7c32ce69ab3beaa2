"""The dialects of Markdown that technical docs write (MkDocs, DocFX, Hugo, GitHub READMEs), and
the lines of them that say nothing to a reader, kept as data: a pattern, which neighbour the
lines it matches stay with (``outline.Attach``), and whether a block starts after them.

The block parser (``blocks.py``) asks ``nothing_to_read`` at every block's start and
``marker_rule`` of a line it has no other reading for (admonitions, content tabs, ``///``
blocks); DocFX's tabs and zones (``TAB``, ``ZONE``, ``ZONE_END``) open and close labelled
variants of a section, which the parser's section tree keeps.

>>> nothing_to_read('<a id="v2"></a>\\nText.\\n', 0)[2].name
'a line of HTML tags'
>>> nothing_to_read('{{< tab "Linux" >}}\\nRun it.\\n', 0)[2].attach.name
'NEXT'
"""

from __future__ import annotations

import re
from typing import NamedTuple

from skills.chunking.levels import Level
from skills.chunking.markup.markdown.inline import DEFINITION
from skills.chunking.outline import Attach

_LINE_CONTENT = re.compile(r"[ \t]*\S")
# MkDocs admonitions (``!!! note``, ``??? tip``) and content tabs (``=== "Python"``), in a list
# item too: their bodies are indented four spaces, which alone does not make them code
ADMONITION = re.compile(r"[ \t]*(?:(?:!!!|\?\?\?\+?)[ \t]|===\+?[ \t]+\")")
#: DocFX's labelled variants: a tab (``# [Azure portal](#tab/portal)``, the group closed by a
#: ``---`` line) and a zone pivot (``::: zone pivot="csharp"`` ... ``::: zone-end``).
TAB = re.compile(r" {0,3}#{1,6}[ \t]+\[([^\]\n]+)\]\(#tab/[^)\n]*\)[ \t]*$")
ZONE = re.compile(r' {0,3}:::[ \t]*zone[ \t]+pivot[ \t]*=[ \t]*"([^"\n]*)"[^\n]*$')
ZONE_END = re.compile(r" {0,3}:::[ \t]*zone-end[ \t]*$")
BLOCK_FENCE = re.compile(r" {0,3}/{3,}")  # pymdownx blocks: "/// tip" ... "///"
_BLOCK_CLOSE = re.compile(r" {0,3}/{3,}[/\s]*$")  # a block's closing line: slashes alone
#: A line of bare HTML tags, nothing to read: an anchor (``<a id="v8.2.0"></a>``), ``</div>``,
#: ``<br>``. Not a comment (Node's docs keep version history in them), not a table's tags, and
#: not an autolink (``<https://www.npmjs.com/>``, ``<team@example.com>``): a tag's name ends at
#: a space, ``/`` or ``>``, a scheme's at ``:``.
_BARE_HTML = re.compile(
    r"[ \t]*(?:<(?!!|/?(?:table|caption|thead|tbody|tfoot|tr|th|td)\b)"
    r"/?[A-Za-z][A-Za-z0-9-]*(?:[ \t/][^<>\n]*)?>[ \t]*)+$",
    re.IGNORECASE | re.MULTILINE,
)
#: A block of such tags over several lines, a tag's attributes too, up to a blank line: a README's
#: logo and badges (``<p align="center">``, ``<a ...><img`` / ``src=... />``), mkdocs-material's
#: icon search markup. Its ``alt`` texts are inside the tags: nothing outside them to read.
_BARE_HTML_BLOCK = re.compile(
    r"(?:[ \t]*+(?:<(?!!|/?(?:table|caption|thead|tbody|tfoot|tr|th|td)\b)"
    r"/?[A-Za-z][A-Za-z0-9-]*+(?:[ \t\n/](?:[^<>\n]|\n(?![ \t]*\n))*+)?>[ \t]*+)++(?:\n|\Z))++",
    re.IGNORECASE,
)
#: Lines with nothing to read that are not HTML: Hugo's closing shortcodes (``{{< /tab >}}``),
#: link reference definitions (``[2.3.1]: https://...``, a
#: changelog's last 132 lines), lines of badges (``[![CI](https://...)](https://...)``) and
#: mkdocs-material's macros (``<!-- md:version 9.2 -->``). A run of them is one bare "line".
_NOTHING_TO_READ = re.compile(
    r"(?:[ \t]*(?:\{\{[<%][ \t]*/.*?[%>]\}\}"
    rf"|{DEFINITION}"
    r"|(?:\[?!\[[^\]\n]*\]\([^)\n]*\)(?:\]\([^)\n]*\))?[ \t]*)+|<!--[ \t]*md:[^\n]*?-->)"
    r"[ \t]*(?:\n|\Z))+"
)
#: Hugo's other shortcodes (``{{< tab "Linux" >}}``, ``{{% include "x.md" %}}``): nothing to
#: read either, but they open what follows, so a run of them leads into it as a label does.
_SHORTCODES = re.compile(r"(?:[ \t]*\{\{[<%][ \t]*[^/\s].*?[%>]\}\}[ \t]*(?:\n|\Z))+")


class MarkerRule(NamedTuple):
    """A dialect's marker line: the cut at its start is of ``level``; with ``attach``, the line
    stays with that neighbour; with ``opens_body``, an indented body follows it (four columns
    there are the body, not code)."""

    name: str
    pattern: re.Pattern[str]
    level: int
    attach: Attach | None = None
    opens_body: bool = False


#: Tried in this order on a line the block parser has no other reading for (after headings,
#: breaks, list items and quotes); the first that matches decides.
MARKER_RULES: tuple[MarkerRule, ...] = (
    MarkerRule("an admonition or content tab", ADMONITION, Level.BLOCK, Attach.NEXT, True),
    MarkerRule("a pymdownx block's closing line", _BLOCK_CLOSE, Level.AVOID),
    MarkerRule("a pymdownx block", BLOCK_FENCE, Level.BLOCK),
)


def marker_rule(line: str) -> MarkerRule | None:
    """The dialect marker ``line`` is, if any (``MARKER_RULES``).

    >>> marker_rule('!!! note "Heads up"').attach.name, marker_rule("///").level == Level.AVOID
    ('NEXT', True)
    """
    return next((rule for rule in MARKER_RULES if rule.pattern.match(line)), None)


class Rule(NamedTuple):
    """A run of lines with nothing to read: what ``pattern`` matches at a block's start stays
    with the neighbour ``attach`` names; with ``block_after``, text on the line after it starts a
    block of its own; with ``whole_block``, the rule holds only when nothing follows the run on
    its last line's next line (a badge block up to a blank line, not a paragraph's tags)."""

    name: str
    pattern: re.Pattern[str]
    attach: Attach
    block_after: bool
    whole_block: bool = False


#: Tried in this order at a block's start; the first that matches decides.
NOTHING_TO_READ_RULES: tuple[Rule, ...] = (
    Rule("HTML tags over several lines", _BARE_HTML_BLOCK, Attach.PREVIOUS, False, True),
    Rule("a line of HTML tags", _BARE_HTML, Attach.PREVIOUS, False),
    Rule("Hugo's opening shortcodes", _SHORTCODES, Attach.NEXT, True),
    Rule(
        "closing shortcodes, definitions, badges, macros", _NOTHING_TO_READ, Attach.PREVIOUS, True
    ),
)


def nothing_to_read(text: str, start: int) -> tuple[int, int, Rule] | None:
    """The run of lines with nothing to read at the block start ``start``, if any: where its
    lines end (before the last newline), where the text after it begins, and the rule it
    matched (``NOTHING_TO_READ_RULES``)."""
    for rule in NOTHING_TO_READ_RULES:
        match = rule.pattern.match(text, start)
        if match is None or (rule.whole_block and _LINE_CONTENT.match(text, match.end())):
            continue
        end = match.end()
        return end - text.endswith("\n", 0, end), min(end, len(text)), rule
    return None
