"""Plain text -> ``Outline``: paragraphs, separated by blank lines, and nothing else.

Lines inside a paragraph are not cut points here: the packer cuts an oversized paragraph between
sentences first, then lines, then words.
"""

from __future__ import annotations

import re

from skills.chunking import outline as lv
from skills.chunking.outline import Outline

#: A run of blank lines, whole. Possessive, and without a look-ahead for the paragraph after it:
#: a run that fails a look-ahead (blank lines at the end) would be rescanned from each of its
#: newlines, a quadratic cost.
_GAP = re.compile(r"\n(?:[ \t]*+\n)++")
_LINE_CONTENT = re.compile(r"[ \t]*\S")


def parse_text(text: str) -> Outline:
    """A block break at the start of every paragraph."""
    outline = Outline(length=len(text))
    for gap in _GAP.finditer(text):
        if _LINE_CONTENT.match(text, gap.end()):
            outline.add_break(gap.end(), lv.BLOCK)
    outline.freeze()
    return outline
