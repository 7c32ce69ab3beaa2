"""Markdown's front and back matter: metadata around a page's text, which no chunk holds.

>>> front_matter("---\\ntitle: Install\\n---\\n\\nRun it.\\n")
(23, 'Install', '')
"""

from __future__ import annotations

import re

from skills.chunking.markup.markdown.inline import DEFINITION, heading_title

_CONTENT = re.compile(r"\S")
#: YAML front matter (``---`` ... ``---``, Hugo's TOML ``+++`` ... ``+++``): its first line is
#: a key, and blank lines may follow (Hugo's ``layout: single``, blank line, ``menu:``); or it
#: opens with comment lines (Hugo's ``# Do not remove front matter.``), a key or its end next.
_FRONT_MATTER_KEYS = r"[ \t]*[\w.-]+[ \t]*[:=][^\n]*\n(?:[^\n]*\n){0,200}?"
_FRONT_MATTER = re.compile(
    rf"(?P<fence>---|\+\+\+)[ \t]*\n"
    rf"(?:{_FRONT_MATTER_KEYS}|(?:#[^\n]*\n)+(?:{_FRONT_MATTER_KEYS})?)"
    r"(?:(?P=fence)|\.\.\.)[ \t]*(?:\n|$)"
)
_DEFINITION_LINE = re.compile(rf" {{0,3}}{DEFINITION}[ \t]*")
_FRONT_MATTER_TITLE = re.compile(r"^title[ \t]*[:=][ \t]*([^\n]*)$", re.MULTILINE)
_FRONT_MATTER_DESCRIPTION = re.compile(r"^description[ \t]*[:=][ \t]*([^\n]*)$", re.MULTILINE)


def front_matter(text: str) -> tuple[int, str, str]:
    """Where ``text``'s front matter ends (0 without one), and its title and description.

    Front matter is the page's metadata, not its text: DocFX writes ten to fifteen lines of it
    (``ms.author``, ``ms.date``, ``ms.topic`` ...), and as the first child of most articles it
    was embedded as if a reader could ask about it. So the page's chunks begin after it; the
    title names the page, the description leads its first chunk. Front matter with nothing
    after it is all the page says, and is chunked as text.

    >>> front_matter("---\\ntitle: Install\\n\\nms.date: 2024-01-02\\n---\\n\\nRun it.\\n")
    (44, 'Install', '')
    """
    match = _FRONT_MATTER.match(text)
    if match is None or not _CONTENT.search(text, match.end()):
        return 0, "", ""
    keys = (_FRONT_MATTER_TITLE, _FRONT_MATTER_DESCRIPTION)
    found = [pattern.search(match.group()) for pattern in keys]
    title, description = (
        heading_title(value.group(1).strip().strip("\"'").strip()) if value else ""
        for value in found
    )
    return match.end(), title, description


def back_matter(text: str, start: int = 0) -> int:
    """Where ``text``'s back matter begins (``len(text)`` without one): the run of link reference
    definitions (blank lines among and after them) that ends it, after a blank line.

    A changelog ends in one (keep-a-changelog's ``[1.1.0]: https://.../compare/v1.0.0...v1.1.0``,
    one a version); it is never rendered, and as a child it sat under the oldest version's
    heading (the last one) and matched the keyword queries of every version. So it is
    metadata, as front matter is: chunks end before it. Definitions right under a paragraph
    line are text of that paragraph (CommonMark: a definition cannot interrupt one); a document
    (after its front matter, from ``start`` on) of nothing but definitions is all it says, and
    is text.

    >>> back_matter("## 1.0\\n\\n- Fixed.\\n\\n[1.0]: https://x.test/v1.0\\n")
    18
    """
    found = len(text)
    pending = -1  # the first line of the definitions above the last blank line, if any
    line_end = len(text)
    while line_end > start:
        line_start = text.rfind("\n", 0, line_end) + 1
        if not _CONTENT.search(text, line_start, line_end):  # a blank line
            if pending >= 0:
                found, pending = pending, -1
        elif _DEFINITION_LINE.fullmatch(text, line_start, line_end):
            pending = line_start
        else:  # text: the definitions found after a blank line below it are its back matter
            return found
        line_end = line_start - 1
    return len(text)
