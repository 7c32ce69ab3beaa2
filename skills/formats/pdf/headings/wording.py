"""What a line's words say, whatever its type: its section number, whether it reads like a heading
(short, lettered, not a sentence, a date, a caption, code or a list item), whether the next line
goes on with it, and how a heading's lines join."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

from skills.formats.pdf.headings.model import Key
from skills.formats.pdf.lines import Line, Page

#: A section number: ``3``, ``3.1``, ``3.1.``, ``1)``, ``A.``, ``B)`` (a letter only with its
#: dot or bracket: ``A Guide`` is words), an appendix's ``A.1``, ``E.2.3``, then a space and a
#: letter.
NUMBER = re.compile(
    r"^(?P<number>\d{1,3}(?:\.\d{1,3})*|[A-Z](?:\.\d{1,3})+|[A-Z](?=[.)]\s+[A-Z]))"
    r"(?P<end>[.)]?)\s+(?=\w)"
)


#: A system's model as its name: ``RT-11``, ``PDP-10``, ``IBM`` (before ``1401``).
_MODEL = re.compile(r"[A-Z]{2,}(?:[-/]?\d|$)")


#: Word's Insert Caption labels in other languages than English (German, French, Spanish,
#: Portuguese and Italian, Dutch, Polish, Turkish, Indonesian, Czech, the Nordic languages): the
#: label Word writes is the document's language's (an Indonesian report's ``Gambar 5.`` and
#: ``Tabel 1. Capaian Target Luaran``, bold at the body's size, read as four headings).
_CAPTION_LABELS = (
    "abbildung|abb\\.|tabelle|tableau|ilustración|tabla|figura|tabela|tabella|figuur|tabel"
    "|rysunek|rys\\.|şekil|tablo|gambar|obrázek|tabulka|figur|tabell|kuva|taulukko"
)
CAPTION = re.compile(
    r"^(?:figure|fig\.|table|tab\.|chart|exhibit|listing|plate)\s*[\dIVX]"
    rf"|^(?:{_CAPTION_LABELS})\s*(?:\d|[IVX]+\b)",
    re.I,
)


_MONTHS = "jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"


#: A date alone on its line (a cover's, a letter's): ``October 14, 1998``, ``14 Oct 1998``.
DATE = re.compile(
    rf"^(?:(?:{_MONTHS})[a-z]*\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|\d{{1,2}}\.?\s+(?:{_MONTHS})[a-z]*\.?,?\s+\d{{4}}|(?:{_MONTHS})[a-z]*\.?\s+\d{{4}})$",
    re.I,
)


#: A line that opens with a date, day first: ``9 Feb 2022 (SIL WSTech Team) ...``: no section 9.
_DATED = re.compile(rf"^\d{{1,2}}\.?\s+(?:{_MONTHS})[a-z]*\.?,?\s+\d{{4}}\b", re.I)


CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")


_SAMPLES = 3  # "words" of two letters at most in a row: a font's samples


_ALPHABET = 5  # letters in code-point order: an alphabet shown


_SAMPLE_CHARS = 6  # characters of a sample "word" at most (two letters, their marks, a stop)


_LETTER_RUN = re.compile(rf"[^\W\d_]{{{_ALPHABET},}}")


_PAGE_NUMBER = re.compile(r"^(?:page\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$", re.I)


#: A page number in lower-case Roman numerals: ``ii``, ``xiv`` (``CIVIC``, ``MIX`` are words).
_ROMAN_FOLIO = re.compile(r"^[ivxlc]{1,7}$")


_VERSION = re.compile(
    r"^(?:version|ver\.|rev(?:ision)?\.?|edition|release)\s*<?\d[\w.-]*>?$", re.I
)  # (``Version <1.0>``: a template's placeholder filled in)


#: A statute's or regulation's section mark alone on its line: ``§ 1``, ``§12``, ``§ 3a.``.
SECTION_MARK = re.compile(r"^§\s?\d{1,3}[a-z]?\.?$")


#: A changelog's release: its version and its date (``v3.0.0 (2022-11-22)``, ``[1.2] -
#: 2017-06-20``), the heading of the changes listed under it, though mostly digits.
RELEASE = re.compile(
    r"^(?:\[v?\d+(?:\.\d+){1,3}[\w.-]*\]|v?\d+(?:\.\d+){1,3}[\w.-]*)"
    r"\s+(?:\(\d{4}-\d{2}-\d{2}\)|[-–]\s+\d{4}-\d{2}-\d{2})$"
)


_CONTINUED = re.compile(r"\((?:cont\.?|continued)\)$", re.I)


_CHAPTER = re.compile(r"^(?:chapter|appendix|part|section|annex)\s+[\w.]{1,6}$", re.I)


_LEADERS = re.compile(r"(?:\.\s?){4,}|(?:_\s?){4,}|…{2,}")


#: A list item's mark: a bullet, a dash or a square, then a space.
ITEM = re.compile(r"^[•◦▪‣●○■□◆◇➢➤▶►✓✔\-–—*·][ \t\u3000]")


_SENTENCE_END = (".", ",", ";", ":", "。", "，", "；", "、", "：", "=")


FULL_STOPS = (".", "。", "!", "！")


_CJK_JOINING = frozenset("のはがをにでとへもや")  # Japanese particles: the phrase goes on


_QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"'})


_JOINING = frozenset(
    ("a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the",
     "to", "with")
)  # fmt: skip


#: Words no phrase ends on, in English (``_JOINING``) and the other languages of the Latin script
#: a guide is written in: a heading ending on one was cut from its sentence. (Not ``do``,
#: ``die``, ``den``, ``per``, ``e``, ``y``: English words, or a heading's letter, ``Vitamin E``.)
PHRASE_GOES_ON = _JOINING | frozenset(
    ("de", "da", "das", "dos", "del", "des", "du", "em", "para", "com", "con", "por", "pour",
     "avec", "par", "und", "oder", "für", "mit", "von", "zu", "der", "dem", "la", "le", "les",
     "los", "las", "el", "et", "ou", "que", "um", "uma", "une", "un", "di", "della")
)  # fmt: skip


_MAX_WORDS = 14


_MAX_CHARS = 120


REPEATED = 3  # a line seen this often is a label, not a heading


_WRAPPED_WORDS = 5  # words of a heading line that wrapped onto the next


SPACE = 0.25  # of the em: a word space


_CODE_MARKS = ("=", "{", "}", "[ ")  # a line of syntax or code, not a title


#: A function's signature or call: ``srand()``, ``index(s : string, t : string): int``.
_SIGNATURE = re.compile(r"\w\([^)]*[,:][^)]*\)|\w\(\)")


def words(text: str) -> int:
    """Words of a line, two CJK characters counting as one (Chinese and Japanese put no spaces
    between words: a line of 30 characters is a sentence, not a title).

    >>> words("Limitation for System Caching"), words("四、提交谈判文件截止时间、开标时间和地点")
    (4, 10)
    """
    return len(text.split()) + len(CJK.findall(text)) // 2


def normalised(text: str) -> str:
    """Words as a bookmark and its line agree on them: case, spacing and quotes aside."""
    text = unicodedata.normalize("NFKC", text).replace("\ufffe", "").translate(_QUOTES)
    return " ".join(text.casefold().split())


def section_number(text: str) -> tuple[str, ...] | None:
    """``("3", "1")`` for ``3.1 Traces``; ``None`` for a line without a section number.

    >>> section_number("3.1 Traces"), section_number("7. Evaluation"), section_number("1) Intro")
    (('3', '1'), ('7',), ('1',))
    >>> section_number("A. Makefile options"), section_number("A Guide"), section_number("2004 was")
    (('A',), None, None)
    >>> section_number("E.1 Time System"), section_number("A.4.2 CONVBIN"), section_number("U.S.")
    (('E', '1'), ('A', '4', '2'), None)
    >>> section_number("9 Feb 2022 (SIL WSTech Team) version 6.101"), section_number("9 Feb rules")
    (None, ('9',))
    """
    match = NUMBER.match(text)
    if match is None or _DATED.match(text):
        return None  # (a release dated day first: its day is no section number)
    number = match.group("number")
    if number.isdigit() and len(number) > 2 and not match.group("end"):
        return None  # a year or a quantity opening a line
    return tuple(number.split("."))


def joined(page: Page, start: int, count: int) -> str:
    return joined_lines(line.words for line in page.lines[start : start + count])


def joined_lines(texts: Iterable[str]) -> str:
    """Lines of one heading as one: a space between them, none between two CJK characters (a
    line of ideographs wraps with no space to break at) nor after a dash that closes a line
    between two words (``like speaking—`` / ``reading must be taught``: the dash joins them).

    >>> joined_lines(["Amendments to", "Recordings"]), joined_lines(["記事からの", "発見"])
    ('Amendments to Recordings', '記事からの発見')
    >>> joined_lines(["like speaking—", "reading"]), joined_lines(["Notes –", "draft"])
    ('like speaking—reading', 'Notes – draft')
    """
    out: list[str] = []
    tail = ""  # the joined text's last two characters: all the rules read (linear in the lines)
    for text in texts:
        text = " ".join(text.split())
        cjk = bool(tail) and bool(CJK.match(tail[-1:]) and CJK.match(text[:1]))
        piece = text if cjk or not tail or _DASHED.search(tail) else f" {text}"
        out.append(piece)
        tail = (tail + piece)[-2:]
    return "".join(out)


#: A line that ends in a dash right after a word: the dash joins it to the next line's word.
_DASHED = re.compile(r"\w[—–]$")


#: A form's part numbered with its section's letter and a number in brackets: ``A(1)``,
#: ``B(12):``, or the number alone in brackets: ``(1) Ethnic Origin``.
_FORM_PART = re.compile(r"\s*[A-Z]?\(\d{1,2}\)[:.]?\s")


def form_part(text: str) -> bool:
    """The line opens with a form's part number (``A(1) Personal details``, ``(1) Ethnic
    Origin``): numbered, though ``section_number`` does not read it. ONLYOFFICE's sample form
    sets ``SECTION A: ...``, ``A(1) Personal details`` and a field group's label one under the
    other; taken for a run of three unnumbered labels, all three went.

    >>> form_part("A(1) Personal details"), form_part("A(5): Previous study")
    (True, True)
    >>> form_part("Name (this should be your legal name)"), form_part("(see below)")
    (False, False)
    """
    return _FORM_PART.match(text) is not None


_FORM_TITLE_WORDS = 10  # words a form part's title ending in a full stop has at most


def _form_part_title(text: str) -> bool:
    """A form's numbered part titled with a full stop at its end, short: no sentence
    (ONLYOFFICE's sample form: ``A(7) English Language Proficiency.``, ``A(12) Names and
    addresses of your academic referees.``).

    >>> _form_part_title("A(7) English Language Proficiency.")
    True
    >>> _form_part_title("A(2) Please write very clearly, we will use email to write to you.")
    False
    """
    return form_part(text) and words(text) <= _FORM_TITLE_WORDS


def chapter_start(
    page: Page, i: int, count: int, skip: set[Key], taken: set[int] | None = None
) -> tuple[int, int]:
    """A ``Chapter 1`` line right above a heading opens it: (first line, lines)."""
    if i == 0 or (page.index, i - 1) in skip or (taken is not None and i - 1 in taken):
        return i, count
    if not _CHAPTER.match(page.lines[i - 1].text.strip()):
        return i, count
    if form_part(page.lines[i].text):
        return i, count  # ``SECTION B`` over ``B(1) Next of kin``: a part of its own
    return i - 1, count + 1


#: A chapter's label and number opening a heading: ``Chapter 2 Installation``, ``Part 3``,
#: ``Chapter 2: Warranty`` (Word's manuals put a colon after the number).
_CHAPTER_NUMBER = re.compile(r"^(?:chapter|part)\s+(\d{1,3})(?:[:.]?\s|[:.]?$)", re.I)


def chapter_number(text: str) -> tuple[str, ...] | None:
    """``Chapter 2`` numbers its heading 2, one level over the ``2.1`` sections it holds
    (rinohtype sets ``Chapter 1 One`` and ``1.1 Section A`` in one type: by type alone they were
    one level; a printed Word manual sets ``Chapter 2: Consumer Hardware Warranty Policy`` and
    ``2.1 Standard Warranty Coverage`` in one bold body type).

    >>> chapter_number("Chapter 2 Installation"), chapter_number("Chapters of the guide")
    (('2',), None)
    >>> chapter_number("Chapter 12: ESG"), chapter_number("Part 3."), chapter_number("Part 3x")
    (('12',), ('3',), None)
    """
    match = _CHAPTER_NUMBER.match(text)
    return (match.group(1),) if match else None


#: ``Page 48``, ``Page 468 and 469``: a line that is a page's number and nothing else.
_PAGE_REFERENCE = re.compile(r"^page\s+(\d{1,5})(?:\s*(?:and|to|-|\u2013)\s*\d{1,5})?$", re.I)


def page_reference(text: str) -> int | None:
    """The page a ``Page 48`` line names (its first, for ``Page 468 and 469``), else None.

    >>> page_reference("Page 468 and 469"), page_reference("Page 12 of 40")
    (468, None)
    """
    match = _PAGE_REFERENCE.match(text.strip())
    return int(match.group(1)) if match else None


def heading_like(line: Line, counts: Counter[str]) -> bool:
    text = line.text.strip()
    shown = text.replace(" ", "")
    if not line.uniform or line.spread:
        return False
    if len(text) > _MAX_CHARS or words(text) > _MAX_WORDS:
        return False
    if sum(c.isalpha() for c in shown) < max(2, len(shown) // 2) and not (
        _named_parts(text) or _named_by_model(text) or RELEASE.match(text) or section_mark(text)
    ):
        return False
    if text.endswith(_SENTENCE_END) and not (clause_title(text) or _form_part_title(text)):
        return False
    if _LEADERS.search(text) or CAPTION.match(text):
        return False
    if _CONTINUED.search(text) or DATE.match(text) or _VERSION.match(text):
        return False  # a table's title repeated; a date; a form's or a cover's version label
    if _PAGE_NUMBER.match(text) or (text.startswith("(") and text.endswith(")")):
        return False  # "PAGE 1" (furniture of a file too short to repeat it); a note in brackets
    if bracketed_note(text) or field_value(text):
        return False
    if _ROMAN_FOLIO.match(text):
        return False  # a front matter's page number alone on a page (rinohtype's "ii", "iv")
    if ITEM.match(text):
        return False  # a list item (a slide's bullets are set large and bold)
    if _glyph_samples(text) and section_number(text) is None:
        return False  # a font's samples shown large
    code = any(mark in text for mark in _CODE_MARKS) or _SIGNATURE.search(text)
    if code and section_number(text) is None:  # (3.7.2 Pde() is a numbered section)
        return False  # syntax: style=filled, { statement-list }, gsub(str : string, pat : string)
    return counts[normalised(text)] < REPEATED or section_number(text) is not None


_FIELD = re.compile(r"^(?P<label>[^:\d]{2,40}):\s+(?P<value>\S.*)$")
_AMOUNT = re.compile(r"^[\d.,:/\s-]*\d[\d.,:/\s-]*(?:[ap]\.?m\.?|uhr|h)?$", re.I)


def field_value(text: str) -> bool:
    """A label and its value on one line, the value a time, a date or a number: a form's or
    the minutes' field set bold (``Meeting Start Time: 01:10 PM`` under each meeting of
    mdesaibu's minutes, through Google Docs), not a heading. A numbered title's name after the
    colon stays one, and so does a label with a number (``Chapter 3: 1984``).

    >>> field_value("Meeting End Time: 01:30 PM"), field_value("Start: 10. November 2014")
    (True, True)
    >>> field_value("Phase 2: Programmierung"), field_value("Chapter 3: 1984")
    (False, False)
    """
    match = _FIELD.match(text)
    if match is None:
        return False
    value = match.group("value").strip()
    return bool(_AMOUNT.match(value) or DATE.match(value))


_NOTE_WORDS = 4  # words of a note in square brackets, at least (``[patch]`` is a name)


def bracketed_note(text: str) -> bool:
    """A sentence in square brackets is an editor's note, not a heading (cd-hit's guide:
    ``[CD-HIT-PARA is no longer supported, since the multi-threaded cd-hit become available.]``
    in bold); a bracketed name stays one (Cargo's ``[profile.*.panic]``).

    >>> bracketed_note("[You can skip this session if you are eager to use the programs]")
    True
    >>> bracketed_note("[patch]"), bracketed_note("[profile.*.panic]")
    (False, False)
    """
    return text.startswith("[") and text.endswith("]") and words(text) >= _NOTE_WORDS


#: A contract's clause title: its number, its name in capitals, a full stop (``1. DUTIES.``,
#: ``5. INDEMNIFICATION FOR DAMAGES, TAXES AND CONTRIBUTIONS.``).
_CLAUSE = re.compile(r"^\d{1,3}\.\s+[^\W\d_][^a-z]*[^\W\d_]\.$")
_CLAUSE_WORDS = 8


def clause_title(text: str) -> bool:
    """A numbered title in capitals that ends in a full stop, as a contract's clauses are set
    (``17. MODIFICATION OF AGREEMENT.``): the stop closes its name, not a sentence. A Word
    contract through Distiller lost 5 of its 12 clause headings to the stop.

    >>> clause_title("1. DUTIES."), clause_title("2. The parties agree."), clause_title("DUTIES.")
    (True, False, False)
    """
    return bool(_CLAUSE.match(text)) and words(text) <= _CLAUSE_WORDS


_NEXT_SENTENCE = re.compile(r"[^\W\d_]{3}[.!?] +[^\W\d_]")


def two_sentences(text: str) -> bool:
    """The text ends a sentence and starts another: a paragraph set in bold, not a heading
    (Word 2010's guide: ``Todos os campos com asterisco vermelho (*) são obrigatórios. Observe
    que existem três (3) guias, ...``). The stop must close a lower-case word of three letters
    or more and the next word start with a capital (``U.S. Army``, ``Fig. 3``, ``Inc. Annual``,
    ``Step 1. Install`` are one heading).

    >>> two_sentences("Todos os campos são obrigatórios. Observe que existem três guias")
    True
    >>> [two_sentences(t) for t in ("U.S. Army Corps", "Dr. No", "Step 1. Install", "Why? How")]
    [False, False, False, False]
    """
    return any(
        match.group()[:3].islower() and match.group()[-1].isupper()
        for match in _NEXT_SENTENCE.finditer(text)
    )


def _glyph_samples(text: str) -> bool:
    """A font's samples, not words: three or more of two letters at most (``ⵏⵏ ⵏⵏ ⵏⵏ``,
    ``ꪋꫂ ꪓꫂ ꪖꫂ ꪨꫂ``; not in Hangul or CJK, whose syllables are words), or five letters in the
    order of their code points (``ABCDEFGHIJKLMNOPQRSTUVWXYZ``, ``ᦔᦕᦖᦗᦘ``).

    >>> [_glyph_samples(t) for t in ("ⵏⵏ ⵏⵏ ⵏⵏ", "^_`abcdefghijk", "Q & A", "Basic Latin")]
    [True, True, False, False]
    """
    if CJK.search(text) or HANGUL.search(text):
        return False
    split = text.split()
    if len(split) >= _SAMPLES and all(len(word) <= _SAMPLE_CHARS for word in split):
        letters = [sum(unicodedata.category(c)[0] in "LM" for c in word) for word in split]
        lettered = [n for n in letters if n]
        if len(lettered) >= _SAMPLES and max(lettered) <= 2:
            return True
    for letters in _LETTER_RUN.findall(text):  # (only a run of five letters can be an alphabet)
        run = 1
        for before, char in itertools.pairwise(letters):
            run = run + 1 if ord(char) == ord(before) + 1 else 1
            if run >= _ALPHABET:
                return True
    return False


def goes_on(line: str, following: str) -> bool:
    """A heading line that the next one continues: it starts in lower case, or this one ends
    on a joining word or mark (``README: Instructions on`` / ``configuring and building``), or
    on a Japanese particle (``コンパラブルな新聞記事からの`` / ``固有表現の発見``)."""
    words = line.split()
    return (
        following[:1].islower()
        or line.endswith((",", "&", "-", "/"))
        or (bool(words) and words[-1].casefold() in _JOINING)
        or (line[-1:] in _CJK_JOINING and bool(CJK.match(following[:1])))
    )


def hangs(line: Line, following: Line) -> bool:
    """The next line is set in from this one by an em or more (a hanging indent, or the shorter
    second line of a centred title) after a line long enough to have wrapped (five words; the
    short centred lines of an address are lines of their own): the heading goes on there."""
    return following.left - line.left >= line.size and len(line.text.split()) >= _WRAPPED_WORDS


#: An address or a path: a URL, a backslash, a path from the root or home, a file in a folder.
_ADDRESS = re.compile(r"://|\bwww\.\w|\\|(?:^|\s)[~.]?/\w|\w/[\w%<>.-]*\.[A-Za-z]\w{0,3}\b")


#: A command line after a prompt: ``>> cd gcc``, ``$ make``, ``sim> boot rk0``, ``C:\> dir``.
_PROMPT = re.compile(r"^(?:>>|[\w:\\]{0,12}[>$%])\s")


#: The end of a line cut from its start (a diagram's ``: Geodetic Latitude``, a path's ``)``).
_CLOSING = tuple(")]}:;,")


def not_a_title(line: Line, code_body: bool) -> bool:
    """An unnumbered line that is code, not a heading, however bold or large: set in a
    monospaced font in a document whose text is not (a manual's command lines, keywords in an
    options table read column by column, ``rtklib_<ver>``, ``!UBX CFG-PRT ...``), an address or
    a path (``cddis.gsfc.nasa.gov/gps/products/%W/...``, ``<install dir>\\rtklib``), a command
    after its prompt (``>> cd gcc``), or a line that opens with closing punctuation: the rest of
    a line cut in two (``: Geocentric Latitude``, a diagram's label).

    >>> code = Line(0, "elmask", 9, 700, True, True, 100, 300, mono=True)
    >>> not_a_title(code, False), not_a_title(code, True)
    (True, False)
    >>> [not_a_title(Line(0, t, 9, 700, True, True, 100, 60), False)
    ...  for t in ("http://example.com/a", ">> cd gcc", ": Geodetic Latitude", "Input/Output")]
    [True, True, True, False]
    """
    text = line.text.strip()
    if section_number(text) is not None:
        return False
    return (
        (line.mono and not code_body)
        or bool(_ADDRESS.search(text) or _PROMPT.match(text))
        or text.startswith(_CLOSING)
    )


def section_mark(text: str) -> bool:
    """A regulation's article mark alone on its line, the article's heading though it has no
    word (``§ 1``, ``§ 12``, set bold and centred over the article's clauses in a Polish
    university's Regulamin Studiów, 36 of them, and in statutes and by-laws; the Federal
    Register's ``§ 39.13 [Amended]`` names its section in words as well). A ``§`` inside a
    sentence, or a number and a reference after it (``§ 5 Abs. 2``), is not one.

    >>> [section_mark(t) for t in ("§ 1", "§12", "§ 3a.", "§ 5 Abs. 2", "see § 4", "§")]
    [True, True, True, False, False, False]
    """
    return SECTION_MARK.match(text.strip()) is not None


def _named_parts(text: str) -> bool:
    """A title numbered as a section (``2.1``, ``2.1.1``) made mostly of part numbers has a word
    all the same (``2.1 2114C/2115A/2116C, 2100A, 1000-M/E/F CPUs``, ``2.1.1 CPU``): three
    letters running after the section number. Figures under a number (``1.5 2.0 3.5 mm``) have
    none.

    >>> _named_parts("2.1.1 CPU"), _named_parts("2.1 2114C/2115A, 1000-M/E/F CPUs")
    (True, True)
    >>> _named_parts("1.5 2.0 3.5 mm"), _named_parts("CPU"), _named_parts("30 Sep-2008")
    (False, False, False)
    """
    match = NUMBER.match(text)
    if match is None or "." not in match.group("number"):
        return False  # (``30 Sep-2008``: a date's day, not a chapter)
    return re.search(r"[^\W\d_]{3}", text[match.end() :]) is not None


def _named_by_model(text: str) -> bool:
    """A numbered title that names a system by its model, a word of two capitals or more with
    figures (``2.2 RT-11``, ``7 IBM 1401``, ``9 PDP-10 TOPS-10 7.03, TOPS-10 7.04``): fewer
    letters than figures, but a name all the same. Figures under a number (``1.5 2.0 3.5 mm``,
    ``3 10 15 20``) have no such word.

    >>> [_named_by_model(t) for t in ("2.2 RT-11", "7 IBM 1401", "2.2.2 RT-11 V5.3")]
    [True, True, True]
    >>> [_named_by_model(t) for t in ("1.5 2.0 3.5 mm", "3 10 15 20", "RT-11", "1995 AB-12")]
    [False, False, False, False]
    """
    match = NUMBER.match(text)
    if match is None or section_number(text) is None:
        return False
    name = text[match.end() :].split()
    return (
        bool(name)
        and _MODEL.match(name[0]) is not None
        and any(char.isdigit() for word in name for char in word)
    )
