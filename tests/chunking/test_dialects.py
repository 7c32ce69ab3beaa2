"""Documentation as real sites write it (issue 18): each rule on a small document of its dialect.

DocFX (Microsoft Learn), Hugo and mkdocs-material pages, files with Windows line endings; the
real documents these rules were built from are listed in ``docs/chunking.md``.
"""

from __future__ import annotations

import itertools
import re

import pytest

from skills.chunking import ChunkOptions, chunk_document, count_tokens
from skills.chunking.markup.markdown import parse_markdown
from skills.chunking.newlines import line_view
from skills.chunking.outline import NO_SECTION
from skills.chunking.prefix import reopen_within

SMALL = ChunkOptions(parent_max_tokens=256, child_max_tokens=48, child_overlap_tokens=0)

DOCFX = """\
---
title: Enable semantic ranker
description: Turn semantic ranking on or off for a search service.
ms.author: someone
ms.service: azure-ai-search
ms.topic: how-to
ms.date: 05/01/2025
---

# Enable semantic ranker

Semantic ranker is a premium feature. You can turn it on or off at any time.

## Enable semantic ranker

# [Azure portal](#tab/portal)

Open the service in the portal and select **Semantic ranker** under **Settings**.

# [REST](#tab/rest)

Send a PATCH request that sets `semanticSearch` to `standard` on the service.

---

## Disable semantic ranker

To turn it off, set `semanticSearch` to `disabled`.
"""

TABLE = """\
# Limits

| Tier | Indexes | Partitions |
|------|---------|------------|
| Free | 3 | 1 |
| Basic | 15 | 1 |
| Standard | 50 | 12 |
| Storage optimized | 10 | 12 |
| Standard 2 | 200 | 12 |
| Standard 3 | 200 | 12 |
"""


def paths(source: str, options: ChunkOptions = SMALL) -> list[tuple[str, ...]]:
    return [leaf.headings for leaf in chunk_document(source, options=options).leaves]


def test_a_docfx_tab_is_a_labelled_variant_inside_its_section() -> None:
    found = paths(DOCFX, ChunkOptions(child_max_tokens=36, child_overlap_tokens=0))
    assert ("Enable semantic ranker", "Enable semantic ranker", "Azure portal") in found
    assert ("Enable semantic ranker", "Enable semantic ranker", "REST") in found
    # the section after the tab group is not under its last tab
    assert found[-1] == ("Enable semantic ranker", "Disable semantic ranker")


def test_a_zone_pivot_is_a_labelled_variant_and_its_markers_are_never_alone() -> None:
    source = (
        '# Install\n\n::: zone pivot="apt"\n\n## Prerequisites\n\nRun `apt-get update` first.\n\n'
        '::: zone-end\n\n::: zone pivot="dnf"\n\n## Install\n\nRun `dnf install azure-cli`.\n\n'
        "::: zone-end\n\n## Verify\n\nRun `az version`.\n"
    )
    outline = parse_markdown(source)
    titles = [(s.title, s.depth) for s in outline.sections]
    assert titles == [
        ("Install", 1),
        ("apt", 2),
        ("Prerequisites", 2),
        ("dnf", 2),
        ("Install", 2),
        ("Verify", 2),
    ]
    parents = [
        outline.sections[s.parent].title if s.parent != NO_SECTION else "" for s in outline.sections
    ]
    assert parents == ["", "Install", "apt", "Install", "dnf", "Install"]
    tight = ChunkOptions(child_max_tokens=16, child_overlap_tokens=0)
    leaves = chunk_document(source, options=tight).leaves
    assert all(leaf.text.strip() not in ("::: zone-end", '::: zone pivot="dnf"') for leaf in leaves)
    assert any(leaf.headings == ("Install", "dnf", "Install") for leaf in leaves)


def test_front_matter_metadata_is_not_embedded() -> None:
    leaves = chunk_document(DOCFX, options=SMALL).leaves
    assert not any("ms.author" in leaf.embed_text for leaf in leaves)
    assert not any("ms.date" in leaf.embed_text for leaf in leaves)
    assert leaves[0].text.startswith("# Enable semantic ranker")
    assert "Turn semantic ranking on or off" in leaves[0].embed_text


def test_hugo_front_matter_with_blank_lines_is_front_matter() -> None:
    source = (
        "---\ntitle: Image processing\nlayout: single\n\nmenu:\n  docs:\n    parent: content\n"
        "weight: 20\n---\n\n## Resize\n\nUse the `Resize` method to scale an image.\n"
    )
    leaves = chunk_document(source, options=SMALL).leaves
    assert [leaf.text for leaf in leaves] == [source[source.index("## Resize") :]]
    assert leaves[0].headings == ("Image processing", "Resize")


@pytest.mark.parametrize("ending", ["\r\n", "\r"], ids=["CRLF", "lone CR"])
def test_windows_and_old_mac_line_endings_read_as_newlines(ending: str) -> None:
    small = ChunkOptions(child_max_tokens=32, child_overlap_tokens=0)
    for source in (DOCFX, TABLE):
        other = source.replace("\n", ending)
        lf, view = parse_markdown(source), parse_markdown(line_view(other))
        extra = len(ending) - 1  # characters each line ending adds before a position
        moved = [p + extra * source.count("\n", 0, p) for p in lf.positions]
        assert list(view.positions) == moved
        assert [(s.title, s.depth) for s in view.sections] == [
            (s.title, s.depth) for s in lf.sections
        ]
        result = chunk_document(other, options=small)
        for leaf in result.leaves:
            assert other[leaf.start : leaf.end] == leaf.text
            if "| Basic" in leaf.text or "| Standard" in leaf.text:
                assert "| Tier | Indexes | Partitions |" in leaf.embed_text
        assert not any("ms.author" in leaf.text for leaf in result.leaves)


HUGO = """\
## Tabs

{{< tabs >}}
{{< tab "Linux" >}}

Install Hugo with your package manager, then check that `hugo version` prints the release you
expect before you build the site for the first time.

{{< /tab >}}
{{< /tabs >}}

## Links

See the [releases] page.

[releases]: https://github.com/gohugoio/hugo/releases
[1.0.0]: https://github.com/gohugoio/hugo/releases/tag/v1.0.0
"""


def test_lines_with_nothing_to_read_are_never_a_child_alone() -> None:
    mkdocs = (
        "## Configure\n\nSet the palette in the configuration file before you build the site.\n\n"
        '=== "mkdocs.yml"\n\n    ```yaml\n'
        + "".join(f"    theme.palette.option{n}: value{n}\n" for n in range(12))
        + "    ```\n\n<!-- md:version 9.2.0 -->\n\nMore text follows the macro here.\n"
    )
    for source in (HUGO, mkdocs):
        for budget in (64, 128):
            options = ChunkOptions(child_max_tokens=budget, child_overlap_tokens=budget // 4)
            for leaf in chunk_document(source, options=options).leaves:
                lines = [line.strip() for line in leaf.text.splitlines() if line.strip()]
                assert not all(
                    line.startswith(("{{<", "[releases]:", "[1.0.0]:", '=== "', "<!-- md:", "#"))
                    for line in lines
                ), leaf.text


def test_an_overlap_never_re_covers_most_of_the_child_before_it() -> None:
    source = "# Runbook\n\n" + "".join(
        f"Dr. Okafor's review {n} found that the queue drained within the hour. " for n in range(40)
    )
    leaves = chunk_document(source).leaves
    assert len(leaves) > 3
    for previous, leaf in itertools.pairwise(leaves):
        shared = max(0, previous.end - leaf.start)
        assert shared <= 0.8 * (previous.end - previous.start)
        assert shared <= 0.8 * (leaf.end - leaf.start)
        assert not leaf.text.startswith("Okafor")


def test_a_thematic_break_after_a_lazy_list_continuation_is_not_a_setext_underline() -> None:
    source = "# Guide\n\n- Install the tool.\n\n    Then run it once to create its\n"
    source += "configuration file.\n---\n\nNext part.\n"
    assert [s.title for s in parse_markdown(source).sections] == ["Guide"]


def test_a_too_wide_table_header_keeps_a_delimiter_row_beside_its_names() -> None:
    header = "| " + " | ".join(f"{name:<40}" for name in ("Feature", "Chardet", "cChardet")) + " |"
    delimiter = "|" + "|".join("-" * 42 for _ in range(3)) + "|"
    reopen = f"{header}\n{delimiter}\n"
    names = "| Feature | Chardet | cChardet |\n"
    limit = count_tokens(names + "|---|---|---|\n")
    assert count_tokens(reopen) > limit
    assert reopen_within(reopen, limit) == names + "|---|---|---|\n"
    assert reopen_within(reopen, limit - 1) == names


def test_a_license_is_plain_text_and_its_numbered_titles_are_sections() -> None:
    source = "GNU GENERAL PUBLIC LICENSE\n\n" + "".join(
        f"  {n}. {title}.\n\n  "
        + f"The {title.lower()} apply to every covered work. " * 16
        + "\n\n"
        for n, title in enumerate(["Definitions", "Source Code", "Basic Permissions"])
    )
    result = chunk_document(source, document_key="LICENSE")
    assert result.format == "text"
    assert ("1. Source Code.",) in {leaf.headings for leaf in result.leaves}
    assert all(
        leaf.text.strip() not in ("1. Source Code.", "2. Basic Permissions.")
        for leaf in result.leaves
    )


def test_a_table_of_contents_with_dot_leaders_opens_no_section() -> None:
    source = "".join(f"{n}. Section {n} ........ {n * 4}\n\n" for n in range(1, 6)) + "Body.\n"
    assert chunk_document(source, format="text").leaves[0].headings == ()


@pytest.mark.parametrize(
    ("heading", "title"),
    [
        ('# **Setup** { id="setup" }', "Setup"),
        ("## Install { #install .tab }", "Install"),
        ("## Install {: #install }", "Install"),
        ("## **Note** about X", "Note about X"),
        ("## Do **not** run it {#dont}", "Do not run it"),
    ],
)
@pytest.mark.parametrize("strategy", ["hierarchical", "fixed"])
def test_emphasis_and_attribute_lists_stay_out_of_heading_paths(
    heading: str, title: str, strategy: str
) -> None:
    source = f"{heading}\n\nInstall it.\n"
    options = ChunkOptions(strategy=strategy)
    assert chunk_document(source, options=options).leaves[0].headings == (title,)


KEEP_A_CHANGELOG = (
    "# Changelog\n\nAll notable changes to this project are documented in this file.\n\n"
    "## [Unreleased]\n\n### Added\n\n- A `--dry-run` flag that prints the plan.\n\n"
    + "".join(
        f"## [1.{n}.0] - 2024-0{1 + n % 9}-15\n\n### Fixed\n\n"
        f"- The exporter no longer drops rows after the {n}th page of a report.\n\n"
        for n in range(12, 0, -1)
    )
    + "[Unreleased]: https://github.com/example/tool/compare/v1.12.0...HEAD\n"
    + "".join(
        f"[1.{n}.0]: https://github.com/example/tool/compare/v1.{n - 1}.0...v1.{n}.0\n"
        for n in range(12, 0, -1)
    )
    + "".join(f"[@user{n}]: https://github.com/user{n}\n" for n in range(40))
    + "\n"
)


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["LF", "CRLF"])
@pytest.mark.parametrize("strategy", ["hierarchical", "structural", "fixed", "semantic"])
@pytest.mark.parametrize("definitions", [53, 2], ids=["a long run", "a short run"])
def test_link_reference_definitions_that_end_a_changelog_are_back_matter(
    newline: str, strategy: str, definitions: int
) -> None:
    # keep-a-changelog's last lines: one definition per version; as children they sat under
    # the oldest version and matched every version's keyword queries
    lines = KEEP_A_CHANGELOG.split("\n")
    first = lines.index("[Unreleased]: https://github.com/example/tool/compare/v1.12.0...HEAD")
    source = newline.join([*lines[: first + definitions], "", ""])
    back_matter = source.index("[Unreleased]:")
    options = ChunkOptions(strategy=strategy, child_max_tokens=64, parent_max_tokens=256)
    result = chunk_document(source, document_key="CHANGELOG.md", options=options)
    chunks = [*result.parents, *result.leaves]
    assert chunks and all(chunk.end <= back_matter for chunk in chunks)
    assert all(source[c.start : c.end] == c.text for c in chunks)
    last = "- The exporter no longer drops rows after the 1th page of a report."
    assert last in result.leaves[-1].text
    assert result.leaves[-1].headings[:2] == ("Changelog", "[1.1.0] - 2024-02-15")


@pytest.mark.parametrize(
    "source",
    [
        "## 1.0\n\nSee the notes below.\n[1.0]: https://x.test/v1.0\n",
        "## 1.0\n\n```text\n\n[1.0]: https://x.test/v1.0\n",
        "## 1.0\n\nFixed it.[^1]\n\n[^1]: In the exporter.\n",
        "[1.0]: https://x.test/v1.0\n[2.0]: https://x.test/v2.0\n",
    ],
    ids=["under a paragraph line", "in an unclosed fence", "a footnote", "nothing else"],
)
def test_definitions_that_are_text_are_chunked(source: str) -> None:
    result = chunk_document(source, options=ChunkOptions(strategy="structural"))
    assert result.leaves[-1].end >= len(source.rstrip())


README_LOGO = """\
<p align="center">
  <a href="https://example.org/tool/">
    <img src="https://example.org/assets/logo.svg" width="320"
      alt="Tool">
  </a>
</p>

Tool turns a folder of Markdown files into a searchable static site in a few seconds, with
themes, plugins and a live preview server, so that writers see each page as readers will.

## Icons

Search the bundled icons by name and click on a result to copy its shortcode to the clipboard
of your machine, then paste it into any page where an icon should appear.

<div class="icon-search" data-component="search">
  <input class="input" placeholder="Search icon" value="material" />
  <div class="result">
    <ol class="result-list"></ol>
  </div>
</div>

The search covers every icon set that ships with the theme, and the results are shown in the
order of how well their names match the words you typed into the field.
"""


def test_a_multi_line_html_block_with_nothing_to_read_is_never_a_child_alone() -> None:
    # a README's logo block, mkdocs-material's icon search markup: tags over several lines
    for budget in (96, 128):
        options = ChunkOptions(child_max_tokens=budget)
        for leaf in chunk_document(README_LOGO, options=options).leaves:
            words = re.sub(r"<[^>]*>", " ", leaf.text)
            assert re.search(r"\w{3,}", words), (budget, leaf.text)


def test_a_multi_line_html_block_with_text_is_read() -> None:
    source = '<p align="center">\n  <strong>A powerful\n  framework</strong>\n</p>\n\nText.\n'
    # only its first line is bare, as a line of tags alone always was
    assert parse_markdown(source).bare_lines == {0: source.index("\n")}


def _lead_in_words(leaf_text: str) -> list[str]:
    """The words a leaf holds after its heading lines (``#`` lines and the blank lines after)."""
    lines = leaf_text.splitlines()
    while lines and (not lines[0].strip() or lines[0].startswith("#")):
        lines.pop(0)
    return " ".join(lines).split()


TROUBLESHOOTING = """\
# Install the tool on Linux

## Troubleshooting

### Elementary OS (EOS) fails to install the command line tool

EOS fails to install the command line tool because `lsb_release` returns `HERA`, which is
the EOS release name. The solution is to fix the file `/etc/apt/sources.list.d/tool.sources`
and change `Suites: hera` to `Suites: bionic`.
"""


def test_a_heading_is_never_given_one_word_of_a_sentence_for_company() -> None:
    # a heading that fills most of a tight child, then a long sentence: the heading's child
    # ended after "EOS" or "EOS fails to", and at 32 tokens "EOS" was a child alone
    for budget in (32, 40, 48):
        leaves = chunk_document(TROUBLESHOOTING, options=ChunkOptions(child_max_tokens=budget))
        for leaf in leaves.leaves:
            if leaf.text.startswith("#"):
                words = _lead_in_words(leaf.text)
                assert words == [] or len(words) >= 4, (budget, leaf.text)
            assert len(leaf.text.split()) > 1, (budget, leaf.text)
        assert any(leaf.text.startswith("EOS fails") for leaf in leaves.leaves), budget


GITHUB = "https://github.com/example/example"


def _entry(pull: int, commit: str, author: str, change: str) -> str:
    """A changesets entry: the pull request, the commit and the author as links, then the change."""
    return (
        f"- [#{pull}]({GITHUB}/pull/{pull}) [`{commit[:7]}`]({GITHUB}/commit/{commit}) "
        f"Thanks [@{author}](https://github.com/{author})! - {change}\n"
    )


CHANGELOG = (
    "# @example/cli\n\n## 3.0.1\n\n### Patch Changes\n\n"
    + _entry(
        2239,
        "fdfdc93efeff2034a6211db13a69b3487d00a3dd",
        "someone",
        "Update the links in the generated `README.md` file of a new project.",
    )
    + "\n## 3.0.0\n\n### Major Changes\n\n"
    + _entry(
        2128,
        "7113c014330b3f972e54ece8e67731613193958f",
        "other",
        "Renamed the `tag` command to `git-tag`.",
    )
)


def test_a_link_counts_for_its_text_when_a_heading_looks_for_company() -> None:
    # changesets' entries: a version heading, then an item that opens with three links. The
    # heading's child used to hold the first link alone, one URL and no words, the change
    # itself in the next child (no overlap: an overlap packs each leaf to less, and this 90-token
    # item would not fit 96 less one)
    for budget in (96, 112):
        options = ChunkOptions(child_max_tokens=budget, child_overlap_tokens=0)
        leaves = chunk_document(CHANGELOG, options=options).leaves
        assert any("- [#2239]" in leaf.text and "README" in leaf.text for leaf in leaves)
        for leaf in leaves:
            assert leaf.tokens <= budget
            if leaf.text.lstrip().startswith("#"):
                rest = " ".join(_lead_in_words(leaf.text))
                readable = re.sub(r"\]\([^)]*\)", "]", rest)
                assert not rest or len(re.findall(r"\w{3,}", readable)) >= 4, (budget, leaf.text)


def test_numbered_titles_open_sections_in_a_markdown_read_license() -> None:
    # MPL 2.0 is Markdown for its setext titles; its "3.1. Distribution of Source Form" lines
    # were one-line paragraphs, children alone under "3. Responsibilities"
    body = "You must inform recipients of the terms that govern the software. " * 12
    sections = "".join(
        f"{n}.{m}. {title}\n\n{body}\n\n"
        for n, m, title in ((3, 1, "Distribution of Source Form"), (3, 2, "Notices"))
    )
    source = (
        "Mozilla Public License Version 2.0\n==================================\n\n"
        "3. Responsibilities\n-------------------\n\n" + sections + "4. Termination\n"
        "--------------\n\n4.1. Automatic Termination\n\n" + body + "\n"
    )
    # (the real file is Markdown by its boxed disclaimer's "*  6. Disclaimer" lines)
    result = chunk_document(source, document_key="LICENSE", format="markdown")
    paths = {leaf.headings for leaf in result.leaves}
    top = "Mozilla Public License Version 2.0"
    assert (top, "3. Responsibilities", "3.2. Notices") in paths
    assert (top, "4. Termination", "4.1. Automatic Termination") in paths
    assert all(leaf.text.strip() != "3.2. Notices" for leaf in result.leaves)


def test_a_numbered_line_in_markdown_is_a_title_only_with_two_others() -> None:
    source = "# Notes\n\n1.2 Changed the parser\n\nThe parser reads tables now.\n"
    assert [s.title for s in parse_markdown(source).sections] == ["Notes"]


def test_front_matter_that_opens_with_a_yaml_comment_is_front_matter() -> None:
    # Hugo's shared snippets: "---\n# Do not remove front matter.\n---" and then the text
    source = "---\n# Do not remove front matter.\n---\n\n## Methods\n\nUse these methods.\n"
    leaves = chunk_document(source).leaves
    assert [leaf.text for leaf in leaves] == [source[source.index("## Methods") :]]
    assert leaves[0].headings == ("Methods",)


class EveryBlock:
    """A boundary model that sees a topic shift at every block, and keeps what it was shown."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def topic_shifts(self, text: str, candidates: list[int]) -> list[int]:
        self.seen.append(text)
        return candidates


def test_semantic_boundaries_are_never_sought_in_the_back_matter() -> None:
    model = EveryBlock()
    options = ChunkOptions(strategy="semantic", child_max_tokens=64, parent_max_tokens=256)
    result = chunk_document(KEEP_A_CHANGELOG, options=options, boundary_model=model)
    back_matter = KEEP_A_CHANGELOG.index("[Unreleased]:")
    assert model.seen == [KEEP_A_CHANGELOG[:back_matter]]
    assert all(chunk.end <= back_matter for chunk in (*result.parents, *result.leaves))
