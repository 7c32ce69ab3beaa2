"""Headings of a PDF from its bookmarks, else from its typography; and its title.

**Bookmarks** win where they match the page text: a line of the bookmark's page (or of the two
after it: producers point some a page early) is the bookmark's heading when its words are the
bookmark's title, or the title after a section number (``1 Foo`` for the bookmark ``Foo``), or
when it and the next line together are (a title set over two lines).

**Typography**, per document, when bookmarks do not cover it. The body text's size and weight
are those of most characters; a line is a heading when it is set larger (by 12 % and 0.8 pt) or
bolder than the body, whole (not a bold word opening a paragraph), short (at most 14 words and
120 characters), mostly letters, does not end like a sentence or a label (``.``, ``,``, ``;``,
``:``), is followed by text of body size or a full line of smaller prose (a label in a diagram
is followed by smaller, short labels; a page's first line that is its largest, over a chart's
figures, needs no text under it: a slide's title), is not repeated three times in the document,
is not a date, a line of syntax (``=``, braces, ``[ ``, a function's signature), a term over its
definition set in by two ems (a man page's tag; a listing of declarations under a label is no
definition), a caption, a list item (``•``, ``-``, ``■`` and the lines set in under its text: a
slide's large bullets), a table row (words over an em and a half apart) or an entry of a table
of contents (dot leaders; a page whose lines, a third of them or more, end in page numbers), and
heads something: a line of text or a heading of its type or smaller comes before the next larger
heading (a chart's label at a page's foot heads nothing). On a page with form fields a one-word
bold line is a field's label. A document that sets nothing larger or bolder than its text (no
candidate at all) is headed by its lines in capitals of the body's type at the text's left edge,
with space above them and text under them (an article's small capitals), two at least. A line in
body type is a heading only by its numbering: ``3.1.1 Logical view`` right after a heading
numbered ``3.1`` or a sibling ``3.1.x``. Numbers must be consistent: lines numbered ``1.``,
``2.`` that start again at ``1.`` are a numbered list, not chapters. A run of two or three
heading lines of one type is one heading set over several lines when a line goes on in the next
(it starts in lower case, or this one ends on ``and``, ``of``..., or on a Japanese particle,
``の``, ``は``..., or the next is set in by an em: a hanging indent, a centred title's shorter
line, but not a line set in under a short one; CJK lines join with no space); a ``Chapter 3``
line opens the heading under it, and so does a short label ending in a colon right over a line
in its type (``Example 1:`` / ``Tasting notes``); a line whose next line, in its type and with
no gap, ends a sentence is that sentence's first line (a slide's callout). A page that would
have more than eight headings is a form or a diagram: its bold labels are no headings (its
larger lines stay, when few enough); nor is a line set at an angle (a watermark). Levels come
from the numbering depth when most headings are numbered (an unnumbered one takes the level of
numbered ones of its type), else from the rank of the type (larger first, bolder first; a type
that never opens its section, rarer than the next smaller one and nearer it in size, is ranked
with it: section titles set a little larger by hand); ``Chapter 2:`` is numbered 2.

Conservative by design: a wrong heading misplaces every child under it, a missed one only leaves
them in the section before.

**Title**: the metadata title when it is a real one (not ``Microsoft Word - report.docx``,
``untitled``, a file name or path, or an identifier such as ``CrashOH1M5``), else the first
page's largest line when it is larger than any line elsewhere (a title page's title, set over up
to three lines that run on; of two lines about as large, not the one the running headers name:
a journal's banner); a metadata title that names a smaller line of the first page than the
title it shows names a section, and one whose words the first page of a longer file mostly does
not print is stale (another version's): the shown title is the document's. A title page after
the cover (its title again, the author under it) gives no sections; with no title at all, a
browser's print header names the page printed (``printed_page_title``).

**Where each rule lives** (one module a family): ``typography`` runs the pipeline and gives the
levels; ``candidates`` reads each page's lines; ``wording`` holds what a line's words say
(numbering, heading-like, lines that go on); ``body`` the body's type and a line measured
against it; ``body_type_headings`` the outline, underlined and capital lines in the body's own
type; ``refusals`` the document-wide checks that take candidates away; ``decks`` slide titles;
``contents`` the lines the document's own contents list names (and the cover's lines it leaves
out); ``bookmarks`` and ``titles`` their own. ``model`` holds the data they pass around.
"""

from skills.formats.pdf.headings.body import body_type
from skills.formats.pdf.headings.bookmarks import (
    flat,
    from_bookmarks,
    with_bookmarked_types,
    with_numbered_children,
)
from skills.formats.pdf.headings.contents import without_unlisted_cover
from skills.formats.pdf.headings.model import Body, Heading, Key
from skills.formats.pdf.headings.titles import (
    centred_title,
    first_page_title,
    is_cover,
    man_page_name,
    meaningful_title,
    over_numbered_headings,
    printed,
    printed_page_title,
    turned_page,
    without_title_again,
)
from skills.formats.pdf.headings.typography import from_typography
from skills.formats.pdf.headings.wording import normalised, section_number

__all__ = [
    "Body",
    "Heading",
    "Key",
    "body_type",
    "centred_title",
    "first_page_title",
    "flat",
    "from_bookmarks",
    "from_typography",
    "is_cover",
    "man_page_name",
    "meaningful_title",
    "normalised",
    "over_numbered_headings",
    "printed",
    "printed_page_title",
    "section_number",
    "turned_page",
    "with_bookmarked_types",
    "with_numbered_children",
    "without_title_again",
    "without_unlisted_cover",
]
