"""Specification of ``sentence_starts``: where an oversized paragraph may be cut between sentences.

Each case is written with ``|`` where a new sentence must begin; a case without ``|`` must not be
cut anywhere. The texts are the kind of prose found in FastAPI, httpx and Django REST framework
docs: code spans, URLs, versions, file names and abbreviations next to real sentence ends.
"""

from __future__ import annotations

import doctest
import itertools
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skills.chunking import sentences
from skills.chunking.sentences import sentence_starts

MARK = "|"

CASES = [
    # -- a stop, whitespace and a plausible start: a boundary ------------------------------------
    ("plain", "FastAPI is a modern web framework. |It is based on standard Python type hints."),
    ("code span start", "Use the `Depends` helper. |`Depends` takes any callable."),
    ("code span end", "Then run `uvicorn main:app --reload`. |The server restarts on changes."),
    ("question", "Is the client closed? |Check `client.is_closed` before reusing it."),
    ("exclamation", "It works! |The server restarts on every change."),
    ("mixed stops", "Done?! |Yes, the migration ran."),
    ("three sentences", "Create a router. |Include it in the app. |Run the tests."),
    ("ellipsis then uppercase", "Wait for the worker... |Then call `shutdown()`."),
    ("unicode ellipsis", "The module loads lazily… |The first call is slow."),
    ("closing quote", 'The docs say "use `async def`." |Then they show an example.'),
    ("closing bracket", "(This setting is optional.) |Most apps leave it alone."),
    ("emphasis closer and opener", "Set `PAGE_SIZE` too. |*Nothing is paginated otherwise.* |Ok."),
    ("soft wrap newline", "Path parameters are declared like this.\n|The value becomes an `int`."),
    ("markdown link start", "Read the tutorial first. |[The advanced guide](adv.md) builds on it."),
    ("markdown image start", "See the diagram below. |![Request flow](flow.png) shows each hop."),
    ("bold start", "The hook is required. |**Note:** it runs once per request."),
    ("digit start", "Pagination is configured globally. |2 settings control it."),
    ("accented capital", "The error message is in French. |Échec de la connexion au serveur."),
    ("url ends sentence", "See https://www.python-httpx.org/advanced/. |It covers proxies."),
    ("query url mid sentence", "Call https://example.com/a.b?c=d first. |It returns JSON."),
    ("email ends sentence", "Write to user@example.com. |We answer within a day."),
    ("file name ends sentence", "Put the settings in config.yaml. |Django reads them on startup."),
    ("version ends sentence", "Pin httpx to v0.27.2. |Newer releases changed the transport API."),
    ("python version ends", "Upgrade to Python 3.11. |Older versions are not supported."),
    ("number ends sentence", "The limit is 100. |Requests above it get a 429 response."),
    ("decimal ends sentence", "The request took 1,000.50 ms. |That is slow."),
    ("lowercase variable", "Let the page size be n. |Then the query returns n rows."),
    ("etc then opener", "Filters support `search`, `ordering`, etc. |The order matters."),
    ("initialism then opener", "The servers are in the U.S. |They serve all traffic."),
    ("a.m. then opener", "The job runs at 9 a.m. |The results arrive by noon."),
    ("initial then opener", "Select plan B. |The other plans are deprecated."),
    ("No. without number", "Is a body required? |No. |The body is optional."),
    ("list numbers", "Steps: 1. Install it. |2. Run it."),
    ("unpaired backtick", "A stray ` tick. |The next sentence still splits."),
    ("tick pairs stop at blank line", "One ` here.\n\n|Two ` there. |Three."),
    ("tick pairs start at blank line", "Intro ` text\n\nOne ` here. Two ` end. |Ok."),
    ("tick runs stop at blank line", "One `` here.\n\n|Two `` there. |Three."),
    ("cjk without space", "请先安装依赖。|然后运行服务器！|完成了吗？|是的。"),
    ("cjk with space", "これはテストです。 |次の文です。"),
    ("cjk closing bracket", "他说：「好的。」|然后走了。"),
    # -- traps: no boundary ----------------------------------------------------------------------
    ("e.g. before code", "Use an async client, e.g. `httpx.AsyncClient`, for concurrency."),
    ("e.g. before capital", "Pick a cache backend (e.g. Redis or Memcached) first."),
    ("E.G. upper case", "Some brokers, E.G. RabbitMQ, need a URL."),
    ("i.e.", "The ASGI root path, i.e. `root_path`, is set by the proxy."),
    ("titles", "The talk by Dr. Smith and Mr. Jones covers Django."),
    ("Prof. and St.", "Prof. Lee lives on St. James Street."),
    ("vs. and cf.", "Compare WSGI vs. ASGI servers, cf. Section 3 of the guide."),
    ("Fig. and No. before numbers", "Fig. 2 shows the flow and ticket No. 42 tracks it."),
    ("title needs its capital", "The call takes 5 ms. |Ms. Lee measured it."),
    ("approx.", "Startup takes approx. 3 seconds on a cold container."),
    ("initials", "The book by J. R. R. Tolkien is long."),
    ("initialism mid sentence", "The U.S. Government runs Django in production."),
    ("company mid sentence", "The Acme Ltd. Board approved the license."),
    ("a.m. and p.m. mid sentence", "Backups run between 2 a.m. UTC and 4 p.m. CET every day."),
    ("et al.", "As Smith et al. (2020) showed, the index scales."),
    ("decimals and thousands", "Pi is 3.14 and the fee is 5.000 TL, or 1,000.50 in total."),
    ("versions", "Requires Python 3.11 and httpx 0.27.2 or v1.2.3 of the plugin."),
    ("urls and emails", "Send it to https://example.com/a.b?c=d or mail user@example.com today."),
    ("dotted identifiers", "Call os.path.join to build config.yaml and settings.py paths."),
    ("stop inside code span", "Run `pip install x. Then restart` to upgrade."),
    ("stop inside double-tick span", "Use ``foo`. Bar`` in templates."),
    ("question inside code span", "The regex `a? B` is lazy."),
    ("ellipsis then lowercase", "Wait for it... and then retry the request."),
    ("lowercase after period", "Install it with pip. then run the server."),
    ("non-ascii lowercase after period", "The value is cached. über-fast mode is off."),
    ("lowercase after exclamation", "Powered by Yahoo! and a few other sponsors."),
    ("lowercase after question", "Is it `None`? if so, skip the field."),
    ("quote then lowercase", 'The log printed "Stopped." and the worker exited.'),
    ("stop then trailing space", "Nothing follows this stop.   "),
    ("stop then symbol", "Set the flag. --reload enables auto-restart."),
    ("dots run without space", "Loading......done."),
]


def _spec(marked: str) -> tuple[str, list[int]]:
    """The text of a marked case and the offsets where its ``|`` marks stood."""
    parts = marked.split(MARK)
    offsets, position = [], 0
    for part in parts[:-1]:
        position += len(part)
        offsets.append(position)
    return "".join(parts), offsets


@pytest.mark.parametrize(("marked",), [pytest.param(m, id=name) for name, m in CASES])
def test_sentence_starts_follow_the_spec(marked: str) -> None:
    text, expected = _spec(marked)
    assert sentence_starts(text) == expected


def test_the_spec_has_enough_cases_of_both_kinds() -> None:
    with_cut = [m for _, m in CASES if MARK in m]
    without_cut = [m for _, m in CASES if MARK not in m]
    assert len(with_cut) >= 20 and len(without_cut) >= 20
    assert len({name for name, _ in CASES}) == len(CASES)


def test_cjk_offsets_are_returned_even_without_whitespace_before_them() -> None:
    text = "第一句。第二句。"
    (offset,) = sentence_starts(text)
    assert text[offset - 1] == "。" and text[offset:] == "第二句。"


def test_a_range_is_read_as_if_it_were_the_whole_text() -> None:
    text = "Skip me. Dr. Who is here. It works. Tail."
    start, end = text.index("Dr."), text.index("Tail") - 1
    assert sentence_starts(text, start, end) == [text.index("It works")]


def test_the_start_of_the_range_is_never_returned() -> None:
    text = "One. Two. Three."
    assert sentence_starts(text, text.index("Two")) == [text.index("Three")]


def test_a_boundary_at_the_end_of_the_range_is_not_returned() -> None:
    text = "One. Two."
    assert sentence_starts(text, 0, text.index("Two")) == []


@pytest.mark.parametrize(("start", "end"), [(-1, None), (3, 2), (0, 99), (99, None)])
def test_a_bad_range_is_refused_with_a_message(start: int, end: int | None) -> None:
    with pytest.raises(ValueError, match="start <= end <= len"):
        sentence_starts("Short. Text.", start, end)


def test_nul_and_lone_surrogates_are_ordinary_characters() -> None:
    text = "A\x00b. \ud800Next. C\udfff. Last."
    assert sentence_starts(text) == [text.index("C\udfff"), text.index("Last")]


def test_huge_runs_of_stops_and_backticks_are_handled() -> None:
    dots = "." * 1_000_000
    assert sentence_starts(dots) == []
    ticks = "`a`` ```b " * 100_000 + "End. Done."
    assert sentence_starts(ticks) == [len(ticks) - len("Done.")]
    many = ". A" * 100_000
    assert len(sentence_starts(many)) == 100_000


def test_the_module_examples_hold() -> None:
    result = doctest.testmod(sentences)
    assert result.attempted >= 3 and result.failed == 0


# -- properties ------------------------------------------------------------------------------------

_CJK_TAIL = re.compile(r"[。！？｡][」』”’\"'）)\]】〕》〉]*\Z")

_TOKENS = [
    "The", "It", "a", "word", "Dr", "e.g", "i.e", "etc", "U.S", "J", "No", "3", "42", "3.14",
    "os.path.join", "https://x.io/a.b?c=d", "v1.2", ".", "..", "!", "?", "…", "。", "！", "？",
    "」", ")", '"', "'", "*", "_", "`", "``", "[", "![", " ", " ", "  ", "\n", "\n\n", "\t",
    "\u00a0", "\u3000", "\u2028", "\x1c", "\x85", "\x00", "\ud800", "東京", "É", "ß",
]  # fmt: skip
prose_like = st.lists(st.sampled_from(_TOKENS), max_size=80).map("".join)
any_text = st.text(
    alphabet=st.one_of(st.characters(), st.characters(categories=["Cs"])), max_size=300
)
texts = st.one_of(prose_like, any_text)


def _check_offsets(text: str, start: int, end: int, offsets: list[int]) -> None:
    assert offsets == sorted(set(offsets))
    for offset in offsets:
        assert start < offset < end
        assert not text[offset].isspace()
        before = text[offset - 1]
        assert before.isspace() or _CJK_TAIL.search(text[max(start, offset - 40) : offset])


@given(texts)
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_offsets_increase_and_each_starts_a_sentence_after_whitespace(text: str) -> None:
    _check_offsets(text, 0, len(text), sentence_starts(text))


@given(texts)
def test_the_pieces_between_offsets_rejoin_to_the_text(text: str) -> None:
    bounds = [0, *sentence_starts(text), len(text)]
    pieces = [text[a:b] for a, b in itertools.pairwise(bounds)]
    assert "".join(pieces) == text
    assert all(pieces[1:])


@given(texts, st.data())
def test_a_range_gives_the_slice_offsets_shifted(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text)), label="start")
    end = data.draw(st.integers(start, len(text)), label="end")
    offsets = sentence_starts(text, start, end)
    _check_offsets(text, start, end, offsets)
    assert offsets == [start + o for o in sentence_starts(text[start:end])]


def _reference_code_spans(text: str) -> list[tuple[int, int]]:
    """CommonMark code spans, the slow obvious way: per paragraph, each backtick run is closed by
    the next run of the same length, if any."""
    spans = []
    for paragraph in re.finditer(r"(?:[^\n]|\n(?![^\S\n]*\n))+", text):
        runs = [m.span() for m in re.finditer("`+", paragraph.group())]
        index = 0
        while index < len(runs):
            length = runs[index][1] - runs[index][0]
            closer = next(
                (j for j in range(index + 1, len(runs)) if runs[j][1] - runs[j][0] == length), None
            )
            if closer is None:
                index += 1
                continue
            base = paragraph.start()
            spans.append((base + runs[index][0], base + runs[closer][1]))
            index = closer + 1
    return spans


@given(prose_like)
@settings(max_examples=300)
def test_no_offset_falls_inside_a_code_span(text: str) -> None:
    spans = _reference_code_spans(text)
    for offset in sentence_starts(text):
        assert not any(begin < offset < finish for begin, finish in spans)
