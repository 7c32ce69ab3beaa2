"""``python -m skills.search deploy|check|upload|query|simulate``: the search side, by command.

- ``deploy --mode M [--dry-run] [--diff] [--reset] [--resend-secrets]``: render
  ``index_definitions/`` from the environment (see :mod:`skills.search.settings`), show the diff
  against the service, create or update in dependency order. ``--dry-run`` prints the rendered
  JSON (one array, in that order) and contacts nothing; ``--diff`` shows the diff and changes
  nothing; ``--reset`` resets and runs the indexer when the change needs it (it says so either
  way); ``--resend-secrets`` also sends objects whose secrets the service hides (a rotated key).
  Refused, before anything is sent, when the skill would have no auth.
- ``check --mode M``: the read-only doctor (:mod:`skills.search.doctor`); exit 1 on a problem,
  2 when nothing could be checked.
- ``notes --mode M [--fill [--run]]``: the documents whose children lack a contextual note;
  ``--fill`` has the next indexer run ask for them again (:mod:`skills.search.notes`).
- ``upload [FILES...] --mode M [--run]``: put files (default ``samples/``) into the documents
  container, only those that differ (:mod:`skills.search.upload`); ``--run`` then starts the
  indexer if anything was uploaded.
- ``query "question" --mode M``: the parent-child query against the deployed indexes.
- ``simulate --mode M [--query Q ...]``: the local end-to-end run (Azurite + the skill dev server
  + the local embedder), then the queries through the same collapse code.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from itertools import pairwise
from pathlib import Path
from typing import Any

from skills.chunking import sentence_starts
from skills.formats.registry import document_suffixes
from skills.ranking import VECTOR_WEIGHT, vector_weight, words
from skills.search.collapse import ChildHit, Expand, ParentResult
from skills.search.deploy import DeployError
from skills.search.doctor import FORBIDDEN_TRIES
from skills.search.query import FETCHED_CHILDREN, QueryOptions, QueryTimeout, query_parents
from skills.search.settings import (
    MODES,
    Mode,
    SearchSettings,
    SettingsError,
    indexed_formats,
    missing_azure_settings,
    stand_ins,
)
from skills.search.templates import render
from skills.terminal import preview

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_FILES = ("samples",)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return int(args.run(args))
    except (SettingsError, DeployError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except QueryTimeout as error:
        print(f"error: {error}", *_error_notes(error), sep="\n", file=sys.stderr)
        return 1
    except Exception as error:  # the Azure SDKs' own: a service refused or not reached
        if not _from_azure(error):
            raise
        first = str(error).strip().splitlines()[0][:300] if str(error).strip() else ""
        print(
            f"error: {type(error).__name__}: {first}",
            *_error_notes(error),
            sep="\n",
            file=sys.stderr,
        )
        return 1


def _error_notes(error: BaseException) -> list[str]:
    """The notes added to ``error`` on its way (which request of a query raised it)."""
    return [f"  ({note})" for note in getattr(error, "__notes__", ())]


def _from_azure(error: Exception) -> bool:
    """Whether ``error`` is an Azure SDK's (``azure.core.exceptions.AzureError``: a service
    that refused the call, could not be reached, or a credential that found no identity)."""
    try:
        from azure.core.exceptions import AzureError
    except ImportError:  # the SDKs are not installed: nothing of theirs was raised
        return False
    return isinstance(error, AzureError)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m skills.search",
        description="deploy, query, or simulate the Azure AI Search side of the skill",
    )
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    deploy = commands.add_parser("deploy", help="create or update the definitions on the service")
    _mode(deploy)
    deploy.add_argument("--dry-run", action="store_true", help="print the rendered JSON only")
    deploy.add_argument("--diff", action="store_true", help="show the diff, change nothing")
    deploy.add_argument(
        "--reset", action="store_true", help="reset and run the indexer when a change needs it"
    )
    deploy.add_argument(
        "--resend-secrets", action="store_true",
        help="also send objects whose secrets the service hides (after rotating the key)",
    )  # fmt: skip
    deploy.set_defaults(run=_deploy)

    check = commands.add_parser("check", help="read-only doctor of the live deployment")
    _mode(check)
    check.add_argument(
        "--forbidden-tries", type=int, default=FORBIDDEN_TRIES,
        help="calls refused with 403 are tried this many times, waits doubling from 10 s, while "
        "new role assignments apply (1: no retry)",
    )  # fmt: skip
    check.set_defaults(run=_check)

    notes = commands.add_parser(
        "notes", help="list (or --fill) the documents whose children lack a contextual note"
    )
    _mode(notes)
    notes.add_argument(
        "--fill", action="store_true",
        help="touch those blobs so that the next indexer run asks for the missing notes again "
        "(the written ones come from the note cache)",
    )  # fmt: skip
    notes.add_argument("--run", action="store_true", help="with --fill: run the indexer now")
    notes.set_defaults(run=_notes)

    upload = commands.add_parser("upload", help="put files into the documents container")
    upload.add_argument("files", nargs="*", default=list(DEFAULT_FILES),
                        help="files or folders (default: samples/)")  # fmt: skip
    _mode(upload)
    upload.add_argument("--run", action="store_true", help="run the indexer after an upload")
    upload.set_defaults(run=_upload)

    query = commands.add_parser("query", help="ask the deployed indexes a question")
    query.add_argument("question")
    _mode(query)
    _query_options(query)
    query.set_defaults(run=_query)

    simulate = commands.add_parser("simulate", help="local end-to-end run (a simulation)")
    _mode(simulate)
    simulate.add_argument("--files", nargs="+", default=list(DEFAULT_FILES),
                          help="files or folders to upload (default: samples/)")  # fmt: skip
    simulate.add_argument("--skill-url", help="a running skill (default: start the dev server)")
    simulate.add_argument("--container", default="simulation")
    simulate.add_argument("--query", action="append", default=[], help="a question (repeatable)")
    _query_options(simulate)
    simulate.set_defaults(run=_simulate)
    return parser


def _mode(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mode", choices=MODES, default="embedded")


def _query_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--top", type=int, default=5, help="distinct parents to return")
    parser.add_argument(
        "--children", type=int, default=FETCHED_CHILDREN, help="children to over-fetch"
    )
    expand_choices = [e.value for e in Expand]
    parser.add_argument("--expand", choices=expand_choices, default=Expand.TOP_PARENT.value)
    parser.add_argument("--semantic", action="store_true", help="use the semantic ranker")
    parser.add_argument(
        "--vector-weight",
        type=vector_weight,
        default=VECTOR_WEIGHT,
        help="the vector query's weight in the hybrid fusion (REST vectorQueries[].weight, above "
        f"0; default {VECTOR_WEIGHT:g}; the service's is 1; below 1 the keywords lead: "
        "docs/evaluation.md, the vector query's weight)",
    )
    parser.add_argument(
        "--budget",
        type=int,
        help="prompt tokens to fill (whole parents while they fit, else hit children, each "
        "passage with its heading path and reopened table header or fence); --top and --expand "
        "are then not used",
    )
    parser.add_argument("--json", action="store_true", help="print results as JSON")
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="each result's parent id and offsets, and more of its passage (and, in simulate, "
        "the skill server's log)",
    )


def _options(args: argparse.Namespace) -> QueryOptions:
    return QueryOptions(
        mode=args.mode, parents=args.top, children=args.children,
        semantic=args.semantic, expand=Expand(args.expand), budget=args.budget,
        vector_weight=args.vector_weight,
        timeout=SearchSettings.from_env().query_timeout_seconds,
    )  # fmt: skip


def _deploy(args: argparse.Namespace) -> int:
    from skills.search.deploy import Service, deploy, plan, redact, reset_reasons
    from skills.search.pending import FileLedger, ledger_key

    settings = SearchSettings.from_env()
    definitions = render(args.mode, settings)
    filled = stand_ins(settings, args.mode)
    if args.dry_run:
        rendered = [
            {"kind": item.kind, "template": item.template, "body": redact(item.body)}
            for item in definitions.items
        ]
        print(json.dumps(rendered, indent=2))  # in dependency order; secrets redacted
        for variable, value in filled.items():
            print(f"note: {value} is a stand-in: set {variable} (an azd output) for a real "
                  "deployment", file=sys.stderr)  # fmt: skip
        return 0
    _require_azure(mode=args.mode)
    if filled:
        raise SettingsError(
            "these settings still hold a stand-in, and a deploy must not send one: "
            + ", ".join(f"{variable} ({value})" for variable, value in filled.items())
        )
    from skills.search.azure import credential

    service = Service(str(settings.search_endpoint), credential())
    if not args.diff:
        _print_note_estimate(settings, args.mode)
    ledger = FileLedger()
    key = ledger_key(str(settings.search_endpoint), definitions.indexer["name"])
    earlier = ledger.reasons(key)
    if args.diff:
        changes = [change for _, change in plan(service, definitions)]
    else:
        changes = deploy(
            service, definitions, reset=args.reset, resend_secrets=args.resend_secrets,
            ledger=ledger, ledger_name=key, say=print,
        )  # fmt: skip
    for change in changes:
        print(f"{change.action:>9}  {change.kind} {change.name}")
        for note in change.notes if change.action == "unchanged" else ():
            print(f"           note: {note} (--resend-secrets sends it anyway)")
        if change.diff:
            print(change.diff)
    if not args.reset or args.diff:
        reasons = reset_reasons(changes, definitions)
        _print_reset(reasons + [f"{why}, in an earlier deploy" for why in earlier], ledger.path)
    _print_tier_limits(settings.search_sku)
    return 0


def _print_note_estimate(settings: SearchSettings, mode: Mode) -> None:
    """Before anything runs: what contextual notes for the container would cost and take, when
    a chat deployment exists (``docs/deploy.md``, "Context notes: what they cost")."""
    env = os.environ
    if not env.get("AZURE_OPENAI_CHAT_DEPLOYMENT"):
        return
    from skills.search.notes import estimate_notes

    if not settings.storage_blob_endpoint:
        print("note: contextual notes are deployed, but AZURE_STORAGE_BLOB_ENDPOINT is not set: "
              "their cost for the container is not estimated")  # fmt: skip
        return
    suffixes = document_suffixes(indexed_formats(mode))
    try:
        sizes = [blob.size for blob in _storage(settings).blobs()
                 if Path(blob.name).suffix.lower() in suffixes]  # fmt: skip
    except Exception as error:  # no role on the data plane yet: say it, do not stop the deploy
        print(f"note: could not list the container to estimate contextual notes: {error}")
        return
    capacity = _positive_int(env.get("AZURE_OPENAI_CHAT_CAPACITY"), 50)
    estimate = estimate_notes(sizes, capacity)
    for line in estimate.lines():
        print(line)
    prices = _prices(env)
    if prices is not None:
        cost = estimate.cost(*prices)
        print(f"  about {cost:,.2f} USD at the prices given (no prompt cache hit)")
    else:
        print("  set CONTEXT_INPUT_PRICE_PER_MILLION and CONTEXT_OUTPUT_PRICE_PER_MILLION (USD, "
              "from the Azure OpenAI pricing page) for the cost")  # fmt: skip
    print("  notes only run for records asking contextualize=llm; skipped ones stay empty until "
          "python -m skills.search notes --fill")  # fmt: skip


def _prices(env: Mapping[str, str]) -> tuple[float, float] | None:
    """USD per million input and output tokens, when both are given as numbers."""
    try:
        return (float(env["CONTEXT_INPUT_PRICE_PER_MILLION"]),
                float(env["CONTEXT_OUTPUT_PRICE_PER_MILLION"]))  # fmt: skip
    except (KeyError, ValueError):
        return None


def _positive_int(raw: str | None, default: int) -> int:
    try:
        value = int(raw or default)
    except ValueError:
        return default
    return value if value > 0 else default


def _storage(settings: SearchSettings) -> Any:
    from azure.identity import DefaultAzureCredential

    from skills.search.azure import ARM_ENDPOINT, AzureStorage

    return AzureStorage(
        settings.storage_resource_id, str(settings.storage_blob_endpoint), settings.container,
        settings.container_folder, DefaultAzureCredential(),
        arm_endpoint=os.environ.get("AZURE_RESOURCE_MANAGER_ENDPOINT", ARM_ENDPOINT),
    )  # fmt: skip


def _print_tier_limits(sku: str) -> None:
    """What the tier silently cuts (the indexer only warns): said once per deploy."""
    from skills.search.safety import TIER_LIMITS

    limits = TIER_LIMITS.get(sku)
    if limits is not None:
        print(
            f"note: the {sku} tier extracts at most {limits.max_extracted_characters:,} "
            f"characters of a file and skips files over {limits.max_blob_bytes // (1024 * 1024)} "
            "MB; `python -m skills.search check` lists the files it would cut"
        )


def _print_reset(reasons: Sequence[str], ledger: Path) -> None:
    if reasons:
        print(
            f"reset needed ({'; '.join(reasons)}): files indexed before keep their old chunks "
            "until the indexer is reset. Run again with --reset (azd: azd env set "
            f"AZURE_SEARCH_RESET true); this is remembered in {ledger} until then."
        )


def _check(args: argparse.Namespace) -> int:
    from skills.search.doctor import (
        Inspector,
        Patience,
        PatientInspector,
        PatientStorage,
        Storage,
        diagnose,
        render_report,
        urllib_post,
    )

    settings = SearchSettings.from_env()
    definitions = render(args.mode, settings)
    env = os.environ
    patience = Patience(tries=args.forbidden_tries, say=lambda line: print(line, file=sys.stderr))
    inspector: Inspector | None = None
    storage: Storage | None = None
    if settings.search_endpoint:
        from skills.search.azure import credential
        from skills.search.deploy import Service

        inspector = PatientInspector(Service(settings.search_endpoint, credential()), patience)
    if env.get("AZURE_STORAGE_RESOURCE_ID") and settings.storage_blob_endpoint:
        storage = PatientStorage(_storage(settings), patience)
    post = urllib_post if env.get("SKILL_URI") else None
    findings = diagnose(settings, definitions, inspector=inspector, post=post, storage=storage)
    print(render_report(findings))
    skipped = [f"{f.part} ({f.message})" for f in findings if f.status == "skipped"]
    if skipped:
        print(f"not checked: {'; '.join(skipped)}", file=sys.stderr)
    if all(finding.status == "skipped" for finding in findings):
        print("error: nothing could be checked; set the variables above (azd env get-values "
              "has them after azd up)", file=sys.stderr)  # fmt: skip
        return 2
    return 1 if any(finding.status == "problem" for finding in findings) else 0


def _upload(args: argparse.Namespace) -> int:
    from azure.identity import DefaultAzureCredential
    from azure.storage.blob import ContainerClient

    from skills.search.upload import sync

    _require_azure(("AZURE_SEARCH_ENDPOINT",))
    settings = SearchSettings.from_env()
    if not settings.storage_blob_endpoint:
        raise SettingsError("set AZURE_STORAGE_BLOB_ENDPOINT (an azd output) first")
    definitions = render(args.mode, settings)
    selectors = definitions.skillset.get("indexProjections", {}).get("selectors", [])
    container = ContainerClient(
        settings.storage_blob_endpoint, settings.container, DefaultAzureCredential()
    )
    files = _expand_files(args.files, document_suffixes(indexed_formats(args.mode)))
    done = sync(container, files, settings.container_folder or "",
                [s["sourceContext"] for s in selectors])  # fmt: skip
    for upload in done:
        print(
            f"{upload.action:>9}  {upload.name}" + (f": {upload.reason}" if upload.reason else "")
        )
    if args.run and any(upload.action == "uploaded" for upload in done):
        _run_indexer(settings, definitions.indexer["name"])
    return 2 if any(upload.action == "refused" for upload in done) else 0  # 2: rename the file


def _notes(args: argparse.Namespace) -> int:
    """The documents with a child whose note was skipped; ``--fill`` has them indexed again."""
    from azure.search.documents import SearchClient

    from skills.search.azure import credential
    from skills.search.notes import documents_missing_notes

    _require_azure(("AZURE_SEARCH_ENDPOINT",))
    settings = SearchSettings.from_env()
    index = settings.names(args.mode)["childrenIndexName"]
    client = SearchClient(str(settings.search_endpoint), index, credential())
    children = client.search(search_text="*", select=["sourcePath", "context"])  # every page
    missing = documents_missing_notes(children)
    print(f"{len(missing)} document(s) with children lacking a contextual note in {index}")
    for url in missing:
        print(f"  {url}")
    if not args.fill or not missing:
        return 0
    if not settings.storage_blob_endpoint:
        raise SettingsError("set AZURE_STORAGE_BLOB_ENDPOINT (an azd output) to --fill")
    from azure.identity import DefaultAzureCredential
    from azure.storage.blob import ContainerClient

    container = ContainerClient(
        str(settings.storage_blob_endpoint), settings.container, DefaultAzureCredential()
    )
    touched = touch(container, missing)
    print(f"touched {touched} blob(s): the next indexer run asks for their missing notes")
    if args.run and touched:
        _run_indexer(settings, render(args.mode, settings).indexer["name"])
    return 0


def touch(container: Any, urls: Sequence[str]) -> int:
    """Rewrite the metadata of each blob of ``urls`` in ``container`` (a ``ContainerClient``)
    with a new ``notesrequested`` value: its last-modified time changes, so blob change
    detection indexes it again; its content and other metadata do not."""
    from datetime import UTC, datetime

    from skills.search.notes import blob_names

    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    touched = 0
    for name in blob_names(urls, container.url):
        blob = container.get_blob_client(name)
        metadata = dict(blob.get_blob_properties().metadata or {})
        blob.set_blob_metadata({**metadata, "notesrequested": stamp})
        touched += 1
    return touched


def _run_indexer(settings: SearchSettings, name: str) -> None:
    from azure.core.exceptions import HttpResponseError

    from skills.search.azure import credential
    from skills.search.deploy import Service

    try:
        Service(str(settings.search_endpoint), credential()).run_indexer(name)
        print(f"  started  indexer {name}")
    except HttpResponseError as error:
        if error.status_code == 404:  # the deploy creates it, and a new indexer runs at once
            print(f"   absent  indexer {name}: it runs when the deploy creates it")
        elif error.status_code == 409:  # a run is in progress
            print(f"  running  indexer {name} (already; the next run sees the new files)")
        else:
            raise


def _query(args: argparse.Namespace) -> int:
    _require_azure(("AZURE_SEARCH_ENDPOINT",))
    from skills.search.azure import AzureSearcher, credential

    settings = SearchSettings.from_env()
    names = settings.names(args.mode)
    searcher = AzureSearcher(str(settings.search_endpoint), credential())
    results = query_parents(
        searcher, args.question, children_index=names["childrenIndexName"],
        parents_index=names["parentsIndexName"], options=_options(args),
    )  # fmt: skip
    _print_legend(args.json)
    _print_results(args.question, results, args.json, args.verbose)
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from skills.embeddings import LOCAL_MODEL_NAME, CachedEmbedder, LocalMiniLMEmbedder
    from skills.search.local_run import simulate, skill_server

    suffixes = document_suffixes(indexed_formats(args.mode))
    files = _expand_files(args.files, suffixes)
    if not files:
        print(
            "error: no " + "/".join(sorted(suffixes)) + " files found in " + " ".join(args.files),
            file=sys.stderr,
        )
        return 2
    embedder = CachedEmbedder(LocalMiniLMEmbedder(), model=LOCAL_MODEL_NAME)
    print("SIMULATION of the Azure AI Search indexer (no Azure involved)", file=sys.stderr)
    if args.skill_url:
        run = simulate(args.mode, files, skill_uri=args.skill_url, embedder=embedder,
                       container=args.container)  # fmt: skip
    else:
        with skill_server(log_level="info" if args.verbose else "warning") as url:
            run = simulate(args.mode, files, skill_uri=url, embedder=embedder,
                           container=args.container)  # fmt: skip
    counts = ", ".join(f"{name}: {len(docs)}" for name, docs in run.result.documents.items())
    print(f"{len(files)} files -> {counts}; failed: {len(run.result.failures)}", file=sys.stderr)
    for key, errors in run.result.failures.items():
        print(f"  failed {key}: {'; '.join(errors)}", file=sys.stderr)
    for key, notes in run.result.warnings.items():
        print(f"  warning {key}: {'; '.join(notes)}", file=sys.stderr)
    if args.query:
        _print_legend(args.json)
    for question in args.query:
        results = query_parents(
            run.searcher, question, children_index=run.children_index,
            parents_index=run.parents_index, options=_options(args),
        )  # fmt: skip
        _print_results(question, results, args.json, args.verbose)
    return 1 if run.result.failures else 0


def _expand_files(names: Sequence[str], suffixes: frozenset[str]) -> list[Path]:
    found: list[Path] = []
    for name in names:
        path = Path(name) if Path(name).is_absolute() else ROOT / name
        candidates = sorted(path.rglob("*")) if path.is_dir() else [path]
        found += [p for p in candidates if p.is_file() and p.suffix.lower() in suffixes]
    return found


def _require_azure(names: Sequence[str] | None = None, mode: Mode = "embedded") -> None:
    missing = missing_azure_settings(mode=mode)
    if names is not None:
        missing = [name for name in missing if name in names]
    if missing:
        raise SettingsError("set these environment variables first: " + ", ".join(missing))


def _print_results(
    question: str, results: Sequence[ParentResult], as_json: bool, verbose: bool = False
) -> None:
    """Each result on two lines, named by :func:`short_id`; ``verbose`` adds the parent's id
    and the first hit's offsets, with 300 characters of the passage as it is; ``as_json``
    prints everything, real ids included."""
    if as_json:
        print(json.dumps({"question": question, "results": [_jsonable(r) for r in results]}))
        return
    print(f"\n? {question}")
    for result in results:
        print("\n".join(_result_lines(result, verbose, question)))
        for other in result.repeated_in:
            place = other.title or other.source_path or other.document_key
            print(f"   (the same words: {place} [{other.start}:{other.end}])")


#: What a result's score is, said once before the results a person reads.
SCORE_LEGEND = (
    "(score: the hybrid query's Reciprocal Rank Fusion of its keyword and vector rankings, "
    "1/(60 + rank) from each; 0.0328 is first in both, higher is better; with the semantic "
    "ranker, its 0-4 relevance)"
)


def _print_legend(as_json: bool) -> None:
    if not as_json:
        print(SCORE_LEGEND)


def _result_lines(result: ParentResult, verbose: bool, question: str = "") -> list[str]:
    first = result.citations[0] if result.citations else None
    where = " > ".join(first.headings) if first else ""
    if verbose:
        span = f"{first.title} [{first.start}:{first.end}] " if first else ""
        return [
            f"{result.rank}. {short_id(result)}  score={result.score:.4f}  {span}{where}",
            f"   parent {result.parent_chunk_id}",
            "   " + result.passage[:300].replace("\n", "\n   "),
        ]
    headings, sentence = answering_sentence(question, result.children)
    where = " > ".join(headings) or where
    where = f"  {where}" if where else ""
    return [
        f"{result.rank}. {short_id(result)}{where}  (score {result.score:.4f})",
        f"   {preview(sentence or result.passage, 110)}",
    ]


def _stems(text: str) -> set[str]:
    """The words of ``text`` cut to five letters: "insures" meets "insurance" and "authenticate"
    "Authentication", which the index's analyzer (no stemming) would not match, but a reader
    would."""
    return {word[:5] for word in words(text)}


def _sentences(block: str) -> list[str]:
    """A paragraph's sentences; a table's rows (Markdown, grid or HTML: a row is a line); none
    of a heading line, which the result's label already says."""
    stripped = block.lstrip()
    if not stripped or stripped.startswith("#"):
        return []
    if stripped[0] in "|+<":  # rows; a header (the row above a rule) names, never answers
        lines = block.splitlines()
        rules = [bool(_RULE.fullmatch(line.strip())) for line in lines]
        return [
            line
            for line, rule, header in zip(lines, rules, [*rules[1:], False], strict=True)
            if not rule and not header
        ]
    return [block[a:b] for a, b in pairwise([0, *sentence_starts(block), len(block)])]


#: A table's rule line: ``|---|:--:|`` or ``+----+====+``, no words.
_RULE = re.compile(r"[|+:=\- ]*")


def answering_sentence(question: str, hits: Sequence[ChildHit]) -> tuple[tuple[str, ...], str]:
    """The sentence of the matched children that holds most of the question's rarer words (their
    first five letters, ``_stems``), with
    its child's heading path: the line a reader looks for first, rather than the start of the
    section (which may be another heading's). Words weigh by how few of the hits' sentences hold
    them, so "the" and "to" decide nothing; ``((), "")`` when no sentence shares a word.

    >>> hits = [ChildHit("c1", "p", 1.0, "Pages hold 100 items. Use the cursor.", 0, 38, 1,
    ...                  headings=("Guide", "Pagination")),
    ...         ChildHit("c2", "p", 1.0, "Send a bearer token. It lasts an hour.", 40, 78, 2,
    ...                  headings=("Guide", "Authentication"))]
    >>> answering_sentence("How long does a token last?", hits)
    (('Guide', 'Authentication'), 'Send a bearer token. ')
    """
    asked = _stems(question)
    sentences = [
        (hit.headings, sentence, _stems(sentence) & asked)
        for hit in hits
        for block in re.split(r"\n\s*\n", hit.text)
        for sentence in _sentences(block)
    ]
    holding: dict[str, int] = {}
    for _, _, shared in sentences:
        for word in shared:
            holding[word] = holding.get(word, 0) + 1
    best: tuple[tuple[str, ...], str] = ((), "")
    best_weight = 0.0
    for headings, sentence, shared in sentences:
        weight = sum(1 / holding[word] for word in shared)
        if weight > best_weight:
            best, best_weight = (headings, sentence), weight
    return best


def short_id(result: ParentResult) -> str:
    """A result as a person reads it: its document's file name and the ordinals of the
    children that matched, runs of three or more as a range: ``widget-api-guide.md#c2,c4-c6``
    (the ordinals ``python -m skills demo`` shows); the real ids are in ``--json``.

    >>> from dataclasses import replace
    >>> from skills.search.collapse import ChildHit
    >>> hit = ChildHit("id", "p", 1.0, "text", 0, 4, 2, source_path="https://a/docs/x.md")
    >>> hits = tuple(replace(hit, ordinal=n) for n in (6, 2, 4, 5))
    >>> short_id(ParentResult(1, "p", 1.0, "text", None, hits))
    'x.md#c2,c4-c6'
    """
    first = result.children[0] if result.children else result.parent
    where = (first.source_path or first.document_key or first.title or "") if first else ""
    name = where.rstrip("/").rsplit("/", 1)[-1] or result.parent_chunk_id[-8:]
    ordinals = _ranges(sorted({child.ordinal for child in result.children}))
    return f"{name}#{ordinals}" if ordinals else name


def _ranges(ordinals: Sequence[int]) -> str:
    """``[2, 4, 5, 6]`` -> ``c2,c4-c6``: consecutive ordinals, three or more, as a range."""
    runs: list[list[int]] = []
    for ordinal in ordinals:
        if runs and ordinal == runs[-1][-1] + 1:
            runs[-1].append(ordinal)
        else:
            runs.append([ordinal])
    return ",".join(
        f"c{run[0]}-c{run[-1]}" if len(run) > 2 else ",".join(f"c{n}" for n in run) for run in runs
    )


def _jsonable(result: ParentResult) -> dict[str, Any]:
    return asdict(result)
