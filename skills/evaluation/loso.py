"""Leave one set out: choose a default on every set but one, and check it on the one left out.

A default chosen on the sets it is then measured on is fitted to them. Given the runs of every
set (``results.json`` of ``python -m skills eval``, the same candidates in each) and the
candidate defaults to choose from, each rotation leaves one set out, picks the candidate with
the most questions answered within the chosen budgets (1,000 and 2,000 tokens) pooled over the
other sets, and reports how that pick does on the set left out against that set's best baseline
for each budget: the difference in points with a paired 95 % interval.

The interval is Agresti and Min's for a difference of paired proportions: half a question is
added to each cell of the 2x2 table (both hit, only ours, only theirs, neither) and the Wald
interval taken on that, which keeps its coverage for the small sets and the zero counts seen
here (Agresti & Min 2005, *Simple improved confidence intervals for comparing matched
proportions*, Statistics in Medicine 24).

>>> paired(wins=0, losses=0, questions=40).interval  # no question differs
(-4.7, 4.7)
>>> paired(wins=9, losses=2, questions=46).difference
15.2

    python -m skills.evaluation.loso OUT/hybrid-* --candidates "hier-1024-160-32 budget" \\
        "hier-640-128 budget" --default "hier-1024-160-32 budget" \\
        [--with OUT/en/hybrid-* --suffix " en.lucene"] [--versus azure-textsplit-2000-500]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import sqrt
from pathlib import Path
from typing import Any

from skills.evaluation.metrics import BUDGETS
from skills.evaluation.versus import sign_test

#: The budgets a default is chosen on: what an application's prompt usually holds.
CHOICE_BUDGETS = (1000, 2000)
#: Two-sided 95 % normal quantile.
Z95 = 1.959964

Run = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Paired:
    """One candidate against one baseline over the same questions."""

    wins: int  # questions only the candidate answers
    losses: int  # questions only the baseline answers
    questions: int

    @property
    def difference(self) -> float:
        """Points of hit rate the candidate is ahead (negative: behind)."""
        return round(100 * (self.wins - self.losses) / self.questions, 1)

    @property
    def interval(self) -> tuple[float, float]:
        """Agresti-Min 95 % interval of the difference, in points."""
        n = self.questions + 2
        b, c = self.wins + 0.5, self.losses + 0.5
        centre = (b - c) / n
        half = Z95 * sqrt(max((b + c) - (b - c) ** 2 / n, 0.0)) / n
        return round(100 * (centre - half), 1), round(100 * (centre + half), 1)

    @property
    def p_value(self) -> float:
        return sign_test(self.wins, self.losses)

    def __add__(self, other: Paired) -> Paired:
        return Paired(
            self.wins + other.wins, self.losses + other.losses, self.questions + other.questions
        )

    def cell(self) -> str:
        """``+2.2 [-3.1, +7.4]``."""
        low, high = self.interval
        return f"{self.difference:+.1f} [{low:+.1f}, {high:+.1f}]"


def paired(wins: int, losses: int, questions: int) -> Paired:
    return Paired(wins, losses, questions)


def hits(result: dict[str, Any], budget: int) -> dict[str, bool]:
    """Question id -> whether the whole reference is within ``budget`` tokens."""
    return {q["id"]: bool(q[f"hitB{budget}"]) for q in result["questions"]}


class RunError(ValueError):
    """A run folder or a name the command line gave that cannot be read: the message says which
    and what was expected."""


def named(run: Run, name: str) -> dict[str, Any]:
    for result in run["results"]:
        if result["name"] == name:
            return dict(result)
    known = ", ".join(repr(result["name"]) for result in run["results"][:8])
    raise RunError(f"{name!r} is not in the run of {run.get('set', '?')} (it has {known}, ...)")


def best_baseline(run: Run, budget: int) -> dict[str, Any]:
    """The baseline with the most hits within ``budget`` in this run (first listed on a tie)."""
    baselines: list[dict[str, Any]] = [r for r in run["results"] if r["baseline"]]
    if not baselines:
        raise ValueError(f"the run of {run.get('set', '?')} has no baseline")
    return max(baselines, key=lambda r: sum(hits(r, budget).values()))


def versus(ours: dict[str, Any], theirs: dict[str, Any], budget: int) -> Paired:
    mine, other = hits(ours, budget), hits(theirs, budget)
    wins = sum(mine[q] and not other[q] for q in mine)
    losses = sum(other[q] and not mine[q] for q in mine)
    return Paired(wins, losses, len(mine))


def against_best(run: Run, name: str, budget: int) -> Paired:
    """Candidate ``name`` against the run's best baseline within ``budget``."""
    return versus(named(run, name), best_baseline(run, budget), budget)


def pick(runs: Iterable[Run], candidates: Sequence[str], budgets: Sequence[int]) -> str:
    """The candidate with the most hits within ``budgets``, pooled over ``runs`` (the first
    listed wins a tie: list the incumbent default first)."""
    pooled = list(runs)

    def score(name: str) -> int:
        return sum(
            sum(hits(named(run, name), budget).values()) for run in pooled for budget in budgets
        )

    return max(candidates, key=lambda name: (score(name), -candidates.index(name)))


@dataclass(frozen=True, slots=True)
class Rotation:
    left_out: str
    picked: str
    outcomes: dict[int, Paired]  # budget -> the pick against the left-out set's best baseline


def rotations(
    runs: Sequence[Run],
    candidates: Sequence[str],
    choose_on: Sequence[int] = CHOICE_BUDGETS,
    report_at: Sequence[int] = BUDGETS,
) -> list[Rotation]:
    """One rotation per run: pick on the others, measure on it."""
    table = []
    for index, run in enumerate(runs):
        others = [other for i, other in enumerate(runs) if i != index]
        chosen = pick(others, candidates, choose_on)
        outcomes = {budget: against_best(run, chosen, budget) for budget in report_at}
        table.append(Rotation(run["set"], chosen, outcomes))
    return table


def rotation_table(table: Sequence[Rotation], report_at: Sequence[int] = BUDGETS) -> str:
    """Markdown: each left-out set, the candidate picked without it, its lead there per budget,
    and the pooled row over every left-out set."""
    head = "| left out | picked on the others | " + " | ".join(f"B{b}" for b in report_at) + " |"
    lines = [head, "|" + "---|" * (2 + len(report_at))]
    for row in table:
        cells = " | ".join(row.outcomes[b].cell() for b in report_at)
        lines.append(f"| {row.left_out} | {row.picked} | {cells} |")
    pooled = {b: sum((r.outcomes[b] for r in table), Paired(0, 0, 0)) for b in report_at}
    cells = " | ".join(f"{pooled[b].cell()}, p {pooled[b].p_value:.2f}" for b in report_at)
    lines.append(f"| pooled ({len(table)} sets) | | {cells} |")
    return "\n".join(lines)


def per_set_table(
    runs: Sequence[Run], name: str, report_at: Sequence[int] = BUDGETS, against: str | None = None
) -> str:
    """Markdown: per set, ``name``'s hit rate, the best baseline's (or candidate ``against``'s),
    and the paired difference with its interval at each budget; then the pooled row."""
    head = "| set | questions | " + " | ".join(f"B{b}" for b in report_at) + " |"
    lines = [head, "|" + "---|" * (2 + len(report_at))]
    pooled = {b: Paired(0, 0, 0) for b in report_at}
    for run in runs:
        ours = named(run, name)
        cells = []
        for budget in report_at:
            theirs = best_baseline(run, budget) if against is None else named(run, against)
            rate = 100 * sum(hits(ours, budget).values()) / len(ours["questions"])
            base = 100 * sum(hits(theirs, budget).values()) / len(theirs["questions"])
            pair = versus(ours, theirs, budget)
            pooled[budget] = pooled[budget] + pair
            cells.append(f"{rate:.1f} vs {base:.1f}: {pair.cell()}")
        lines.append(f"| {run['set']} | {len(ours['questions'])} | " + " | ".join(cells) + " |")
    total = " | ".join(f"{pooled[b].cell()}, p {pooled[b].p_value:.2f}" for b in report_at)
    lines.append(f"| pooled | {pooled[report_at[0]].questions} | {total} |")
    return "\n".join(lines)


def pair_table(runs: Sequence[Run], ours: str, theirs: str) -> str:
    """Markdown: ``ours`` against ``theirs`` question by question, per set and pooled, at every
    budget and top-1: ``+won -lost``, the pooled row with its sign test."""
    outcomes = ["R@1", *(f"B{b}" for b in BUDGETS)]
    lines = ["| set | " + " | ".join(outcomes) + " |", "|" + "---|" * (1 + len(outcomes))]
    pooled = [Paired(0, 0, 0) for _ in outcomes]
    for run in runs:
        a, b = named(run, ours), named(run, theirs)
        pairs = [_top1(a, b), *(versus(a, b, budget) for budget in BUDGETS)]
        pooled = [total + pair for total, pair in zip(pooled, pairs, strict=True)]
        lines.append(
            f"| {run['set']} | " + " | ".join(f"+{p.wins} -{p.losses}" for p in pairs) + " |"
        )
    cells = " | ".join(f"+{p.wins} -{p.losses} (p {p.p_value:.2f})" for p in pooled)
    lines.append(f"| pooled | {cells} |")
    return "\n".join(lines)


def _top1(ours: dict[str, Any], theirs: dict[str, Any]) -> Paired:
    mine = {q["id"]: q["rank"] == 1 for q in ours["questions"]}
    other = {q["id"]: q["rank"] == 1 for q in theirs["questions"]}
    wins = sum(mine[q] and not other[q] for q in mine)
    losses = sum(other[q] and not mine[q] for q in mine)
    return Paired(wins, losses, len(mine))


COSTS = ("leaves_per_mib", "embedded_tokens_per_mib", "index_mib_per_mib")


def cost_table(runs: Sequence[Run], names: Sequence[str]) -> str:
    """Markdown: per candidate, vectors, embedded tokens and index MiB per MiB of source, the
    mean over the sets (each set weighs the same)."""
    lines = [
        "| candidate | vectors / MiB | embedded tokens / MiB | index MiB / MiB |",
        "|---|---|---|---|",
    ]
    for name in names:
        means = [
            sum(named(run, name)["structure"].get(key, 0.0) for run in runs) / len(runs)
            for key in COSTS
        ]
        lines.append(f"| {name} | {means[0]:,.0f} | {means[1]:,.0f} | {means[2]:.1f} |")
    return "\n".join(lines)


def load(folder: Path) -> Run:
    """A run's ``results.json``, named after its folder (``hybrid-speeches`` -> ``speeches``);
    :class:`RunError` when there is none or it is not one ``python -m skills eval`` wrote."""
    path = folder / "results.json"
    try:
        run: Run = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
        raise RunError(
            f"{path} cannot be read ({reason}): give the output folders of python -m skills eval"
        ) from None
    except json.JSONDecodeError as exc:
        raise RunError(f"{path} is not JSON ({exc.msg}, line {exc.lineno})") from None
    results = run.get("results") if isinstance(run, dict) else None
    if not isinstance(results, list) or not all(
        isinstance(result, dict) and isinstance(result.get("name"), str) for result in results
    ):
        raise RunError(f"{path} is not what python -m skills eval writes (a list of named results)")
    prefixed = folder.name.startswith(("hybrid-", "vector-"))
    run["set"] = folder.name.split("-", 1)[1] if prefixed else folder.name
    return run


def join(runs: Sequence[Run], extra: Sequence[Run], suffix: str) -> list[Run]:
    """``runs`` with the candidates (not the baselines) of ``extra``, runs of the same sets with
    another setting (``--analyzer en.lucene``), added under their name plus ``suffix``.

    >>> base = {"set": "s", "results": [{"name": "A", "baseline": False}]}
    >>> other = {"set": "s", "results": [{"name": "A", "baseline": False}]}
    >>> [r["name"] for r in join([base], [other], " en")[0]["results"]]
    ['A', 'A en']
    """
    by_set = {run["set"]: run for run in extra}
    joined = []
    for run in runs:
        added = [
            {**result, "name": result["name"] + suffix}
            for result in by_set.get(run["set"], {"results": []})["results"]
            if not result["baseline"]
        ]
        joined.append({**run, "results": [*run["results"], *added]})
    return joined


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m skills.evaluation.loso", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "runs", nargs="+", type=Path, help="output folders of python -m skills eval"
    )
    parser.add_argument("--candidates", nargs="+", required=True, help="defaults to choose from")
    parser.add_argument(
        "--default", help="also print this candidate against the best baseline per set"
    )
    parser.add_argument(
        "--with",
        dest="extra",
        nargs="+",
        action="append",
        type=Path,
        default=[],
        help="runs of the same sets with another setting: their candidates join as NAME+SUFFIX "
        "(repeatable, one --suffix each, in order)",
    )
    parser.add_argument(
        "--suffix", action="append", default=[], help="added to the matching --with's names"
    )
    parser.add_argument(
        "--pair", nargs=2, action="append", metavar=("A", "B"), help="also print A against B"
    )
    parser.add_argument(
        "--versus",
        action="append",
        default=[],
        metavar="NAME",
        help="also print --default against NAME per set, as against the best baseline",
    )
    parser.add_argument(
        "--choose-on",
        nargs="+",
        type=int,
        default=list(CHOICE_BUDGETS),
        metavar="BUDGET",
        help="budgets whose pooled hits pick the default of each rotation (default: 1000 2000)",
    )
    args = parser.parse_args(argv)
    if not set(args.choose_on) <= set(BUDGETS):
        parser.error(f"--choose-on takes budgets of a run: {', '.join(map(str, BUDGETS))}")
    try:
        _report(args)
    except RunError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:  # a run of another shape
        print(
            f"error: the runs are not what python -m skills eval writes ({type(exc).__name__}: "
            f"{str(exc)[:120]})",
            file=sys.stderr,
        )
        return 2
    return 0


def _report(args: argparse.Namespace) -> None:
    runs = [load(folder) for folder in args.runs]
    for index, folders in enumerate(args.extra):
        suffix = args.suffix[index] if index < len(args.suffix) else ""
        runs = join(runs, [load(folder) for folder in folders], suffix)
    chosen_on = " + ".join(f"B{budget}" for budget in args.choose_on)
    print(f"Leave one set out (picked on {chosen_on} pooled over the other sets; each cell: the")
    print("pick against the left-out set's best baseline, points, paired 95 % interval)\n")
    print(rotation_table(rotations(runs, args.candidates, args.choose_on)))
    if args.default:
        print(
            f"\n{args.default} against each set's best baseline (hit rates, difference, interval)\n"
        )
        print(per_set_table(runs, args.default))
        for other in args.versus:
            print(f"\n{args.default} against {other} (hit rates, difference, interval)\n")
            print(per_set_table(runs, args.default, against=other))
    for ours, theirs in args.pair or ():
        print(f"\n{ours} against {theirs}, question by question (+won -lost)\n")
        print(pair_table(runs, ours, theirs))
    print("\nCosts (mean of the sets)\n")
    print(cost_table(runs, args.candidates))


if __name__ == "__main__":
    raise SystemExit(main())
