"""Which paragraphs of a Word body are headings, when the writer did not use Heading styles.

``Heading 1``-``Heading 6`` styles are the headings Word's own outline uses; real files often
say it otherwise. This module reads ``word/document.xml`` as a stream (with the styles and
numbering parts) and gives each body paragraph its heading level, which ``word_stream.py``
writes. A paragraph is a heading of level N when, in order:

1. its style is a Heading style (``heading N``, whatever its id);
2. it has an outline level ``w:outlineLvl`` of N-1 (0-5; 6-8 become level 6, 9 is body text), set
   on the paragraph or on its style or any style that one is ``basedOn`` (levels set on
   paragraphs by hand are lifted so that the shallowest is 1 when no Heading style stands
   above it);
3. it is numbered in a multi-level decimal scheme that the document uses as such (a numbered
   paragraph at level 2 or deeper shows its parents' numbers, ``%1.%2``): "1 Scope / 1.1 Terms"
   are headings of levels 1 and 2, when they are short, do not end like a sentence and are
   followed by body text or by a deeper heading of the same scheme;
4. it opens with a section number typed into its text (``2.3``, ``Article 5``, ``第三章``,
   ``四、``, ``Appendix B``: ``typed_numbers.py``) whose family runs in sequence (another
   number of its family is typed, or it is the first under its typed parent), reads as a
   title, is bold or larger than the body, and is followed by body text, not by a sibling
   (numbered lines back to back are a list or a table of contents); level: the number's depth.
   This rule also reads a table's bands, the one cell of a row spanning all the table's
   columns: a form laid out as a table titles its sections so. An unnumbered line set as two
   typed headings or more are ("Abstract:" beside "Part 1:") is a heading among them;
5. only in a document with none of the above: it looks like a heading. It is short (at most
   10 words and 80 characters), has a letter, does not end with ``.``, ``,``, ``;`` or ``:``, is
   all bold or larger than the body's dominant size, is not in a table, a list or a text box,
   and the next non-empty paragraph is plain body text (or a table): longer than it and, under
   a line only bold, a sentence or more than a title's few words (a bold label over another
   short line is a sample or a form, not a section). Under a line set larger than the body,
   a list longer than it is text too (a date over what was done that day), and so is a short
   line when the section holds a longer one. An item of a one-level list set bold and larger,
   with no item of its list right before or after it, is such a line ("1. Introduction" over
   its text). A line over a smaller heading opens a section with its first subsection when
   other headings look like it ("2. Users" over "Situation 1: ..."); alone, it is a subtitle.
   Larger sizes rank higher, among the headings found.

A table that lays sections out beside their labels (two columns; each row a short label cell
beside a cell of several paragraphs: a retrospective's "What went well?" beside its points) is
read as the body: each label is a heading one level above the headings found beside it, which
step down under it. Under a bold line, a list whose first item is longer than a title (a
sentence) is text too, as under a larger one.

Whatever its style, a paragraph that reads as prose (over 150 characters, a full stop after more
than a short phrase, a CJK full stop, or wholly in brackets) is body text; a Heading style or an
outline level allows a whole sentence of up to 12 words ending with a full stop. A document
that opens with centred lines back to back at one level (a title, a course, the authors, each
given outline level 0) has a cover block: only its first line is a heading.

A wrong heading costs more than a missing one (it cuts a section in two and names text wrongly),
so rule 5 stays narrow: "Heading." is body text to it, and so are runs of bold short lines.

>>> body = (
...     '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
...     "<w:body><w:p><w:pPr><w:outlineLvl w:val='1'/></w:pPr><w:r><w:t>Scope</w:t></w:r></w:p>"
...     "<w:p><w:r><w:t>The text.</w:t></w:r></w:p></w:body></w:document>"
... )
>>> Outline.read(body.encode(), None, None).levels()  # outline level 1, nothing above it
[1]
"""

from __future__ import annotations

import bisect
import io
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from skills.formats.office.freed_blocks import free_block
from skills.formats.office.typed_numbers import Number, typed_number
from skills.formats.office.xml_numbers import BODY_OUTLINE, MAX_HALF_POINTS, MAX_LEVEL, whole

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_HEADING_STYLE = re.compile(r"^heading\s*[1-6]$", re.IGNORECASE)
_PARENT_NUMBER = re.compile(r"%(\d)")
_SENTENCE_END = (".", ",", ";", ":")
_WORDED = re.compile(r"[^\W_]")
_MAX_WORDS = 10
_MAX_CHARACTERS = 80
_FALSE = {"0", "false", "off"}
_DEFAULT = "\x00default"  # the key of the paragraph style of a paragraph that names none


@dataclass(frozen=True, slots=True)
class Style:
    name: str = ""
    outline: int | None = None
    bold: bool | None = None
    size: int | None = None  # half-points
    numbered: bool = False


@dataclass(slots=True)
class Paragraph:
    """What the rules read of one body paragraph (``element`` is the ``w:p`` to mark)."""

    element: Any  # unused once read: the stream frees it
    text: str
    style: Style
    outline: int | None
    number: tuple[str, int] | None  # (numId, ilvl) set on the paragraph itself
    bold: bool
    size: int | None
    in_table: bool
    level: int | None = None
    band: bool = False  # the one cell of a table row spanning all its columns (a form's band)
    centred: bool = False  # set centred on the paragraph itself (``w:jc`` center)
    side: bool = False  # a side heading: the label cell of a table that lays sections out
    marked: bool = False  # every word underlined, or every word italic (a mark but no weight)
    gapped: bool = False  # two parts of words across a wide typed gap (a tab, 4 spaces or more)


@dataclass(slots=True)
class Outline:
    """A Word body's paragraphs in order, with the heading level each gets (``None``: none)."""

    paragraphs: list[Paragraph] = field(default_factory=list)
    #: the paragraph (by number) that titles a form: its band above its first section band
    title_band: int | None = None
    #: the paragraph (by number) that titles a document without a Title paragraph: the one
    #: line of its opening set larger than all else there
    title_line: int | None = None
    #: the paragraph (by number) that ends a cover whose line was given a heading's style
    cover_end: int = -1

    @classmethod
    def read(cls, document: Any, styles: bytes | None, numbering: bytes | None) -> Outline:
        """The outline of a body read as a stream (``document``: bytes or a binary file), its
        paragraphs' elements freed as they are read."""
        from lxml import etree

        parser = etree.XMLParser(resolve_entities=False, huge_tree=True)
        style_table = _styles(etree.fromstring(styles, parser) if styles else None)
        source = io.BytesIO(document) if isinstance(document, bytes) else document
        outline = cls(list(_paragraphs(source, style_table)))
        schemes = _heading_schemes(etree.fromstring(numbering, parser) if numbering else None)
        outline._decide(schemes)
        return outline

    def levels_by_index(self) -> dict[int, int]:
        """Heading levels by paragraph number (body paragraphs in document order, those in
        tables counted, those in text boxes not)."""
        return {i: p.level for i, p in enumerate(self.paragraphs) if p.level is not None}

    def levels(self) -> list[int]:
        return [p.level for p in self.paragraphs if p.level is not None]

    def _decide(self, schemes: dict[str, set[int]]) -> None:
        outlined: list[Paragraph] = []
        for paragraph in self.paragraphs:
            if not paragraph.text or paragraph.in_table:
                continue
            if _prose(paragraph.text, styled=True):  # body text given a heading's style
                continue
            if _HEADING_STYLE.match(paragraph.style.name):
                paragraph.level = int(paragraph.style.name[-1])
            elif paragraph.outline is not None and paragraph.outline < 9:
                paragraph.level = min(6, paragraph.outline + 1)
                outlined.append(paragraph)
        self._lift_outline(outlined)
        self._cover()
        self._cover_line()
        self._numbered(schemes)
        typed = self._typed()
        if not any(p.level for p in self.paragraphs):
            self._visual()
        elif all(p.level is None or i in typed for i, p in enumerate(self.paragraphs)):
            self._like_typed(typed)
        self._sides()
        self.title_band = self._title_band()
        self.title_line = None if self.title_band is not None else self._title_line()

    def _lift_outline(self, outlined: list[Paragraph]) -> None:
        """Outline levels set on paragraphs by hand, in a document without a Heading style
        above them, start where the writer started ("Park Pay Wireless" at level 2, its
        sections at 3): the shallowest is level 1, the others keep their steps under it, as
        Word's navigation pane shows them."""
        if not outlined:
            return
        top = min(p.level or 1 for p in outlined)
        mine = {id(p) for p in outlined}
        styled = [p.level or 0 for p in self.paragraphs if p.level and id(p) not in mine]
        if top > 1 and not any(level < top for level in styled):
            for paragraph in outlined:
                paragraph.level = (paragraph.level or top) - (top - 1)

    def _cover(self) -> None:
        """A cover block given headings' levels: the document opens with centred lines back to
        back, each at the same level, no text between them (a proposal's title, then its course
        and its authors, each with outline level 0): only the first is a heading."""
        first = self._next_index(-1)
        if first is None or self.paragraphs[first].level is None:
            return
        level = self.paragraphs[first].level
        run = [first]
        while (following := self._next_index(run[-1])) is not None:
            paragraph = self.paragraphs[following]
            if paragraph.level != level or paragraph.in_table or not paragraph.centred:
                break
            run.append(following)
        if len(run) > 1 and self.paragraphs[first].centred:
            for index in run[1:]:
                self.paragraphs[index].level = None

    def _cover_line(self) -> None:
        """A cover's line given a heading's style, the document's one heading: in the opening
        (no sentence above it), two parts across a wide typed gap, as a cover sets a place
        and a date ("Santiago de Querétaro, México.<tab>Delivery Date: March 16th, 2018",
        styled Heading 2 in a lab report, round office-9). It is no section, and the
        document's headings are then those the visual rule finds below it (above it are the
        cover's title and names), which it alone switched off; a document with other headings
        keeps its own."""
        marked = [i for i, p in enumerate(self.paragraphs) if p.level is not None]
        if len(marked) != 1 or not self.paragraphs[marked[0]].gapped:
            return
        if any(p.text and _prose(p.text) for p in self.paragraphs[: marked[0]]):
            return
        self.paragraphs[marked[0]].level = None
        self.cover_end = marked[0]

    def _sides(self) -> None:
        """Side headings (a table's labels beside the sections they name) head what follows
        them up to the next one: one level above the headings found in that text, which step
        down under them."""
        sides = [i for i, p in enumerate(self.paragraphs) if p.side and p.text]
        if not sides:
            return
        above = [p.level for p in self.paragraphs[: sides[0]] if p.level is not None]
        level = min(6, min(above) + 1) if above else 1
        for index in sides:
            self.paragraphs[index].level = level
        inside = self.paragraphs[sides[0] + 1 :]
        for paragraph in inside:
            if paragraph.level is not None and not paragraph.side:
                paragraph.level = min(6, max(paragraph.level, 1) + level)

    def _title_band(self) -> int | None:
        """A form's title: in a document without a ``Title`` paragraph, the band right above its
        first section band, bold, unnumbered and short ("ELDER ABUSE FORENSIC CENTER REFERRAL"
        over "Section 1 – Consultation Information"). A Title paragraph titles the document."""
        if any(p.style.name.lower() == "title" and p.text for p in self.paragraphs):
            return None
        first = next((i for i, p in enumerate(self.paragraphs) if p.band and p.level), None)
        above = self._previous_index(first) if first is not None else None
        if above is None or any(p.level for p in self.paragraphs[:above]):
            return None
        band = self.paragraphs[above]
        plain = band.level is None and typed_number(band.text) is None
        return above if band.band and band.bold and plain and _titled(band.text) else None

    def _title_line(self) -> int | None:
        """A document's title where no ``Title`` paragraph names it: the one line of its
        opening (the lines before its first heading and its first sentence, table cells aside)
        set at the opening's largest size, centred, a title's length, larger than the body and
        not smaller than any heading ("Virtual Memory Project Lab Report", 26 pt, under the
        author, date and instructor; "Requirements Definition", 22 pt, over "Group 2" and the
        project's 20 pt name). Two lines at that size (a report's "RELATÓRIO" over its title,
        a vertical title's characters) leave the document untitled: a wrong title heads every
        passage."""
        if any(p.style.name.lower() == "title" and p.text for p in self.paragraphs):
            return None
        body = _dominant_size(self.paragraphs)
        opening: list[int] = []
        for index, paragraph in enumerate(self.paragraphs):
            if paragraph.level is not None or (paragraph.text and _prose(paragraph.text)):
                break
            if paragraph.text and not paragraph.in_table:
                opening.append(index)
        if not opening or body is None:
            return None
        largest = max(self.paragraphs[i].size or body for i in opening)
        lines = [i for i in opening if (self.paragraphs[i].size or body) == largest]
        line = self.paragraphs[lines[0]]
        headings = [p.size or body for p in self.paragraphs if p.level is not None]
        lettered = sum(c.isalpha() for c in line.text) >= 2
        fits = line.centred and largest >= body + 2 and _titled(line.text) and lettered
        alone = len(lines) == 1 and max(headings, default=0) <= largest
        return lines[0] if alone and fits else None

    def _numbered(self, schemes: dict[str, set[int]]) -> None:
        used = {p.number for p in self.paragraphs if p.number is not None}
        deep = {num for num, lvl in used if lvl >= 1 and lvl in schemes.get(num, set())}
        for index, paragraph in enumerate(self.paragraphs):
            number = paragraph.number
            if paragraph.level is not None or number is None or number[0] not in deep:
                continue
            if number[1] not in schemes[number[0]] or not _short(paragraph.text):
                continue
            following = self._next_index(index)
            if following is None:
                continue
            after = self.paragraphs[following]
            followed = after.number is None or (
                after.number[0] == number[0] and after.number[1] > number[1]
            )
            if followed:
                paragraph.level = min(6, number[1] + 1)

    def _typed(self) -> list[int]:
        """Section numbers typed into the text (``typed_numbers.py``): a heading when its
        family runs in sequence (the number before or after it is there too), it reads as a
        title, bold or larger than the body, and body text follows it; numbered lines
        back to back are a list or a table of contents, none of them a heading."""
        body = _dominant_size(self.paragraphs)
        found: dict[int, Number] = {}
        values: dict[str, set[int]] = {}  # every typed number, headings by style included
        for index, paragraph in enumerate(self.paragraphs):
            if (paragraph.in_table and not paragraph.band) or not paragraph.text:
                continue
            number = typed_number(paragraph.text)
            if number is None:
                continue
            if _contents(paragraph):
                continue
            values.setdefault(number.family, set()).add(number.value)
            if paragraph.level is not None or paragraph.number is not None:
                continue
            larger = body is not None and (paragraph.size or 0) >= body + 2
            if _titled(paragraph.text) and (paragraph.bold or larger):
                found[index] = number
        made: list[int] = []
        for index, number in found.items():
            if not _in_sequence(number, values):
                continue
            following = self._next_index(index)
            previous = self._previous_index(index)
            sibling_after = following in found and found[following].family == number.family
            sibling_before = previous in found and found[previous].family == number.family
            if following is not None and not sibling_after and not sibling_before:
                self.paragraphs[index].level = min(6, number.depth)
                made.append(index)
        self._lift(made)
        return made

    def _like_typed(self, typed: list[int]) -> None:
        """Unnumbered lines set as the document's typed headings are: in notes whose sections
        are typed ("18.3 Expressions", bold at the body's size), a line of the same look over
        its paragraph ("expression vectors") is a heading too, which the visual rule (off once
        typed headings are found) would have taken. It reads as a title as typed ones do (a
        colon may end it: "Abstract:" beside "Part 1:"), is no list item, no run of such
        lines, and at least two typed headings share its look; the document's first line is
        its title's place ("Unit 5 Reading Guide – MetaProgramming"), not a section's. Its level
        is the next typed heading's of that look (the previous one's at the end)."""
        body = _dominant_size(self.paragraphs)
        shared = Counter(_emphasis(self.paragraphs[i], body) for i in typed)
        if _bold_body(self.paragraphs):
            shared = Counter({look: n for look, n in shared.items() if not _bold_only(look, body)})
        found = [i for i, p in enumerate(self.paragraphs) if self._typed_look(i, shared, body)]
        in_found = set(found)  # (each line looked through the list of them, and through all
        alike = _by_look(self.paragraphs, typed, body)  # typed headings: 8,000 took 43 s)
        for index in found:
            following, previous = self._next_index(index), self._previous_index(index)
            if following is None or previous is None or {following, previous} & in_found:
                continue
            paragraph, after = self.paragraphs[index], self.paragraphs[following]
            larger = not _bold_only(_emphasis(paragraph, body), body)
            if after.level is None and _reads_as_body(after.text, paragraph.text, larger):
                same = alike[_emphasis(paragraph, body)]
                level_from = same[min(bisect.bisect_right(same, index), len(same) - 1)]
                paragraph.level = self.paragraphs[level_from].level

    def _typed_look(self, index: int, shared: Counter[tuple[int, bool]], body: int | None) -> bool:
        """An unnumbered line that could be a heading beside typed ones: of a look two typed
        headings share, a title's length, no list item, table cell or sentence."""
        paragraph = self.paragraphs[index]
        if paragraph.level is not None or paragraph.in_table or paragraph.number is not None:
            return False
        if paragraph.style.numbered or _contents(paragraph) or not _WORDED.search(paragraph.text):
            return False
        if shared[_emphasis(paragraph, body)] < 2 or typed_number(paragraph.text) is not None:
            return False
        return _titled(paragraph.text) and not _prose(paragraph.text)

    def _lift(self, made: list[int]) -> None:
        """Typed headings' depths are guesses ("Section 3" is 2, for a "Part" or "Chapter"
        above it): when no heading of the document stands above the shallowest of them, that
        one is level 1 and the others keep their steps under it."""
        if not made:
            return
        top = min(self.paragraphs[i].level or 1 for i in made)
        others = (p.level for i, p in enumerate(self.paragraphs) if i not in made)
        if top > 1 and not any(level is not None and level < top for level in others):
            for index in made:
                self.paragraphs[index].level = (self.paragraphs[index].level or top) - (top - 1)

    def _previous_index(self, index: int) -> int | None:
        """The index of the previous paragraph with text."""
        for previous in range(index - 1, -1, -1):
            if self.paragraphs[previous].text:
                return previous
        return None

    def _visual(self) -> None:
        body = _dominant_size(self.paragraphs)
        bold_body = _bold_body(self.paragraphs)
        looks = [
            i > self.cover_end
            and not p.side
            and (_looks_like_heading(p, body, bold_body) or self._list_title(i, body))
            for i, p in enumerate(self.paragraphs)
        ]
        accepted: set[int] = set()
        opening: list[tuple[int, int]] = []  # (a line, its first subsection right under it)
        for index in reversed(range(len(self.paragraphs))):
            paragraph = self.paragraphs[index]
            if not looks[index]:
                continue
            following = self._next_index(index)
            previous = self._previous_index(index)
            if following is None:
                continue
            above = self.paragraphs[previous] if previous is not None else None
            run = above is not None and looks[previous or 0]  # unless a larger title is above
            if above is not None and run and not _larger_than(above, paragraph, body):
                continue  # the last of a run of bold lines is no more a heading than the rest
            after = self.paragraphs[following]
            larger = body is not None and (paragraph.size or 0) >= body + 2
            if looks[following]:  # a section that opens with its first, smaller subsection?
                if _larger_than(paragraph, after, body):
                    opening.append((index, following))
                continue
            if not after.in_table and not self._text_under(index, following, looks, larger):
                continue  # a label over another short line: a list of samples, not a section
            emphasised = after.bold and not bold_body
            # a larger title over its list, or a bold one over a list of sentences
            listed = after.number is not None and (larger or not _short(after.text))
            if after.in_table or (not emphasised and (after.number is None or listed)):
                accepted.add(index)
        accepted |= self._set_alike(accepted, looks, body)
        accepted |= self._labels(accepted, looks, body)
        # A line right over a smaller heading is a section opening with its subsection when
        # other sections look like it and have text of their own ("2. Users and their goals"
        # over "Situation 1: ..." beside "1. Introduction and Context" over a paragraph); a
        # lone line so is a subtitle ("Dan's Cool Beans" over "1. Introduction ...").
        kinds = {_emphasis(self.paragraphs[i], body) for i in accepted}
        for index, following in opening:  # bottom up: a subsection is decided first
            if following in accepted and _emphasis(self.paragraphs[index], body) in kinds:
                accepted.add(index)
        ranks = sorted({_emphasis(self.paragraphs[i], body) for i in accepted})
        for index in accepted:
            paragraph = self.paragraphs[index]
            paragraph.level = min(6, len(ranks) - ranks.index(_emphasis(paragraph, body)))

    def _set_alike(self, accepted: set[int], looks: list[bool], body: int | None) -> set[int]:
        """Lines set larger than the body exactly as two headings found or more are, which
        what follows them did not confirm (a list of items, a bold list, one short line): a
        report's "HARDWARE AND SOFTWARE" over its list, bold 16 pt as its "ABSTRACT" and
        "OBJECTIVES" over their paragraphs; a proposal's "Additional Software/Equipment
        Needed" over "Unreal Engine 5", 16 pt as its other sections. Weight alone is too weak
        a mark for this (forms bold their labels), and so is a line in a run of such lines or
        a list item."""
        kinds = Counter(_emphasis(self.paragraphs[i], body) for i in accepted)
        alike: set[int] = set()
        for index, paragraph in enumerate(self.paragraphs):
            look = _emphasis(paragraph, body)
            if index in accepted or not looks[index] or paragraph.number is not None:
                continue
            if kinds[look] < 2 or _bold_only(look, body):
                continue
            previous = self._previous_index(index)
            run = previous is not None and looks[previous] and previous not in accepted
            if self._next_index(index) is not None and not run:
                alike.add(index)
        return alike

    def _labels(self, accepted: set[int], looks: list[bool], body: int | None) -> set[int]:
        """Section labels: lines that end with a colon, set apart by weight, size, underline or
        italic, each alone on its line over its section's text (a paragraph, or a list of two
        items or more), in a document whose sections are named so: a policy's underlined
        "Objective:", "Purpose:", ... "Revision History:" over their paragraphs, a meeting's
        bold "Discussion Summary:" and "Action Items:" over their lists, an abstract's bold "MA
        Thesis possible topics:" beside its bold "Abstract" (round office-10). One label alone
        is a note ("Note:" over a paragraph), so two labels of one look or more must pass, or
        two headings found must share the look; a label over one short line is a form's field
        ("Date:" over "10 June 2026", "Attendees:" over a list of names on one line)."""
        found = [i for i in range(len(self.paragraphs)) if self._label_over_text(i, looks)]
        texts: dict[tuple[int, bool, bool], set[str]] = {}
        for index in found:
            texts.setdefault(self._label_look(index, body), set()).add(self.paragraphs[index].text)
        headings = Counter(_emphasis(self.paragraphs[i], body) for i in accepted)
        return {
            index
            for index in found
            if len(texts[self._label_look(index, body)]) >= 2
            or headings[_emphasis(self.paragraphs[index], body)] >= 2
        }

    def _label_look(self, index: int, body: int | None) -> tuple[int, bool, bool]:
        """A label's look: its size and weight, and whether it is underlined or italic."""
        paragraph = self.paragraphs[index]
        return (*_emphasis(paragraph, body), paragraph.marked)

    def _label_over_text(self, index: int, looks: list[bool]) -> bool:
        """A line that could be a section label (:meth:`_labels`), over its section's text."""
        paragraph = self.paragraphs[index]
        if not _label(paragraph) or looks[index]:
            return False
        following = self._next_index(index)
        if following is None or looks[following] or _label(self.paragraphs[following]):
            return False
        after = self.paragraphs[following]
        if after.in_table:
            return False
        if after.number is None:
            return _reads_as_body(after.text, paragraph.text, False)
        items = 0
        for position in range(following, len(self.paragraphs)):
            line = self.paragraphs[position]
            if not line.text:
                continue
            if line.number is None or looks[position] or _label(line):
                break
            items += 1
        return items >= 2 or _reads_as_body(after.text, paragraph.text, False)

    def _list_title(self, index: int, body: int | None) -> bool:
        """An item of a list set as a title: bold and larger than the body, short, and no item
        of its list at its level right before or after it (items back to back are a list;
        "1. Introduction" ... "2. Users and their goals" each over their text are sections)."""
        paragraph = self.paragraphs[index]
        number = paragraph.number
        if number is None or paragraph.in_table or not paragraph.bold or body is None:
            return False
        if (paragraph.size or 0) < body + 2 or not _short(paragraph.text):
            return False
        if _contents(paragraph) or not _titled(paragraph.text):
            return False
        neighbours = (self._previous_index(index), self._next_index(index))
        return all(n is None or self.paragraphs[n].number != number for n in neighbours)

    def _text_under(self, index: int, following: int, looks: list[bool], larger: bool) -> bool:
        """Whether body text follows the line at ``index``: the next line reads as such, or,
        under a line set larger than the body, its section (up to the next line that looks
        like a heading) holds a line longer than a title ("Situation 5: ..." over
        "Participating actor: Employee", "Entry Conditions:" ...) or is a list longer than it
        (a date over what was done that day); a larger "16 point" over "Red", "Courier new"
        in a sample of formats has none."""
        heading = self.paragraphs[index].text
        if _reads_as_body(self.paragraphs[following].text, heading, larger):
            return True
        if not larger:
            return False
        lines: list[str] = []
        for position in range(following, len(self.paragraphs)):
            if looks[position] or len(lines) > _MAX_WORDS:
                break
            if self.paragraphs[position].text:
                lines.append(self.paragraphs[position].text)
        listed = self.paragraphs[following].number is not None
        return any(not _short(line) for line in lines) or (
            listed and len(" ".join(lines)) > len(heading)
        )

    def _next_index(self, index: int) -> int | None:
        """The index of the next paragraph with text."""
        for following in range(index + 1, len(self.paragraphs)):
            if self.paragraphs[following].text:
                return following
        return None


def _styles(root: Any) -> dict[str, Style]:
    """Every paragraph style with what it inherits through ``basedOn`` resolved, and the
    document defaults under the key ``""``."""
    if root is None:
        return {"": Style(), _DEFAULT: Style()}
    raw: dict[str, tuple[Any, str | None]] = {}
    for style in root.iter(f"{W}style"):
        based = style.find(f"{W}basedOn")
        raw[style.get(f"{W}styleId") or ""] = (style, _val(based))
    defaults = root.find(f"{W}docDefaults/{W}rPrDefault/{W}rPr")
    resolved: dict[str, Style] = {
        "": Style(bold=_bold(defaults), size=_size(defaults)),
    }

    def resolve(style_id: str, depth: int = 0) -> Style:
        if style_id in resolved:
            return resolved[style_id]
        if style_id not in raw or depth > 20:
            return resolved[""]
        element, based = raw[style_id]
        parent = resolve(based, depth + 1) if based else resolved[""]
        rpr = element.find(f"{W}rPr")
        outline = _val(element.find(f"{W}pPr/{W}outlineLvl"))
        bold, size = _bold(rpr), _size(rpr)
        name = _val(element.find(f"{W}name")) or ""
        numbered = element.find(f"{W}pPr/{W}numPr") is not None or parent.numbered
        resolved[style_id] = Style(
            name=name,
            outline=_outline(outline, parent.outline),
            bold=parent.bold if bold is None else bold,
            size=parent.size if size is None else size,
            numbered=numbered,
        )
        return resolved[style_id]

    for style_id in raw:
        resolve(style_id)
    default = root.find(f"{W}style[@{W}type='paragraph'][@{W}default='1']")
    resolved[_DEFAULT] = (
        resolved.get(default.get(f"{W}styleId") or "", resolved[""])
        if (default is not None)
        else resolved[""]
    )
    return resolved


def _heading_schemes(root: Any) -> dict[str, set[int]]:
    """For each ``numId``, the levels whose number shows every parent's decimal number
    (``%1.%2.`` at level 2): the shape of numbered headings."""
    if root is None:
        return {}
    levels: dict[str, set[int]] = {}
    for abstract in root.iter(f"{W}abstractNum"):
        found = set()
        for level in abstract.iter(f"{W}lvl"):
            ilvl = whole(level.get(f"{W}ilvl") or "0", MAX_LEVEL)
            if ilvl is None:
                continue
            text = _val(level.find(f"{W}lvlText")) or ""
            fmt = _val(level.find(f"{W}numFmt")) or "decimal"
            shown = {int(n) for n in _PARENT_NUMBER.findall(text)}
            if fmt == "decimal" and len(shown) == ilvl + 1 and shown == set(range(1, ilvl + 2)):
                found.add(ilvl)
        levels[abstract.get(f"{W}abstractNumId") or ""] = found
    schemes = {}
    for num in root.iter(f"{W}num"):
        abstract_id = _val(num.find(f"{W}abstractNumId"))
        schemes[num.get(f"{W}numId") or ""] = levels.get(abstract_id or "", set())
    return schemes


def _paragraphs(source: Any, styles: dict[str, Style]) -> Iterator[Paragraph]:
    """Body paragraphs in document order (not those of text boxes), read as a stream: tables
    and text boxes are counted as they open and close, so a paragraph knows where it is
    without a walk up its ancestors, and a table's paragraphs are only counted and named."""
    from lxml import etree

    tags = (f"{W}p", f"{W}tbl", f"{W}txbxContent")
    events = etree.iterparse(
        source, events=("start", "end"), tag=tags, resolve_entities=False, huge_tree=True
    )
    tables = boxes = 0
    held: list[tuple[Any, Paragraph]] = []  # a table's paragraphs, until it is seen whole
    cell: tuple[Any, bool] = _NO_CELL  # the cell of the last paragraph held, and if a band
    for event, element in events:
        tag = element.tag
        if tag != f"{W}p":
            step = 1 if event == "start" else -1
            tables, boxes = (tables + step, boxes) if tag == f"{W}tbl" else (tables, boxes + step)
        if event == "start" or boxes:
            continue
        if tag == f"{W}tbl" and not tables:  # a body table, whole: side headings or cells
            yield from _table_paragraphs(element, held, styles)
            held, cell = [], _NO_CELL  # (before it is freed: see _table_paragraphs)
        elif tag == f"{W}p" and not tables:
            yield _paragraph(element, styles)
        elif tag == f"{W}p":
            cell = _cell_of(element, tables, cell)
            read = _band_paragraph(element, styles) if cell[1] else _cell_paragraph(element)
            held.append((element, read))
        parent = element.getparent()
        if parent is not None and parent.tag == f"{W}body":  # a body block: free it
            free_block(element)


_NO_CELL: tuple[Any, bool] = (None, False)


def _cell_of(paragraph: Any, tables: int, last: tuple[Any, bool]) -> tuple[Any, bool]:
    """The cell ``paragraph`` is in and whether it is a band of a body table (``band_cell``),
    asked once for a cell's paragraphs, which come one after another: ``band_cell`` looks for
    the cell's properties among all its children, and a cell of 20,000 paragraphs without
    them took 12 s (each paragraph looked through all of them)."""
    cell = paragraph.getparent()
    return last if last[0] is cell else (cell, tables == 1 and band_cell(cell))


def _table_paragraphs(
    table: Any, held: list[tuple[Any, Paragraph]], styles: dict[str, Style]
) -> Iterator[Paragraph]:
    """A body table's paragraphs (``held``: each element and its reading as a cell's), once
    the table is whole: as the body, its labels side headings, when it lays sections out beside
    their labels (``side_labels``), else as they were read. A function of its own so that none
    of the table's elements outlives it: the caller then frees the table, and lxml moves each
    element still referenced out of it with all it holds (a cell of 20,000 paragraphs, kept
    referenced, took 3 s to free)."""
    labels = side_labels(table)
    for element, read in held:
        if labels is None:
            yield read
        else:
            paragraph = _paragraph(element, styles)
            paragraph.side = element in labels
            yield paragraph


def side_labels(table: Any) -> set[Any] | None:
    """The label paragraphs of a table that lays a document's sections out beside their
    labels, else ``None``: two columns, two rows or more, each row a left cell of one short
    line and a right cell of several paragraphs (a retrospective's "What went well?" beside
    its points), no cell spanning or nesting a table. Such a table is read as the body: each
    label a heading over the text beside it."""
    grid = table.find(f"{W}tblGrid")
    rows = table.findall(f"{W}tr")
    if grid is None or len(grid.findall(f"{W}gridCol")) != 2 or len(rows) < 2:
        return None
    if next(table.iter(f"{W}gridSpan", f"{W}vMerge"), None) is not None:
        return None
    labels: set[Any] = set()
    texts: list[str] = []
    right = 0
    for row in rows:
        cells = row.findall(f"{W}tc")
        if len(cells) != 2 or any(next(c.iter(f"{W}tbl"), None) is not None for c in cells):
            return None
        written = _written(cells[0])
        beside = _written(cells[1])
        if len(written) != 1 or len(beside) < 2 or not _short(written[0][1]):
            return None
        labels.add(written[0][0])
        texts.append(written[0][1])
        right += sum(len(text) for _, text in beside)
    if len(set(texts)) < len(texts) or right < 4 * sum(len(t) for t in texts):
        return None
    return labels


def _written(cell: Any) -> list[tuple[Any, str]]:
    """The paragraphs of ``cell`` that have text, each with its text (``text_runs``)."""
    return [(p, text) for p in cell.iter(f"{W}p") if (text := text_runs(p))]


def text_runs(element: Any) -> str:
    """An element's text runs (``w:t``), spaces collapsed, without field codes (``PAGE``)."""
    return " ".join("".join(t.text or "" for t in element.iter(f"{W}t")).split())


def _cell_paragraph(element: Any) -> Paragraph:
    """A paragraph in a table: never a heading, so only whether it has text matters."""
    text = "".join(t.text or "" for t in element.iter(f"{W}t")).strip()
    return Paragraph(None, text, Style(), None, None, False, None, in_table=True)


def band_cell(cell: Any) -> bool:
    """Whether ``cell`` is a band: the one cell of its row, spanning every column of a table of
    several (forms set their section titles so: "Section 2 – Referring Agency Information"
    across a table of fields)."""
    if cell is None or cell.tag != f"{W}tc":
        return False
    row = cell.getparent()
    table = row.getparent() if row is not None else None
    grid = table.find(f"{W}tblGrid") if table is not None else None
    columns = len(grid.findall(f"{W}gridCol")) if grid is not None else 0
    span = _val(cell.find(f"{W}tcPr/{W}gridSpan"))
    return columns > 1 and whole(span, columns + 1) == columns


def _band_paragraph(element: Any, styles: dict[str, Style]) -> Paragraph:
    """A paragraph of a band cell: read as a body paragraph is, since a numbered band may be a
    section title (rule 4); never by the other rules."""
    paragraph = _paragraph(element, styles)
    paragraph.in_table = paragraph.band = True
    return paragraph


def _paragraph(element: Any, styles: dict[str, Style]) -> Paragraph:
    ppr = element.find(f"{W}pPr")
    style_id = _val(ppr.find(f"{W}pStyle")) if ppr is not None else None
    style = styles.get(style_id or _DEFAULT, styles[_DEFAULT])
    outline = _val(ppr.find(f"{W}outlineLvl")) if ppr is not None else None
    number = ppr.find(f"{W}numPr") if ppr is not None else None
    read = [(r, _run_text(r, "\t")) for r in element.iter(f"{W}r")]  # each run's text once
    runs = [r for r, run_text in read if run_text.strip()]
    text = " ".join("".join(run_text for _, run_text in read if run_text.strip()).split())
    worded = [r for r, run_text in read if _WORDED.search(run_text)]  # a lone "– " may be regular
    return Paragraph(
        element=None,
        text=text,
        style=style,
        outline=_outline(outline, style.outline),
        number=_number(number),
        bold=bool(worded) and all(_run_bold(r, style, styles) for r in worded),
        size=_run_size(runs, style),
        in_table=False,
        centred=ppr is not None and _val(ppr.find(f"{W}jc")) == "center",
        marked=bool(worded) and any(all(_run_mark(r, m) for r in worded) for m in _MARKS),
        gapped=bool(_GAPPED.search("".join(run_text for _, run_text in read))),
    )


def heading_style_level(name: str) -> int | None:
    """The level of a Heading style by its name (``heading 2``: 2), else ``None``."""
    return int(name.strip()[-1]) if _HEADING_STYLE.match(name.strip()) else None


def _number(element: Any) -> tuple[str, int] | None:
    if element is None:
        return None
    num, ilvl = _val(element.find(f"{W}numId")), _val(element.find(f"{W}ilvl"))
    if not num or num == "0":
        return None
    return num, whole(ilvl, MAX_LEVEL) or 0


def _outline(value: str | None, inherited: int | None) -> int | None:
    """An outline level the paragraph or style writes, else the one it inherits; one past
    Word's levels is body text."""
    level = whole(value, BODY_OUTLINE)
    return inherited if level is None else level


def _run_text(run: Any, tab: str = " ") -> str:
    return "".join(
        (t.text or "") if t.tag == f"{W}t" else tab for t in run if t.tag in (f"{W}t", f"{W}tab")
    )


#: two parts of a line across a wide typed gap, the first of two words or more: "Santiago de
#: Querétaro, México.<tab>Delivery Date: March 16th, 2018" (not "1.<tab>Introduction")
_GAPPED = re.compile(r"[^\W\d_]\S*\s+[^\W\d_]\S*\s*(?:\t|\s{4,})\s*[^\W\d_]")


def _run_bold(run: Any, style: Style, styles: dict[str, Style]) -> bool:
    rpr = run.find(f"{W}rPr")
    own = _bold(rpr)
    if own is None and rpr is not None:  # a character style (``Strong``)
        own = styles.get(_val(rpr.find(f"{W}rStyle")) or "", Style()).bold
    return bool(style.bold) if own is None else own


#: the run properties that mark a line without weight: underline, italic
_MARKS = ("u", "i")


def _run_mark(run: Any, mark: str) -> bool:
    """Whether the run is underlined (``mark`` "u": any line but ``none``) or italic ("i"), by
    its own properties (a style's are not read for these)."""
    rpr = run.find(f"{W}rPr")
    element = rpr.find(f"{W}{mark}") if rpr is not None else None
    if element is None:
        return False
    return (element.get(f"{W}val") or "1").lower() not in {*_FALSE, "none"}


def _run_size(runs: list[Any], style: Style) -> int | None:
    """The size most of the paragraph's characters have."""
    sizes: Counter[int | None] = Counter()
    for run in runs:
        own = _size(run.find(f"{W}rPr"))
        sizes[style.size if own is None else own] += len(_run_text(run))
    return sizes.most_common(1)[0][0] if sizes else style.size


def _dominant_size(paragraphs: list[Paragraph]) -> int | None:
    sizes: Counter[int | None] = Counter()
    for paragraph in paragraphs:
        if not paragraph.in_table:
            sizes[paragraph.size] += len(paragraph.text)
    return sizes.most_common(1)[0][0] if sizes else None


def _emphasis(paragraph: Paragraph, body: int | None) -> tuple[int, bool]:
    return (paragraph.size or body or 0, paragraph.bold)


def _bold_only(look: tuple[int, bool], body: int | None) -> bool:
    """Whether a look (size, bold) marks a line by weight alone, at the body's size."""
    return body is None or look[0] < body + 2


def _larger_than(upper: Paragraph, lower: Paragraph, body: int | None) -> bool:
    """Whether ``upper`` is set in a larger size than ``lower`` (a title over its first
    section, a section over its first subsection), not merely bolder."""
    return (upper.size or body or 0) > (lower.size or body or 0)


def _looks_like_heading(paragraph: Paragraph, body: int | None, bold_body: bool) -> bool:
    if not paragraph.text or paragraph.in_table or paragraph.number is not None:
        return False
    if _contents(paragraph):
        return False
    if paragraph.style.numbered or not _short(paragraph.text):
        return False
    larger = body is not None and paragraph.size is not None and paragraph.size >= body + 2
    return (paragraph.bold and not bold_body) or larger


#: a section label names its section in a few words ("Disciplinary Action:")
_LABEL_WORDS = 6


def _label(paragraph: Paragraph) -> bool:
    """A line that reads as a section's label: a few words closed by a colon, set apart (bold,
    underlined or italic throughout), no list item, table cell or table of contents entry.

    >>> _label(Paragraph(None, "Objective:", Style(), None, None, False, 24, False, marked=True))
    True
    >>> _label(Paragraph(None, "Objective", Style(), None, None, True, 24, False))
    False
    """
    text = paragraph.text
    if not text.endswith((":", "：")) or paragraph.in_table or paragraph.number is not None:
        return False
    if paragraph.style.numbered or _contents(paragraph) or not _WORDED.search(text):
        return False
    return len(text.split()) <= _LABEL_WORDS and (paragraph.bold or paragraph.marked)


def _contents(paragraph: Paragraph) -> bool:
    """A table of contents entry (``TOC 1``-``TOC 9``): it names a heading, it is none."""
    return paragraph.style.name.lower().startswith("toc ")


def _bold_body(paragraphs: list[Paragraph]) -> bool:
    """Whether most of the body's characters are bold (then bold marks nothing)."""
    bold = sum(len(p.text) for p in paragraphs if p.bold and not p.in_table)
    return bold * 2 > sum(len(p.text) for p in paragraphs if not p.in_table)


def _by_look(
    paragraphs: list[Paragraph], typed: list[int], body: int | None
) -> dict[tuple[int, bool], list[int]]:
    """The typed headings' indices (in order) by their look (``_emphasis``).

    >>> plain = Paragraph(None, "2 Scope", Style(), None, None, False, 24, False)
    >>> bold = Paragraph(None, "3 Terms", Style(), None, None, True, 24, False)
    >>> _by_look([plain, bold, plain], [0, 1, 2], None)
    {(24, False): [0, 2], (24, True): [1]}
    """
    looks: dict[tuple[int, bool], list[int]] = {}
    for i in typed:
        looks.setdefault(_emphasis(paragraphs[i], body), []).append(i)
    return looks


def _prose(text: str, styled: bool = False) -> bool:
    """Text that reads as a sentence or a note, not a title: very long, ending with a full
    stop after more than a short phrase ("Payment is due within 30 days of the invoice."), a
    CJK full stop (a CJK title never has one: "特此声明。"), or wholly in brackets. A paragraph
    its writer ``styled`` as a heading (a Heading style, an outline level) may be a whole
    sentence ("Cras fringilla ipsum magna, in fringilla dui commodo a.", as Google Docs users
    write them): ending with a full stop, it is prose only past 12 words.

    >>> _prose("Cras fringilla ipsum magna, in fringilla dui commodo a.")
    True
    >>> _prose("Cras fringilla ipsum magna, in fringilla dui commodo a.", styled=True)
    False

    No text is no sentence (``"" in "(（[【"`` holds: it counted as wholly in brackets):

    >>> _prose(""), _prose("(see page 4)")
    (False, True)
    """
    ends = text.endswith((".", "!", "！"))
    bracketed = bool(text) and text[0] in "(（[【" and text[-1] in ")）]】"
    long_sentence = ends and (len(text.split()) > 12 or (len(text) > 40 and not styled))
    return len(text) > 150 or long_sentence or text.endswith("。") or bracketed


def _reads_as_body(text: str, heading: str, larger: bool) -> bool:
    """The text under a visual heading is body text: longer than the heading and, under a
    heading only bold (the weakest mark: forms and samples bold their labels), a sentence or
    more than a title's few words ("Bold" over "Underline" in a sample of run formats is a
    list of labels, not a section and its text; a ``larger`` "Header" over "paragraph 1" is
    one).

    >>> _reads_as_body("Underline", "Bold", False), _reads_as_body("paragraph 1", "Header", True)
    (False, True)
    >>> _reads_as_body("We met on Monday.", "Minutes", False)
    True
    """
    sentence = text.rstrip().endswith((".", "!", "?", ":", "。", "！", "？", "："))
    return len(text) > len(heading) and (larger or sentence or not _short(text))


def _titled(text: str) -> bool:
    """A numbered title: short (a CJK character counts as two), and not ending like a sentence
    or a clause (a colon may end it: "六、付款方式：")."""
    width = len(text) + sum(1 for c in text if _wide(c))
    short = width <= _MAX_CHARACTERS and len(text.split()) <= _MAX_WORDS + 2
    return short and not text.endswith((".", "。", ";", "；", ",", "，"))


def _in_sequence(number: Number, values: dict[str, set[int]]) -> bool:
    """Whether a typed number belongs to a sequence the document numbers: its family holds
    another number (the one before or after it, or a sibling further off: "18.2", "18.3",
    "18.5" in notes that skip 18.4), or it is the first under a parent typed elsewhere
    ("19.2.1 Vocabulary" under "19.2 Motivation")."""
    family = values[number.family]
    if len(family) > 1:
        return True
    kind, _, parent = number.family.partition(":")
    if kind != "decimal" or number.value != 1 or not parent:
        return False
    above, _, last = parent.rpartition(".")
    return int(last) in values.get(f"decimal:{above}", set())


def _wide(character: str) -> bool:
    return "\u2e80" <= character <= "\u9fff" or "\uf900" <= character <= "\uffef"


def _short(text: str) -> bool:
    return (
        len(text) <= _MAX_CHARACTERS
        and len(text.split()) <= _MAX_WORDS
        and any(c.isalpha() for c in text)
        and not text.endswith(_SENTENCE_END)
    )


def _val(element: Any) -> str | None:
    return None if element is None else element.get(f"{W}val")


def _bold(rpr: Any) -> bool | None:
    if rpr is None:
        return None
    element = rpr.find(f"{W}b")
    if element is None:
        return None
    return (element.get(f"{W}val") or "1").lower() not in _FALSE


def _size(rpr: Any) -> int | None:
    return whole(_val(rpr.find(f"{W}sz")) if rpr is not None else None, MAX_HALF_POINTS)
