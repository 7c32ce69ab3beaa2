"""``python -m skills package``: the files a deployment of the Function App carries.

What ``func pack`` and ``azd deploy`` zip is the project folder less what ``.funcignore`` names
(gitignore patterns). This lists those files with their sizes, so a change to ``.funcignore`` or
to what the Function imports shows here; ``tests/test_deployed_package.py`` imports the Function
from a copy of exactly these files.
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

import pathspec

from skills.local.devserver import PROJECT_ROOT


def deployed_files(root: Path = PROJECT_ROOT) -> list[Path]:
    """The project's files (tracked or not yet tracked, as git lists them) that ``.funcignore``
    leaves in the package, relative to ``root``, sorted."""
    ignore = pathspec.GitIgnoreSpec.from_lines((root / ".funcignore").read_text().splitlines())
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return sorted(
        Path(name) for name in listed if not ignore.match_file(name) and (root / name).is_file()
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m skills package", description=__doc__)
    parser.add_argument("--files", action="store_true", help="list every file, not only folders")
    args = parser.parse_args(argv)
    files = deployed_files()
    sizes: dict[str, int] = {}
    for path in files:
        key = str(path) if args.files else str(path.parent if path.parent.parts else path)
        sizes[key] = sizes.get(key, 0) + (PROJECT_ROOT / path).stat().st_size
    for name, size in sorted(sizes.items()):
        print(f"{size:>10,}  {name}")
    print(f"{sum(sizes.values()):>10,}  in {len(files)} files")
    return 0
