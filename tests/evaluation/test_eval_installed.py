"""Question sets over installed packages' files: reproducible, or refused with a clear error."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import tarfile
from pathlib import Path

import pytest

from skills.chunking import PageMap
from skills.evaluation import installed
from skills.evaluation.cracking import cracked_pages
from skills.evaluation.dataset import DatasetError

SETS = sorted(path for path in installed.SETS.iterdir() if (path / "manifest.json").is_file())


@pytest.mark.parametrize("folder", SETS, ids=[path.name for path in SETS])
def test_every_committed_set_loads_its_documents_and_locates_every_reference(
    folder: Path,
) -> None:
    try:
        dataset = installed.load_set(folder)
    except DatasetError as error:
        if "missing" in str(error):
            pytest.skip(f"packages not installed: {error}")
        raise
    assert dataset.questions
    for question in dataset.questions:
        assert dataset.reference_text(question)


def fake_set(tmp_path: Path, stored: bytes, hashed: bytes, name: str = "README.md") -> Path:
    root = tmp_path / "site"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / name).write_bytes(stored)
    folder = tmp_path / "set"
    folder.mkdir()
    entry = {"doc": f"pkg/{name}", "root": "site-packages", "path": f"pkg/{name}",
             "package": "pkg 1.0", "sha256": hashlib.sha256(hashed).hexdigest()}  # fmt: skip
    (folder / "manifest.json").write_text(json.dumps({"documents": [entry]}), encoding="utf-8")
    question = {"id": "q1", "question": "What?", "doc": f"pkg/{name}", "reference": "answer",
                "kind": "prose"}  # fmt: skip
    (folder / "questions.jsonl").write_text(json.dumps(question) + "\n", encoding="utf-8")
    return folder


def test_a_set_reads_its_documents_from_the_installed_packages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = fake_set(tmp_path, b"# Pkg\n\nThe answer.\n", b"# Pkg\n\nThe answer.\n")
    monkeypatch.setattr(installed, "roots", lambda: {"site-packages": tmp_path / "site"})
    dataset = installed.load_set(folder)
    assert dataset.reference_text(dataset.questions[0]) == "answer"


def test_another_version_of_a_document_is_refused_with_the_package_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = fake_set(tmp_path, b"# Pkg 2\n\nThe answer.\n", b"# Pkg\n\nThe answer.\n")
    monkeypatch.setattr(installed, "roots", lambda: {"site-packages": tmp_path / "site"})
    with pytest.raises(DatasetError, match=r"install pkg 1\.0"):
        installed.load_set(folder)


def test_an_html_document_is_hashed_as_shipped_and_read_as_its_converted_markdown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = b"<!doctype html><html><body><h2>Pkg</h2><p>The <em>answer</em>.</p></body></html>"
    folder = fake_set(tmp_path, page, page, name="index.html")
    monkeypatch.setattr(installed, "roots", lambda: {"site-packages": tmp_path / "site"})
    dataset = installed.load_set(folder)
    assert dataset.documents["pkg/index.html"] == "## Pkg\n\nThe *answer*.\n"
    assert dataset.reference_text(dataset.questions[0]) == "answer"


def registry_set(tmp_path: Path, stored: bytes) -> Path:
    folder = tmp_path / "set"
    folder.mkdir()
    entry = {"doc": "talk/1941.txt", "root": "registry", "source": "npm", "name": "@x/talks",
             "version": "1.0", "path": "package/data/1941.txt", "package": "@x/talks 1.0 (npm)",
             "sha256": hashlib.sha256(stored).hexdigest()}  # fmt: skip
    (folder / "manifest.json").write_text(json.dumps({"documents": [entry]}), encoding="utf-8")
    question = {"id": "q1", "question": "Which freedoms?", "doc": "talk/1941.txt",
                "reference": "four essential human freedoms", "kind": "prose"}  # fmt: skip
    (folder / "questions.jsonl").write_text(json.dumps(question) + "\n", encoding="utf-8")
    return folder


def test_a_registry_document_is_read_from_its_unpacked_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    speech = b"We look forward to a world founded upon four essential human freedoms."
    folder = registry_set(tmp_path, speech)
    cache = tmp_path / "cache"
    unpacked = cache / "npm" / "@x+talks-1.0" / "package" / "data"
    unpacked.mkdir(parents=True)
    (unpacked / "1941.txt").write_bytes(speech)
    monkeypatch.setattr(installed, "roots", lambda: {"registry": cache})
    dataset = installed.load_set(folder)
    assert dataset.reference_text(dataset.questions[0]) == "four essential human freedoms"


def test_a_registry_package_not_fetched_yet_is_missing_with_the_command_that_fetches_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = registry_set(tmp_path, b"anything")
    monkeypatch.setattr(installed, "roots", lambda: {"registry": tmp_path / "empty"})
    with pytest.raises(
        DatasetError, match=r"missing; run python -m skills\.evaluation\.installed --fill"
    ):
        installed.load_set(folder)


def test_fill_fetches_each_package_once_and_unpacks_it_where_loading_looks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    speech = b"We look forward to a world founded upon four essential human freedoms."
    folder = registry_set(tmp_path, speech)
    fetched: list[str] = []

    def download(entry: dict[str, str], into: Path) -> Path:
        fetched.append(entry["name"])
        archive = into / "talks-1.0.tgz"
        with tarfile.open(archive, "w:gz") as bundle:
            info = tarfile.TarInfo("package/data/1941.txt")
            info.size = len(speech)
            bundle.addfile(info, io.BytesIO(speech))
        return archive

    monkeypatch.setattr(installed, "_download", download)
    monkeypatch.setattr(installed, "roots", lambda: {"registry": tmp_path / "cache"})
    assert len(installed.fill(folder)) == 1
    assert installed.fill(folder) == []
    assert fetched == ["@x/talks"]
    assert installed.load_set(folder).questions[0].id == "q1"


def test_a_gzipped_document_is_hashed_and_read_unzipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    speech = b"We look forward to a world founded upon four essential human freedoms."
    folder = registry_set(tmp_path, speech)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    manifest["documents"][0]["path"] = "package/data/1941.txt.gz"
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    unpacked = tmp_path / "cache" / "npm" / "@x+talks-1.0" / "package" / "data"
    unpacked.mkdir(parents=True)
    (unpacked / "1941.txt.gz").write_bytes(gzip.compress(speech))
    monkeypatch.setattr(installed, "roots", lambda: {"registry": tmp_path / "cache"})
    dataset = installed.load_set(folder)
    assert dataset.documents["talk/1941.txt"] == speech.decode()


def test_a_pdf_of_a_set_comes_with_its_cracked_text_for_the_built_in_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runbook = Path(__file__).parents[1] / "formats" / "fixtures" / "operations-runbook.pdf"
    folder = fake_set(tmp_path, runbook.read_bytes(), runbook.read_bytes(), name="runbook.pdf")
    question = {"id": "q1", "question": "Who reads it?", "doc": "pkg/runbook.pdf",
                "reference": "on-call engineer of the document", "kind": "prose"}  # fmt: skip
    (folder / "questions.jsonl").write_text(json.dumps(question) + "\n", encoding="utf-8")
    monkeypatch.setattr(installed, "roots", lambda: {"site-packages": tmp_path / "site"})
    dataset = installed.load_set(folder)
    assert dataset.cracked["pkg/runbook.pdf"].startswith("Operations runbook: document ingestion")
    assert dataset.documents["pkg/runbook.pdf"].startswith("# Operations runbook")


PAGED = [folder for folder in SETS if '"page"' in (folder / "questions.jsonl").read_text()]


@pytest.mark.parametrize("folder", PAGED, ids=[path.name for path in PAGED])
def test_every_recorded_page_holds_its_answer_in_the_pdf(folder: Path) -> None:
    """A question's ``page`` is checked on the PDF itself (PDFium's text of that page, words
    only), not on any converter's output: the page truth the page metric is scored with."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    pages: dict[str, list[str]] = {}
    for entry in manifest["documents"]:
        path = installed.location(entry, installed.roots())
        if not path.is_file():
            pytest.skip(f"{entry['package']} not fetched")
        data, _ = installed.unzipped(path.read_bytes(), entry["path"])
        pages[entry["doc"]] = [words(page) for page in cracked_pages(data)]
    for line in (folder / "questions.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        on = [
            n
            for n, page in enumerate(pages[record["doc"]], 1)
            if words(record["reference"]) in page
        ]
        assert on == [record["page"]], record["id"]


def words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.replace("-\n", ""))).casefold()


@pytest.mark.parametrize("folder", PAGED, ids=[path.name for path in PAGED])
def test_the_skill_cites_the_recorded_page_for_every_answer(folder: Path) -> None:
    """The pages a chunk carries come from the converter's page breaks (``PageMap``): every
    passage that holds a reference also names the page the question records, so each answer
    a prompt holds comes with a right page to cite (the built-in path's pages name none)."""
    try:
        dataset = installed.load_set(folder)
    except DatasetError as error:
        pytest.skip(f"packages not installed: {error}")
    recorded = {
        record["id"]: record["page"]
        for record in map(json.loads, (folder / "questions.jsonl").read_text().splitlines())
    }
    for question in dataset.questions:
        [reference] = question.references
        pages = PageMap(dataset.documents[question.doc]).pages(reference.start, reference.end)
        assert pages[:1] == (recorded[question.id],), question.id


@pytest.mark.parametrize("folder", PAGED, ids=[path.name for path in PAGED])
def test_each_pdf_has_the_pages_and_bookmarks_its_manifest_records(folder: Path) -> None:
    """The shape a set claims is the file's own, read by PDFium: its page count, and its outline
    where the manifest records one (the word PDFs: none, as Word writes by default)."""
    import pypdfium2 as pdfium

    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    for entry in manifest["documents"]:
        path = installed.location(entry, installed.roots())
        if not path.is_file():
            pytest.skip(f"{entry['package']} not fetched")
        data, _ = installed.unzipped(path.read_bytes(), entry["path"])
        pdf = pdfium.PdfDocument(data)
        try:
            assert len(pdf) == entry["pages"], entry["doc"]
            if "bookmarks" in entry:
                assert len(list(pdf.get_toc(max_depth=16))) == entry["bookmarks"], entry["doc"]
        finally:
            pdf.close()
