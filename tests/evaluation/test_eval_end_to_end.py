"""A whole run on a tiny corpus with a deterministic embedder: command, files and numbers."""

from __future__ import annotations

import csv
import hashlib
import json
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from skills import embeddings
from skills.evaluation import cli
from skills.evaluation.dataset import Dataset, load_dataset
from skills.evaluation.grid import BASELINES, Candidate
from skills.evaluation.run import build_chunk_set, evaluate

SECTIONS = {
    "alpha": "Penguins waddle across cold ice and dive for krill.",
    "beta": "Volcanoes erupt molten lava when magma pressure rises.",
    "gamma": "Orchids bloom slowly in humid greenhouses with filtered light.",
    "delta": "Glaciers carve deep valleys over thousands of years.",
    "epsilon": "Coral reefs shelter colourful fish in shallow tropical water.",
    "zeta": "Thunderstorms gather where warm moist air rises quickly.",
    "eta": "Desert cacti store water inside thick waxy stems.",
    "theta": "Migrating geese navigate using the stars and magnetic fields.",
    "iota": "Mushrooms spread hidden threads through damp forest soil.",
}


class BagOfWords:
    """Hashed bag of words: a question sharing a section's words retrieves that section."""

    dimensions = 64

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        vectors = []
        for text in texts:
            vector = [0.0] * self.dimensions
            for word in re.findall(r"[a-z]{4,}", text.lower()):
                vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dimensions] += 1
            vectors.append(vector)
        return vectors


@pytest.fixture
def corpus(tmp_path: Path) -> tuple[Path, Path]:
    docs = tmp_path / "docs"
    docs.mkdir()
    body = "".join(f"## {name}\n\n{text}\n\n" for name, text in SECTIONS.items())
    (docs / "nature.md").write_text("# Nature\n\n" + body, encoding="utf-8")
    questions = tmp_path / "questions.jsonl"
    records = [
        {
            "id": "q-penguin",
            "question": "What do penguins dive for on the ice?",
            "doc": "nature.md",
            "reference": SECTIONS["alpha"],
            "kind": "prose",
        },
        {
            "id": "q-volcano",
            "question": "When does magma make volcanoes erupt lava?",
            "doc": "nature.md",
            "reference": SECTIONS["beta"],
            "kind": "context",
        },
    ]
    questions.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    return docs, questions


HIER = {"strategy": "hierarchical", "parentMaxTokens": 64, "childMaxTokens": 24}


def test_small_chunks_find_each_reference_first(corpus: tuple[Path, Path]) -> None:
    dataset = load_dataset(*corpus)
    candidates = [
        Candidate("hier parent", "engine", HIER, "parent"),
        Candidate("hier child", "engine", HIER, "child"),
        Candidate("fixed-16", "fixed", {"size": 16, "overlap": 0}, "child"),
    ]
    hier_parent, hier_child, fixed = evaluate(dataset, candidates, BagOfWords())
    assert hier_child.summary["recall@1"] == 100.0
    assert hier_child.summary["mrr"] == 1.0
    assert hier_parent.summary["recall@1"] == 100.0
    # a parent holds the reference and more: it costs more context than the child alone
    assert hier_parent.summary["context_tokens@5"] > hier_child.summary["context_tokens@5"]
    assert hier_parent.summary["chroma_precision@5"] < hier_child.summary["chroma_precision@5"]
    # 16-token windows cut the 12-14-token sentences: whole-reference hits are lost
    assert fixed.summary["recall@10"] < 100.0
    assert fixed.structure["mid_sentence_pct"] > 0
    assert set(hier_child.kinds) == {"prose", "context"}


class Blind:
    """The same vector for every text: vector search alone cannot tell the leaves apart."""

    dimensions = 2

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0, 0.0] for _ in texts]


def test_hybrid_retrieval_finds_by_keywords_what_blind_vectors_cannot(
    corpus: tuple[Path, Path],
) -> None:
    dataset = load_dataset(*corpus)
    [candidate] = [Candidate("hier child", "engine", HIER, "child")]
    [vector] = evaluate(dataset, [candidate], Blind())
    [hybrid] = evaluate(dataset, [candidate], Blind(), retrieval="hybrid")
    assert vector.summary["recall@1"] < 100.0
    assert hybrid.summary["recall@1"] == 100.0
    with pytest.raises(ValueError, match="retrieval must be one of vector, hybrid"):
        evaluate(dataset, [candidate], Blind(), retrieval="keyword")


def _one_identifier_asked_for(tmp_path: Path) -> tuple[Dataset, Candidate, Candidate]:
    """Three paragraphs, one naming ``OUTPUT_TYPES``, asked for in a reader's words, with the
    engine's candidate and a 24-token window as a baseline: the fusion's tests' one set."""
    paragraphs = [
        "The install step copies the tool and its templates into the home folder of the user.",
        "Set OUTPUT_TYPES to the formats the report is written in, one name per line.",
        "The login screen asks for a tenant, a name and a password before anything else runs.",
    ]
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "api.md").write_text("# API\n\n" + "\n\n".join(paragraphs) + "\n", encoding="utf-8")
    questions = tmp_path / "questions.jsonl"
    record = {"id": "q", "question": "Which output types?", "doc": "api.md",
              "reference": paragraphs[1], "kind": "prose"}  # fmt: skip
    questions.write_text(json.dumps(record), encoding="utf-8")
    dataset = load_dataset(docs, questions)
    ours = Candidate("hier child", "engine", HIER, "child")
    window = Candidate(
        "recursive-24", "recursive", {"size": 24, "overlap": 0}, "child", baseline=True
    )
    return dataset, ours, window


def test_baselines_rank_with_the_analyzer_their_index_has(tmp_path: Path) -> None:
    # One identifier, asked for in a reader's words; the blind vectors leave it to the keywords.
    dataset, ours, window = _one_identifier_asked_for(tmp_path)

    def top1(analyzer: str, baseline_analyzer: str | None = None) -> list[float]:
        candidates = [ours, window]
        results = evaluate(
            dataset, candidates, Blind(), retrieval="hybrid", analyzer=analyzer,
            baseline_analyzer=baseline_analyzer,
        )  # fmt: skip
        return [result.summary["recall@1"] for result in results]

    assert top1("identifiers") == [100.0, 100.0]
    assert top1("identifiers", baseline_analyzer="standard.lucene") == [100.0, 0.0]
    assert top1("standard.lucene") == [0.0, 0.0]


def test_semantic_candidates_get_the_runs_embedder_for_their_boundaries(
    corpus: tuple[Path, Path],
) -> None:
    dataset = load_dataset(*corpus)
    semantic = Candidate("semantic", "engine", {**HIER, "strategy": "semantic"}, "child")
    [result] = evaluate(dataset, [semantic], BagOfWords())
    assert not any("unavailable" in warning for warning in result.warnings)
    assert result.summary["recall@1"] > 0


def test_the_command_writes_table_json_csv_and_plot(
    corpus: tuple[Path, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def fake_default(cache: Path | None = None) -> embeddings.CachedEmbedder:
        return embeddings.CachedEmbedder(BagOfWords(), model="bow", directory=tmp_path / "cache")

    monkeypatch.setattr(embeddings, "default_embedder", fake_default)
    grid = tmp_path / "grid.json"
    grid.write_text(
        json.dumps(
            {
                "baselines": False,
                "candidates": [
                    {"name": "hier", "chunker": "engine", "params": HIER, "returns": "merge:0.5"},
                    {
                        "name": "fixed-16",
                        "chunker": "fixed",
                        "params": {"size": 16, "overlap": 4},
                        "returns": "child",
                    },
                ],
            }
        ),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    docs, questions = corpus
    argv = [
        "--docs",
        str(docs),
        "--questions",
        str(questions),
        "--grid",
        str(grid),
        "--out",
        str(out),
    ]
    assert cli.main(argv) == 0
    captured = capsys.readouterr()
    printed = captured.out
    assert "2 candidates" in captured.err and "tokens to embed" in captured.err
    assert "B2000" in printed and "hier" in printed and "cache: 0 hits" in printed

    payload = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert [r["name"] for r in payload["results"]] == ["hier", "fixed-16"]
    assert payload["results"][0]["summary"]["recall@1"] == 100.0
    rows = list(csv.DictReader((out / "results.csv").open(encoding="utf-8")))
    assert rows[0]["name"] == "hier" and float(rows[0]["recall@1"]) == 100.0
    assert (out / "hit_by_budget.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    assert cli.main([*argv, "--no-plot"]) == 0
    assert "new)" in capsys.readouterr().out
    assert embeddings.CachedEmbedder(BagOfWords(), model="bow", directory=tmp_path / "cache")


def test_the_command_refuses_a_bad_input_with_exit_status_2(
    corpus: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs, _ = corpus
    assert cli.main(["--docs", str(docs), "--questions", str(tmp_path / "none.jsonl")]) == 2
    assert "error:" in capsys.readouterr().err


def test_without_a_set_it_measures_the_dev_set_else_the_bundled_one_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "DEFAULT_DEV_SET", tmp_path / "absent")
    args = cli.parser().parse_args([])
    cli._choose_set(args)
    assert args.set == cli.BUNDLED_SET and (cli.BUNDLED_SET / "manifest.json").is_file()
    assert "measuring the bundled evaluation_sets/licenses" in capsys.readouterr().err

    (tmp_path / "dev").mkdir()
    (tmp_path / "dev" / "questions.jsonl").write_text("{}\n", encoding="utf-8")
    monkeypatch.setattr(cli, "DEFAULT_DEV_SET", tmp_path / "dev")
    args = cli.parser().parse_args([])
    cli._choose_set(args)
    assert args.set is None and args.docs == tmp_path / "dev" / "docs"
    assert capsys.readouterr().err == ""

    args = cli.parser().parse_args(["--docs", str(tmp_path)])
    cli._choose_set(args)
    assert args.docs == tmp_path and args.questions == tmp_path / "dev" / "questions.jsonl"


def runbook_set(tmp_path: Path, records: list[dict[str, object]]) -> Dataset:
    """The runbook PDF fixture and one question about its first line per record (each record
    gives its ``id`` and, where it has one, its ``page``)."""
    runbook = Path(__file__).parents[1] / "formats" / "fixtures" / "operations-runbook.pdf"
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "runbook.pdf").write_bytes(runbook.read_bytes())
    question = {
        "question": "Who is the runbook for?",
        "doc": "runbook.pdf",
        "reference": "This runbook is for the on-call engineer",
        "kind": "prose",
    }
    questions = tmp_path / "questions.jsonl"
    lines = "".join(json.dumps({**question, **record}) + "\n" for record in records)
    questions.write_text(lines, encoding="utf-8")
    return load_dataset(docs, questions)


def test_the_built_in_path_splits_a_pdfs_cracked_text_and_is_judged_on_the_converted_text(
    tmp_path: Path,
) -> None:
    dataset = runbook_set(tmp_path, [{"id": "q1"}])
    [textsplit] = [c for c in BASELINES if c.chunker == "textsplit"]
    [result] = evaluate(dataset, [textsplit], BagOfWords())
    assert result.candidate.baseline
    assert result.summary["hit@B2000"] == 100.0
    chunks = build_chunk_set(textsplit, dataset)
    assert (
        chunks.leaves[0].embed_text
        == dataset.cracked["runbook.pdf"][: len(chunks.leaves[0].embed_text)]
    )
    assert not chunks.leaves[0].embed_text.startswith("#")


def test_a_recorded_page_is_scored_for_every_candidate_by_the_converters_page_breaks(
    tmp_path: Path,
) -> None:
    dataset = runbook_set(tmp_path, [{"id": "p1", "page": 1}, {"id": "p2", "page": 99}])
    assert [q.page for q in dataset.questions] == [1, 99]
    [textsplit] = [c for c in BASELINES if c.chunker == "textsplit"]
    ours = Candidate("hier budget", "engine", HIER, "budget")
    for result in evaluate(dataset, [textsplit, ours], BagOfWords()):
        first, last = result.scores
        assert first.budget_hit[500] and first.budget_page[500]  # the answer's page is in it
        assert last.budget_hit[500]
        assert not any(last.budget_page.values())  # the runbook has no page 99
        assert "page@B500" in result.summary
        assert result.as_dict()["questions"][0]["pageB500"] is True


class Pointing:
    """Vectors that point the question at the login paragraph, away from the keywords' answer."""

    dimensions = 2

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0, 0.0] if "login" in t or "output types" in t else [0.0, 1.0] for t in texts]


def test_the_vector_weight_is_the_engines_and_the_baselines_keep_the_services(
    tmp_path: Path,
) -> None:
    """The keywords find the answer and the vectors another paragraph: weighted 1,000 the
    vector half wins the fusion, for the engine's candidate only unless the baselines are
    given the same weight."""
    dataset, ours, window = _one_identifier_asked_for(tmp_path)

    def top1(ours_weight: float = 1.0, baselines_weight: float = 1.0) -> list[float]:
        results = evaluate(dataset, [ours, window], Pointing(), retrieval="hybrid",
                           baseline_analyzer="identifiers", vector_weight=ours_weight,
                           baseline_vector_weight=baselines_weight)  # fmt: skip
        return [result.summary["recall@1"] for result in results]

    assert top1() == [100.0, 100.0]
    assert top1(ours_weight=1000.0) == [0.0, 100.0]
    assert top1(ours_weight=1000.0, baselines_weight=1000.0) == [0.0, 0.0]
