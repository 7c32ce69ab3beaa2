"""``python -m skills house``: the packages as floors and their imports as arrows, drawn from the
code (a Mermaid flowchart, which GitHub renders; ``docs/dev/house.md`` holds the one it prints).

Floors, bottom up: the engine (with the shared modules beside it), the file formats and the
model calls (``skills/llm``), the skill, the search side (above the skill: its field contract
names what the skill sends), the evaluation (and ``function_app.py``, the adapter over the
skill), the tools. A room is a package with the packages inside it (the engine's ``markup/`` is
in ``chunking``), or a module of its own; an arrow ``A -->|n| B`` says that ``n`` modules of
``A`` import ``B``, and points down the house: ``tests/test_import_direction.py`` fails on an
import that points up.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, slots=True)
class Room:
    """A package (its folder and the folders inside it) or a module, on a floor (0 the
    ground)."""

    name: str
    path: str
    floor: int


#: The rooms, by floor.
ROOMS = (
    Room("chunking", "skills/chunking", 0),
    Room("embeddings", "skills/embeddings.py", 0),
    Room("ranking", "skills/ranking.py", 0),
    Room("terminal", "skills/terminal.py", 0),
    Room("formats", "skills/formats", 1),
    Room("llm", "skills/llm", 1),
    Room("skill", "skills/skill", 2),
    Room("search", "skills/search", 3),
    Room("evaluation", "skills/evaluation", 4),
    Room("function_app", "function_app.py", 4),
    Room("local", "skills/local", 5),
    Room("bench", "bench", 5),
    Room("skills.__main__", "skills/__main__.py", 5),
)
FLOORS = (
    "engine",
    "formats and the model calls",
    "skill",
    "search (what it indexes, the skill sends)",
    "evaluation and the Azure Function",
    "tools",
)


def room_of(path: Path) -> Room | None:
    """The room that holds the file at ``path`` (relative to the repository), if any."""
    text = path.as_posix()
    return next((r for r in ROOMS if text == r.path or text.startswith(r.path + "/")), None)


def room_of_module(module: str) -> Room | None:
    """The room of an imported module (``skills.chunking.markup.rst`` -> ``chunking``)."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        base = Path(*parts[:end])
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if (ROOT / candidate).is_file():
                return room_of(candidate)
    return None


def imports(path: Path) -> Iterator[str]:
    """The absolute modules ``path`` imports (relative imports resolved), inside functions too."""
    package = ".".join(path.relative_to(ROOT).parent.parts)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            if node.module:
                yield module
            else:
                yield from (f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def sources() -> list[Path]:
    """Every Python file of every room, once."""
    found: set[Path] = set()
    for room in ROOMS:
        path = ROOT / room.path
        found.update(path.rglob("*.py") if path.is_dir() else [path])
    return sorted(found)


def arrows() -> Counter[tuple[Room, Room]]:
    """(importer, imported) -> how many modules of the importer import the imported room."""
    found: Counter[tuple[Room, Room]] = Counter()
    for path in sources():
        source = room_of(path.relative_to(ROOT))
        targets = {room_of_module(module) for module in imports(path)}
        for target in targets:
            if source is not None and target is not None and target != source:
                found[source, target] += 1
    return found


def upward(found: Counter[tuple[Room, Room]]) -> list[tuple[str, str]]:
    """The arrows of ``found`` that do not point down a floor."""
    return sorted((a.name, b.name) for a, b in found if b.floor >= a.floor)


def size(room: Room) -> tuple[int, int]:
    """(modules, lines) of the room, without the rooms inside it."""
    files = [path for path in sources() if room_of(path.relative_to(ROOT)) == room]
    return len(files), sum(path.read_text(encoding="utf-8").count("\n") for path in files)


def render() -> str:
    """The Mermaid flowchart of the house, floors top down."""
    lines = ["flowchart TB"]
    for floor in reversed(range(len(FLOORS))):
        lines.append(f'  subgraph floor{floor}["{floor}: {FLOORS[floor]}"]')
        for room in (room for room in ROOMS if room.floor == floor):
            modules, count = size(room)
            label = f"{room.name}<br/>{modules} module{'s' * (modules != 1)}, {count:,} lines"
            lines.append(f'    {_node(room)}["{label}"]')
        lines.append("  end")
    found = arrows()
    for (source, target), count in sorted(found.items(), key=lambda item: _order(item[0])):
        lines.append(f"  {_node(source)} -->|{count}| {_node(target)}")
    return "\n".join(lines) + "\n"


def _node(room: Room) -> str:
    return room.name.replace(".", "_")


def _order(pair: tuple[Room, Room]) -> tuple[int, str, int, str]:
    source, target = pair
    return (-source.floor, source.name, -target.floor, target.name)


def main(argv: list[str]) -> int:
    if argv:
        print(__doc__)
        return 0 if argv[0] in {"-h", "--help"} else 2
    sys.stdout.write(render())
    return 0
