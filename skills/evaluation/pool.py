"""Pool several runs question by question: is a lead over many small sets more than noise?

Each run (a ``results.json`` written by ``python -m skills eval``) pairs every candidate with its
own set's best baseline per outcome; pooling adds those won and lost questions over the sets and
applies the exact sign test to the sums (``versus.sign_test``). ``--pair A B`` compares two
candidates of the same runs directly.

    python -m skills.evaluation.pool out-dev out-npm out-licenses
    python -m skills.evaluation.pool out-* --pair "hier-1024-160-32 budget" "hier-640-128 budget"
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from skills.evaluation.metrics import BUDGETS
from skills.evaluation.versus import sign_test

Question = dict[str, Any]


def _within(budget: int) -> Callable[[Question], bool]:
    return lambda question: bool(question[f"hitB{budget}"])


OUTCOMES: tuple[tuple[str, Callable[[Question], bool]], ...] = (
    ("R@1", lambda question: question["rank"] == 1),
    *((f"B{budget}", _within(budget)) for budget in BUDGETS),
)


def won_lost(
    ours: Sequence[Question], theirs: Sequence[Question], hit: Callable[[Question], bool]
) -> tuple[int, int]:
    """Questions only ``ours`` hits, and only ``theirs`` hits (matched by id)."""
    other = {q["id"]: hit(q) for q in theirs}
    wins = sum(hit(q) and not other[q["id"]] for q in ours)
    losses = sum(other[q["id"]] and not hit(q) for q in ours)
    return wins, losses


def pooled(runs: Sequence[dict[str, Any]], name: str, against: str | None = None) -> list[str]:
    """``+won -lost, p`` per outcome for candidate ``name`` against ``against`` (or each set's best
    baseline for that outcome), summed over the runs."""
    cells = []
    for _, hit in OUTCOMES:
        wins = losses = 0
        for run in runs:
            results = {r["name"]: r for r in run["results"]}
            if against is None:
                baselines = [r for r in run["results"] if r["baseline"]]
                other = max(baselines, key=lambda r: sum(hit(q) for q in r["questions"]))
            else:
                other = results[against]
            won, lost = won_lost(results[name]["questions"], other["questions"], hit)
            wins, losses = wins + won, losses + lost
        cells.append(f"+{wins} -{losses}, p {sign_test(wins, losses):.2f}")
    return cells


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m skills.evaluation.pool", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "runs", nargs="+", type=Path, help="output folders of python -m skills eval"
    )
    parser.add_argument("--pair", nargs=2, metavar=("A", "B"), help="compare A with B instead")
    args = parser.parse_args(argv)
    runs = [
        json.loads((folder / "results.json").read_text(encoding="utf-8")) for folder in args.runs
    ]
    header = " | ".join(name for name, _ in OUTCOMES)
    if args.pair:
        print(f"{args.pair[0]} against {args.pair[1]}: {header}")
        print(" | ".join(pooled(runs, args.pair[0], args.pair[1])))
        return 0
    print(f"against each set's best baseline: candidate | {header}")
    for result in runs[0]["results"]:
        if not result["baseline"]:
            print(f"{result['name']} | " + " | ".join(pooled(runs, result["name"])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
