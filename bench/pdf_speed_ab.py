"""The PDF converter's speed against another commit's, in one run: a ratio that load cannot fake.

On a shared machine pages a second move with whatever else runs, so a figure measured today and
one measured yesterday do not compare. Here two worker processes, one importing this tree's
``skills`` and one importing ``skills`` as it was at ``--base`` (``git archive`` into a temporary
folder), convert each corpus PDF in turn, alternating which goes first, ``--rounds`` times; each
file's best time counts. The ratio base / this tree is the answer (above 1: this tree is faster).

    python bench/corpus.py bench/real_files/pdf.json      # fill .cache/corpus first
    python bench/pdf_speed_ab.py --base main                # every corpus PDF
    python bench/pdf_speed_ab.py --base 69e25b4 --only simh # the files whose name holds "simh"
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / "bench" / "real_files" / "pdf.json"
FILES = ROOT / ".cache" / "corpus" / "files"


def worker(root: str) -> None:
    """Convert each PDF path read from stdin with ``root``'s skills; print the seconds taken."""
    sys.path.insert(0, root)
    from skills.formats.conversion import Limits
    from skills.formats.pdf.convert import pdf_to_markdown

    for line in sys.stdin:
        data = Path(line.strip()).read_bytes()
        began = time.perf_counter()
        pdf_to_markdown(data, Limits())
        print(time.perf_counter() - began, flush=True)


def _export(rev: str, into: Path) -> None:
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "skills"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def compare(base: str, only: str, rounds: int) -> dict[str, float]:
    files = [
        (FILES / entry["name"], int(entry.get("pages", 0)))
        for entry in json.loads(MANIFEST.read_text(encoding="utf-8"))["files"]
        if only in entry["name"] and (FILES / entry["name"]).is_file()
    ]
    with tempfile.TemporaryDirectory() as folder:
        _export(base, Path(folder))
        trees = {"base": folder, "this tree": str(ROOT)}
        procs = {
            name: subprocess.Popen(
                [sys.executable, __file__, "--worker", tree],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            for name, tree in trees.items()
        }
        best: dict[str, dict[Path, float]] = {name: {} for name in trees}
        for n in range(rounds):
            order = list(trees) if n % 2 == 0 else list(reversed(trees))
            for path, _ in files:
                for name in order:
                    proc = procs[name]
                    assert proc.stdin is not None and proc.stdout is not None
                    proc.stdin.write(f"{path}\n")
                    proc.stdin.flush()
                    seconds = float(proc.stdout.readline())
                    best[name][path] = min(best[name].get(path, seconds), seconds)
        for proc in procs.values():
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait()
    pages = sum(count for _, count in files)
    totals = {name: sum(times.values()) for name, times in best.items()}
    return {
        "files": len(files),
        "pages": pages,
        **{f"{name} pages/s": round(pages / total) for name, total in totals.items()},
        "base / this tree (seconds)": round(totals["base"] / totals["this tree"], 2),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="main", help="the commit to compare with")
    parser.add_argument("--only", default="", help="only files whose manifest name holds this")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker)
        return 0
    print(json.dumps(compare(args.base, args.only, args.rounds), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
