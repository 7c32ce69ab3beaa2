"""The ``files`` and ``layout`` definitions: what the SDK models accept, and what the indexer
hands the skill."""

from __future__ import annotations

from typing import Any

import pytest
from azure.search.documents.indexes.models import (
    DocumentIntelligenceLayoutSkill,
    SearchIndexer,
    SearchIndexerSkillset,
)

from skills.search.settings import SearchSettings
from skills.search.templates import DEFINITIONS_DIR as DEFINITIONS
from skills.search.templates import render
from skills.skill.inputs import DOCUMENT_INPUTS


@pytest.mark.parametrize("mode", ["files", "layout"])
def test_the_definitions_round_trip_through_the_sdk_models(mode: Any) -> None:
    definitions = render(mode, SearchSettings(skill_function_key="k"))
    assert SearchIndexerSkillset(definitions.skillset).as_dict() == definitions.skillset
    assert SearchIndexer(definitions.indexer).as_dict() == definitions.indexer
    parameters = SearchIndexer(definitions.indexer).parameters
    assert parameters is not None and parameters.configuration is not None
    assert parameters.configuration.allow_skillset_to_read_file_data is True


@pytest.mark.parametrize("mode", ["files", "layout"])
def test_the_skill_gets_only_inputs_it_knows_one_file_per_call(mode: Any) -> None:
    skillset = render(mode, SearchSettings()).skillset
    web = next(s for s in skillset["skills"] if s["@odata.type"].endswith("WebApiSkill"))
    assert {entry["name"] for entry in web["inputs"]} <= set(DOCUMENT_INPUTS)
    assert web["batchSize"] == 1


def test_the_layout_skill_feeds_the_chunker_its_markdown_sections() -> None:
    skillset = render("layout", SearchSettings()).skillset
    layout, web = skillset["skills"][:2]
    model = DocumentIntelligenceLayoutSkill(layout)
    assert model.output_format == "markdown" and model.output_mode == "oneToMany"
    target = layout["outputs"][0]["targetName"]
    assert {"name": "markdownDocument", "source": f"/document/{target}/*"} in web["inputs"]
    assert (
        skillset["cognitiveServices"]["@odata.type"]
        == "#Microsoft.Azure.Search.AIServicesByIdentity"
    )


def test_the_layout_skill_asks_for_the_page_numbers_the_rebuild_reads() -> None:
    """``skills/formats/layout.py`` turns ``locationMetadata.pageNumber`` into page breaks (the
    children's ``pages``); the skill writes it only when ``extractionOptions`` names
    ``locationMetadata`` ("applies to both output formats", Document Layout skill reference).
    ``images`` is left out: images come out only with ``outputFormat: text``."""
    layout = render("layout", SearchSettings()).skillset["skills"][0]
    model = DocumentIntelligenceLayoutSkill(layout)
    assert model.extraction_options == ["locationMetadata"]
    rebuild = (DEFINITIONS.parent / "skills" / "formats" / "layout.py").read_text(encoding="utf-8")
    assert "locationMetadata" in rebuild and "pageNumber" in rebuild
