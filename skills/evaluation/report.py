"""The outputs of a run: a terminal table, JSON, CSV, and a PNG of hit rate against budget.

The table leads with the index's costs (vectors, embedded tokens and index size per MiB of
documents), the headline numbers (top-1, top-5 and its context cost, whole-reference hit within
a prompt of 500 to 8,000 tokens, prompts holding a table fragment without its header) and the
structure checks; the JSON holds
everything, per kind and per question; the CSV is one flat row per candidate for a spreadsheet.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from skills.evaluation.metrics import BUDGETS
from skills.evaluation.run import CandidateResult
from skills.evaluation.versus import Comparison

#: (column title, where the number is, format) of the terminal table.
COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("leaves", "structure.leaves", "{:.0f}"),
    ("tok", "structure.mean_leaf_tokens", "{:.0f}"),
    ("vec/MiB", "structure.leaves_per_mib", "{:.0f}"),
    ("embTok/MiB", "structure.embedded_tokens_per_mib", "{:.0f}"),
    ("idxMiB/MiB", "structure.index_mib_per_mib", "{:.1f}"),
    ("R@1", "summary.recall@1", "{:.1f}"),
    ("R@5", "summary.recall@5", "{:.1f}"),
    ("R@10", "summary.recall@10", "{:.1f}"),
    ("MRR", "summary.mrr", "{:.3f}"),
    ("nDCG@5", "summary.ndcg@5", "{:.3f}"),
    ("ctx@5", "summary.context_tokens@5", "{:.0f}"),
    *((f"B{budget}", f"summary.hit@B{budget}", "{:.1f}") for budget in BUDGETS),
    ("cR@B2000", "summary.char_recall@B2000", "{:.1f}"),
    ("noHdr@B2000", "summary.headerless@B2000", "{:.1f}"),
    ("IoU@5", "summary.chroma_iou@5", "{:.1f}"),
    ("midSent%", "structure.mid_sentence_pct", "{:.1f}"),
    ("cutCode%", "structure.cut_code_pct", "{:.1f}"),
    ("noHdrRow%", "structure.headerless_rows_pct", "{:.1f}"),
    ("rowsCut", "structure.rows_cut", "{:.0f}"),
    ("avoidCut", "structure.avoidable_cuts", "{:.0f}"),
)


def value(result: CandidateResult, path: str) -> float:
    section, _, key = path.partition(".")
    table = result.summary if section == "summary" else result.structure
    return table.get(key, float("nan"))


def table(results: Sequence[CandidateResult], title: str = "candidate") -> str:
    """A fixed-width table, one row per candidate; baselines are marked with ``*``."""
    names = [("* " if r.candidate.baseline else "  ") + r.candidate.name for r in results]
    width = max([len(title) + 2, *map(len, names)])
    rows = [[f"{title:<{width}}", *(c[0] for c in COLUMNS)]]
    for name, result in zip(names, results, strict=True):
        rows.append([f"{name:<{width}}", *(fmt.format(value(result, p)) for _, p, fmt in COLUMNS)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            cell.rjust(w) if i else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in rows
    ]
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)


def kinds_table(results: Sequence[CandidateResult], metric: str = "hit@B2000") -> str:
    """``metric`` per question kind (columns) for each candidate (rows)."""
    kinds = sorted({kind for r in results for kind in r.kinds})
    width = max(len(r.candidate.name) for r in results) + 2
    header = f"{metric + ' by kind':<{width}}" + "".join(f"{k:>15}" for k in kinds)
    lines = [header, "-" * len(header)]
    for r in results:
        marker = "* " if r.candidate.baseline else "  "
        cells = "".join(f"{r.kinds.get(k, {}).get(metric, float('nan')):>15.1f}" for k in kinds)
        lines.append(f"{marker + r.candidate.name:<{width}}{cells}")
    return "\n".join(lines)


def write_json(
    results: Sequence[CandidateResult],
    path: Path,
    meta: dict[str, Any],
    comparisons: Mapping[str, Sequence[Comparison]] | None = None,
) -> None:
    """Everything, and each candidate's comparisons with the best baselines (``versus``)."""
    payload: dict[str, Any] = {"meta": meta, "results": [r.as_dict() for r in results]}
    if comparisons:
        payload["versus"] = {
            name: [c.as_dict() for c in rows] for name, rows in comparisons.items()
        }
    path.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def write_csv(results: Sequence[CandidateResult], path: Path) -> None:
    """One row per candidate: summary, structure, and hit@B2000 / recall@1 per kind."""
    kinds = sorted({kind for r in results for kind in r.kinds})
    rows: list[dict[str, Any]] = []
    for r in results:
        row: dict[str, Any] = {
            "name": r.candidate.name,
            "baseline": r.candidate.baseline,
            "chunker": r.candidate.chunker,
            "params": json.dumps(dict(r.candidate.params), sort_keys=True),
            "returns": r.candidate.returns,
        }
        row.update({k: round(v, 4) for k, v in r.summary.items()})
        row.update({k: round(v, 4) for k, v in r.structure.items()})
        for kind in kinds:
            for metric in ("hit@B1000", "hit@B2000", "recall@1"):
                row[f"{kind}:{metric}"] = round(r.kinds.get(kind, {}).get(metric, 0.0), 2)
        rows.append(row)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def write_plot(results: Sequence[CandidateResult], path: Path) -> None:
    """Whole-reference hit rate against prompt budget, one line per candidate."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(10, 6.5))
    colormap = plt.get_cmap("tab20")
    palette = [colormap(i / 19) for i in range(20)]
    for index, r in enumerate(results):
        rates = [r.summary[f"hit@B{b}"] for b in BUDGETS]
        style, marker = ("--", "s") if r.candidate.baseline else ("-", "o")
        color = palette[index % len(palette)]
        # a small horizontal offset per line keeps identical results visible side by side
        shift = 2 ** (0.12 * (index / max(len(results) - 1, 1) - 0.5))
        xs = [budget * shift for budget in BUDGETS]
        axes.plot(xs, rates, style, marker=marker, color=color, label=r.candidate.name)
    axes.set_xscale("log", base=2)
    axes.set_xticks(BUDGETS, [f"{b:,}" for b in BUDGETS])
    axes.set_xlabel("prompt budget (cl100k tokens of returned context)")
    axes.set_ylabel("questions whose whole reference is in the prompt (%)")
    axes.set_title(
        "Hit rate within a prompt budget (dashed: baselines; lines offset to stay visible)"
    )
    axes.grid(True, alpha=0.3)
    axes.legend(fontsize=7, loc="lower right", ncol=2)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
