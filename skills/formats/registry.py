"""The one list of file formats: what a file is called, how it is read, what markup it becomes.

Every place that needs to know which files are documents derives it from :data:`FORMATS`: the
command line walks folders for :data:`SUFFIXES`, the demo, the evaluation and the bench for
:data:`TEXT_SUFFIXES`, the search side renders each mode's formats into its indexer's
``indexedFileNameExtensions`` (``skills.search.settings.indexed_formats``), the skill reads a file
through :func:`skills.formats.read.read_file`, and ``docs/formats.md`` shows
:func:`markdown_table`. ``tests/formats/test_registry.py`` fails when
any of them drifts.

A format is read one of two ways: *as text* (``converter is None``: the file's UTF-8 text is the
engine's input as it is, so offsets point into the file itself), or *converted* (a
:class:`~skills.formats.conversion.Converter` turns the bytes into the engine's Markdown first, and
offsets point into that Markdown). The engine's own markup suffixes (``.md``, ``.rst``, ...) stay
in the engine, where ``detect_format`` reads them from a document key; the entries here take them
from there instead of repeating them.

To add a format, append one :class:`FileFormat` to :data:`FORMATS`: its name, its suffixes (with
the dot, lower case), the content types that name it, the engine markup it becomes and, unless it
is text, its converter (``binary=True`` when ``sniff.py`` recognises its bytes, so that a name
claiming it is checked; ``serialised=True`` when the converter calls a native library that is not
thread-safe, so that one such file is converted at a time). A new markup (say ``code``) is a new
member of the engine's ``Format`` first; the entry here then names it. Source code is one format
per language of the engine's ``LANGUAGES`` (its suffixes there, its content types in
``_CODE_CONTENT_TYPES`` here), all chunked as ``code``: a new language is added there. Nothing
else needs editing: the suffix lists, the indexer definitions and the docs table follow, and the
drift test says which doc to regenerate.

>>> by_name("https://account.blob.core.windows.net/docs/Guide.MD").markup.value
'markdown'
>>> by_name("notes.txt").name, by_name("archive.zip")
('text', None)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from skills.chunking import LANGUAGES, SUFFIX_FORMATS, Format
from skills.formats import notebook
from skills.formats.conversion import Converter
from skills.formats.html import html_to_markdown
from skills.formats.images import image_without_text
from skills.formats.office.docx import docx_to_markdown
from skills.formats.office.pptx import pptx_to_markdown
from skills.formats.office.xlsx import xlsx_to_markdown
from skills.formats.pdf.convert import pdf_to_markdown


@dataclass(frozen=True, slots=True)
class FileFormat:
    """One kind of file: how it is recognised, read and chunked."""

    name: str
    suffixes: tuple[str, ...]  # lower case, with the dot: (".md", ".markdown")
    content_types: tuple[str, ...]  # lower case MIME types, without parameters
    markup: Format  # what the engine parses: the file itself, or what the converter writes
    converter: Converter | None = None  # None: the file is UTF-8 text, chunked as it is
    binary: bool = False  # its bytes show what it is (``sniff``): a name claiming it is checked
    #: its converter calls a native library that is not thread-safe (PDFium: "not allowed to call
    #: pdfium functions simultaneously across different threads, not even with different
    #: documents", https://pypdfium2-team.github.io/pypdfium2/python_api.html): ``read_file``
    #: runs such a converter under one process-wide lock, from opening the file to closing it
    serialised: bool = False

    @property
    def is_text(self) -> bool:
        return self.converter is None


def _engine_suffixes(markup: Format) -> tuple[str, ...]:
    """The suffixes the engine itself reads as ``markup``, in its own order."""
    return tuple(f".{suffix}" for suffix, fmt in SUFFIX_FORMATS.items() if fmt is markup)


#: The content types each language's files are served as (blob uploads commonly set these).
_CODE_CONTENT_TYPES: dict[str, tuple[str, ...]] = {
    "python": ("text/x-python", "text/x-script.python"),
    "javascript": ("text/javascript", "application/javascript"),
    "typescript": ("application/typescript", "text/x-typescript"),
    "tsx": ("text/tsx",),
    "java": ("text/x-java-source", "text/x-java"),
    "csharp": ("text/x-csharp",),
    "go": ("text/x-go",),
    "rust": ("text/x-rust",),
    "c": ("text/x-c", "text/x-csrc", "text/x-chdr"),
    "cpp": ("text/x-c++", "text/x-c++src", "text/x-c++hdr"),
    "shell": ("application/x-sh", "text/x-shellscript"),
    "sql": ("application/sql", "text/x-sql"),
}


def _code_formats() -> tuple[FileFormat, ...]:
    """One format per language the engine reads as code, with the engine's suffixes."""
    return tuple(
        FileFormat(
            name=language.name,
            suffixes=tuple(f".{suffix}" for suffix in language.suffixes),
            content_types=_CODE_CONTENT_TYPES[language.name],
            markup=Format.CODE,
        )
        for language in LANGUAGES.values()
    )


FORMATS: tuple[FileFormat, ...] = (
    FileFormat(
        name="markdown",
        suffixes=_engine_suffixes(Format.MARKDOWN),
        content_types=("text/markdown", "text/x-markdown"),
        markup=Format.MARKDOWN,
    ),
    FileFormat(
        name="restructuredtext",
        suffixes=_engine_suffixes(Format.RST),
        content_types=("text/x-rst", "text/prs.fallenstein.rst"),
        markup=Format.RST,
    ),
    FileFormat(
        name="text",
        suffixes=(".txt", ".text"),
        content_types=("text/plain",),
        markup=Format.TEXT,
    ),
    FileFormat(
        name="html",
        suffixes=(".html", ".htm", ".xhtml"),
        content_types=("text/html", "application/xhtml+xml"),
        markup=Format.MARKDOWN,
        converter=html_to_markdown,
    ),
    FileFormat(
        name="docx",
        suffixes=(".docx",),
        content_types=("application/vnd.openxmlformats-officedocument.wordprocessingml.document",),
        markup=Format.MARKDOWN,
        converter=docx_to_markdown,
        binary=True,
    ),
    FileFormat(
        name="pptx",
        suffixes=(".pptx",),
        content_types=(
            "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        ),
        markup=Format.MARKDOWN,
        converter=pptx_to_markdown,
        binary=True,
    ),
    FileFormat(
        name="xlsx",
        suffixes=(".xlsx",),
        content_types=("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",),
        markup=Format.MARKDOWN,
        converter=xlsx_to_markdown,
        binary=True,
    ),
    FileFormat(
        name="pdf",
        suffixes=(".pdf",),
        content_types=("application/pdf",),
        markup=Format.MARKDOWN,
        converter=pdf_to_markdown,
        binary=True,
        serialised=True,
    ),
    FileFormat(
        name="image",
        suffixes=(".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp"),
        content_types=("image/png", "image/jpeg", "image/tiff", "image/bmp"),
        markup=Format.TEXT,
        converter=image_without_text,
        binary=True,
    ),
    *_code_formats(),
    FileFormat(
        name="notebook",
        suffixes=(".ipynb",),
        content_types=("application/x-ipynb+json",),
        markup=Format.MARKDOWN,
        converter=notebook.convert,
    ),
)


def by_format(name: str) -> FileFormat | None:
    """The format called ``name`` (``"pdf"``)."""
    return _BY_NAME.get(name)


def by_name(name: str) -> FileFormat | None:
    """The format a file name (or path, or URL) says by its suffix, if any."""
    _, dot, suffix = name.rpartition(".")
    return _BY_SUFFIX.get(f".{suffix.lower()}") if dot else None


def by_content_type(content_type: str) -> FileFormat | None:
    """The format a MIME type names (parameters such as ``; charset=utf-8`` are ignored)."""
    return _BY_CONTENT_TYPE.get(content_type.split(";", 1)[0].strip().lower())


def document_suffixes(formats: Iterable[FileFormat] = FORMATS) -> frozenset[str]:
    """Every suffix of ``formats``: what a folder is walked for."""
    return frozenset(suffix for fmt in formats for suffix in fmt.suffixes)


def text_formats() -> tuple[FileFormat, ...]:
    """The formats read as text: all that an indexer in ``parsingMode: text`` may pass on."""
    return tuple(fmt for fmt in FORMATS if fmt.is_text)


def indexed_extensions(formats: Iterable[FileFormat] = FORMATS) -> str:
    """The indexer's ``indexedFileNameExtensions`` value for ``formats``: ``.md,.markdown,...``."""
    return ",".join(suffix for fmt in formats for suffix in fmt.suffixes)


#: What a folder of documents is walked for by what reads text only (the evaluation, the demo's
#: text records, an indexer in ``parsingMode: text``).
TEXT_SUFFIXES = document_suffixes(text_formats())
#: What a folder is walked for by what reads files (the command line, the ``files`` indexer).
SUFFIXES = document_suffixes()


def markdown_table() -> str:
    """The table of formats that ``docs/formats.md`` shows (the drift test compares the two)."""
    rows = ["| Format | Suffixes | Content types | Read as | Chunked as |", "|---|---|---|---|---|"]
    for fmt in FORMATS:
        read = "text" if fmt.is_text else f"`{_module(fmt)}`"
        rows.append(
            f"| {fmt.name} | {' '.join(f'`{s}`' for s in fmt.suffixes)} "
            f"| {' '.join(f'`{t}`' for t in fmt.content_types)} | {read} | {fmt.markup.value} |"
        )
    return "\n".join(rows) + "\n"


def _module(fmt: FileFormat) -> str:
    module = getattr(fmt.converter, "__module__", "")
    return module.replace(".", "/") + ".py"


def _index(pairs: Iterable[tuple[str, FileFormat]], what: str) -> dict[str, FileFormat]:
    index: dict[str, FileFormat] = {}
    for key, fmt in pairs:
        if key in index:
            raise ValueError(f"{what} {key} belongs to both {index[key].name} and {fmt.name}")
        index[key] = fmt
    return index


_BY_NAME = _index(((f.name, f) for f in FORMATS), "format name")
_BY_SUFFIX = _index(((s, f) for f in FORMATS for s in f.suffixes), "suffix")
_BY_CONTENT_TYPE = _index(((t, f) for f in FORMATS for t in f.content_types), "content type")
