"""Conversion speed, memory and package size of the file formats (docs/performance.md).

For each format the skill converts, the committed fixture (tests/formats/fixtures/) is scaled up
to a few MB (PDF pages imported again, a workbook of many rows, a page or a Word body repeated,
slides added), then converted in a fresh process: the best of ``--repeats`` runs gives MB/s and
pages/s (PDF pages, slides, sheets; HTML and Word have no pages), and the peak resident memory
above the process's baseline (libraries imported, file read) gives MB of memory per MB of input.
The PDF text extraction of PDFium is compared with pypdf's and pdfminer.six's on the same file,
when those are installed (bench/requirements.txt). The package size is the installed size of the
Function App's runtime requirements (requirements.txt and what they require) with and without
the converters' packages.

    python bench/formats.py              # a Markdown table; bench/results/formats.json
    python bench/formats.py --scale 0.2  # smaller inputs, for a quick look
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import re
import resource
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FIXTURES = ROOT / "tests" / "formats" / "fixtures"
DEFAULT_JSON = ROOT / "bench" / "results" / "formats.json"
#: the packages the converters add to requirements.txt
CONVERTER_PACKAGES = (
    "beautifulsoup4", "markdownify", "lxml", "python-pptx", "openpyxl", "pypdfium2",
)  # fmt: skip


# --- scaled inputs ------------------------------------------------------------------------


def big_pdf(scale: float) -> bytes:
    import pypdfium2 as pdfium

    source = pdfium.PdfDocument(FIXTURES / "operations-runbook.pdf")
    out = pdfium.PdfDocument.new()
    for _ in range(max(1, int(40 * scale))):
        out.import_pages(source)
    buffer = io.BytesIO()
    out.save(buffer)
    return buffer.getvalue()


def big_html(scale: float) -> bytes:
    page = (FIXTURES / "widget-api-guide.html").read_text(encoding="utf-8")
    head, _, rest = page.partition("<body>")
    body, _, tail = rest.partition("</body>")
    return (head + "<body>" + body * max(1, int(150 * scale)) + "</body>" + tail).encode("utf-8")


def big_docx(scale: float) -> bytes:
    """The Word fixture with its body repeated (the section properties kept once, at the end)."""
    source = zipfile.ZipFile(FIXTURES / "widget-api-guide.docx")
    xml = source.read("word/document.xml").decode("utf-8")
    start = xml.index(">", xml.index("<w:body")) + 1
    end = xml.rindex("<w:sectPr")
    body = xml[start:end]
    xml = xml[:start] + body * max(1, int(150 * scale)) + xml[end:]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = (
                xml.encode("utf-8") if item.filename == "word/document.xml" else source.read(item)
            )
            target.writestr(item, data)
    return out.getvalue()


def tables_docx(scale: float) -> bytes:
    """A generated report of sections of a heading, a sentence and a 12-by-6 table: 12.6 MB of
    body XML at scale 1, the shape of the 474 KB file of issue 31 that mammoth read in 29 s."""
    from tests.formats.office_xml import tables_docx as report

    return report(int(12.6 * 2**20 * scale))


def big_pptx(scale: float) -> bytes:
    from pptx import Presentation

    deck = Presentation(str(FIXTURES / "widget-api-guide.pptx"))
    originals = list(deck.slides)
    for _ in range(max(1, int(30 * scale))):
        for slide in originals:
            copy_of = deck.slides.add_slide(slide.slide_layout)
            for shape in list(copy_of.shapes):
                shape._element.getparent().remove(shape._element)
            for shape in slide.shapes:
                copy_of.shapes._spTree.append(copy.deepcopy(shape._element))
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def big_xlsx(scale: float) -> bytes:
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    for number in range(4):
        sheet = book.create_sheet(f"errors-{number}")
        sheet.append(["Code", "Component", "Severity", "First action"])
        for row in range(int(25_000 * scale)):
            sheet.append(
                [f"E{row:05d}", "indexer", "medium", "Restart the worker pool and watch it."]
            )
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


INPUTS: dict[str, tuple[str, Callable[[float], bytes]]] = {
    "pdf": ("doc.pdf", big_pdf),
    "docx": ("doc.docx", big_docx),
    "docx-tables": ("tables.docx", tables_docx),
    "pptx": ("doc.pptx", big_pptx),
    "xlsx": ("doc.xlsx", big_xlsx),
    "html": ("doc.html", big_html),
}


# --- one measurement, in a fresh process ---------------------------------------------------


def _rss_kb() -> int:
    """The process's resident memory now, in KiB (Linux)."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() // 1024


def child(fmt: str, path: Path, repeats: int) -> dict[str, float]:
    """Convert ``path`` ``repeats`` times; best time, pages, and peak memory above baseline."""
    from skills.formats.conversion import Limits
    from skills.formats.read import read_file

    data = path.read_bytes()
    read_file(b"# warm", "warm.md")
    for module in ("bs4", "lxml.etree", "markdownify", "openpyxl", "pptx", "pypdfium2"):
        __import__(module)  # imported before the baseline: their code is not the input's cost

    baseline = _rss_kb()
    peak = [baseline]
    done = threading.Event()

    def sample() -> None:  # resident memory every 5 ms: C libraries' memory counts too
        while not done.wait(0.005):
            peak[0] = max(peak[0], _rss_kb())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    best = float("inf")
    text = ""
    for _ in range(repeats):
        started = time.perf_counter()
        text = read_file(  # in this process: its memory is the converter's
            data, INPUTS[fmt][0], limits=Limits(max_pages=100_000), isolated=False
        ).text
        best = min(best, time.perf_counter() - started)
    done.set()
    sampler.join()
    pages = text.count("<!-- PageBreak -->") + 1 if fmt in ("pdf", "pptx", "xlsx") else 0
    mb = len(data) / 2**20
    xml_mb = _body_xml_mb(data) if fmt.startswith("docx") else 0.0
    per_xml = {
        "xml_mb": round(xml_mb, 2),
        "seconds_per_xml_mb": round(best / xml_mb, 3),
        "peak_mb_per_xml_mb": round((peak[0] - baseline) / 1024 / xml_mb, 1),
    } if xml_mb else {}  # fmt: skip
    return {
        **per_xml,
        "input_mb": round(mb, 2),
        "markdown_mb": round(len(text.encode("utf-8")) / 2**20, 2),
        "seconds": round(best, 3),
        "mb_per_s": round(mb / best, 2),
        "pages": pages,
        "pages_per_s": round(pages / best, 1) if pages else 0.0,
        "markdown_mb_per_s": round(len(text.encode("utf-8")) / 2**20 / best, 2),
        "peak_mb_per_input_mb": round((peak[0] - baseline) / 1024 / mb, 1),
    }


def _body_xml_mb(data: bytes) -> float:
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        return package.getinfo("word/document.xml").file_size / 2**20


def pdf_peers(path: Path) -> dict[str, float]:
    """Seconds to extract the text of every page with each PDF library installed."""
    out: dict[str, float] = {}

    def timed(name: str, run: Callable[[], object]) -> None:
        started = time.perf_counter()
        run()
        out[name] = round(time.perf_counter() - started, 3)

    import pypdfium2 as pdfium

    timed(
        "pypdfium2", lambda: [p.get_textpage().get_text_range() for p in pdfium.PdfDocument(path)]
    )
    try:
        import pypdf

        timed("pypdf", lambda: [p.extract_text() for p in pypdf.PdfReader(path).pages])
    except ImportError:
        pass
    try:
        from pdfminer.high_level import extract_pages

        timed("pdfminer.six", lambda: list(extract_pages(path)))
    except ImportError:
        pass
    return out


# --- package size ----------------------------------------------------------------------------


def installed_mb(names: set[str]) -> float:
    total = 0
    for name in names:
        dist = metadata.distribution(name)
        total += sum(f.size or 0 for f in dist.files or [])
    return round(total / 2**20, 1)


def closure(roots: list[str]) -> set[str]:
    """The distributions ``roots`` need at run time (their requirements, markers evaluated)."""
    from packaging.requirements import Requirement

    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop().lower().replace("_", "-")
        if name in seen:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        seen.add(name)
        for line in dist.requires or []:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return seen


def runtime_roots() -> list[str]:
    lines = (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    names = [re.split(r"[=<>!~\s#]", line.strip(), maxsplit=1)[0] for line in lines]
    return [name for name in names if name and not name.startswith(("#", "-"))]


def package_sizes() -> dict[str, float]:
    roots = runtime_roots()
    before = closure([r for r in roots if r not in CONVERTER_PACKAGES])
    after = closure(roots)
    return {
        "before_mb": installed_mb(before),
        "after_mb": installed_mb(after),
        "added": sorted(after - before),  # type: ignore[dict-item]
    }


# --- main ---------------------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="input size factor")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    parser.add_argument("--child", nargs=2, metavar=("FORMAT", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child[0], Path(args.child[1]), args.repeats)))
        return 0
    import tempfile

    results: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as folder:
        for fmt, (name, make) in INPUTS.items():
            path = Path(folder) / name
            path.write_bytes(make(args.scale))
            command = [sys.executable, __file__, "--repeats", str(args.repeats)]
            completed = subprocess.run(
                [*command, "--child", fmt, str(path)], capture_output=True, text=True, check=True
            )
            results[fmt] = json.loads(completed.stdout)
            if fmt == "pdf":
                results["pdf_text_extraction_seconds"] = pdf_peers(path)
    results["package"] = package_sizes()
    print("| format | input MB | MB/s | Markdown MB/s | pages | pages/s | peak MB per input MB |")
    print("|---|---|---|---|---|---|---|")
    for fmt in INPUTS:
        r = results[fmt]
        assert isinstance(r, dict)
        print(f"| {fmt} | {r['input_mb']} | {r['mb_per_s']} | {r['markdown_mb_per_s']} "
              f"| {r['pages'] or '-'} "
              f"| {r['pages_per_s'] or '-'} | {r['peak_mb_per_input_mb']} |")  # fmt: skip
    for fmt in ("docx", "docx-tables"):
        r = results[fmt]
        assert isinstance(r, dict)
        print(f"{fmt}: {r['xml_mb']} MB of body XML, {r['seconds_per_xml_mb']} s and "
              f"{r['peak_mb_per_xml_mb']} MB of memory per MB of XML")  # fmt: skip
    print(json.dumps({k: results[k] for k in ("pdf_text_extraction_seconds", "package")}, indent=2))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
