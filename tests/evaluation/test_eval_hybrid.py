"""BM25, Reciprocal Rank Fusion and the evaluation's hybrid retrieval, on hand-checked cases."""

from __future__ import annotations

import argparse
import math

import numpy as np
import pytest

from skills.evaluation.retrieval import hybrid_rank, normalized, rank
from skills.ranking import (
    BM25,
    VECTOR_WEIGHT,
    english_words,
    fuse,
    hybrid,
    identifier_words,
    vector_weight,
    word_delimiter,
    words,
)


def test_words_are_lower_cased_word_runs() -> None:
    assert words("Retry the REQUEST (url_path)!") == ["retry", "the", "request", "url_path"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A mark between two letters joins them (UAX #29, WB6-WB7): Lucene's StandardTokenizer.
        ("Client.get(url)", ["client.get", "url"]),
        ("os.path.join", ["os.path.join"]),
        ("You're my 'favorite'.", ["you're", "my", "favorite"]),
        ("you\u2019re", ["you\u2019re"]),
        ("S:t Eriksgatan", ["s:t", "eriksgatan"]),
        # Between two digits: . , ; ' (WB11-WB12).
        ("3.14 and 1,000;5 and 12'000", ["3.14", "and", "1,000;5", "and", "12'000"]),
        # A digit next to the mark on one side only ends the word (apache/lucene#12264).
        ("a9nine.com a9.com v1.x x.1", ["a9nine.com", "a9", "com", "v1", "x", "x", "1"]),
        # Two marks, a mark at an edge, a hyphen, a slash: a boundary.
        (
            "std::vector a..b end. -x x- a-b a/b",
            ["std", "vector", "a", "b", "end", "x", "x", "a", "b", "a", "b"],
        ),
        ("__init__ and snake_case_9", ["__init__", "and", "snake_case_9"]),
    ],
)
def test_words_split_as_the_standard_analyzer_does(text: str, expected: list[str]) -> None:
    assert words(text) == expected


def test_hostile_keyword_input_is_split_whole() -> None:
    assert words("a." * 100_000) == ["a." * 99_999 + "a"]  # one long dotted word, found at once
    assert words("1," * 100_000 + "x") == ["1," * 99_999 + "1", "x"]
    assert words("\x00\ufffd!?" * 1000) == [] and words("") == []
    assert hybrid([], []) == [] and [p for p, _ in hybrid([2, 1], [])] == [2, 1]


def test_a_dotted_name_is_one_keyword_to_the_standard_analyzer_and_parts_to_ours() -> None:
    # Azure's default analyzer does not find "client" in "httpx.AsyncClient"; nor do we with it.
    texts = ["httpx.AsyncClient() opens a pool", "a client sends requests"]
    standard = BM25(texts, "standard.lucene")
    assert [p for p, _ in standard.rank("async client")] == [1]
    assert [p for p, _ in standard.rank("httpx.AsyncClient")] == [0]
    # The index definitions' analyzer (the default) finds it by its parts, the whole name first.
    assert {p for p, _ in BM25(texts).rank("async client")} == {0, 1}
    assert next(p for p, _ in BM25(texts).rank("httpx.AsyncClient")) == 0


def test_bm25_score_matches_the_formula_by_hand() -> None:
    ranking = BM25(["timeout timeout retry", "retry", "other words here"])
    # "timeout": in 1 of 3 texts; text 0 has 3 words, mean length 7/3; k1 = 1.2, b = 0.75.
    idf = math.log(1 + (3 - 1 + 0.5) / (1 + 0.5))
    norm = 1.2 * (1 - 0.75 + 0.75 * 3 / (7 / 3))
    expected = idf * 2 * 2.2 / (2 + norm)
    [(position, score)] = ranking.rank("Timeout?")
    assert position == 0 and score == pytest.approx(expected)


def test_bm25_prefers_rarer_terms_and_shorter_texts() -> None:
    ranking = BM25(["retry once", "retry twice with a much longer text around it", "jitter"])
    assert [p for p, _ in ranking.rank("retry")] == [0, 1]
    assert ranking.rank("retry jitter")[0][0] == 2  # the rarer term weighs more
    assert ranking.rank("absent") == []


def test_fuse_sums_reciprocal_ranks() -> None:
    fused = dict(fuse([[7, 8], [8, 9]], k=60))
    assert fused[8] == pytest.approx(1 / 62 + 1 / 61)
    assert fused[7] == pytest.approx(1 / 61) and fused[9] == pytest.approx(1 / 62)
    assert [p for p, _ in fuse([[1, 2], [2, 1]])] == [1, 2]  # a tie goes to the lower position


def test_hybrid_lifts_an_exact_keyword_match_the_vectors_rank_low() -> None:
    leaves = ["alpha text", "beta text", "CORSMiddleware preflight OPTIONS"]
    leaf_vectors = normalized([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0]])
    question_vectors = normalized([[1.0, 0.05]])
    assert rank(question_vectors, leaf_vectors, 3) == [[0, 1, 2]]
    hybrid = hybrid_rank(
        ["what does CORSMiddleware do with a preflight?"],
        question_vectors,
        leaves,
        leaf_vectors,
        3,
        vector_k=3,
    )
    assert hybrid == [[2, 0, 1]]  # 1/61 + 1/63 (keyword first, vector last) beats 1/61 alone


def test_the_vector_weight_decides_which_half_leads_a_tie_of_ranks() -> None:
    """The same lists as above (the keywords match leaf 2 alone, the vectors rank it last): leaf
    2 scores 1/61 + w/63 and the vector's first w/61, which leads only once w > 31.5."""
    leaves = ["alpha text", "beta text", "CORSMiddleware preflight OPTIONS"]
    leaf_vectors = normalized([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0]])
    question_vectors = normalized([[1.0, 0.05]])
    question = ["what does CORSMiddleware do with a preflight?"]

    def ranked(weight: float) -> list[list[int]]:
        return hybrid_rank(question, question_vectors, leaves, leaf_vectors, 3, 3,
                           vector_weight=weight)  # fmt: skip

    assert ranked(1.0) == [[2, 0, 1]]
    assert ranked(30.0) == [[2, 0, 1]]
    assert ranked(40.0) == [[0, 2, 1]]
    assert ranked(0.1) == [[2, 0, 1]]
    with pytest.raises(ValueError, match="one weight a ranking"):
        fuse([[1], [2]], weights=[1.0])


def test_hybrid_without_keyword_matches_is_the_vector_ranking() -> None:
    vectors = normalized(np.eye(3, dtype=np.float32))
    question = normalized([[0.1, 1.0, 0.2]])
    ranked = hybrid_rank(["zzz"], question, ["a", "b", "c"], vectors, 3, vector_k=3)
    assert ranked == rank(question, vectors, 3)


def test_hybrid_fuses_the_vector_query_s_k_nearest_and_1000_keyword_results() -> None:
    # Leaves 0-1049 match the keyword alike (ranked in order); 1050-1052 are the vectors nearest
    # the question, in that order, and match no keyword.
    texts = ["timeout"] * 1050 + ["other"] * 50
    vectors = normalized([[1.0, 0.0]] * 1100)
    vectors[1050:1053] = normalized([[0.0, 1.0], [0.1, 1.0], [0.2, 1.0]])
    question = normalized([[0.0, 1.0]])
    [ranked] = hybrid_rank(["timeout"], question, texts, vectors, 1100, vector_k=2)
    assert ranked[:4] == [0, 1050, 1, 1051]  # 1/61 each for the firsts, then 1/62; ties by position
    assert 1052 not in ranked, "the vector's third is beyond k"
    assert 999 in ranked and 1000 not in ranked, "the 1,000th keyword result is fused, not the next"


def test_the_english_analyzer_drops_possessives_and_stop_words_and_stems() -> None:
    assert english_words("The Speaker's budgets are balanced") == ["speaker", "budget", "balanc"]
    assert english_words("it is what it is") == ["what"]


def test_with_the_english_analyzer_a_plural_question_finds_the_singular_text() -> None:
    texts = ["the line-item veto", "appropriations bills were late"]
    assert BM25(texts).rank("vetoes") == []
    assert [position for position, _ in BM25(texts, "en.lucene").rank("vetoes")] == [0]


def test_an_unknown_analyzer_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"en\.lucene"):
        BM25(["a"], "english")


@pytest.mark.parametrize(
    ("token", "parts"),
    [
        # Lucene's documented rules: delimiters, case changes, letter-digit transitions.
        ("Wi-Fi", ["Wi", "Fi"]),
        ("PowerShot", ["Power", "Shot"]),
        ("SD500", ["SD", "500"]),
        ("500-42", ["500", "42"]),
        ("//hello---there, 'dude'", ["hello", "there", "dude"]),
        ("O'Neil's", ["O", "Neil"]),
        # Upper to lower never cuts: the run of capitals keeps the next word's first letter.
        ("XMLHttpRequest", ["XMLHttp", "Request"]),
        ("OUTPUT_TYPES", ["OUTPUT", "TYPES"]),
        ("os.path.join", ["os", "path", "join"]),
        ("__init__", ["init"]),
        # A possessive is only an apostrophe and s after a letter, before a delimiter or the end.
        ("Bob's.name", ["Bob", "name"]),
        ("it'sok", ["it", "sok"]),
        ("you\u2019re", ["you", "re"]),  # Lucene checks the ASCII apostrophe only
        ("\u65e5\u672c\u8a9e", []),  # letters without case: one part, passed whole
    ],
)
def test_the_word_delimiter_cuts_as_lucenes_filter(token: str, parts: list[str]) -> None:
    assert word_delimiter(token) == ([token, *parts] if parts else [token])


def test_a_token_of_only_delimiters_is_kept_whole() -> None:
    assert word_delimiter("_") == ["_"] and word_delimiter("") == [""]


def test_identifier_terms_hold_every_standard_term() -> None:
    text = "Set OUTPUT_TYPES in httpx.AsyncClient's pool, 1,000.50 ms; SD500 don't."
    standard, identifiers = words(text), identifier_words(text)
    assert set(standard) <= set(identifiers)
    assert identifiers[1:4] == ["output_types", "output", "types"]
    assert {"async", "client", "pool", "1", "000", "50", "sd", "500"} <= set(identifiers)


def test_with_the_identifiers_analyzer_a_readers_words_find_the_identifier() -> None:
    texts = ["OUTPUT_TYPES lists the formats", "the output of a run has types"]
    # standard.lucene: "output" and "types" match only the second text.
    assert [p for p, _ in BM25(texts, "standard.lucene").rank("output types")] == [1]
    assert {p for p, _ in BM25(texts, "identifiers").rank("output types")} == {0, 1}
    # The whole identifier, asked for, still ranks its own text first.
    assert next(p for p, _ in BM25(texts, "identifiers").rank("OUTPUT_TYPES")) == 0


@pytest.mark.parametrize("text", ["0", "-1", "nan", "inf", "half", ""])
def test_a_vector_weight_the_service_would_refuse_is_refused_on_the_command_line(
    text: str,
) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="above 0"):
        vector_weight(text)


def test_the_query_and_eval_command_lines_take_the_vector_weight_into_their_options() -> None:
    from skills.evaluation.cli import parser as eval_parser
    from skills.search.cli import _options, _parser

    args = _parser().parse_args(["query", "q", "--vector-weight", "0.5"])
    assert _options(args).vector_weight == 0.5
    assert _options(_parser().parse_args(["query", "q"])).vector_weight == VECTOR_WEIGHT == 1.0
    assert eval_parser().parse_args(["--vector-weight", "2"]).vector_weight == 2.0
    given = eval_parser().parse_args(["--baseline-vector-weight", "0.5"])
    assert (given.vector_weight, given.baseline_vector_weight) == (VECTOR_WEIGHT, 0.5)
    with pytest.raises(SystemExit):
        _parser().parse_args(["query", "q", "--vector-weight", "0"])
