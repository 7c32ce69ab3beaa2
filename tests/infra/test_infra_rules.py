"""The rules of infra_rules.py hold for the templates, and each one fails on its planted fixture.

The fixtures under ``fixtures/`` are small templates (and a host.json, a scaling doc) broken in
exactly one way each; every rule must report them, or its pass on the real files proves nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from infra_bicep import BicepFile
from infra_paths import MAIN, ROOT, bicep_files, load, module
from infra_rules import (
    closed_enum_problems,
    flex_deprecation_problems,
    soft_delete_rule,
    throttle_problems,
)

from skills.search.settings import SearchSettings
from skills.search.templates import render

FIXTURES = Path(__file__).parent / "fixtures"
HOST = ROOT / "host.json"
SCALING = ROOT / "docs" / "scaling.md"


def fixture(name: str) -> BicepFile:
    doc = BicepFile.load(FIXTURES / name)
    assert doc.problems() == [], f"{name} must parse: the check, not the grammar, must catch it"
    return doc


def data_source() -> dict[str, object]:
    return render("embedded", SearchSettings()).data_source


def default_schedule() -> str:
    return SearchSettings().indexer_schedule


def concurrency_default() -> int:
    value = load(MAIN).params["httpPerInstanceConcurrency"].default
    assert isinstance(value, int)
    return value


@pytest.mark.parametrize("path", bicep_files(), ids=lambda p: p.name)
def test_literal_values_are_ones_the_generated_types_accept(path: Path) -> None:
    assert closed_enum_problems(load(path)) == []


def test_the_enum_check_rejects_the_older_specs_casing() -> None:
    (problem,) = closed_enum_problems(fixture("search-lowercase-hosting-mode.bicep"))
    assert "hostingMode = 'default'" in problem


def test_the_enum_check_asks_for_a_table_for_a_new_api_version() -> None:
    (problem,) = closed_enum_problems(fixture("search-unknown-api.bicep"))
    assert "2031-01-01 has no closed-enum table" in problem


@pytest.mark.parametrize("path", bicep_files(), ids=lambda p: p.name)
def test_no_flex_site_uses_a_deprecated_setting_or_property(path: Path) -> None:
    assert flex_deprecation_problems(load(path)) == []


def test_the_flex_check_sees_ftps_and_a_legacy_app_setting() -> None:
    problems = flex_deprecation_problems(fixture("flex-site-with-ftps.bicep"))
    assert len(problems) == 2
    assert any("ftpsState" in p for p in problems)
    assert any("FUNCTIONS_WORKER_RUNTIME" in p for p in problems)


def test_the_function_app_is_a_flex_site_the_check_reads() -> None:
    """Guards against a vacuous pass: the real site must be one the check inspects."""
    sites = module("function-app").resources_of_type("Microsoft.Web/sites")
    assert "functionAppConfig" in sites[0].body["properties"]


def test_deletion_detection_has_soft_delete_on_the_documents_account() -> None:
    problems = soft_delete_rule(load(MAIN), module("storage"), data_source(), default_schedule())
    assert problems == []


def test_the_soft_delete_check_sees_it_off_on_the_documents_account() -> None:
    main = fixture("main-documents-soft-delete-off.bicep")
    (problem,) = soft_delete_rule(main, module("storage"), data_source(), default_schedule())
    assert "soft delete is off" in problem


def test_the_soft_delete_check_sees_versioning_on() -> None:
    storage = fixture("storage-versioning-on.bicep")
    (problem,) = soft_delete_rule(load(MAIN), storage, data_source(), default_schedule())
    assert "versioning is on" in problem


def test_the_soft_delete_check_sees_a_retention_too_short_for_the_schedule() -> None:
    """A daily schedule needs a week of intervals: the 14-day default is enough, P3D is not."""
    assert soft_delete_rule(load(MAIN), module("storage"), data_source(), "P1D") == []
    (problem,) = soft_delete_rule(load(MAIN), module("storage"), data_source(), "P3D")
    assert "keeps deleted files 14 days" in problem


def test_host_throttles_flex_concurrency_and_the_scaling_doc_agree() -> None:
    host = json.loads(HOST.read_text(encoding="utf-8"))
    scaling = SCALING.read_text(encoding="utf-8")
    assert throttle_problems(host, concurrency_default(), scaling) == []


def test_the_throttle_check_sees_dynamic_throttles_on() -> None:
    host = json.loads((FIXTURES / "host-dynamic-throttles.json").read_text(encoding="utf-8"))
    scaling = SCALING.read_text(encoding="utf-8")
    problems = throttle_problems(host, concurrency_default(), scaling)
    assert any("dynamicThrottlesEnabled answers 429" in p for p in problems)


def test_the_throttle_check_sees_a_host_cap_below_the_flex_concurrency() -> None:
    host = json.loads(HOST.read_text(encoding="utf-8"))
    scaling = SCALING.read_text(encoding="utf-8")
    problems = throttle_problems(host, 16, scaling)
    assert any("below perInstanceConcurrency 16" in p for p in problems)


def test_the_throttle_check_sees_a_scaling_doc_that_says_otherwise() -> None:
    host = json.loads(HOST.read_text(encoding="utf-8"))
    scaling = (FIXTURES / "scaling-says-four.md").read_text(encoding="utf-8")
    (problem,) = throttle_problems(host, concurrency_default(), scaling)
    assert "docs/scaling.md says (4, 10, False)" in problem
