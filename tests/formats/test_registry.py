"""The format registry is the one list of formats: every place that lists them agrees with it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from skills.chunking import SUFFIX_FORMATS, detect_format
from skills.evaluation.dataset import load_documents
from skills.formats.registry import (
    FORMATS,
    SUFFIXES,
    TEXT_SUFFIXES,
    by_content_type,
    by_name,
    document_suffixes,
    indexed_extensions,
    markdown_table,
)
from skills.local.chunk import iter_documents
from skills.local.demo import sample_files
from skills.search.settings import MODES, Mode, SearchSettings, indexed_formats
from skills.search.templates import render

PROJECT = Path(__file__).resolve().parents[2]
SUFFIX = re.compile(r"(?<![\w/-])\.([a-z]{2,9})\b")


def test_every_suffix_the_engine_reads_is_registered_with_its_markup() -> None:
    for suffix, markup in SUFFIX_FORMATS.items():
        fmt = by_name(f"doc.{suffix}")
        assert fmt is not None and fmt.markup is markup
        assert detect_format("", f"doc.{suffix}") is markup


def test_names_and_content_types_find_their_format_whatever_the_case() -> None:
    for fmt in FORMATS:
        for suffix in fmt.suffixes:
            assert by_name(f"https://a.blob.core.windows.net/c/Doc{suffix.upper()}") is fmt
        for content_type in fmt.content_types:
            assert by_content_type(f"{content_type.upper()}; charset=utf-8") is fmt
    assert by_name("no-suffix") is None and by_content_type("application/x-unknown") is None


@pytest.mark.parametrize("mode", MODES)
def test_each_indexer_picks_up_exactly_its_modes_formats(mode: Mode) -> None:
    indexer = render(mode, SearchSettings()).indexer
    configuration = indexer["parameters"]["configuration"]
    configured = set(configuration["indexedFileNameExtensions"].split(","))
    if mode in ("embedded", "reference"):
        assert configured == TEXT_SUFFIXES and configuration["parsingMode"] == "text"
    elif mode == "files":
        assert configured == SUFFIXES and configuration["allowSkillsetToReadFileData"] is True
    else:
        assert configured == document_suffixes(indexed_formats("layout")) < SUFFIXES
    assert configuration["indexedFileNameExtensions"] == indexed_extensions(indexed_formats(mode))


def test_every_folder_walk_finds_a_file_of_every_suffix_it_reads(tmp_path: Path) -> None:
    for suffix in sorted(SUFFIXES):
        (tmp_path / f"doc{suffix.upper() if suffix == '.md' else suffix}").write_text("# Hi\n")
    (tmp_path / "archive.zip").write_bytes(b"PK")
    text = {p.name for p in tmp_path.iterdir() if p.suffix.lower() in TEXT_SUFFIXES}
    assert len(text) == len(TEXT_SUFFIXES)
    assert {p.name for p in iter_documents([tmp_path])} == {
        p.name for p in tmp_path.iterdir() if p.suffix != ".zip"
    }
    assert {p.name for p in sample_files(tmp_path)} == text
    assert set(load_documents(tmp_path)) == text


def test_the_docs_table_is_the_registry() -> None:
    doc = (PROJECT / "docs" / "formats.md").read_text(encoding="utf-8")
    table = doc.split("<!-- formats-table:start -->\n", 1)[1].split("<!-- formats-table:end -->")[0]
    assert table == markdown_table(), "regenerate the table in docs/formats.md"


def test_a_doc_that_names_a_formats_suffix_names_all_of_them() -> None:
    """A paragraph listing ``.md`` and ``.rst`` but not ``.mdx`` has drifted from the registry."""
    docs = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]
    for doc in docs:
        for paragraph in doc.read_text(encoding="utf-8").split("\n\n"):
            named = {f".{s}" for s in SUFFIX.findall(paragraph)}
            for fmt in FORMATS:
                if len(named & set(fmt.suffixes)) and len(named) > 1:
                    missing = set(fmt.suffixes) - named
                    assert not missing, f"{doc.name}: {paragraph[:80]!r} lacks {sorted(missing)}"
