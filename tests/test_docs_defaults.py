"""The defaults the README and the engine's docs state are the code's own constants.

The defaults move with evidence (``docs/evaluation.md``); a page that still says the old sizes
sends a newcomer's numbers the wrong way. Each page is read for the sentence or table row that
states them, and its numbers are compared with ``skills.chunking.options``.
"""

from __future__ import annotations

import re
from pathlib import Path

from skills.chunking import ChunkOptions, Strategy
from skills.chunking.options import DEFAULT_CHILD_TOKENS, DEFAULT_PARENT_TOKENS

ROOT = Path(__file__).resolve().parents[1]


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def test_the_readme_states_the_default_strategy_and_sizes() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    paragraph = readme.split("**Defaults**", 1)[1].split("\n\n", 1)[0]
    found = re.search(
        r"`(\w+)`, parents of at most ([\d,]+) tokens,\s+children of at most ([\d,]+) that overlap "
        r"by ([\d,]+)",
        paragraph,
    )
    assert found, "the README's Defaults paragraph no longer states the sizes in its usual words"
    options = ChunkOptions()
    assert found.group(1) == options.strategy.value
    assert _number(found.group(2)) == DEFAULT_PARENT_TOKENS == options.parent_max_tokens
    assert _number(found.group(3)) == DEFAULT_CHILD_TOKENS == options.child_max_tokens
    assert _number(found.group(4)) == options.child_overlap_tokens


def test_the_engine_docs_settings_table_states_the_defaults() -> None:
    page = (ROOT / "docs" / "chunking.md").read_text(encoding="utf-8")
    rows = {
        cells[0].strip("`"): cells[1]
        for line in page.splitlines()
        if (cells := [c.strip() for c in line.strip().strip("|").split("|")]) and len(cells) == 3
    }
    options = ChunkOptions()
    assert rows["strategy"] == f"`{options.strategy.value}`"
    assert _number(rows["parentMaxTokens"]) == options.parent_max_tokens
    assert _number(rows["childMaxTokens"]) == options.child_max_tokens
    assert f"({options.child_overlap_tokens})" in rows["childOverlapTokens"]
    fixed = ChunkOptions(strategy=Strategy.FIXED, child_max_tokens=512)
    assert "a quarter for `fixed`" in rows["childOverlapTokens"]
    assert fixed.child_overlap_tokens == 512 // 4


def test_the_engine_docs_prose_states_the_overlap_default_as_the_code_computes_it() -> None:
    page = (ROOT / "docs" / "chunking.md").read_text(encoding="utf-8")
    prose = page.split("`childOverlapTokens` defaults to", 1)[1].split("\n\n", 1)[0]
    options = ChunkOptions()
    said = f"({options.child_overlap_tokens} of the default {options.child_max_tokens}"
    assert said in " ".join(prose.split())
