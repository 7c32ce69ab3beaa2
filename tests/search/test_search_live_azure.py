"""Deploy, index, query and check on a real Azure deployment. Skipped unless Azure is configured.

Needs the variables listed in ``skills.search.settings.REQUIRED_FOR_AZURE`` (the search service,
the embedding deployment, the deployed skill's URL with ``SKILL_FUNCTION_KEY`` or
``SKILL_AUTH_RESOURCE_ID``, the storage account's resource id and container) and a signed-in
identity (``az login``) with Search Service Contributor and Search Index Data Reader. With
``AZURE_STORAGE_ACCOUNT_URL`` set (and Storage Blob Data Contributor), the samples are uploaded
first; otherwise the container must already hold them.
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest
from search_fixtures import MODES, SAMPLES

from skills.search.settings import Mode, SearchSettings, missing_azure_settings

MISSING = missing_azure_settings()
pytestmark = [
    pytest.mark.azure,
    pytest.mark.skipif(
        bool(MISSING), reason="live Azure test: set " + ", ".join(MISSING) + " to run it"
    ),
]
INDEXER_WAIT_SECONDS = 900


def _upload_samples(settings: SearchSettings) -> None:
    account_url = os.environ.get("AZURE_STORAGE_ACCOUNT_URL")
    if not account_url:
        return
    from azure.storage.blob import BlobServiceClient

    from skills.search.azure import credential
    from skills.search.local_run import upload

    service = BlobServiceClient(account_url, credential=credential())
    container = service.get_container_client(settings.container)
    if not container.exists():
        container.create_container()
    upload(container, SAMPLES, settings.container_folder or "")


def _wait_for_indexer(client: Any, name: str) -> Any:
    deadline = time.monotonic() + INDEXER_WAIT_SECONDS
    while time.monotonic() < deadline:
        status = client.get_indexer_status(name)
        last = status.last_result
        if last is not None and last.status not in ("inProgress", "reset"):
            return last
        time.sleep(10)
    pytest.fail(f"indexer {name} did not finish in {INDEXER_WAIT_SECONDS} s")


@pytest.mark.parametrize("mode", MODES)
def test_deploy_index_and_query_on_azure(mode: Mode) -> None:
    from skills.search.azure import AzureSearcher, credential
    from skills.search.deploy import Service, deploy
    from skills.search.query import QueryOptions, query_parents
    from skills.search.templates import render

    settings = SearchSettings.from_env()
    definitions = render(mode, settings)
    service = Service(str(settings.search_endpoint), credential())
    deploy(service, definitions)
    assert {c.action for c in deploy(service, definitions)} == {"unchanged"}

    _upload_samples(settings)
    names = settings.names(mode)
    service.indexers.reset_indexer(names["indexerName"])
    service.indexers.run_indexer(names["indexerName"])
    last = _wait_for_indexer(service.indexers, names["indexerName"])
    assert last.status == "success", [error.error_message for error in last.errors or []]

    searcher = AzureSearcher(str(settings.search_endpoint), credential())
    results = query_parents(
        searcher, "How do I authenticate to the Widget API?",
        children_index=names["childrenIndexName"], parents_index=names["parentsIndexName"],
        options=QueryOptions(mode=mode, parents=3),
    )  # fmt: skip
    assert results
    assert len({r.parent_chunk_id for r in results}) == len(results)
    assert all(r.parent is not None and r.passage for r in results)
    assert results[0].citations[0].title == "widget-api-guide.md"


@pytest.mark.parametrize("mode", MODES)
def test_the_doctor_finds_no_problem_on_azure(
    mode: Mode, capsys: pytest.CaptureFixture[str]
) -> None:
    """``check`` on the deployment the test above made: every part that has settings passes.

    Which parts ran and which were skipped (and why) is in the printed report.
    """
    from skills.search.cli import main

    status = main(["check", "--mode", mode])
    report = capsys.readouterr().out
    print(report)
    assert status == 0, report
