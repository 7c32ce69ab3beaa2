"""The built-in path's text: a PDF cracked page by page, and its pages placed in the converted
text by their words, so the emulated Text Split is judged on the same references as our chunks."""

from __future__ import annotations

from pathlib import Path

from skills.evaluation.baselines import text_split
from skills.evaluation.cracking import Alignment, cracked_pages, cracked_text
from skills.evaluation.dataset import read_document

RUNBOOK = Path(__file__).parents[1] / "formats" / "fixtures" / "operations-runbook.pdf"


def test_a_pdf_is_cracked_to_its_pages_plain_text_without_markup() -> None:
    data = RUNBOOK.read_bytes()
    pages = cracked_pages(data)
    text = cracked_text(data, "runbook.pdf")
    assert len(pages) == 12
    assert text == "\n".join(pages)
    assert text.startswith("Operations runbook: document ingestion\nThis runbook")
    assert "\r" not in text
    assert "#" not in text


def test_only_a_pdf_has_a_cracked_text_of_its_own() -> None:
    assert cracked_text(b"# Title\n", "notes.md") is None


def test_a_page_lands_on_the_converted_span_holding_its_words() -> None:
    cracked = "Chapter 2   7\nThe queue depth grows.\nScale out the consumers.\n"
    converted = "## Queue\n\nThe queue depth grows.\n\n- Scale out the consumers.\n"
    alignment = Alignment.of(cracked, converted)
    located = alignment.span(cracked.index("The"), len(cracked))
    assert located is not None
    start, end = located
    assert converted[start:end].strip() == "The queue depth grows.\n\n- Scale out the consumers."


def test_a_word_cut_by_the_page_edge_is_not_on_the_page() -> None:
    text = "alpha beta gamma"
    alignment = Alignment.identity(text)
    assert alignment.span(2, 16) == (5, 16)  # "pha" is cut: the span starts at " beta"
    assert alignment.span(1, 4) is None


def test_every_text_split_page_of_a_real_pdf_lands_on_its_own_words() -> None:
    data = RUNBOOK.read_bytes()
    converted, _ = read_document(data, "runbook.pdf")
    cracked = cracked_text(data, "runbook.pdf")
    chunks = text_split("runbook.pdf", converted, cracked)
    assert len(chunks.leaves) >= 10
    assert not chunks.warnings
    for leaf in chunks.leaves:
        located = converted[leaf.span.start : leaf.span.end]
        page_words = set(leaf.embed_text.split())
        words = [word for word in located.split() if word.strip("|-")]  # no table syntax
        shared = [word for word in words if word in page_words]
        assert len(shared) >= 0.9 * len(words)
