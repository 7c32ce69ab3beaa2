"""What Azure AI Search's built-in path indexes from a file, and where that lands in ours.

Without this skill, an indexer *cracks* a blob into plain text (its ``content`` field: "just the
text, minus any markup", https://learn.microsoft.com/azure/search/cognitive-search-skill-document-extraction)
and a Text Split skill cuts that text into pages (:func:`skills.evaluation.baselines.text_split`).
For a PDF the cracked text is the text layer page after page, with no headings, no tables, the
running headers, footers and page numbers left in, and words cut at a line end left cut; we read
it with PDFium (:func:`cracked_text`), the library our own converter reads, so the two paths
start from the same characters and differ only by what each does with them.

The evaluation judges every candidate on one text per document, the one the skill chunks (for a
PDF, the Markdown its converter writes), so that a question's reference is one span for all. A
page of the cracked text is placed in that text by its words (:class:`Alignment`): the words of
the two texts are matched in order, and a page's span runs from the first to the last of its
words that were matched, and the marks and spaces around them. Page furniture and cut words
match nothing, so they neither move nor widen a span.

>>> converted = "# Title\\n\\nThe cat sat.\\n"
>>> alignment = Alignment.of("Title 3\\nThe cat sat.\\n4\\n", converted)
>>> start, end = alignment.span(8, 20)  # "The cat sat." in the cracked text
>>> converted[start:end]
'\\n\\nThe cat sat.\\n'
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import PurePosixPath

#: A word, for matching the two texts: letters and digits, case folded.
_WORD = re.compile(r"\w+")


def cracked_text(data: bytes, name: str) -> str | None:
    """The plain text default cracking gives a PDF: its pages (:func:`cracked_pages`) joined by a
    line break. ``None`` for any other file, whose cracked text the evaluation takes to be the
    text it reads (UTF-8 text as it is; for HTML and Office files, the converter's Markdown,
    which keeps a few marks that cracking would drop).
    """
    if PurePosixPath(name).suffix.lower() != ".pdf":
        return None
    return "\n".join(cracked_pages(data))


def cracked_pages(data: bytes) -> list[str]:
    """Each page's text layer of a PDF as PDFium reads it: ``\\r\\n`` as ``\\n``, and a soft hyphen
    at a line end as the ``-`` a reader sees (the word stays cut)."""
    import pypdfium2

    document = pypdfium2.PdfDocument(data)
    pages = []
    try:
        for page in document:
            textpage = page.get_textpage()
            pages.append(textpage.get_text_range().replace("\r\n", "\n").replace("\ufffe", "-"))
            textpage.close()
            page.close()
    finally:
        document.close()
    return pages


@dataclass(frozen=True, slots=True)
class Alignment:
    """The words two texts share, in order: ``source`` offsets of each matched word's start and
    end, the ``target`` offsets of the same word, and the target text."""

    source_starts: tuple[int, ...]
    source_ends: tuple[int, ...]
    target_starts: tuple[int, ...]
    target_ends: tuple[int, ...]
    target: str

    @classmethod
    def of(cls, source: str, target: str) -> Alignment:
        """Match the words of ``source`` to those of ``target`` (difflib's longest matching
        blocks, in order; a word repeated out of order is left unmatched)."""
        words = [(m.start(), m.end(), m.group().casefold()) for m in _WORD.finditer(source)]
        others = [(m.start(), m.end(), m.group().casefold()) for m in _WORD.finditer(target)]
        matcher = SequenceMatcher(
            None, [w[2] for w in words], [w[2] for w in others], autojunk=False
        )
        pairs = [
            (words[i + k], others[j + k])
            for i, j, size in matcher.get_matching_blocks()
            for k in range(size)
        ]
        return cls(
            tuple(a[0] for a, _ in pairs),
            tuple(a[1] for a, _ in pairs),
            tuple(b[0] for _, b in pairs),
            tuple(b[1] for _, b in pairs),
            target,
        )

    @classmethod
    def identity(cls, text: str) -> Alignment:
        """Every word of ``text`` matched to itself."""
        spans = [(m.start(), m.end()) for m in _WORD.finditer(text)]
        starts = tuple(s for s, _ in spans)
        ends = tuple(e for _, e in spans)
        return cls(starts, ends, starts, ends, text)

    def span(self, start: int, end: int) -> tuple[int, int] | None:
        """The ``target`` span from the first to the last matched word lying whole inside
        ``source[start:end]``, widened over the characters around them that are no word (so a
        reference's closing full stop, or the ``## `` before a heading, is inside); ``None`` when
        no matched word lies inside. A word cut by the piece's edge is not inside it.
        """
        first = bisect_left(self.source_starts, start)
        last = bisect_right(self.source_ends, end) - 1
        if first > last or first >= len(self.source_starts):
            return None
        low = self.target_starts[first]
        while low > 0 and not _is_word(self.target[low - 1]):
            low -= 1
        high = self.target_ends[last]
        while high < len(self.target) and not _is_word(self.target[high]):
            high += 1
        return low, high


def _is_word(character: str) -> bool:
    return character.isalnum() or character == "_"
