"""The super-linearity sweep finds every pattern of the parsers and reports well-formed series.

No timing is asserted (``test_linear_time`` times n against 4n); this checks that the sweep
covers what it says it covers, so that its table in ``docs/performance.md`` can be trusted.
"""

from __future__ import annotations

import importlib.util
import itertools
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_sweep() -> ModuleType:
    spec = importlib.util.spec_from_file_location("superlinear", ROOT / "bench" / "superlinear.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["superlinear"] = module
    spec.loader.exec_module(module)
    return module


def test_the_sweep_covers_every_parser_module_pattern() -> None:
    sweep = load_sweep()
    found = sweep.patterns()
    for name in (
        "markdown.blocks._EVENT",
        "plaintext._GAP",
        "rst._ADORNMENT",
        "html_tables.ROW_KEY",
    ):
        assert name in found
    engine = ROOT / "skills" / "chunking"
    for path in engine.rglob("*.py"):
        module = ".".join(path.relative_to(engine).with_suffix("").parts).removesuffix(".__init__")
        if module in sweep.MODULES:
            continue
        assert "re.compile" not in path.read_text(), f"{module}.py has patterns the sweep skips"
    assert all(isinstance(pattern, re.Pattern) for pattern in found.values())


def test_a_series_doubles_five_times_and_reports_its_exponent() -> None:
    sweep = load_sweep()
    result = sweep.series(lambda n: "a " * n, len, 8, limit=10.0, repeats=1)
    assert result["complete"] and len(result["chars"]) == 6
    chars = result["chars"]
    assert all(later == 2 * earlier for earlier, later in itertools.pairwise(chars))
    assert isinstance(result["exponent"], float)
