"""A deck saved as PDF (every page a slide's shape): its headings are its slides' titles."""

from __future__ import annotations

from collections import Counter

from skills.formats.pdf.headings.body import is_larger
from skills.formats.pdf.headings.model import Body, Heading, Key
from skills.formats.pdf.headings.wording import DATE, joined
from skills.formats.pdf.lines import Line, Page

#: Width over height of a slide: 4:3 (PowerPoint's 720 x 540, Keynote's 800 x 600), 16:10, 16:9.
_SLIDE_SHAPES = (4 / 3, 16 / 10, 16 / 9)


_SLIDES = 3  # pages of a deck, at least


_TITLE_LINES = 5  # lines a slide's title may take (an action title is a sentence)


def is_deck(pages: list[Page]) -> bool:
    """Every page has a slide's shape: a deck saved as PDF (PowerPoint, Keynote). A landscape
    Letter or A4 page (1.29, 1.41) is a report's or a sheet's."""
    shaped = [page for page in pages if page.lines and not page.garbage]
    return len(shaped) >= _SLIDES and all(
        any(abs(page.shape - shape) < 0.01 for shape in _SLIDE_SHAPES) for page in shaped
    )


def slide_titles(pages: list[Page], body: Body, skip: set[Key]) -> dict[Key, Heading]:
    """A deck's headings are its slides' titles: on each slide, the line nearest its top when
    set larger than the body, with the lines under it in its size (an action title runs over
    two to four lines, its first words bold: ``Cross-cutting component #1: Early literacy
    efforts need to be`` / ``guided by a clear vision, ...``). The boxes' labels, callouts and
    figures on a slide are no headings (a report deck's 144 of them were). Titles set in the
    deck's largest size on fewer than a third of its slides are its section dividers, level 1,
    over the others."""
    titles: list[tuple[Key, str, int, float]] = []
    band = _title_band(pages, skip)
    for page in pages:
        found = _slide_title(page, body, skip, band)
        if found is not None:
            titles.append(found)
    if not titles:
        return {}
    largest = max(size for *_, size in titles)
    dividers = sum(size >= largest - 0.5 for *_, size in titles)
    split = dividers * 3 < len(titles)
    return {
        key: Heading(1 if not split or size >= largest - 0.5 else 2, text, count)
        for key, text, count, size in titles
    }


def _slide_title(
    page: Page, body: Body, skip: set[Key], band: tuple[float, float] | None = None
) -> tuple[Key, str, int, float] | None:
    kept = [
        i for i, line in enumerate(page.lines)
        if (page.index, i) not in skip and not line.rotated and line.text.strip()
    ]  # fmt: skip
    if page.garbage or not kept:
        return None
    first = min(_worded(page, kept), key=lambda i: page.lines[i].top)
    line = page.lines[first]
    if not is_larger(line.size, body) and not _in_band(line, band):
        return None
    count = 1
    while count < _TITLE_LINES and first + count in kept:
        above, nxt = page.lines[first + count - 1], page.lines[first + count]
        if abs(nxt.size - line.size) > 0.5:
            break
        if abs(nxt.left - line.left) > line.size and not _centred_alike(above, nxt):
            break
        if not 0 < _step(above, nxt) <= line.size * 1.6:
            break
        count += 1
    text = joined(page, first, count)
    stated = text.endswith(".") and not text.endswith("..")
    if stated or DATE.match(text) or not any(char.isalpha() for char in text):
        return None  # a closing slide's sentence, a cover's date, a chart's figure
    return (page.index, first), text, count, line.size


def _worded(page: Page, kept: list[int]) -> list[int]:
    """The lines with a letter in them, when some have: a diagram's numbers drawn above a
    slide's title (Google Slides' ``1 2 3`` over ``Motivation``, at the body's size) are not
    the slide's first line of words."""
    worded = [i for i in kept if any(char.isalpha() for char in page.lines[i].text)]
    return worded or kept


def _topmost(page: Page, skip: set[Key]) -> Line | None:
    kept = [
        line for i, line in enumerate(page.lines)
        if (page.index, i) not in skip and not line.rotated and line.text.strip()
    ]  # fmt: skip
    return min(kept, key=lambda line: line.top) if kept and not page.garbage else None


def _title_band(pages: list[Page], skip: set[Key]) -> tuple[float, float] | None:
    """Where a deck sets its slides' titles in the body's size: a header band, the slides'
    topmost lines in capitals at one place and size on three slides or more, half the deck
    or more, saying different things (PowerPoint for Mac's ``BUSINESS PROBLEM``, ``WHY
    MONGODB - DYNAMIC FEED MANAGEMENT`` at 18 pt in a dark band, as large as the text under
    them). The place and size, or None. A line said the same on every slide is furniture."""
    places: Counter[tuple[float, float]] = Counter()
    said: dict[tuple[float, float], set[str]] = {}
    for page in pages:
        line = _topmost(page, skip)
        letters = [char for char in line.text if char.isalpha()] if line else []
        if line is None or len(letters) < 2 or not all(char.isupper() for char in letters):
            continue
        place = (float(round(line.top)), round(line.size, 1))
        places[place] += 1
        said.setdefault(place, set()).add(line.text)
    if not places:
        return None
    place, count = places.most_common(1)[0]
    shaped = sum(1 for page in pages if page.lines and not page.garbage)
    if count < _SLIDES or count * 2 < shaped or len(said[place]) < 2:
        return None
    return place


def _in_band(line: Line, band: tuple[float, float] | None) -> bool:
    """The line stands in the deck's title band: its place (to 2 points) and size."""
    return band is not None and abs(line.top - band[0]) <= 2 and abs(line.size - band[1]) < 0.5


_ENDS = ("!", "?", ".")  # a line that ends so is a title's last


def _centred_alike(line: Line, nxt: Line) -> bool:
    """Two lines centred on one axis (their middles within half the title's size): a centred
    title's lines start at different places (Keynote's ``Go is addictive,`` / ``I want it
    everywhere…``, ``open-source`` / ``mutant Go compilers``), and go on all the same. Not
    after a line that ends an exclamation or a sentence: a closing slide's ``Thank you!`` over
    the firm's address."""
    if line.right <= line.left or nxt.right <= nxt.left or line.text.rstrip().endswith(_ENDS):
        return False
    middle, next_middle = (line.left + line.right) / 2, (nxt.left + nxt.right) / 2
    return abs(middle - next_middle) <= line.size / 2


def _step(above: Line, nxt: Line) -> float:
    """How far the next line stands under the one above: baseline to baseline when both are
    known (a line opening with ``…`` has its first character's top at the x-height: Keynote's
    ``Help a mutant Go compiler`` / ``…or write your own!`` looked a line and a half apart by
    their tops), else top to top."""
    if above.base > 0 and nxt.base > 0:
        return nxt.base - above.base
    return nxt.top - above.top
