"""Plain text -> ``Outline``: paragraphs, separated by blank lines, and nothing else.

Lines inside a paragraph are not cut points here: the packer cuts an oversized paragraph between
sentences first, then lines, then words.
"""

from __future__ import annotations

import re

from skills.chunking import outline as lv
from skills.chunking.outline import Outline

_PARAGRAPH_GAP = re.compile(r"\n(?:[ \t]*\n)+(?=[ \t]*\S)")


def parse_text(text: str) -> Outline:
    """A block break at the start of every paragraph."""
    outline = Outline(length=len(text))
    for gap in _PARAGRAPH_GAP.finditer(text):
        outline.add_break(gap.end(), lv.BLOCK)
    outline.freeze()
    return outline
