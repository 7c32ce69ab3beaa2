"""bench/corpus.py's made files: a real producer's PDF written from a pinned source document,
checked by the source's sha256 and the PDF's page count (the producers write the time, so the
PDF's own bytes differ per run). The makers are replaced by a copy of a synthetic PDF here."""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path

import pytest
from pdf_maker import make_pdf

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_corpus_made", ROOT / "bench" / "corpus.py")
assert _spec is not None and _spec.loader is not None
corpus = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(corpus)
SOURCE = b"<html><body><h1>Title</h1><p>Text.</p></body></html>"


def _entry(pages: int, sha256: str | None = None) -> dict[str, str]:
    return {"name": "made/copy/doc.pdf", "source": "debian", "package": "p", "version": "1",
            "path": "usr/share/doc/p/doc.html", "made": "copy", "pages": str(pages),
            "sha256": sha256 or hashlib.sha256(SOURCE).hexdigest()}  # fmt: skip


@pytest.fixture
def copying_maker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A maker that 'prints' any source as a fixed two-page PDF."""
    pdf = tmp_path / "two.pdf"
    pdf.write_bytes(make_pdf([[("One.", "Times-Roman", 10)], [("Two.", "Times-Roman", 10)]]))
    command = [sys.executable, "-c", f"import shutil; shutil.copy({str(pdf)!r}, '{{out}}')"]
    monkeypatch.setitem(corpus.MAKERS, "copy", (command, "nothing to install"))
    return tmp_path


def test_a_made_file_is_written_from_its_checked_source(copying_maker: Path) -> None:
    target = copying_maker / "files" / "doc.pdf"
    corpus._make(_entry(2), SOURCE, target)
    assert corpus._pages(target) == 2


def test_a_made_file_of_another_page_count_is_an_error_naming_the_tool(
    copying_maker: Path,
) -> None:
    target = copying_maker / "files" / "doc.pdf"
    with pytest.raises(corpus.CorpusError, match="copy wrote 2 pages, the truth's 3"):
        corpus._make(_entry(3), SOURCE, target)
    assert not target.exists()


def test_a_source_that_does_not_hash_to_the_manifest_is_refused(copying_maker: Path) -> None:
    with pytest.raises(corpus.CorpusError, match="does not hash"):
        corpus._make(_entry(2, sha256="0" * 64), SOURCE, copying_maker / "doc.pdf")


def test_an_unknown_maker_is_a_manifest_error(copying_maker: Path) -> None:
    entry = {**_entry(2), "made": "nonesuch"}
    with pytest.raises(corpus.ManifestError, match="no maker 'nonesuch'"):
        corpus._make(entry, SOURCE, copying_maker / "doc.pdf")
