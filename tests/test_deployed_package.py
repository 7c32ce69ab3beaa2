"""What a deployment carries: the files ``.funcignore`` leaves are enough for the Function, and
the development code stays out.

The Function is imported from a copy of exactly the deployed files, in a fresh interpreter, with
every module it can import lazily on a request (the semantic strategy's embedder, the converters,
the Layout reader), so a module left out by mistake fails here rather than on the first call.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from skills.local.package import deployed_files

ROOT = Path(__file__).resolve().parents[1]
#: Imported on demand by the request path; each must be in the package.
LAZY_MODULES = [
    "skills.llm.boundaries",
    "skills.embeddings",
    "skills.formats.registry",
    "skills.formats.read",
    "skills.formats.layout",
    "skills.formats.office.docx",
    "skills.formats.html",
    "skills.formats.pdf.convert",
    "skills.formats.office.pptx",
    "skills.formats.office.xlsx",
]
DEVELOPMENT = (
    "skills/local/",
    "skills/search/",
    "skills/evaluation/",
    "tests/",
    "bench/",
    "infra/",
)


def test_the_package_holds_the_function_and_none_of_the_development_code() -> None:
    names = {path.as_posix() for path in deployed_files()}
    assert {"function_app.py", "host.json", "requirements.txt"} <= names
    assert any(name.startswith("skills/chunking/") for name in names)
    leaked = sorted(name for name in names if name.startswith(DEVELOPMENT))
    assert not leaked, f"development files in the package: {leaked}"


def test_the_function_imports_from_the_package_alone(tmp_path: Path) -> None:
    for path in deployed_files():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / path, target)
    imports = "; ".join(f"import {name}" for name in ["function_app", *LAZY_MODULES])
    check = f"{imports}; import sys; print(sorted(m for m in sys.modules if 'skills.' in m))"
    done = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, '.'); {check}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    loaded = done.stdout
    assert "skills.local" not in loaded and "skills.search" not in loaded


def test_the_deploy_docs_list_what_the_package_command_prints() -> None:
    """``docs/deploy.md`` shows ``python -m skills package``'s listing; a folder added to or
    left out of the package must show there too (the sizes are the listing's of its day)."""
    page = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    block = page.split("$ python -m skills package\n", 1)[1].split("```", 1)[0]
    listed = {line.split()[1] for line in block.splitlines() if line.split()[1:2] != ["in"]}
    shown = {
        path.as_posix() if not path.parent.parts else path.parent.as_posix()
        for path in deployed_files()
    }
    assert listed == shown
