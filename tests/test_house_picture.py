"""The picture of the house in ``docs/dev/house.md`` is the code's: every arrow between two
packages that the imports make is drawn, none that they do not, and every arrow points down a
floor. Redraw it with ``python -m skills house`` (the counts in it are as of that redraw)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from skills.local.house import FLOORS, ROOMS, Room, arrows, render, upward

ROOT = Path(__file__).resolve().parents[1]
PICTURE = ROOT / "docs" / "dev" / "house.md"
ARROW = re.compile(r"^  (\w+) -->\|\d+\| (\w+)$", re.MULTILINE)
ROOM = re.compile(r'^    (\w+)\["', re.MULTILINE)


def drawn(text: str) -> tuple[set[str], set[tuple[str, str]]]:
    """The rooms and the arrows (without their counts) of a Mermaid picture of the house."""
    return set(ROOM.findall(text)), set(ARROW.findall(text))


def test_the_picture_draws_the_rooms_and_arrows_of_the_code() -> None:
    block = PICTURE.read_text(encoding="utf-8").split("```mermaid\n", 1)[1].split("```", 1)[0]
    assert drawn(block) == drawn(render()), "redraw docs/dev/house.md: python -m skills house"


def test_every_arrow_points_down_a_floor() -> None:
    assert not upward(arrows()), f"arrows that do not point down: {upward(arrows())}"


def test_the_picture_has_every_floor_and_every_room() -> None:
    rooms, found = drawn(render())
    assert len(rooms) == len(ROOMS) and {room.floor for room in ROOMS} == set(range(len(FLOORS)))
    assert ("skill", "chunking") in found and ("formats", "chunking") in found


def test_an_arrow_up_is_seen() -> None:
    """The floor check can fail: an arrow from the engine to the formats points up."""
    engine, formats = Room("chunking", "skills/chunking", 0), Room("formats", "skills/formats", 1)
    assert upward(Counter({(engine, formats): 1, (formats, engine): 2})) == [
        ("chunking", "formats")
    ]
