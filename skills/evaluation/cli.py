"""``python -m skills eval``: which chunking retrieves best on these documents, at what cost.

    python -m skills eval                                  # dev set (else a bundled one), baselines
    python -m skills eval --docs DIR --questions FILE      # your documents (.jsonl or Chroma .csv)
    python -m skills eval --grid grid.json --out results/  # your candidates
    python -m skills eval --only "hier-1024-160-32 budget" --no-baselines
    python -m skills eval --retrieval hybrid               # BM25 + vector, as the service queries
    python -m skills eval --set evaluation_sets/licenses   # a set over installed packages' files

Without ``--set``, ``--docs`` or ``--questions`` it measures the shared dev set when this checkout
has it beside it (``../shared/eval/dev``), else the bundled ``evaluation_sets/licenses``, and
says which. Before the work starts it says how long it will take (``estimate.py``).

Writes ``results.json``, ``results.csv`` and ``hit_by_budget.png`` to ``--out`` and prints the
table. Embeds with Azure OpenAI when ``AZURE_OPENAI_ENDPOINT`` and
``AZURE_OPENAI_EMBEDDING_DEPLOYMENT`` are set, else with the local all-MiniLM-L6-v2; vectors are
cached on disk (``--cache``), so a second run embeds nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from skills.evaluation.dataset import DEFAULT_DEV_SET, DatasetError, load_dataset
from skills.evaluation.grid import Candidate, load_grid
from skills.evaluation.installed import SETS, load_set
from skills.evaluation.retrieval import RETRIEVALS
from skills.ranking import (
    ANALYZERS,
    DEFAULT_ANALYZER,
    HALVES_FIRST,
    SERVICE_VECTOR_WEIGHT,
    VECTOR_WEIGHT,
    vector_weight,
)

#: The baselines' keyword analysis unless told: Azure's default analyzer, which an index of their
#: chunks has (the built-in path's wizard and a LangChain index declare no other).
BASELINE_ANALYZER = "standard.lucene"

#: The set measured when the shared dev set is not there: the smallest bundled one (19 questions).
BUNDLED_SET = SETS / "licenses"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m skills eval", description=__doc__.split("\n")[0])
    p.add_argument("--docs", type=Path, help=f"documents folder (default {DEFAULT_DEV_SET}/docs)")
    p.add_argument(
        "--questions",
        type=Path,
        help="questions (.jsonl: dev format or Chroma-style offsets; .csv: Chroma's "
        f"questions_df; default {DEFAULT_DEV_SET}/questions.jsonl)",
    )
    p.add_argument(
        "--set",
        type=Path,
        help="a set of evaluation_sets/ (questions over files of the installed packages, "
        "skills/evaluation/installed.py), instead of --docs and --questions",
    )
    p.add_argument(
        "--grid", type=Path, help="JSON grid of candidates (see skills/evaluation/grid.py)"
    )
    p.add_argument("--no-baselines", action="store_true", help="leave the baselines out")
    p.add_argument("--only", nargs="+", metavar="NAME", help="run only these candidates")
    p.add_argument("--out", type=Path, default=Path("eval-results"), help="output folder")
    p.add_argument("--cache", type=Path, help="embedding cache folder")
    p.add_argument(
        "--retrieval",
        choices=RETRIEVALS,
        default="vector",
        help="vector: exact cosine, as the reference judge (default); hybrid: BM25 + vector fused "
        "by RRF, as the search side's query",
    )
    p.add_argument(
        "--analyzer",
        choices=sorted(ANALYZERS),
        default=DEFAULT_ANALYZER,
        help="how hybrid retrieval's BM25 splits words, as the index's text fields are analyzed "
        f"(default {DEFAULT_ANALYZER}; en.lucene adds English stop words and Porter stemming; "
        "identifiers also cuts identifiers into their parts: OUTPUT_TYPES -> output, types)",
    )
    p.add_argument(
        "--baseline-analyzer",
        choices=sorted(ANALYZERS),
        default=BASELINE_ANALYZER,
        help="the baselines' BM25 words: the analyzer an index of their chunks has "
        f"(default {BASELINE_ANALYZER}, Azure's default; give the --analyzer's to compare "
        "chunkings alone)",
    )
    p.add_argument(
        "--vector-weight",
        type=vector_weight,
        default=VECTOR_WEIGHT,
        help="the engine's hybrid query: its vector query's weight in the fusion (REST "
        f"vectorQueries[].weight; default {VECTOR_WEIGHT:g})",
    )
    p.add_argument(
        "--baseline-vector-weight",
        type=vector_weight,
        default=SERVICE_VECTOR_WEIGHT,
        help="the baselines' vector weight (default the service's, "
        f"{SERVICE_VECTOR_WEIGHT:g}; give the --vector-weight's to compare chunkings alone)",
    )
    p.add_argument(
        "--halves-first",
        action=argparse.BooleanOptionalAction,
        default=HALVES_FIRST,
        help="the engine's hybrid query lifts each half's first result to just after the fused "
        f"first (skills.ranking.halves_first; default {'on' if HALVES_FIRST else 'off'}); the "
        "baselines' plain service query does not",
    )
    p.add_argument("--no-plot", action="store_true", help="skip the PNG")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    _choose_set(args)
    try:
        dataset = load_set(args.set) if args.set else load_dataset(args.docs, args.questions)
        candidates = load_grid(args.grid, with_baselines=not args.no_baselines)
    except (DatasetError, ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.only:
        unknown = set(args.only) - {c.name for c in candidates}
        if unknown:
            print(f"error: no candidate named {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        candidates = [c for c in candidates if c.name in set(args.only)]
    from skills.embeddings import default_embedder
    from skills.evaluation import report
    from skills.evaluation.estimate import estimate
    from skills.evaluation.run import evaluate
    from skills.evaluation.versus import versus_best_baseline, versus_table

    embedder = default_embedder(args.cache)
    print(
        f"{len(candidates)} candidates, {len(dataset.questions)} questions over "
        f"{len(dataset.documents)} documents: "
        + estimate(dataset, candidates, embedder.inner).sentence(),
        file=sys.stderr,
        flush=True,
    )
    results = evaluate(
        dataset,
        candidates,
        embedder,
        _progress,
        args.retrieval,
        analyzer=args.analyzer,
        baseline_analyzer=args.baseline_analyzer,
        vector_weight=args.vector_weight,
        baseline_vector_weight=args.baseline_vector_weight,
        halves=args.halves_first,
    )
    args.out.mkdir(parents=True, exist_ok=True)
    meta = {
        "docs": str(args.set or args.docs),
        "questions": str(args.set / "questions.jsonl" if args.set else args.questions),
        "documents": len(dataset.documents),
        "questionCount": len(dataset.questions),
        "embedder": embedder.model_name,
        "retrieval": args.retrieval,
        "analyzer": args.analyzer,
        "baselineAnalyzer": args.baseline_analyzer,
        "vectorWeight": args.vector_weight,
        "baselineVectorWeight": args.baseline_vector_weight,
        "halvesFirst": args.halves_first,
    }
    comparisons = versus_best_baseline(results)
    report.write_json(results, args.out / "results.json", meta, comparisons)
    report.write_csv(results, args.out / "results.csv")
    if not args.no_plot:
        report.write_plot(results, args.out / "hit_by_budget.png")
    print(report.table(results))
    print()
    print(report.kinds_table(results))
    if comparisons:
        print()
        print(versus_table(comparisons))
    print(
        f"\n{len(dataset.questions)} questions, {len(dataset.documents)} documents, "
        f"{args.retrieval} retrieval, embedder {embedder.model_name} "
        f"(cache: {embedder.hits} hits, {embedder.misses} new); "
        f"* = baseline; outputs in {args.out}/"
    )
    return 0


def _choose_set(args: argparse.Namespace) -> None:
    """Fill in the default set: the shared dev set where it is, else the bundled one, said."""
    if args.set or args.docs or args.questions:
        args.docs = args.docs or DEFAULT_DEV_SET / "docs"
        args.questions = args.questions or DEFAULT_DEV_SET / "questions.jsonl"
        return
    if (DEFAULT_DEV_SET / "questions.jsonl").is_file():
        args.docs, args.questions = DEFAULT_DEV_SET / "docs", DEFAULT_DEV_SET / "questions.jsonl"
        return
    args.set = BUNDLED_SET
    print(
        f"the shared dev set is not beside this checkout ({DEFAULT_DEV_SET}): measuring the "
        f"bundled {BUNDLED_SET.relative_to(SETS.parent)} instead (--set, --docs and --questions "
        "choose another)",
        file=sys.stderr,
    )


def _progress(candidates: Iterable[Candidate]) -> Iterable[Candidate]:
    from tqdm import tqdm

    items = list(candidates)
    bar = tqdm(items, desc="candidates", unit="cand", file=sys.stderr)
    for candidate in bar:
        bar.set_postfix_str(candidate.name)
        yield candidate
