"""Each candidate against the best baseline, question by question: is a lead more than noise?

Two rates over the same questions differ by the questions one candidate answers and the other
does not. A lead of two questions out of 77 may be eight won and six lost, or two won and none
lost; only the questions that differ tell. For each headline outcome (top-1, whole reference
within 1,000 and 2,000 tokens) a candidate is paired with the baseline that scores best on it,
and the run reports the questions won and lost and the exact two-sided sign test on them
(McNemar's test: under "no difference" each differing question goes either way with
probability one half).

>>> sign_test(wins=6, losses=0)
0.03125
>>> round(sign_test(wins=8, losses=6), 3)
0.791
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import comb

from skills.evaluation.metrics import BUDGETS, QuestionScore
from skills.evaluation.run import CandidateResult


def _within(budget: int) -> Callable[[QuestionScore], bool]:
    return lambda score: score.budget_hit[budget]


#: (name, whether a question's outcome is a hit) of the outcomes compared: top-1 and every budget.
OUTCOMES: tuple[tuple[str, Callable[[QuestionScore], bool]], ...] = (
    ("recall@1", lambda score: score.hit_at(1)),
    *((f"hit@B{budget}", _within(budget)) for budget in BUDGETS),
)


@dataclass(frozen=True, slots=True)
class Comparison:
    """One candidate against one baseline on one outcome."""

    outcome: str
    baseline: str
    wins: int  # questions the candidate hits and the baseline misses
    losses: int  # and the other way round
    p_value: float

    def as_dict(self) -> dict[str, object]:
        return {
            "outcome": self.outcome,
            "baseline": self.baseline,
            "wins": self.wins,
            "losses": self.losses,
            "pValue": round(self.p_value, 4),
        }


def sign_test(wins: int, losses: int) -> float:
    """Exact two-sided p-value of ``wins`` against ``losses`` when each is as likely."""
    n = wins + losses
    if n == 0:
        return 1.0
    tail = sum(comb(n, i) for i in range(min(wins, losses) + 1)) / (1 << n)
    return min(1.0, 2 * tail)


def versus_best_baseline(results: Sequence[CandidateResult]) -> dict[str, list[Comparison]]:
    """Candidate name -> its comparisons, for every candidate that is not a baseline; empty when
    the run has no baseline."""
    baselines = [r for r in results if r.candidate.baseline]
    if not baselines:
        return {}
    comparisons: dict[str, list[Comparison]] = {}
    for outcome, hit in OUTCOMES:
        best = max(baselines, key=lambda r: sum(hit(score) for score in r.scores))
        theirs = {score.id: hit(score) for score in best.scores}
        for result in results:
            if result.candidate.baseline:
                continue
            ours = {score.id: hit(score) for score in result.scores}
            wins = sum(ours[q] and not theirs[q] for q in ours)
            losses = sum(theirs[q] and not ours[q] for q in ours)
            comparisons.setdefault(result.candidate.name, []).append(
                Comparison(outcome, best.candidate.name, wins, losses, sign_test(wins, losses))
            )
    return comparisons


def versus_table(comparisons: dict[str, list[Comparison]]) -> str:
    """One row per candidate: questions won / lost against each outcome's best baseline, and the
    sign test's p-value."""
    if not comparisons:
        return ""
    outcomes = [c.outcome for c in next(iter(comparisons.values()))]
    width = max(len(name) for name in comparisons) + 2
    header = f"{'versus the best baseline':<{width}}" + "".join(f"{o:>22}" for o in outcomes)
    lines = [header, "-" * len(header)]
    for name, rows in comparisons.items():
        cells = "".join(f"{f'+{c.wins} -{c.losses}  p={c.p_value:.2f}':>22}" for c in rows)
        lines.append(f"  {name:<{width - 2}}{cells}")
    best = {c.outcome: c.baseline for c in next(iter(comparisons.values()))}
    lines.append(
        "(+won -lost: questions only one side answers; p: exact sign test; best baselines: "
        + ", ".join(f"{o} {b}" for o, b in best.items())
        + ")"
    )
    return "\n".join(lines)
