"""Plain text's numbered titles beyond one-line paragraphs of digits (issue 34, sixth pass):
appendices numbered by letters, and titles wrapped onto the paragraph before them. Each is read
only where the document's own numbering vouches for it; the Debian constitution's versions
(``evaluation_sets/charters``) are the real files these rules were built from. And a text file
read as Markdown for its lists whose ``#`` comment blocks were headings (ICU's ``icu.txt``)."""

from __future__ import annotations

from skills.chunking import ChunkOptions, chunk_document, document_sections

SMALL = ChunkOptions(parent_max_tokens=64, child_max_tokens=32)
BODY = "   The body of this section says what it must, in words of its own.\n"


def _titles(text: str) -> list[tuple[int, str]]:
    return [(s.depth, s.title) for s in document_sections(text, format="text")]


def _section(number: str, title: str, gap: str = "\n") -> str:
    return f"{gap}{number} {title}\n\n{BODY}"


def _document(sections: list[tuple[str, str]]) -> str:
    return "".join(_section(n, t, gap="\n" if i else "") for i, (n, t) in enumerate(sections))


CONSTITUTION = (
    _section("1.", "Introduction", gap="")
    + _section("2.", "Bodies")
    + _section("  2.1.", "General rules")
    + _section("3.", "Developers")
    + _section("A.", "Standard Resolution Procedure")
    + _section("  A.1.", "Proposal")
    + _section("  A.2.", "Discussion")
    + _section("B.", "Use of language")
)


def test_an_appendix_numbered_by_letters_opens_its_own_sections() -> None:
    assert _titles(CONSTITUTION) == [
        (1, "1. Introduction"),
        (1, "2. Bodies"),
        (2, "2.1. General rules"),
        (1, "3. Developers"),
        (1, "A. Standard Resolution Procedure"),
        (2, "A.1. Proposal"),
        (2, "A.2. Discussion"),
        (1, "B. Use of language"),
    ]


def test_an_appendix_child_says_it_is_in_the_appendix_not_the_last_section() -> None:
    result = chunk_document(CONSTITUTION, format="text", options=SMALL)
    leaf = next(leaf for leaf in result.leaves if "A.2. Discussion" in leaf.headings)
    assert leaf.headings == ("A. Standard Resolution Procedure", "A.2. Discussion")


def test_letters_out_of_order_open_nothing() -> None:
    """A transcript's answers and questions (``A. Yes.`` ... ``Q. And then?``) are no outline."""
    answers = _document(
        [
            ("1.", "Opening"),
            ("2.", "Questions"),
            ("3.", "Answers"),
            ("Q.", "Were you there"),
            ("A.", "Yes I was there"),
            ("A.", "Every day"),
        ]
    )
    assert all(not title.startswith(("Q.", "A.")) for _, title in _titles(answers))
    skipped = _document([("1.", "One"), ("2.", "Two"), ("3.", "Three"), ("B.", "Bee")])
    assert _titles(skipped)[-1] == (1, "3. Three")
    orphan = _document([("1.", "One"), ("2.", "Two"), ("3.", "Three"), ("A.1.", "Sub")])
    assert _titles(orphan)[-1] == (1, "3. Three")


def test_a_letter_without_its_dot_is_prose() -> None:
    text = _document([("1.", "One"), ("2.", "Two"), ("3.", "Three")])
    assert _titles(text + "\nA Short Closing Line\n\n" + BODY)[-1] == (1, "3. Three")


WRAPPED = (
    _section("1.", "Introduction", gap="")
    + _section("2.", "Bodies")
    + _section("  2.1.", "Powers")
    + "\n   3. Developers\n\n"
    + BODY
    + "   Developers may make these decisions as they see fit.\n"
    + "   4. The Developers by way of General Resolution\n\n"
    + BODY
    + "   The Leader should avoid overemphasizing their own view.\n"
    + "   A. Standard Resolution Procedure\n\n"
    + BODY
)


def test_a_title_wrapped_onto_its_paragraph_opens_a_section_when_it_continues_the_numbering() -> (
    None
):
    assert _titles(WRAPPED)[-3:] == [
        (1, "3. Developers"),
        (1, "4. The Developers by way of General Resolution"),
        (1, "A. Standard Resolution Procedure"),
    ]
    result = chunk_document(WRAPPED, format="text", options=SMALL)
    last = result.leaves[-1]
    assert last.headings == ("A. Standard Resolution Procedure",)


def test_a_wrapped_title_after_a_one_line_paragraph_reads_that_line_only() -> None:
    """The line before the title is the paragraph's own first line, not the document's: here
    the document opens with a numbered title, which must not make the line before look
    numbered."""
    text = (
        _section("1.", "One", gap="")
        + _section("2.", "Two")
        + _section("3.", "Three")
        + "\n   The last rule is short.\n   4. Four\n\n"
        + BODY
    )
    assert _titles(text)[-1] == (1, "4. Four")


def test_a_wrapped_line_that_does_not_continue_the_numbering_is_no_title() -> None:
    jump = WRAPPED.replace("   4. The Developers", "   6. The Developers")
    assert (1, "6. The Developers by way of General Resolution") not in _titles(jump)


def test_a_list_s_last_item_is_no_title() -> None:
    """``4. Keep it.`` after ``3. Read it.`` continues 3 but ends a list, not a paragraph of
    prose: the line before it is numbered."""
    text = (
        _section("1.", "One", gap="")
        + _section("2.", "Two")
        + _section("3.", "Three")
        + "\n   Rules.\n   3. Read it.\n   4. Keep it.\n"
    )
    assert _titles(text)[-1] == (1, "3. Three")


def test_a_wrapped_sentence_that_reaches_a_number_is_no_title() -> None:
    """The line before must end a sentence: ``... as said in section`` / ``4. Then ...`` is
    one sentence wrapped."""
    text = WRAPPED.replace(
        "   Developers may make these decisions as they see fit.\n",
        "   Developers decide as described in section\n",
    )
    assert (1, "4. The Developers by way of General Resolution") not in _titles(text)


ICU = """\
ICU License - ICU 1.8.1 and later

COPYRIGHT AND PERMISSION NOTICE

Third-Party Software Licenses

 # The Google Chrome software developed by Google is licensed under
 # the BSD license. Other software included in this distribution is
 # provided under other licenses, as set forth below.
 #
 #  * Libtabe (Chinese)
 #    - Its license terms and conditions are shown below.
 #
 #  * IPADIC (Japanese)
 #    - Its license terms and conditions are shown below.

# Closing words

The end.
"""


def test_a_block_of_hash_comments_is_text_not_headings() -> None:
    """A license quoted as shell comments in a text file read as Markdown (ICU's ``icu.txt``,
    ``evaluation_sets/plain-texts``): three ``#`` lines in a row with a bare ``#`` among them
    are a comment, and each bare ``#`` parts its paragraphs; a heading on its own stays one."""
    result = chunk_document(ICU, document_key="icu.txt", options=SMALL)
    assert result.format == "markdown"
    assert [(s.depth, s.title) for s in document_sections(ICU, format="markdown")] == [
        (1, "Closing words")
    ]
    japanese = next(leaf for leaf in result.leaves if "IPADIC" in leaf.text)
    assert japanese.headings == ()
    assert japanese.text.lstrip().startswith("#  * IPADIC (Japanese)")
    assert "Libtabe" not in japanese.text


def test_headings_on_consecutive_lines_without_a_bare_hash_stay_headings() -> None:
    text = "# Title\n## Part\n### Chapter\n\nText.\n"
    assert [s.title for s in document_sections(text, format="markdown")] == [
        "Title",
        "Part",
        "Chapter",
    ]
